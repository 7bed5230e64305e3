/**
 * Test-only: the API on a local HTTP server (as functions/server.ts, on the Postgres at DATABASE_URL),
 * for the process-kill and stream tests. With ARBITER_TEST_CRASH_AFTER_COMMIT=n (n ≥ 1) the process kills itself
 * with SIGKILL right after the n-th turn commits — the turn's commit statement (store/turn-statements.ts)
 * answering that it wrote, or a transaction returning a `runTurn` outcome that appended events (a
 * match's last game) — after the commit, before any response is written. No seam in the app: the
 * database handle given to `createApp` is wrapped here. Prints `{"port": n}` once listening.
 */
import { createServer } from 'node:http';
import { createApp } from '../../functions/app.js';
import { createDb, type Db } from '../../store/db.js';
import { TURN_STATEMENTS } from '../../store/turn-statements.js';

export const CRASH_AFTER_COMMIT_ENV = 'ARBITER_TEST_CRASH_AFTER_COMMIT';

/** A committed turn: `runTurn`'s `ok({ replayed: false, version, events, … })` (nothing else returns that shape). */
const isCommittedTurn = (r: unknown): boolean => {
  if (typeof r !== 'object' || r === null || (r as { ok?: unknown }).ok !== true) return false;
  const v = (r as { value?: unknown }).value;
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { replayed?: unknown }).replayed === false &&
    Array.isArray((v as { events?: unknown }).events) &&
    (v as { events: unknown[] }).events.length > 0
  );
};

const real = await createDb({ databaseUrl: process.env['DATABASE_URL'] ?? '' });
const crashAt = Number(process.env[CRASH_AFTER_COMMIT_ENV] ?? 0);
const crash = crashAt >= 1;
let commits = 0;
const die = async (): Promise<never> => {
  process.stderr.write('crash-server: a turn committed; SIGKILL before responding\n');
  process.kill(process.pid, 'SIGKILL');
  return new Promise<never>(() => undefined); // never returns: the signal ends the process
};
const db: Db = crash
  ? {
      ...real,
      transaction: async (fn) => {
        const r = await real.transaction(fn);
        return isCommittedTurn(r) && ++commits >= crashAt ? die() : r;
      },
      statement: async <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) => {
        const rows = await real.statement<R>(name, sql, params);
        const committed = name === TURN_STATEMENTS.commit && Number((rows[0] as { committed?: unknown } | undefined)?.committed) > 0;
        return committed && ++commits >= crashAt ? die() : rows;
      },
    }
  : real;
const app = await createApp({ db, logError: (e) => process.stderr.write(`crash-server: unexpected error ${String(e)}\n`) });
const server = createServer(app.yoga);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close();
  void app
    .close()
    .then(() => real.close())
    .then(() => process.exit(0));
});
