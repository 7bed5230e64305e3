/**
 * The API under test: the real app (functions/app.ts) on a fresh database of each store target
 * (PGlite in memory always; Postgres when configured or reachable — see test/store/targets.ts), the
 * shipped lexicons, a fixed JWT secret and a clock the test can move. Requests go through
 * `yoga.fetch`, i.e. over HTTP semantics without a socket.
 */
import { createApp, type App, type AppOptions } from '../../functions/app.js';
import type { JwtConfig } from '../../graph/auth.js';
import type { RequestLimits } from '../../graph/armor.js';
import type { QueryLimits } from '../../graph/limits.js';
import { loadLexiconRegistry, type LexiconRegistry } from '../../service/lexicons.js';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../../service/rate-limits.js';
import type { SqlObserver } from '../../store/sql-observer.js';
import { openTestDb, STORE_TARGETS, type StoreTarget } from '../store/targets.js';
import { TEST_DESTINATIONS } from '../webhooks/fixture.js';

export { STORE_TARGETS, type StoreTarget };

export const TEST_JWT: JwtConfig = {
  secret: new TextEncoder().encode('test-secret-of-at-least-32-characters!'),
  ttlSeconds: 3600,
  issuer: 'arbiter',
};
/** The shipped lexicons (built by `npm run lexicons`, which `npm test` runs first). */
export const LEXICONS = loadLexiconRegistry();

export interface GraphQLResponse {
  readonly status: number;
  readonly body: { data?: Record<string, any>; errors?: { message: string; extensions?: Record<string, unknown>; path?: unknown }[] };
}

export interface TestApi {
  readonly app: App;
  /** Moves the app's clock. */
  setNow(date: Date): void;
  gql(query: string, variables?: Record<string, unknown>, bearer?: string): Promise<GraphQLResponse>;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Registers a player and returns their id and token. */
  register(handle: string, password?: string): Promise<{ id: string; token: string }>;
  close(): Promise<void>;
}

export const START = new Date('2026-11-21T12:00:00.000Z');

/** `gql`, `fetch` and `register` over a fetch into the app (how a client reaches it over HTTP). */
export const clientOver = (fetch: TestApi['fetch']): Pick<TestApi, 'gql' | 'fetch' | 'register'> => {
  const gql = async (query: string, variables: Record<string, unknown> = {}, bearer?: string): Promise<GraphQLResponse> => {
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as GraphQLResponse['body'] };
  };
  return {
    gql,
    fetch,
    register: async (handle, password = `${handle}-password`) => {
      const r = await gql(
        `mutation($input: RegisterPlayerInput!) { registerPlayer(input: $input) { __typename ... on AuthPayload { token player { id } } ... on Error { code message } } }`,
        { input: { handle, displayName: handle.toUpperCase(), password } },
      );
      const payload = r.body.data?.['registerPlayer'];
      if (payload?.__typename !== 'AuthPayload') throw new Error(`register ${handle}: ${JSON.stringify(r.body)}`);
      return { id: payload.player.id as string, token: payload.token as string };
    },
  };
};

export const openTestApi = async (
  target: StoreTarget,
  options: {
    limits?: QueryLimits;
    requestLimits?: RequestLimits;
    rateLimits?: RateLimitConfig;
    trustedProxies?: number;
    logError?: (e: unknown) => void;
    lexicons?: LexiconRegistry;
    /** More app options (the browser pages' files, GraphiQL). */
    app?: Pick<AppOptions, 'graphiql' | 'staticFiles' | 'metricsEndpoint' | 'live'>;
    /** Sees each SQL statement (functions/observability/scope.ts `sqlObserver`). */
    observer?: SqlObserver;
  } = {},
): Promise<TestApi> => {
  const testDb = await openTestDb(target, options.observer ? { observer: options.observer } : {});
  let now = START;
  const app = await createApp({
    db: testDb.db,
    lexicons: options.lexicons ?? LEXICONS,
    jwt: TEST_JWT,
    now: () => now,
    // Production's webhook policy over a stub DNS (example.com resolves to a public address; nothing else does).
    webhookDestinations: TEST_DESTINATIONS,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.requestLimits ? { requestLimits: options.requestLimits } : {}),
    // The defaults of service/rate-limits.ts unless a test sets its own; no environment variable leaks in.
    rateLimits: options.rateLimits ?? DEFAULT_RATE_LIMITS,
    trustedProxies: options.trustedProxies ?? 0,
    logError: options.logError ?? (() => undefined),
    // Robot seats are played by the in-process worker on wake-ups; no timer sweeps behind a test's back (tests call robots.sweep()).
    robotSweepMs: 0,
    ...options.app,
  });
  const fetch = (path: string, init: RequestInit = {}) => Promise.resolve(app.yoga.fetch(`http://arbiter.test${path}`, init));
  return {
    app,
    setNow: (d) => {
      now = d;
    },
    ...clientOver(fetch),
    close: async () => {
      await app.close();
      await testDb.drop();
    },
  };
};
