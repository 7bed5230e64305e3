/**
 * The AWS Lambda entry point (API Gateway HTTP API, payload v2): GraphQL at /graphql, the REST API
 * under /v1 (and the deprecated /rest routes), over the same Yoga instance as `npm start`. The Prisma client and the lexicons
 * are built once per container — the build starts here, at cold start, outside the handler.
 */
import { createHandler } from './lambda-handler.js';
import { sharedApp } from './runtime.js';

// Start building during the init phase; a failure is retried by the first invocation.
sharedApp().catch((e: unknown) => console.error('arbiter: app build failed at cold start', e));

export const handler = createHandler(sharedApp);
