import type { GraphQLSchema } from '../graph/graphql.js';
import { schema as arbiterSchema } from '../graph/schema.js';
import { compileOperation } from './operation.js';
import { buildOpenApi } from './openapi.js';
import type { Route } from './route.js';
import { ROUTES } from './routes/index.js';

/** The /v1 OpenAPI document of a route table (default: the app's), as the server serves it. */
export const openApiDocument = (routes: readonly Route[] = ROUTES, schema: GraphQLSchema = arbiterSchema): Record<string, unknown> =>
  buildOpenApi(
    schema,
    routes.map((r) => compileOperation(schema, r)),
  );
