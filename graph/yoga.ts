import type { useSofa } from '@graphql-yoga/plugin-sofa';
import { createGraphQLError, createYoga, maskError, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { DEFAULT_REQUEST_LIMITS, useRequestArmor, type RequestLimits } from './armor.js';
import { createContext, type AppServices, type Context } from './context.js';
import { GraphQLError, type ExecutionArgs } from './graphql.js';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule, type QueryLimits } from './limits.js';
import { useStreamsUnavailableStatus } from './live.js';
import { restRateLimitHeaders } from './rate-limit.js';
import { graphiqlPage, usePages, type StaticFiles } from './pages.js';
import { restStatusFor } from './rest-status.js';
import { schema, sortedSchema } from './schema.js';
import { sofaSchema, useSofaWebhookBlock } from './sofa-webhooks.js';

export { restStatusFor };

export const GRAPHQL_PATH = '/graphql';
export const REST_PATH = '/rest';
export const OPENAPI_PATH = `${REST_PATH}/openapi.json`;
export const SWAGGER_UI_PATH = `${REST_PATH}/docs`;

export interface YogaOptions {
  /** Serve GraphiQL at GET /graphql (local server only). Default false. */
  readonly graphiql?: boolean;
  readonly limits?: QueryLimits;
  /** Body, token, alias and directive caps (graph/armor.ts). */
  readonly requestLimits?: RequestLimits;
  /** Where unexpected (masked) errors are reported with their stack; default `console.error`. */
  readonly logError?: (error: unknown) => void;
  /** More edges over the same schema and context (functions/app.ts adds the /v1 REST edge of rest/). */
  readonly plugins?: readonly Plugin[];
  /** The files of the browser pages (/play, GraphiQL, /rest/docs): see graph/pages.ts. Default: none (the pages answer 404 for them). */
  readonly staticFiles?: StaticFiles;
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
      typeof body === 'object' &&
      body !== null &&
      !Array.isArray(body) &&
      typeof (body as { code?: unknown }).code === 'string' &&
      typeof (body as { message?: unknown }).message === 'string' &&
      'citation' in body;
    const status = isError ? restStatusFor((body as { code: string }).code) : 200;
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(restRateLimitHeaders(body))) headers.set(name, value);
    setResponse(new Response(text, { status, headers }));
  },
});

/**
 * Deepest bracket nesting (`{`, `(`, `[`) a document may have. graphql-js parses recursively, so a
 * document nested a few thousand levels deep overflows the stack before any validation rule (and so
 * before the depth limit) can see it; this refuses it first, by a scan that never recurses.
 */
export const MAX_DOCUMENT_NESTING = 128;

/** The deepest bracket nesting of a GraphQL source, skipping strings, block strings and comments. */
export const documentNesting = (source: string): number => {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        i = end < 0 ? source.length : end + 2;
      } else {
        for (i++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
      }
    } else if (c === '{' || c === '(' || c === '[') {
      max = Math.max(max, ++depth);
    } else if (c === '}' || c === ')' || c === ']') {
      depth = Math.max(0, depth - 1);
    }
  }
  return max;
};

/**
 * Deepest nesting of a request's variables. Only JSON-typed arguments (rule overrides, a dispute)
 * can nest without bound, and every reply that echoes one back (an error's `details`) is written by
 * a recursive JSON.stringify: thousands of levels overflow the stack.
 */
export const MAX_VARIABLE_NESTING = 32;

/** How deep `value` nests (a scalar is 0, `[1]` is 1), counting no further than `limit + 1`; never recurses. */
export const valueNesting = (value: unknown, limit: number): number => {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    max = Math.max(max, depth + 1);
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
};

/** Refuses variables nested deeper than `maxNesting` before anything runs (VALIDATION, HTTP 400); REST calls included. */
const useVariableNestingGuard = (maxNesting: number): Plugin => {
  const refuse = ({ args, setResultAndStopExecution }: NestingPayload): void => {
    // The variables object itself is one level.
    if (valueNesting(args.variableValues ?? {}, maxNesting + 1) - 1 > maxNesting) {
      setResultAndStopExecution({
        errors: [
          createGraphQLError(
            `The variables nest more than ${maxNesting} levels deep (lists and objects in one another); the limit is ${maxNesting}.`,
            {
              extensions: { code: 'VALIDATION', maxNesting, http: { status: 400 } },
            },
          ),
        ],
      });
    }
  };
  // Subscriptions (gameEvents) are subscribed, not executed: both hooks.
  return { onExecute: refuse, onSubscribe: refuse };
};
type NestingPayload = {
  readonly args: { readonly variableValues?: unknown };
  readonly setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
};

/**
 * Yoga reads `variables` and `extensions` of a GET (or a form-encoded POST) with a bare JSON.parse,
 * so a malformed one was an unexpected error (HTTP 500); this answers 400 BAD_REQUEST, as Yoga does
 * for a POST body that is not JSON.
 */
const useSearchParamsGuard = (): Plugin => ({
  onRequestParse: async ({ request, url }) => {
    const form = request.method === 'POST' && (request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
    if (request.method !== 'GET' && !form) return;
    const params = form ? new URLSearchParams(await request.clone().text()) : url.searchParams;
    for (const name of ['variables', 'extensions']) {
      const text = params.get(name);
      if (!text) continue;
      try {
        JSON.parse(text);
      } catch {
        throw createGraphQLError(`The ${name} parameter is not valid JSON.`, {
          extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
        });
      }
    }
  },
});

/** Refuses over-nested documents before graphql-js parses them (QUERY_TOO_DEEP, HTTP 400). */
const useNestingGuard = (maxNesting: number): Plugin => ({
  onParse: ({ params }) => {
    const source = typeof params.source === 'string' ? params.source : params.source.body;
    const nesting = documentNesting(source);
    if (nesting > maxNesting) {
      throw createGraphQLError(`The document nests brackets ${nesting} deep; the limit is ${maxNesting}.`, {
        extensions: { code: 'QUERY_TOO_DEEP', nesting, maxNesting, http: { status: 400 } },
      });
    }
  },
});

/**
 * Errors of the database connection or server that a retry may get past: Postgres SQLSTATE class 08
 * (connection exception), 57P01–57P03 (shutdown, crash, not accepting connections), 40001 / 40P01
 * (serialization failure, deadlock); Prisma's P1001/P1002/P1008/P1017 (unreachable, timed out, closed)
 * and P2024/P2028 (pool or transaction timeout); a socket reset.
 */
const TRANSIENT_SQLSTATE = /^(08|57P0[123]$|40001$|40P01$)/;
const TRANSIENT_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
const TRANSIENT_MESSAGE =
  /Connection terminated|ECONNRESET|ECONNREFUSED|EPIPE|Client has encountered a connection error|terminating connection/i;

export const isTransientDatabaseError = (error: unknown): boolean => {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (typeof e !== 'object' || e === null || seen.has(e)) continue;
    seen.add(e);
    const o = e as {
      code?: unknown;
      originalCode?: unknown;
      message?: unknown;
      cause?: unknown;
      originalError?: unknown;
      meta?: { driverAdapterError?: unknown };
    };
    for (const code of [o.code, o.originalCode]) {
      if (typeof code === 'string' && (TRANSIENT_PRISMA.has(code) || TRANSIENT_SQLSTATE.test(code))) return true;
    }
    if (typeof o.message === 'string' && TRANSIENT_MESSAGE.test(o.message)) return true;
    queue.push(o.cause, o.originalError, o.meta?.driverAdapterError);
  }
  return false;
};

/** What a client gets instead of "Unexpected error." when the database failed under a request. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database was unavailable while this request ran, so it may not have been saved. Retry it; a turn retried with the same idempotencyKey is never played twice.';

/**
 * Yoga's masking, plus: a transient database failure becomes DATABASE_UNAVAILABLE (retryable, still
 * without the original message), and an error of the request that graphql-js made without a code
 * (a variable that does not coerce) gets BAD_USER_INPUT, so that every error a client sees has a code.
 */
const maskArbiterError = (error: unknown, message: string): Error => {
  // GraphQL answers it with HTTP 200 like any field error; the REST routes with 503 (restErrorJson).
  if (isTransientDatabaseError(error))
    return createGraphQLError(DATABASE_UNAVAILABLE_MESSAGE, { extensions: { code: 'DATABASE_UNAVAILABLE' } });
  const masked = maskError(error, message, false);
  if (masked === error && masked instanceof GraphQLError && masked.extensions['code'] === undefined) {
    // The same object, given its code: a new one would make Yoga log it as an unexpected (masked) error.
    (masked.extensions as Record<string, unknown>)['code'] = 'BAD_USER_INPUT';
  }
  return masked;
};

/**
 * Sofa's error answer on the REST routes: sofa would answer 500 for any error that carries no HTTP
 * status (a resolver's refusal included); here the status follows the errors' codes (the highest
 * wins) and every error keeps a code.
 */
type SofaErrorHandler = NonNullable<NonNullable<Parameters<typeof useSofa>[0]>['errorHandler']>;
const restErrorResponse: SofaErrorHandler = (errors) => restErrorJson(errors) as unknown as ReturnType<SofaErrorHandler>;
const restErrorJson = (errors: readonly unknown[]): Response => {
  let status = 0;
  const out = errors.map((raw) => {
    const e = raw instanceof GraphQLError ? raw : createGraphQLError(raw instanceof Error ? raw.message : String(raw));
    const { http, ...extensions } = (e.extensions ?? {}) as { http?: { status?: number } } & Record<string, unknown>;
    const code = typeof extensions['code'] === 'string' ? (extensions['code'] as string) : 'BAD_USER_INPUT';
    const s =
      http?.status ??
      (code === 'INTERNAL_SERVER_ERROR'
        ? 500
        : code === 'DATABASE_UNAVAILABLE'
          ? 503
          : code.startsWith('GRAPHQL_') || code === 'BAD_USER_INPUT' || code === 'BAD_REQUEST'
            ? 400
            : restStatusFor(code));
    status = Math.max(status, s);
    return { message: e.message, ...(e.path ? { path: e.path } : {}), extensions: { ...extensions, code } };
  });
  return Response.json({ errors: out }, { status: status || 400 });
};

/**
 * Defers a plugin, its module included, until a request under `basePath` needs it. SOFA builds every
 * REST route and the OpenAPI document as soon as Yoga hands it the schema (~70 ms, most of the API's
 * first request at a cold start, measured with --cpu-prof in bench/coldstart.ts), and its modules
 * (sofa-api, fets, typebox: ~200 KiB of the Lambda bundle) cost parse time at every cold start; GraphQL
 * requests use neither, so both wait for the first /rest request (a chunk of its own in the bundle).
 */
const useLazyOnPath = (basePath: string, load: () => Promise<Plugin>): Plugin => {
  let yogaInit: Parameters<NonNullable<Plugin['onYogaInit']>>[0] | null = null;
  let schemaChange: Parameters<NonNullable<Plugin['onSchemaChange']>>[0] | null = null;
  let loaded: Promise<Plugin> | undefined;
  const plugin = (): Promise<Plugin> =>
    (loaded ??= load().then((p) => {
      if (yogaInit) p.onYogaInit?.(yogaInit);
      return p;
    }));
  return {
    onYogaInit: (payload) => {
      yogaInit = payload;
    },
    onSchemaChange: (payload) => {
      schemaChange = payload;
    },
    // Synchronous for every other path: no promise on the GraphQL hot path.
    onRequest: (payload) => {
      if (!payload.url.pathname.startsWith(basePath)) return;
      return plugin().then((p) => {
        if (schemaChange) {
          p.onSchemaChange?.(schemaChange);
          schemaChange = null;
        }
        return p.onRequest?.(payload);
      });
    },
  };
};

/**
 * SOFA builds its /rest routes (their selections, hence the keys of their replies) and its OpenAPI document
 * from the schema Yoga hands it: here the copy in name order (graph/schema.ts `sortedSchema`) without its Subscription
 * type (graph/sofa-webhooks.ts: SOFA's subscription webhooks are refused anyway), while its
 * operations still run on Yoga's own schema, the one served at /graphql (and observed, functions/app.ts).
 */
const overSortedSchema = (plugin: Plugin): Plugin => ({
  ...plugin,
  onYogaInit: ({ yoga }) =>
    plugin.onYogaInit?.({
      yoga: Object.assign(Object.create(yoga) as typeof yoga, {
        getEnveloped: (context: Parameters<typeof yoga.getEnveloped>[0]) => {
          const enveloped = yoga.getEnveloped(context);
          return { ...enveloped, execute: (args: ExecutionArgs) => enveloped.execute({ ...args, schema: enveloped.schema }) };
        },
      }),
    }),
  onSchemaChange: (payload) => plugin.onSchemaChange?.({ ...payload, schema: sofaSchema(sortedSchema(payload.schema)) }),
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
    // The body caps are graph/armor.ts useBodyLimit's (declared or streamed, per route, refused with our own
    // code): Yoga's own 25 MB limit would never bind first, and it pipes every request's body through a stream
    // (~3% of a turn's CPU at 64 games, bench/RESULTS.md).
    maxRequestBodySize: false,
    context: (server) => createContext(services, server),
    graphiql: options.graphiql ? { title: 'Arbiter', defaultQuery: DEMO_QUERY } : false,
    // Served from this server's own files (graph/pages.ts), not from a CDN.
    renderGraphiQL: graphiqlPage,
    landingPage: false,
    // isDev false: never an original message or stack in the response, whatever NODE_ENV says.
    maskedErrors: { maskError: maskArbiterError },
    // Yoga reports each error it masks here, with its stack: the server log is where those go.
    logging: {
      debug: () => undefined,
      info: () => undefined,
      warn: (...args) => console.warn(...args),
      error: (...args) => logError(args.length === 1 ? args[0] : args),
    },
    plugins: [
      ...useRequestArmor(options.requestLimits ?? DEFAULT_REQUEST_LIMITS),
      usePages(options.staticFiles ?? (() => Promise.resolve(null)), {
        openApi: OPENAPI_PATH,
        docs: SWAGGER_UI_PATH,
        graphql: GRAPHQL_PATH,
      }),
      useSearchParamsGuard(),
      useNestingGuard(MAX_DOCUMENT_NESTING),
      useVariableNestingGuard(MAX_VARIABLE_NESTING),
      useQueryLimits(options.limits ?? DEFAULT_QUERY_LIMITS),
      useRestErrorStatus(),
      useStreamsUnavailableStatus(),
      useSofaWebhookBlock(),
      useLazyOnPath(REST_PATH, async () =>
        overSortedSchema(
          (await import('@graphql-yoga/plugin-sofa')).useSofa({
            basePath: REST_PATH,
            depthLimit: 4,
            errorHandler: restErrorResponse,
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
              info: {
                title: 'Arbiter REST API',
                version: '1',
                description: 'The GraphQL operations of Arbiter as REST routes (generated by SOFA from the same schema).',
              },
              components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
            },
          }),
        ),
      ),
      ...(options.plugins ?? []),
    ],
  });
};
