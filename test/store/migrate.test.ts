import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile, mkdir, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS_DIR, MigrationError, migrate, readMigrations } from '../../store/migrate.js';
import { openTestDb, STORE_TARGETS, type TestDb } from './targets.js';

const INIT = '20261121050000_init';
/** Every migration in the folder, in order (INIT first). */
const ALL = (await readMigrations()).map((m) => m.name);
const initChecksum = async (): Promise<string> =>
  createHash('sha256')
    .update(await readFile(join(DEFAULT_MIGRATIONS_DIR, INIT, 'migration.sql')))
    .digest('hex');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

const fresh = async (target: (typeof STORE_TARGETS)[number], options: Parameters<typeof openTestDb>[1] = {}): Promise<TestDb> => {
  const t = await openTestDb(target, { template: false, ...options });
  cleanups.push(t.drop);
  return t;
};

/** A private copy of the migrations folder the test may edit. */
const copyMigrations = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'arbiter-migrations-'));
  await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

const expectMigrationError = async (p: Promise<unknown>, code: string): Promise<MigrationError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(MigrationError);
  expect((e as MigrationError).code).toBe(code);
  return e as MigrationError;
};

describe.each(STORE_TARGETS)('migrations on $kind', (target) => {
  if (target.kind === 'postgres') {
    it('reaches the Postgres server', () => {
      expect(target.unreachable, `Postgres at ${target.url}`).toBeUndefined();
    });
  }

  it('applies to an empty database and records each migration as Prisma does', async () => {
    const { db } = await fresh(target, { migrate: false });
    const report = await migrate(db);
    expect(report).toEqual({ applied: ALL, alreadyApplied: [], unknown: [] });

    const rows = await db.withSession((s) =>
      s.query<{
        id: string;
        checksum: string;
        migration_name: string;
        logs: string | null;
        applied_steps_count: number;
        finished: boolean;
        rolled_back_at: unknown;
      }>(
        `SELECT id, checksum, migration_name, logs, applied_steps_count, rolled_back_at,
                finished_at IS NOT NULL AND finished_at >= started_at AS finished
           FROM _prisma_migrations ORDER BY migration_name`,
      ),
    );
    expect(rows.map((r) => r.migration_name)).toEqual(ALL);
    const row = rows[0]!;
    expect(row.migration_name).toBe(INIT);
    expect(row.checksum).toBe(await initChecksum());
    expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(row).toMatchObject({ logs: null, applied_steps_count: 1, finished: true, rolled_back_at: null });

    const tables = await db.withSession((s) =>
      s.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
      ),
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      '_prisma_migrations',
      'api_keys',
      'challenges',
      'game_events',
      'game_secrets',
      'games',
      'idempotency_keys',
      'lexicon_uploads',
      'lexicons',
      'login_failures',
      'matches',
      'notification_preferences',
      'notifications',
      'oauth_apps',
      'oauth_records',
      'organization_directors',
      'organizations',
      'outbox',
      'pairing_requests',
      'player_emails',
      'player_ratings',
      'players',
      'push_subscriptions',
      'rate_limit_buckets',
      'rating_changes',
      'seats',
      'seeks',
      'sessions',
      'stream_presence',
      'tournament_events',
      'tournament_players',
      'tournaments',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_subscriptions',
    ]);
  });

  it("creates _prisma_migrations with Prisma's columns", async () => {
    const { db } = await fresh(target);
    const columns = await db.withSession((s) =>
      s.query<{ column_name: string; data_type: string; is_nullable: string; character_maximum_length: number | null }>(
        `SELECT column_name, data_type, is_nullable, character_maximum_length FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      ),
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', is_nullable: 'NO', character_maximum_length: 36 },
      { column_name: 'checksum', data_type: 'character varying', is_nullable: 'NO', character_maximum_length: 64 },
      { column_name: 'finished_at', data_type: 'timestamp with time zone', is_nullable: 'YES', character_maximum_length: null },
      { column_name: 'migration_name', data_type: 'character varying', is_nullable: 'NO', character_maximum_length: 255 },
      { column_name: 'logs', data_type: 'text', is_nullable: 'YES', character_maximum_length: null },
      { column_name: 'rolled_back_at', data_type: 'timestamp with time zone', is_nullable: 'YES', character_maximum_length: null },
      { column_name: 'started_at', data_type: 'timestamp with time zone', is_nullable: 'NO', character_maximum_length: null },
      { column_name: 'applied_steps_count', data_type: 'integer', is_nullable: 'NO', character_maximum_length: null },
    ]);
  });

  it('is a no-op when run again', async () => {
    const { db } = await fresh(target);
    expect(db.migrations).toEqual({ applied: ALL, alreadyApplied: [], unknown: [] });
    expect(await migrate(db)).toEqual({ applied: [], alreadyApplied: ALL, unknown: [] });
    const [count] = await db.withSession((s) => s.query<{ n: number }>('SELECT count(*)::int AS n FROM _prisma_migrations'));
    expect(count!.n).toBe(ALL.length);
  });

  it('applies each migration once when two migrators start together', async () => {
    const t = await fresh(target, { migrate: false });
    const db = t.db;
    // On Postgres the second migrator has its own pool (another process, in effect); PGlite has one connection.
    const second = target.kind === 'postgres' ? await t.reopen({ migrate: false }) : db;
    const reports = await Promise.all([migrate(db), migrate(second)]);
    expect(reports.map((r) => r.applied.length).sort()).toEqual([0, ALL.length]);
    const [count] = await db.withSession((s) => s.query<{ n: number }>('SELECT count(*)::int AS n FROM _prisma_migrations'));
    expect(count!.n).toBe(ALL.length);
  });

  it('refuses when an applied migration was edited afterwards', async () => {
    const dir = await copyMigrations();
    const { db } = await fresh(target, { migrationsDir: dir });
    await appendFile(join(dir, INIT, 'migration.sql'), '\n-- edited\n');
    const e = await expectMigrationError(migrate(db, { migrationsDir: dir }), 'MIGRATION_CHECKSUM_MISMATCH');
    expect(e.details).toMatchObject({ migration: INIT, expected: await initChecksum() });
  });

  it('accepts an applied migration whose line endings changed to CRLF (as Prisma does)', async () => {
    const dir = await copyMigrations();
    const { db } = await fresh(target, { migrationsDir: dir });
    const file = join(dir, INIT, 'migration.sql');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/\n/g, '\r\n'));
    expect(await migrate(db, { migrationsDir: dir })).toEqual({ applied: [], alreadyApplied: ALL, unknown: [] });
  });

  it('records a failing migration as unfinished, keeps none of its changes, and refuses to go on', async () => {
    const dir = await copyMigrations();
    const bad = '20261121060000_bad';
    await mkdir(join(dir, bad));
    await writeFile(join(dir, bad, 'migration.sql'), 'CREATE TABLE "half_done" ("id" INTEGER);\nSELECT * FROM "no_such_table";\n');
    const { db } = await fresh(target, { migrate: false });

    const e = await expectMigrationError(migrate(db, { migrationsDir: dir }), 'MIGRATION_FAILED');
    expect(e.details).toMatchObject({ migration: bad });
    const rows = await db.withSession((s) =>
      s.query<{ migration_name: string; finished_at: unknown; logs: string | null; applied_steps_count: number }>(
        'SELECT migration_name, finished_at, logs, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
      ),
    );
    expect(rows.map((r) => [r.migration_name, r.finished_at === null, r.applied_steps_count])).toEqual([
      [INIT, false, 1],
      [bad, true, 0],
    ]);
    expect(rows[1]!.logs).toContain('no_such_table');
    const [halfDone] = await db.withSession((s) => s.query<{ t: string | null }>(`SELECT to_regclass('half_done')::text AS t`));
    expect(halfDone!.t).toBeNull();

    await expectMigrationError(migrate(db, { migrationsDir: dir }), 'MIGRATION_PREVIOUSLY_FAILED');
  });

  it('reports migrations the database has but the folder does not', async () => {
    const dir = await copyMigrations();
    const later = '29991231000000_later'; // newer than every real migration
    await mkdir(join(dir, later));
    await writeFile(join(dir, later, 'migration.sql'), 'CREATE TABLE "later_table" ("id" INTEGER);\n');
    const { db } = await fresh(target, { migrationsDir: dir });
    expect(db.migrations?.applied).toEqual([...ALL, later]);
    expect(await migrate(db)).toEqual({ applied: [], alreadyApplied: ALL, unknown: [later] });
  });
});
