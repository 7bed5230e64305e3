import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'graphql-yoga';
import type { AppServices } from '../../graph/context.js';
import { DEFAULT_MIGRATIONS_DIR, readMigrations } from '../../store/migrate.js';
import { metrics } from './metrics.js';
import { METRICS_PATH, READY_PATH } from './paths.js';

/**
 * The probes, answered before GraphQL or REST see the request:
 * - `GET /health`: liveness, answered by Yoga's own health check (its default `healthCheckEndpoint`:
 *   200, empty body) before any plugin runs; nothing else is asked (no database), so a slow database
 *   never gets a healthy container restarted.
 * - `GET /ready`: readiness. The database answers, every migration the code was built with is applied
 *   (none failed), and at least one lexicon is loaded. 503 with the failing checks otherwise.
 * - `GET /metrics` (the self-hosted server only, `metricsEndpoint`): the Prometheus text.
 */

/** The migrations beside the Lambda bundle (scripts/build.ts copies them), else the repository's folder. */
const BUNDLED_MIGRATIONS = fileURLToPath(new URL('./migrations/', import.meta.url));
const migrationsDir = () => (existsSync(BUNDLED_MIGRATIONS) ? BUNDLED_MIGRATIONS : DEFAULT_MIGRATIONS_DIR);

/** How long the database may take to answer the readiness query. */
export const READY_TIMEOUT_MS = 2000;

export type CheckResult = 'ok' | string;
export interface Readiness {
  readonly ready: boolean;
  readonly checks: { readonly database: CheckResult; readonly migrations: CheckResult; readonly lexicons: CheckResult };
}

interface MigrationRow {
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

let expected: Promise<readonly string[]> | undefined;

export const checkReadiness = async (services: Pick<AppServices, 'db' | 'lexicons'>, timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> => {
  const lexicons = services.lexicons.all.length > 0 ? 'ok' : 'no lexicon loaded';
  let rows: MigrationRow[];
  try {
    rows = await withTimeout(
      services.db.prisma.$queryRawUnsafe<MigrationRow[]>(
        'SELECT "migration_name", "finished_at", "rolled_back_at" FROM "_prisma_migrations"',
      ),
      timeoutMs,
    );
  } catch (e) {
    const why = e instanceof Error && e.message === 'timeout' ? `no answer within ${timeoutMs} ms` : 'unreachable or not migrated';
    return { ready: false, checks: { database: why, migrations: 'unknown', lexicons } };
  }
  expected ??= readMigrations(migrationsDir()).then((ms) => ms.map((m) => m.name));
  const applied = new Set(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => r.migration_name));
  const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null).map((r) => r.migration_name);
  const missing = (await expected).filter((name) => !applied.has(name));
  const migrations = failed.length ? `failed: ${failed.join(', ')}` : missing.length ? `pending: ${missing.join(', ')}` : 'ok';
  return { ready: migrations === 'ok' && lexicons === 'ok', checks: { database: 'ok', migrations, lexicons } };
};

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'cache-control': 'no-store' } });

export const useProbes = (services: Pick<AppServices, 'db' | 'lexicons'>, options: { metricsEndpoint?: boolean } = {}): Plugin => ({
  onRequest: ({ request, url, endResponse }) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (url.pathname === METRICS_PATH && options.metricsEndpoint) {
      return endResponse(
        new Response(metrics().prometheusText(), { headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' } }),
      );
    }
    if (url.pathname !== READY_PATH) return;
    return checkReadiness(services).then((r) =>
      endResponse(json({ status: r.ready ? 'ready' : 'not ready', checks: r.checks }, r.ready ? 200 : 503)),
    );
  },
});
