/**
 * The databases the store suites run against: PGlite (in memory) always; the real Postgres at
 * ARBITER_TEST_POSTGRES_URL when that is set — then an unreachable server FAILS the suite — or else at
 * the local default, included only when it answers. Each test database is a fresh schema (Postgres)
 * or a fresh in-memory instance (PGlite), dropped afterwards, so runs repeat and files run in parallel.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, IN_MEMORY, type CreateDbOptions, type Db, type DbKind } from '../../store/db.js';

export const DEFAULT_TEST_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/test';

export interface StoreTarget {
  readonly kind: DbKind;
  /** Postgres only: the server URL. */
  readonly url?: string;
  /** Postgres only: why the server could not be reached (the suite's first test fails with it). */
  readonly unreachable?: string;
}

const probe = async (url: string): Promise<string | undefined> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message || e.name : String(e);
  } finally {
    await client.end().catch(() => undefined);
  }
};

const resolveTargets = async (): Promise<StoreTarget[]> => {
  const required = process.env['ARBITER_TEST_POSTGRES_URL'];
  const url = required || DEFAULT_TEST_POSTGRES_URL;
  const unreachable = await probe(url);
  const targets: StoreTarget[] = [{ kind: 'pglite' }];
  if (required) targets.push(unreachable === undefined ? { kind: 'postgres', url } : { kind: 'postgres', url, unreachable });
  else if (unreachable === undefined) targets.push({ kind: 'postgres', url });
  else
    console.warn(
      `store tests: no Postgres at ${url} (${unreachable}); running on PGlite only. Set ARBITER_TEST_POSTGRES_URL to require it.`,
    );
  return targets;
};

export const STORE_TARGETS: readonly StoreTarget[] = await resolveTargets();

export interface TestDb {
  readonly db: Db;
  /** Options that open the same database again (a second process, in effect). Postgres only. */
  readonly reopen: (options?: Omit<CreateDbOptions, 'databaseUrl' | 'dataDir'>) => Promise<Db>;
  /** Closes the handle and drops the schema. */
  readonly drop: () => Promise<void>;
  /** Postgres only: the URL (with `?schema=`) a separate program opens this database with, as `DATABASE_URL`. */
  readonly databaseUrl?: string;
}

/** A fresh, empty database on `target` (migrated unless `migrate: false`). */
export const openTestDb = async (target: StoreTarget, options: Omit<CreateDbOptions, 'databaseUrl' | 'dataDir'> = {}): Promise<TestDb> => {
  if (target.kind === 'pglite') {
    // From the migrated template (store/pglite-template.ts) unless the test migrates on its own terms.
    const template = options.template ?? (options.migrate !== false && options.migrationsDir === undefined);
    const db = await createDb({ ...options, dataDir: IN_MEMORY, template });
    return {
      db,
      reopen: () => Promise.reject(new Error('an in-memory PGlite cannot be opened twice')),
      drop: () => db.close(),
    };
  }
  if (target.unreachable !== undefined || !target.url) throw new Error(`Postgres at ${target.url} is unreachable: ${target.unreachable}`);
  const schema = `arbiter_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(target.url);
  url.searchParams.set('schema', schema);
  const databaseUrl = url.toString();
  const opened: Db[] = [];
  const open = async (o: Omit<CreateDbOptions, 'databaseUrl' | 'dataDir'>): Promise<Db> => {
    const db = await createDb({ ...o, databaseUrl });
    opened.push(db);
    return db;
  };
  const db = await open(options);
  return {
    db,
    databaseUrl,
    reopen: (o = {}) => open(o),
    drop: async () => {
      await Promise.all(opened.map((d) => d.close()));
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
};
