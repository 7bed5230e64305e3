import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { migrate, type MigrateReport, type SqlSession, type SqlSessionSource } from './migrate.js';
import { pglitePrepared, type PgliteProtocol } from './pglite-statements.js';
import type { PrismaPGlite as PrismaPGliteClass } from 'pglite-prisma-adapter';
import { lazyPrisma } from './prisma-client.js';
import type { TransactionOptions } from './prisma-open.js';
import type { SqlObserver } from './sql-observer.js';

export const DB_KINDS = ['pglite', 'postgres'] as const;
/** `pglite`: embedded Postgres in this process (default). `postgres`: a server reached through `DATABASE_URL`. */
export type DbKind = (typeof DB_KINDS)[number];

/** What repositories receive inside a transaction (a full client also fits, but then nothing is atomic). */
export type Tx = Prisma.TransactionClient;

/** PGlite's own spelling for an in-memory database; pass it as `dataDir` (tests). */
export const IN_MEMORY = 'memory://';
export const DEFAULT_DATA_DIR = '.arbiter-data';

export interface CreateDbOptions {
  /** Postgres URL (`postgresql://…`, optional `?schema=name` as in Prisma). Defaults to `DATABASE_URL`. Ignored when `dataDir` is given. */
  readonly databaseUrl?: string;
  /** PGlite data directory, or {@link IN_MEMORY}. Giving it selects PGlite even when `DATABASE_URL` is set. */
  readonly dataDir?: string;
  /** Apply pending migrations on start (default true). */
  readonly migrate?: boolean;
  readonly migrationsDir?: string;
  /**
   * Start a new PGlite data directory (or in-memory database) from the kept template instead of initdb, and
   * keep one when there is none (store/pglite-template.ts). Off by default, so a new data directory's
   * migration report lists every migration as applied; the local server (`npm start`) and the test
   * databases (test/store/targets.ts) turn it on.
   */
  readonly template?: boolean;
  /** Where `DATABASE_URL` / `ARBITER_DATA_DIR` are read from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The Postgres password, asked for on every new connection instead of the URL's (the deployed functions:
   * a Secrets Manager secret that rotation changes, functions/secrets.ts). Told when the server refuses it.
   */
  readonly password?: PasswordSource;
  /** Sees each SQL statement Prisma sends (functions/observability: counts per request, trace spans). */
  readonly observer?: SqlObserver;
}

export interface PasswordSource {
  get(): Promise<string>;
  /** The server refused the password (SQLSTATE 28P01): read it again next time. */
  invalidate(): void;
}

const isAuthFailure = (e: unknown): boolean =>
  typeof e === 'object' &&
  e !== null &&
  ((e as { code?: unknown }).code === '28P01' || /password authentication failed/i.test(String((e as { message?: unknown }).message)));

/** Tells `source` when a new connection is refused for its password (both of pg.Pool's connect forms: promise and callback). */
export const watchAuthFailures = (pool: pg.Pool, source: PasswordSource): void => {
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, client: unknown, done: unknown) => void) => unknown;
  (pool as unknown as { connect: typeof connect }).connect = (cb) => {
    if (cb) {
      return connect((err, client, done) => {
        if (err && isAuthFailure(err)) source.invalidate();
        cb(err, client, done);
      });
    }
    return (connect() as Promise<unknown>).catch((e: unknown) => {
      if (isAuthFailure(e)) source.invalidate();
      throw e;
    });
  };
};

export interface Db extends SqlSessionSource {
  readonly kind: DbKind;
  /** Made on its first use (store/prisma-client.ts): a process that never calls it never loads Prisma. */
  readonly prisma: PrismaClient;
  /** Postgres schema holding the tables (`?schema=` of the URL, else `public`). */
  readonly schema: string;
  /** What start-up migration did; null when `migrate: false`. */
  readonly migrations: MigrateReport | null;
  /**
   * An interactive transaction with options suited to the database. Inside `fn`, use only `tx`: on PGlite
   * (one connection) a query through `db.prisma` waits for this very transaction to end, i.e. forever.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One statement on the driver itself, beside Prisma and outside any transaction (so atomic on its own):
   * the turn's two statements (store/games.ts), one round trip each. On Postgres `name` makes it a named
   * prepared statement, parsed once per connection, except on Lambda, where RDS Proxy would pin the session.
   * Seen by the {@link SqlObserver} like Prisma's statements.
   */
  statement<R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]): Promise<R[]>;
  /**
   * Subscribes to a notification channel (`LISTEN`; the live streams' wake-ups, service/live-notifier.ts):
   * on Postgres through one connection of its own, kept outside the pool and reopened when it breaks
   * (`onReconnect` is then called: notifications may have been missed meanwhile); on PGlite through its
   * in-process `listen`. Resolves once listening; the function it gives stops it. Closing the database stops all.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const observed = <T>(observer: SqlObserver | undefined, sql: string, run: () => Promise<T>): Promise<T> =>
  observer ? observer.statement(sql, run) : run();

/**
 * PGlite runs one transaction at a time, so a queued transaction waits for the ones before it; that wait
 * counts against Prisma's `maxWait` (default 2 s), hence the longer limits there.
 */
const TRANSACTION_OPTIONS: Record<DbKind, TransactionOptions> = {
  pglite: { maxWait: 30_000, timeout: 30_000 },
  postgres: { maxWait: 5_000, timeout: 15_000 },
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Splits Prisma's `?schema=` parameter off a Postgres URL (node-postgres does not know it). */
export const parseDatabaseUrl = (url: string): { connectionString: string; schema: string } => {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? 'public';
  if (!IDENTIFIER.test(schema)) throw new Error(`DATABASE_URL: schema "${schema}" must be a plain identifier.`);
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema };
};

/**
 * Opens the database: PGlite (embedded; `dataDir`, else `ARBITER_DATA_DIR`, else `.arbiter-data/`)
 * unless a Postgres URL is given or `DATABASE_URL` is set; then applies pending migrations.
 */
export const createDb = async (options: CreateDbOptions = {}): Promise<Db> => {
  const env = options.env ?? process.env;
  const url = options.dataDir === undefined ? (options.databaseUrl ?? env['DATABASE_URL']) : undefined;
  const local = url
    ? null
    : await openPglite(options.dataDir ?? env['ARBITER_DATA_DIR'] ?? DEFAULT_DATA_DIR, options.template === true, options.observer);
  const db = local ? local.db : await openPostgres(url!, options.password, options.observer);
  if (options.migrate === false) return db;
  try {
    const report = await migrate(db, options.migrationsDir === undefined ? {} : { migrationsDir: options.migrationsDir });
    // Only the shipped migrations make a template (store/pglite-template.ts); a test's own folder must not.
    if (local?.initdb && options.migrationsDir === undefined) await local.saveTemplate();
    return { ...db, migrations: report };
  } catch (e) {
    await db.close();
    throw e;
  }
};

/** Closing twice is harmless (tests and shutdown hooks both close). */
const once = (fn: () => Promise<void>): (() => Promise<void>) => {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
};

interface LocalDb {
  readonly db: Db;
  /** The data directory was made by initdb (no template): after migrating, keep it as the template. */
  readonly initdb: boolean;
  readonly saveTemplate: () => Promise<void>;
}

const openPglite = async (dataDir: string, useTemplate: boolean, observer?: SqlObserver): Promise<LocalDb> => {
  // Loaded on demand: PGlite is the local default only, so the Lambda bundles leave it out (scripts/build.ts).
  const [pgliteModule, { PrismaPGlite }, template] = await Promise.all([
    import('@electric-sql/pglite'),
    import('pglite-prisma-adapter'),
    import('./pglite-template.js'),
  ]);
  const fresh = useTemplate && template.isNewDataDir(dataDir);
  const tarball = fresh ? await template.readTemplate() : null;
  const pglite = await pgliteModule.PGlite.create(dataDir, { ...(await pgliteBinaries()), ...(tarball ? { loadDataDir: tarball } : {}) });
  return {
    db: pgliteDb(pglite, pgliteModule, PrismaPGlite, observer),
    initdb: fresh && !tarball,
    saveTemplate: () => template.saveTemplate(pglite),
  };
};

/**
 * PGlite's WebAssembly, compiled once per process and handed to every instance: left to itself each
 * instance reads and compiles it again, about half of a new in-memory database's start (the tests open
 * hundreds). Null when the files are not where PGlite's package keeps them: PGlite then loads its own.
 */
const pgliteBinaries = (): Promise<PgliteBinaries> => (binaries ??= loadPgliteBinaries());
type PgliteBinaries = { pgliteWasmModule?: WebAssembly.Module; initdbWasmModule?: WebAssembly.Module; fsBundle?: Blob };
let binaries: Promise<PgliteBinaries> | undefined;
const loadPgliteBinaries = async (): Promise<PgliteBinaries> => {
  try {
    const { readFile } = await import('node:fs/promises');
    const dist = new URL('./', import.meta.resolve('@electric-sql/pglite'));
    const [pglite, initdb, data] = await Promise.all(['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((f) => readFile(new URL(f, dist))));
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([WebAssembly.compile(pglite!), WebAssembly.compile(initdb!)]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([data!]) };
  } catch {
    return {};
  }
};

const pgliteDb = (pglite: PGlite, pgliteModule: PgliteProtocol, PrismaPGlite: typeof PrismaPGliteClass, observer?: SqlObserver): Db => {
  const prepared = pglitePrepared(pglite, pgliteModule);
  const lazy = lazyPrisma(async () =>
    (await import('./prisma-open.js')).adapterPrisma(new PrismaPGlite(pglite), TRANSACTION_OPTIONS.pglite, observer),
  );
  const prisma = lazy.client;
  const session = pgliteSession(pglite);
  // PGlite queues single statements itself; this keeps a whole session (the migrator's lock … unlock) together.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    kind: 'pglite',
    prisma,
    schema: 'public',
    migrations: null,
    transaction: (fn) => prisma.$transaction(fn, TRANSACTION_OPTIONS.pglite),
    // Prepared under its name (store/pglite-statements.ts); like PGlite's query, it waits for (never runs inside) another transaction.
    statement: async <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) =>
      observed(observer, sql, () => prepared<R>(name, sql, params)),
    withSession: <T>(fn: (s: SqlSession) => Promise<T>): Promise<T> => {
      const run = queue.then(() => fn(session));
      queue = run.catch(() => undefined);
      return run;
    },
    // PGlite is one session: a NOTIFY sent by any statement of this process reaches its own LISTEN.
    listen: async (channel, onNotify) => {
      const stop = await pglite.listen(channel, onNotify);
      return async () => {
        if (!pglite.closed) await stop();
      };
    },
    close: once(async () => {
      await (await lazy.made())?.$disconnect();
      if (!pglite.closed) await pglite.close();
    }),
  };
};

const pgliteSession = (conn: Pick<PGlite, 'query' | 'exec'> & { transaction?: PGlite['transaction'] }): SqlSession => ({
  query: async <R extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) =>
    (await conn.query<R>(sql, [...params])).rows,
  exec: async (script) => {
    await conn.exec(script);
  },
  transaction: async (fn) => {
    if (!conn.transaction) throw new Error('nested transactions are not supported');
    return conn.transaction((tx) => fn(pgliteSession(tx)));
  },
});

/**
 * A URL's connection settings as separate fields: pg lets a connection string's (empty) password override
 * a password function, so with a {@link PasswordSource} the URL is taken apart. Any sslmode but disable
 * verifies the server's certificate, as pg does for a connection string.
 */
const connectionFields = (connectionString: string): pg.PoolConfig => {
  const u = new URL(connectionString);
  const sslmode = u.searchParams.get('sslmode');
  return {
    host: u.hostname,
    port: Number(u.port || 5432),
    database: decodeURIComponent(u.pathname.slice(1)),
    user: decodeURIComponent(u.username),
    ...(sslmode && sslmode !== 'disable' ? { ssl: {} } : {}),
  };
};

const openPostgres = async (url: string, password?: PasswordSource, observer?: SqlObserver): Promise<Db> => {
  const { connectionString, schema } = parseDatabaseUrl(url);
  // search_path makes raw SQL (migrations, $queryRaw) land in the same schema as Prisma's qualified queries.
  // A Lambda container serves one request at a time, so two connections are plenty and leave the RDS
  // Proxy's pool to the other containers; the public schema needs no search_path (and sending one can
  // pin proxy sessions).
  const max = Number(process.env['ARBITER_DB_POOL_MAX'] ?? (process.env['AWS_LAMBDA_FUNCTION_NAME'] ? 2 : 10));
  const pool = new pg.Pool({
    ...(password ? { ...connectionFields(connectionString), password: () => password.get() } : { connectionString }),
    max,
    ...(schema === 'public' ? {} : { options: `-c search_path=${schema}` }),
  });
  if (password) watchAuthFailures(pool, password);
  // An idle pooled connection that dies (a restart, a failover, pg_terminate_backend) is an 'error' on the pool,
  // which ends the process unless someone listens, and Prisma's adapter listens only once Prisma is made. pg has
  // dropped the connection already; the next query opens another (test/store/pool-errors.test.ts).
  pool.on('error', () => undefined);
  if (schema !== 'public') {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  }
  const lazy = lazyPrisma(async () =>
    (await import('./prisma-open.js')).postgresPrisma(pool, schema, TRANSACTION_OPTIONS.postgres, observer),
  );
  const prisma = lazy.client;
  const prepared = !process.env['AWS_LAMBDA_FUNCTION_NAME'];
  const listeners = new Set<() => Promise<void>>();
  const listenConfig = async (): Promise<pg.ClientConfig> =>
    // Named, so that an operator sees it in pg_stat_activity for what it is.
    ({
      ...(password ? { ...connectionFields(connectionString), password: await password.get() } : { connectionString }),
      application_name: 'arbiter-listen',
    });
  return {
    kind: 'postgres',
    prisma,
    schema,
    migrations: null,
    transaction: (fn) => prisma.$transaction(fn, TRANSACTION_OPTIONS.postgres),
    statement: async <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) =>
      observed(
        observer,
        sql,
        async () => (await pool.query<R>(prepared ? { name, text: sql, values: [...params] } : { text: sql, values: [...params] })).rows,
      ),
    withSession: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn(pgSession(client));
      } finally {
        client.release();
      }
    },
    listen: async (channel, onNotify, onReconnect) => {
      const stop = await listenOn(listenConfig, channel, onNotify, onReconnect);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    close: once(async () => {
      await Promise.all([...listeners].map((stop) => stop()));
      listeners.clear();
      await (await lazy.made())?.$disconnect();
      await pool.end();
    }),
  };
};

const IDENT = /^[a-z_][a-z0-9_]*$/;
const RECONNECT_MS = 1000;

/**
 * `LISTEN channel` on a connection of its own (a pooled one would be taken from the requests for good).
 * A broken connection is reopened after {@link RECONNECT_MS}, and `onReconnect` told: whatever was notified
 * meanwhile is lost, so listeners re-read.
 */
const listenOn = async (
  config: () => Promise<pg.ClientConfig>,
  channel: string,
  onNotify: (payload: string) => void,
  onReconnect?: () => void,
): Promise<() => Promise<void>> => {
  if (!IDENT.test(channel)) throw new Error(`listen: "${channel}" is not a plain channel name`);
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  const open = async (): Promise<void> => {
    const c = new pg.Client(await config());
    c.on('notification', (n) => {
      if (n.channel === channel) onNotify(n.payload ?? '');
    });
    c.on('error', () => undefined);
    c.on('end', () => {
      if (stopped || client !== c) return;
      client = null;
      timer = setTimeout(reopen, RECONNECT_MS);
    });
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    client = c;
  };
  const reopen = (): void => {
    timer = null;
    if (stopped) return;
    open().then(
      () => onReconnect?.(),
      () => {
        if (!stopped) timer = setTimeout(reopen, RECONNECT_MS);
      },
    );
  };
  await open();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };
};

const pgSession = (client: pg.PoolClient): SqlSession => {
  const session: SqlSession = {
    query: async <R extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []) =>
      (await client.query<R>(sql, [...params])).rows,
    exec: async (script) => {
      // Without parameters node-postgres uses the simple protocol, which accepts several statements.
      await client.query(script);
    },
    transaction: async (fn) => {
      await client.query('BEGIN');
      try {
        const result = await fn(session);
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK');
        throw e;
      }
    },
  };
  return session;
};
