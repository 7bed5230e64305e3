import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Arbiter's own migrator. It applies `migrations/<timestamp>_<name>/migration.sql` in name order and
 * records each in Prisma's `_prisma_migrations` table with Prisma's columns and meaning, so that
 * `prisma migrate deploy/status` on a machine with Prisma's schema engine sees the same state.
 * We need it because the schema engine (a native binary) is not available everywhere Arbiter runs —
 * offline machines, PGlite, Lambda.
 */

/** The folder holding the migrations, resolved from this file so it works from any working directory. */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/**
 * The advisory-lock key Prisma's schema engine takes while migrating Postgres. Using the same key makes
 * our migrator and `prisma migrate deploy` exclude each other as well as two Arbiter processes.
 */
export const MIGRATION_LOCK_KEY = 72707369;

/** One connection's worth of SQL: the advisory lock is held per session, so everything runs on one. */
export interface SqlSession {
  query<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a script of several statements without parameters. */
  exec(script: string): Promise<void>;
  /** Runs `fn` inside BEGIN … COMMIT on this session (ROLLBACK when it throws). */
  transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
}

/** Hands out a session for the duration of `fn` (a pooled connection, or the single PGlite one). */
export interface SqlSessionSource {
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
}

export interface LocalMigration {
  /** Folder name, e.g. `20261121050000_init`; also the `migration_name` recorded. */
  readonly name: string;
  readonly sql: string;
  /** sha256 of the file, lowercase hex (Prisma's `checksum`). */
  readonly checksum: string;
}

export interface MigrateReport {
  /** Migrations this run applied, in order. */
  readonly applied: readonly string[];
  /** Migrations that were already applied before this run. */
  readonly alreadyApplied: readonly string[];
  /** Recorded in the database but absent from the migrations folder (a newer build migrated it). */
  readonly unknown: readonly string[];
}

export const MIGRATION_ERROR_CODES = [
  /** An applied migration's file no longer matches the checksum recorded when it was applied. */
  'MIGRATION_CHECKSUM_MISMATCH',
  /** A migration failed earlier and is recorded unfinished; resolve it by hand (as Prisma's P3009). */
  'MIGRATION_PREVIOUSLY_FAILED',
  /** A migration's SQL failed in this run; its row stays unfinished with the error in `logs`. */
  'MIGRATION_FAILED',
  /** The migrations folder is missing or holds a folder without `migration.sql`. */
  'MIGRATIONS_UNREADABLE',
] as const;
export type MigrationErrorCode = (typeof MIGRATION_ERROR_CODES)[number];

/** Thrown by {@link migrate}: a database that cannot be brought to the code's schema is a broken invariant for start-up. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  constructor(
    readonly code: MigrationErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Like Prisma, accept a file whose line endings were converted (git autocrlf) since it was applied.
 */
export const checksumMatches = (sql: string, checksum: string): boolean => {
  const lf = sql.replace(/\r\n/g, '\n');
  return [sql, lf, lf.replace(/\n/g, '\r\n')].some((variant) => sha256Hex(variant) === checksum);
};

/** Reads the migrations folder (Prisma layout). Folders sort by name, which starts with a timestamp. */
export const readMigrations = async (dir: string = DEFAULT_MIGRATIONS_DIR): Promise<LocalMigration[]> => {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (cause) {
    throw new MigrationError('MIGRATIONS_UNREADABLE', `The migrations folder ${dir} cannot be read.`, { dir, cause: String(cause) });
  }
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrations: LocalMigration[] = [];
  for (const name of names) {
    const file = join(dir, name, 'migration.sql');
    let sql: string;
    try {
      sql = await readFile(file, 'utf8');
    } catch (cause) {
      throw new MigrationError('MIGRATIONS_UNREADABLE', `Migration ${name} has no readable migration.sql.`, { file, cause: String(cause) });
    }
    migrations.push({ name, sql, checksum: sha256Hex(sql) });
  }
  return migrations;
};

/** Prisma's own DDL for its bookkeeping table (schema engine, Postgres connector). */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface MigrationRow extends Record<string, unknown> {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

export interface MigrateOptions {
  /** Defaults to {@link DEFAULT_MIGRATIONS_DIR}. */
  readonly migrationsDir?: string;
}

/**
 * Brings the database up to the migrations folder. Idempotent; holds {@link MIGRATION_LOCK_KEY} for the
 * whole run so concurrent starters apply each migration once. Checks every applied migration's checksum
 * before applying anything. Each migration runs in its own transaction; its `_prisma_migrations` row is
 * written before (started, 0 steps) and completed after (finished_at, 1 step), as Prisma does, so a
 * failure leaves an unfinished row with the error in `logs`.
 * @throws MigrationError
 */
export const migrate = async (source: SqlSessionSource, options: MigrateOptions = {}): Promise<MigrateReport> => {
  const local = await readMigrations(options.migrationsDir);
  return source.withSession(async (s) => {
    await s.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await s.exec(CREATE_MIGRATIONS_TABLE);
      const rows = await s.query<MigrationRow>(
        'SELECT "id", "checksum", "migration_name", "finished_at", "rolled_back_at" FROM "_prisma_migrations" ORDER BY "started_at", "migration_name"',
      );
      const failed = rows.find((r) => r.finished_at === null && r.rolled_back_at === null);
      if (failed) {
        throw new MigrationError(
          'MIGRATION_PREVIOUSLY_FAILED',
          `Migration ${failed.migration_name} failed earlier and is unfinished in _prisma_migrations; fix the database and mark it rolled back or applied.`,
          { migration: failed.migration_name, id: failed.id },
        );
      }
      const applied = new Map(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => [r.migration_name, r]));
      for (const m of local) {
        const row = applied.get(m.name);
        if (row && !checksumMatches(m.sql, row.checksum)) {
          throw new MigrationError(
            'MIGRATION_CHECKSUM_MISMATCH',
            `Migration ${m.name} was changed after it was applied (checksum ${m.checksum}, recorded ${row.checksum}); add a new migration instead.`,
            { migration: m.name, expected: row.checksum, actual: m.checksum },
          );
        }
      }
      const localNames = new Set(local.map((m) => m.name));
      const report = {
        applied: [] as string[],
        alreadyApplied: local.filter((m) => applied.has(m.name)).map((m) => m.name),
        unknown: [...applied.keys()].filter((name) => !localNames.has(name)),
      };
      for (const m of local.filter((l) => !applied.has(l.name))) {
        const id = randomUUID();
        await s.query(
          'INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "applied_steps_count") VALUES ($1, $2, $3, now(), 0)',
          [id, m.checksum, m.name],
        );
        try {
          await s.transaction(async (tx) => {
            await tx.exec(m.sql);
            await tx.query(
              'UPDATE "_prisma_migrations" SET "finished_at" = now(), "applied_steps_count" = "applied_steps_count" + 1 WHERE "id" = $1',
              [id],
            );
          });
        } catch (cause) {
          const message = cause instanceof Error ? cause.message : String(cause);
          await s.query('UPDATE "_prisma_migrations" SET "logs" = $2 WHERE "id" = $1', [id, message]);
          throw new MigrationError('MIGRATION_FAILED', `Migration ${m.name} failed: ${message}`, { migration: m.name, id, error: message });
        }
        report.applied.push(m.name);
      }
      return report;
    } finally {
      await s.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
};
