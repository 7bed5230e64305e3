import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, parseDatabaseUrl } from '../../store/db.js';
import { readMigrations } from '../../store/migrate.js';
import { STORE_TARGETS } from './targets.js';

/** Every migration in the folder, in order. */
const ALL = (await readMigrations()).map((m) => m.name);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

describe('createDb', () => {
  it('defaults to PGlite in ARBITER_DATA_DIR when DATABASE_URL is unset, and keeps the data', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'arbiter-data-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const env = { ARBITER_DATA_DIR: dir };

    const first = await createDb({ env });
    expect(first.kind).toBe('pglite');
    expect(first.migrations).toEqual({ applied: ALL, alreadyApplied: [], unknown: [] });
    await first.prisma.player.create({ data: { handle: 'kept', displayName: 'Kept' } });
    await first.close();
    await first.close(); // closing twice is harmless

    const second = await createDb({ env });
    cleanups.push(() => second.close());
    expect(second.migrations).toEqual({ applied: [], alreadyApplied: ALL, unknown: [] });
    expect(await second.prisma.player.count({ where: { handle: 'kept' } })).toBe(1);
  });

  it('uses PGlite when dataDir is given even if DATABASE_URL is set', async () => {
    const db = await createDb({ dataDir: 'memory://', env: { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' } });
    cleanups.push(() => db.close());
    expect(db.kind).toBe('pglite');
  });

  it('skips migrations when asked', async () => {
    const db = await createDb({ dataDir: 'memory://', migrate: false });
    cleanups.push(() => db.close());
    expect(db.migrations).toBeNull();
    const [t] = await db.withSession((s) => s.query<{ t: string | null }>(`SELECT to_regclass('games')::text AS t`));
    expect(t!.t).toBeNull();
  });

  it.each([
    ['postgresql://u@h:5432/db', 'postgresql://u@h:5432/db', 'public'],
    ['postgresql://u@h:5432/db?schema=arb', 'postgresql://u@h:5432/db', 'arb'],
    ['postgresql://u@h/db?sslmode=require&schema=s_1', 'postgresql://u@h/db?sslmode=require', 's_1'],
  ])('parseDatabaseUrl(%s)', (url, connectionString, schema) => {
    expect(parseDatabaseUrl(url)).toEqual({ connectionString, schema });
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => parseDatabaseUrl('postgresql://u@h/db?schema=a";drop')).toThrow(/plain identifier/);
  });

  const postgres = STORE_TARGETS.find((t) => t.kind === 'postgres' && t.unreachable === undefined);
  if (postgres?.url) {
    it('uses Postgres from DATABASE_URL, in the schema the URL names', async () => {
      const schema = `arbiter_test_env_${process.pid}_${Date.now()}`;
      const url = new URL(postgres.url!);
      url.searchParams.set('schema', schema);
      const db = await createDb({ env: { DATABASE_URL: url.toString() } });
      cleanups.push(async () => {
        await db.withSession((s) => s.exec(`DROP SCHEMA "${schema}" CASCADE`));
        await db.close();
      });
      expect([db.kind, db.schema]).toEqual(['postgres', schema]);
      const [row] = await db.withSession((s) =>
        s.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'games'`,
          [schema],
        ),
      );
      expect(row!.n).toBe(1);
    });
  }
});
