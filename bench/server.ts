/**
 * The real API for the persistence and growth benches: `createApp` (no GraphiQL) on a node HTTP
 * server at an ephemeral port on 127.0.0.1, over the local Postgres (ARBITER_TEST_POSTGRES_URL,
 * default postgresql://postgres@127.0.0.1:5432/test) in a fresh schema that is dropped at the end.
 * Clients talk to it over real HTTP, as a game client would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createApp, type App } from '../functions/app.js';
import { NO_RATE_LIMITS } from '../service/rate-limits.js';
import { ensureShippedLexicons } from '../scripts/build-lexicons.js';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createDb, IN_MEMORY, parseDatabaseUrl, type Db } from '../store/db.js';
import type { BenchRow, BenchSection } from './types.js';

export const DEFAULT_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/test';
export const postgresUrl = (): string => process.env['ARBITER_TEST_POSTGRES_URL'] ?? DEFAULT_POSTGRES_URL;

/** The pool size store/db.ts gives a local server; the bare baselines use the same. */
export const poolMax = (): number => Number(process.env['ARBITER_DB_POOL_MAX'] ?? 10);

/** Null when Postgres answers, else why not. */
export const unreachable = async (url: string = postgresUrl()): Promise<string | null> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
};

/** `url` with Prisma's `?schema=` set. */
export const withSchema = (url: string, schema: string): string => {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.toString();
};

/** A pg pool on `schema` with the settings store/db.ts uses (same size, search_path). */
export const barePool = (url: string, schema: string): pg.Pool =>
  new pg.Pool({ connectionString: parseDatabaseUrl(url).connectionString, max: poolMax(), options: `-c search_path=${schema}` });

export const dropSchema = async (url: string, schema: string): Promise<void> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
};

export interface BenchPlayer {
  readonly id: string;
  readonly handle: string;
  readonly token: string;
}

export interface BenchServer extends BenchClient {
  readonly app: App;
  readonly host: string;
  readonly port: number;
  readonly schema: string;
  /** The Postgres URL of the schema (with `?schema=`). */
  readonly databaseUrl: string;
  /** Unexpected errors the API logged (masked in responses). */
  readonly loggedErrors: unknown[];
  close(): Promise<void>;
}

/** Rule-set overrides that let a game go on passing forever (no six-scoreless-turns end). */
export const ENDLESS = { end: { scorelessTurns: null } } as const;

/** What a bench says to an API over HTTP: GraphQL requests, sign-ups and games (any server: one process or a cluster). */
export interface BenchClient {
  gql<T = Record<string, any>>(query: string, variables?: Record<string, unknown>, token?: string): Promise<T>;
  register(handle: string): Promise<BenchPlayer>;
  /** A started game between `creator` (seat 0, moves first) and `opponent`; returns its id and version. */
  createGame(creator: BenchPlayer, opponent: BenchPlayer, overrides?: unknown): Promise<{ id: string; version: number }>;
}

export const benchClient = (host: string, port: number): BenchClient => {
  const gql = async <T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> => {
    const res = await fetch(`http://${host}:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: T; errors?: unknown[] };
    if (body.errors?.length || !body.data) throw new Error(`bench request failed: ${JSON.stringify(body)}`);
    return body.data;
  };

  return {
    gql,
    register: async (handle) => {
      const d = await gql<{ registerPlayer: { __typename: string; token?: string; player?: { id: string } } }>(
        `mutation($input: RegisterPlayerInput!) { registerPlayer(input: $input) { __typename ... on AuthPayload { token player { id } } ... on Error { code message } } }`,
        { input: { handle, displayName: handle, password: `${handle}-bench-password` } },
      );
      const p = d.registerPlayer;
      if (p.__typename !== 'AuthPayload' || !p.token || !p.player) throw new Error(`register ${handle}: ${JSON.stringify(p)}`);
      return { id: p.player.id, handle, token: p.token };
    },
    createGame: async (creator, opponent, overrides = ENDLESS) => {
      const d = await gql<{ createGame: { __typename: string; id?: string; version?: number } }>(
        `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id version } ... on Error { code message } } }`,
        { input: { opponent: opponent.handle, overrides } },
        creator.token,
      );
      const g = d.createGame;
      if (g.__typename !== 'Game' || !g.id || g.version === undefined) throw new Error(`createGame: ${JSON.stringify(g)}`);
      return { id: g.id, version: g.version };
    },
  };
};

export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

/** Where a bench server keeps its games: the local Postgres, or PGlite in memory (the embedded default of `npm start`). */
export type BenchBackend = 'postgres' | 'pglite';

export const startBenchServer = async (schema: string, backend: BenchBackend = 'postgres'): Promise<BenchServer> => {
  ensureShippedLexicons();
  const url = postgresUrl();
  const databaseUrl = withSchema(url, schema);
  const loggedErrors: unknown[] = [];
  const app = await createApp({
    dbOptions: backend === 'pglite' ? { dataDir: IN_MEMORY } : { databaseUrl },
    jwt: { secret: new TextEncoder().encode(BENCH_JWT_SECRET), ttlSeconds: 24 * 3600, issuer: 'arbiter' },
    graphiql: false,
    // The benches measure throughput and growth (thousands of games by two players): no per-client limits.
    rateLimits: NO_RATE_LIMITS,
    logError: (e) => loggedErrors.push(e),
    warn: () => undefined,
  });
  const server: Server = createServer(app.yoga);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = '127.0.0.1';

  return {
    app,
    host,
    port,
    schema,
    databaseUrl,
    loggedErrors,
    ...benchClient(host, port),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      if (backend === 'postgres') await dropSchema(url, schema);
    },
  };
};

/** The submitTurn document the benches send: what a client needs to go on (version, status, its rack, scores). */
export const SUBMIT_TURN = `mutation($input: SubmitTurnInput!) { submitTurn(input: $input) { __typename ... on Game { version status whoseTurn myRack scores } ... on StaleVersionError { expected actual } ... on Error { code message } } }`;
export const GAME = `query($id: ID!) { game(id: $id) { __typename ... on Game { version status whoseTurn myRack scores board { rows } } ... on Error { code message } } }`;

export const percentile = (sorted: readonly number[], p: number): number => {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
};

/** p50, p99 and rate of a run's latencies (ms), with its count and errors. */
export interface Latencies {
  readonly p50: number;
  readonly p99: number;
  readonly perSecond: number;
  readonly count: number;
  readonly errors: number;
}

/** Sorts `latencies` in place and summarizes them over a run of `seconds`. */
export const summarize = (latencies: number[], seconds: number, errors: number): Latencies => {
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    perSecond: latencies.length / seconds,
    count: latencies.length,
    errors,
  };
};

/** What one database's measurement gives a section. */
export interface Measured {
  readonly rows: readonly BenchRow[];
  readonly notes: readonly string[];
}

/**
 * `measure` on an in-memory PGlite, then on the test Postgres in a schema of its own (dropped after), or a
 * note saying why Postgres was not measured: the two databases every bench module compares.
 */
export const onBothDatabases = async (schemaPrefix: string, measure: (db: Db, label: string) => Promise<Measured>): Promise<Measured> => {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const lite = await createDb({ dataDir: IN_MEMORY });
  try {
    const m = await measure(lite, 'PGlite');
    rows.push(...m.rows);
    notes.push(...m.notes);
  } finally {
    await lite.close();
  }
  const down = await unreachable();
  if (down) notes.push(`Postgres not measured: no Postgres at ${postgresUrl()} (${down}).`);
  else {
    const schema = `${schemaPrefix}_${randomUUID().slice(0, 8)}`;
    const db = await createDb({ databaseUrl: withSchema(postgresUrl(), schema) });
    try {
      const m = await measure(db, 'Postgres');
      rows.push(...m.rows);
      notes.push(...m.notes);
    } finally {
      await db.close();
      await dropSchema(postgresUrl(), schema);
    }
  }
  return { rows, notes };
};

/** Runs a bench module on its own (`npx tsx bench/<module>.ts`) when `moduleUrl` is the script started. */
export const runWhenMain = async (moduleUrl: string, run: () => Promise<BenchSection>): Promise<void> => {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== process.argv[1]) return;
  const s = await run();
  for (const r of s.rows)
    console.log(`${r.metric}: ${r.value} ${r.unit}${r.target ? ` (target ${r.target}: ${r.met ? 'met' : 'MISSED'})` : ''}`);
  for (const n of s.notes ?? []) console.log(n);
};
