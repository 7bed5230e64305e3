/**
 * The migration Lambda: brings the database up to the migrations shipped in its bundle with the
 * project's own migrator (store/migrate.ts). The stack runs it from a CDK Trigger on every deployment
 * that changes it (new migrations change its bundle), before the API function's new code goes live;
 * a throw fails the deployment. Idempotent: an up-to-date database is left as it is. It then records
 * the lexicons shipped beside it in the database (games reference them by name and hash), so that the
 * API does not have to at each cold start (functions/runtime.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LexiconDir } from '../store/lexicon-files.js';
import { loadLexiconRegistry, registerLexicons, type LexiconRegistry } from '../service/lexicons.js';
import { createDb, type CreateDbOptions, type Db } from '../store/db.js';
import { MigrationError, type MigrateReport } from '../store/migrate.js';
import { resolveDatabaseUrl } from './secrets.js';

/** scripts/build.ts copies `migrations/` next to the bundle; from source, store/migrate.ts finds its own. */
const BUNDLED_MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url));
/** The same for the lexicons (the API's bundle ships the same files); from source, the usual search directories. */
const BUNDLED_LEXICONS = fileURLToPath(new URL('./lexicons/', import.meta.url));

const shippedLexicons = (): LexiconRegistry =>
  existsSync(BUNDLED_LEXICONS)
    ? loadLexiconRegistry([{ path: BUNDLED_LEXICONS, origin: 'shipped' } satisfies LexiconDir])
    : loadLexiconRegistry();

export interface MigrateHandlerDeps {
  readonly resolveUrl?: () => Promise<string>;
  /** Opens (and migrates) the database; default `createDb`. */
  readonly open?: (options: CreateDbOptions) => Promise<Db>;
  readonly migrationsDir?: string;
  /** The lexicons to register after migrating; default those shipped beside the bundle. */
  readonly lexicons?: () => LexiconRegistry;
  /**
   * Connection attempts before giving up: on a first deployment the proxy may still be registering
   * its target when the trigger fires, and a paused cluster takes seconds to resume.
   */
  readonly attempts?: number;
  readonly delayMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly log?: (line: string) => void;
}

export interface MigrateRunLog extends MigrateReport {
  readonly msg: 'migrate.done';
  /** The lexicons registered (name:hash prefix). */
  readonly lexicons: readonly string[];
  readonly attempts: number;
  readonly ms: number;
}

export const createMigrateHandler =
  (deps: MigrateHandlerDeps = {}) =>
  async (): Promise<MigrateRunLog> => {
    const started = Date.now();
    const attempts = deps.attempts ?? 6;
    const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const log = deps.log ?? console.log;
    const open = deps.open ?? createDb;
    const migrationsDir = deps.migrationsDir ?? (existsSync(BUNDLED_MIGRATIONS) ? BUNDLED_MIGRATIONS : undefined);
    const databaseUrl = await (deps.resolveUrl ?? (() => resolveDatabaseUrl()))();
    for (let attempt = 1; ; attempt++) {
      let db: Db;
      try {
        db = await open({ databaseUrl, migrate: true, ...(migrationsDir === undefined ? {} : { migrationsDir }) });
      } catch (e) {
        // A migration that fails is final (retrying would hit the same SQL); anything else is taken for a connection problem.
        if (e instanceof MigrationError || attempt >= attempts) throw e;
        log(JSON.stringify({ msg: 'migrate.retry', attempt, error: e instanceof Error ? e.message : String(e) }));
        await sleep((deps.delayMs ?? 5_000) * attempt);
        continue;
      }
      try {
        const report = db.migrations ?? { applied: [], alreadyApplied: [], unknown: [] };
        const lexicons = (deps.lexicons ?? shippedLexicons)();
        await registerLexicons(db.prisma, lexicons);
        const registered = lexicons.all.map((l) => `${l.name}:${l.hash.slice(0, 12)}`);
        const line: MigrateRunLog = { msg: 'migrate.done', ...report, lexicons: registered, attempts: attempt, ms: Date.now() - started };
        log(JSON.stringify(line));
        return line;
      } finally {
        await db.close();
      }
    }
  };

/** The Lambda entry point (invoked by the deployment trigger; the event carries nothing we need). */
export const handler = createMigrateHandler();
