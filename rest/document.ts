import type { GraphQLSchema } from '../graph/graphql.js';
import { sortedSchema } from '../graph/schema.js';
import { compileOperation } from './operation.js';
import { buildOpenApi } from './openapi.js';
import type { Route } from './route.js';
import { ROUTES } from './routes/index.js';

/** The /v1 OpenAPI document of a route table (default: the app's) over a schema (default: the app's) in name order, as the server serves it. */
export const openApiDocument = (routes: readonly Route[] = ROUTES, schema?: GraphQLSchema): Record<string, unknown> => {
  const sorted = sortedSchema(schema);
  return buildOpenApi(
    sorted,
    routes.map((r) => compileOperation(sorted, r)),
  );
};
