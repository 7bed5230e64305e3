/**
 * Writes generated/rest/v1.ts: the TypeScript types of the /v1 OpenAPI document (openapi-typescript),
 * the way an integrator generates a client. `npm run generate` runs it after Prisma's client; the
 * REST client test (test/rest/client.test.ts) is typed against it and checks it is the document the
 * server serves.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '../rest/document.js';

export const CLIENT_TYPES = join(import.meta.dirname, '..', 'generated', 'rest', 'v1.ts');

/** The client types of a document, as openapi-typescript writes them. */
export const clientTypes = async (doc: unknown): Promise<string> =>
  astToString(await openapiTS(doc as Parameters<typeof openapiTS>[0], { rootTypes: true, exportType: true }));

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  mkdirSync(dirname(CLIENT_TYPES), { recursive: true });
  writeFileSync(CLIENT_TYPES, await clientTypes(openApiDocument()));
  console.log(`generate: ${CLIENT_TYPES}`);
}
