import { useSofa } from '@graphql-yoga/plugin-sofa';
import { createYoga, maskError, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { createContext, type AppServices, type Context } from './context.js';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule, type QueryLimits } from './limits.js';
import { schema } from './schema.js';

export const GRAPHQL_PATH = '/graphql';
export const REST_PATH = '/rest';
export const OPENAPI_PATH = `${REST_PATH}/openapi.json`;
export const SWAGGER_UI_PATH = `${REST_PATH}/docs`;

export interface YogaOptions {
  /** Serve GraphiQL at GET /graphql (local server only). Default false. */
  readonly graphiql?: boolean;
  readonly limits?: QueryLimits;
  /** Where unexpected (masked) errors are reported with their stack; default `console.error`. */
  readonly logError?: (error: unknown) => void;
}

/** What an adapter may pass as the server context (the Lambda handler passes its event and context). */
export type ServerContext = Record<string, unknown>;
export type ArbiterYoga = YogaServerInstance<ServerContext, Context>;

const DEMO_QUERY = `# Arbiter: try a rule check (no sign-in needed), then login as alice / alice-demo-1.
query {
  checkPlay(input: { move: "8D QUIXOTIC", rack: "QUIXOTIC" }) {
    __typename
    ... on ScoredPlay { score words { word score } }
    ... on Error { code message citation { source rule } }
  }
}
`;

/** HTTP status of a typed error on the REST routes (GraphQL answers 200 and a `…Result` union member). */
export const restStatusFor = (code: string): number => {
  if (code === 'UNAUTHENTICATED') return 401;
  if (code === 'FORBIDDEN') return 403;
  if (code === 'NOT_FOUND' || code.endsWith('_NOT_FOUND')) return 404;
  if (code === 'VALIDATION') return 400;
  if (code === 'STALE_VERSION' || code === 'HANDLE_TAKEN' || code === 'IDEMPOTENCY_KEY_REUSED') return 409;
  return 422; // a rule violation: the request was understood and refused by the rules
};

/**
 * On the REST routes a typed error comes back as the route's JSON body (sofa selects every field of the
 * `Error` interface: code, message, details, citation); this gives it a matching HTTP status.
 */
const useRestErrorStatus = (): Plugin => ({
  async onResponse({ request, response, setResponse }) {
    const path = new URL(request.url).pathname;
    if (!path.startsWith(`${REST_PATH}/`) || path === OPENAPI_PATH || response.status !== 200) return;
    if (!(response.headers.get('content-type') ?? '').includes('json')) return;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const isError =
      typeof body === 'object' && body !== null && !Array.isArray(body) && typeof (body as { code?: unknown }).code === 'string' && typeof (body as { message?: unknown }).message === 'string' && 'citation' in body;
    const status = isError ? restStatusFor((body as { code: string }).code) : 200;
    setResponse(new Response(text, { status, headers: response.headers }));
  },
});

/** Adds the query limits to GraphQL validation (also for the REST routes, which run through the same executor). */
const useQueryLimits = (limits: QueryLimits): Plugin => ({
  onValidate: ({ addValidationRule }) => addValidationRule(queryLimitsRule(limits)),
});

/**
 * The Yoga instance both runtimes serve: GraphQL at /graphql, the same operations as REST routes under
 * /rest (sofa: queries are GET, mutations POST, e.g. GET /rest/rule-sets), their OpenAPI document at
 * /rest/openapi.json and a Swagger UI at /rest/docs. Errors that are not ours (`ArbiterError`) are
 * masked as "Unexpected error." with code INTERNAL_SERVER_ERROR and logged here, never sent.
 */
export const createArbiterYoga = (services: AppServices, options: YogaOptions = {}): ArbiterYoga => {
  const logError = options.logError ?? ((e: unknown) => console.error('unexpected error', e));
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    context: ({ request }) => createContext(services, request),
    graphiql: options.graphiql ? { title: 'Arbiter', defaultQuery: DEMO_QUERY } : false,
    landingPage: false,
    // isDev false: never an original message or stack in the response, whatever NODE_ENV says.
    maskedErrors: { maskError: (error, message) => maskError(error, message, false) },
    // Yoga reports each error it masks here, with its stack: the server log is where those go.
    logging: { debug: () => undefined, info: () => undefined, warn: (...args) => console.warn(...args), error: (...args) => logError(args.length === 1 ? args[0] : args) },
    plugins: [
      useQueryLimits(options.limits ?? DEFAULT_QUERY_LIMITS),
      useRestErrorStatus(),
      useSofa({
        basePath: REST_PATH,
        depthLimit: 4,
        // These take JSON arguments (overrides, a dispute), which a query string cannot carry: POST a JSON body.
        routes: {
          'Query.checkPlay': { method: 'POST' },
          'Query.adjudicate': { method: 'POST' },
          'Query.ruleSet': { method: 'POST' },
        },
        // Getters: sofa writes each parameter's description into the object it gets, so each use needs a fresh one.
        customScalars: {
          get JSON() {
            return {};
          },
          get DateTime() {
            return { type: 'string', format: 'date-time' };
          },
        },
        openAPI: {
          endpoint: OPENAPI_PATH.slice(REST_PATH.length), // relative to basePath
          info: { title: 'Arbiter REST API', version: '1', description: 'The GraphQL operations of Arbiter as REST routes (generated by SOFA from the same schema).' },
          components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        },
        swaggerUI: { endpoint: SWAGGER_UI_PATH.slice(REST_PATH.length) },
      }),
    ],
  });
};
