import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import { isInputObjectType, type ExecutionResult, type GraphQLSchema } from '../graph/graphql.js';
import { sortedSchema } from '../graph/schema.js';
import { compileOperation, type Operation } from './operation.js';
import { edgeProblem, problemResponse } from './problem.js';
import { replyFor } from './reply.js';
import { parameterValues, readBody, RequestProblem, takesBody, variablesOf } from './request.js';
import { compilePath, type Route } from './route.js';
import { ROUTES } from './routes/index.js';
import { RestValidationProblem, RestValidator } from './validate.js';

/**
 * The REST edge as a Yoga plugin: requests under /v1 are answered here, each by running its route's
 * GraphQL operation in-process through Yoga's own pipeline (`getResultForParams`): the same context
 * and credentials, the same auth scopes, validation, query limits, error masking and logging as a
 * request to /graphql. The OpenAPI document is served at /v1/openapi.json and /v1/openapi.yaml.
 */
export const V1_PATH = '/v1';
export const OPENAPI_JSON_PATH = `${V1_PATH}/openapi.json`;
export const OPENAPI_YAML_PATH = `${V1_PATH}/openapi.yaml`;

interface Compiled {
  readonly op: Operation;
  readonly match: (path: string) => Record<string, string> | null;
}

/** The route template each /v1 request matched (`POST /v1/games/{id}/turns`), for the request log (functions/observability). */
const matchedRoutes = new WeakMap<Request, string>();
export const restRouteOf = (request: Request): string | undefined => matchedRoutes.get(request);

type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;

/** The route table compiled against the schema, and the document; built on the first /v1 request. */
class RestTable {
  readonly compiled: readonly Compiled[];
  /** Each route's body and parameters checked against the schemas its OpenAPI operation publishes. */
  readonly validator: RestValidator;
  /** The schema's input types: no message of a REST answer names one (rest/rest-words.ts). */
  readonly inputTypeNames: ReadonlySet<string>;
  private json?: string;
  private yaml?: string;

  constructor(
    readonly schema: GraphQLSchema,
    readonly routes: readonly Route[],
  ) {
    this.compiled = routes.map((route) => ({ op: compileOperation(schema, route), match: compilePath(route.path) }));
    this.validator = new RestValidator(this.compiled.map((c) => c.op));
    this.inputTypeNames = new Set(Object.values(schema.getTypeMap()).flatMap((t) => (isInputObjectType(t) ? [t.name] : [])));
  }

  /** Built on its first request: the builder, its examples and the YAML writer stay out of the cold start. */
  async document(format: 'json' | 'yaml'): Promise<string> {
    if (this.json === undefined || this.yaml === undefined) {
      // yaml is CommonJS: its functions are on `default` both in Node and in a split Lambda bundle (where a
      // lazily imported CommonJS chunk exports nothing else).
      const [{ buildOpenApi }, { default: yaml }] = await Promise.all([import('./openapi.js'), import('yaml')]);
      const doc = buildOpenApi(
        this.schema,
        this.compiled.map((c) => c.op),
      );
      this.json = JSON.stringify(doc, null, 2);
      this.yaml = yaml.stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
    }
    return format === 'json' ? this.json : this.yaml;
  }
}

const documentResponse = async (table: RestTable, format: 'json' | 'yaml'): Promise<Response> =>
  new Response(await table.document(format), {
    headers: {
      'content-type': format === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8',
      'cache-control': 'public, max-age=300',
    },
  });

const handle = async (
  table: RestTable,
  yoga: Yoga,
  request: Request,
  url: URL,
  serverContext: Record<string, unknown>,
): Promise<Response> => {
  const path = url.pathname.slice(V1_PATH.length) || '/';
  if (request.method === 'GET' && url.pathname === OPENAPI_JSON_PATH) return documentResponse(table, 'json');
  if (request.method === 'GET' && url.pathname === OPENAPI_YAML_PATH) return documentResponse(table, 'yaml');
  const matching = table.compiled.flatMap((c) => {
    const params = c.match(path);
    return params ? [{ ...c, params }] : [];
  });
  const hit = matching.find((m) => m.op.route.method === request.method);
  if (!hit) {
    if (!matching.length) return edgeProblem('ROUTE_NOT_FOUND', `No route ${url.pathname}: see ${OPENAPI_JSON_PATH}.`, url.pathname);
    const allow = [...new Set(matching.map((m) => m.op.route.method))].join(', ');
    return edgeProblem('METHOD_NOT_ALLOWED', `${url.pathname} answers ${allow}, not ${request.method}.`, url.pathname, { allow });
  }
  matchedRoutes.set(request, `${hit.op.route.method} ${V1_PATH}${hit.op.route.path}`);
  try {
    const body = takesBody(hit.op) ? await readBody(request, hit.op) : undefined;
    const input = { request, url, params: hit.params, body };
    table.validator.check(hit.op, body, parameterValues(hit.op, input));
    const variables = variablesOf(hit.op, input);
    const result = (await yoga.getResultForParams(
      { params: { query: hit.op.document, variables, operationName: hit.op.route.operationId }, request },
      { ...serverContext },
    )) as ExecutionResult;
    return replyFor(hit.op, result, input, table.inputTypeNames);
  } catch (e) {
    if (e instanceof RequestProblem) return edgeProblem(e.code, e.message, url.pathname);
    if (e instanceof RestValidationProblem)
      return problemResponse(400, { code: 'VALIDATION', message: e.message, issues: e.issues }, url.pathname);
    // Never a stack or a message of ours to the client: logged where Yoga logs what it masks.
    yoga.logger.error(e);
    return edgeProblem('INTERNAL_SERVER_ERROR', 'Unexpected error.', url.pathname);
  }
};

/**
 * Serves /v1 from `routes` (default: the route table of rest/routes/) over a schema (default: the app's):
 * routes and document are compiled against its copy in name order (graph/schema.ts `sortedSchema`, made on
 * the first /v1 request), operations run on Yoga's own schema.
 */
export const useRest = (routes: readonly Route[] = ROUTES, schema?: GraphQLSchema): Plugin => {
  let yoga: Yoga | undefined;
  let table: RestTable | undefined;
  return {
    onYogaInit: (payload) => {
      yoga = payload.yoga as unknown as Yoga;
    },
    onRequest: ({ request, url, endResponse, serverContext }) => {
      if (url.pathname !== V1_PATH && !url.pathname.startsWith(`${V1_PATH}/`)) return;
      table ??= new RestTable(sortedSchema(schema), routes);
      return handle(table, yoga!, request, url, serverContext as Record<string, unknown>).then(endResponse);
    },
  };
};
