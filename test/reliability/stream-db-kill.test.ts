/**
 * Resume without loss when the database connections die (issue 31; heavy: `npm run test:reliability`).
 * The API runs as a child process on a fresh Postgres schema, every connection it opens named with this
 * test's own `application_name` (the URL's parameter, which node-postgres puts on the pool's connections
 * and the LISTEN connection alike), so that `pg_terminate_backend` kills this test's backends and never
 * another's. A spectator follows the game like EventSource while the players take turns; five times
 * during play every backend of the server is killed — the LISTEN connection (store/db.ts reopens it after
 * a second and wakes every stream to re-read) and the pool's (a statement in flight fails: a turn is
 * retried with its idempotency key, a stream ends with `close` and the client resumes with
 * Last-Event-ID). The stream must get every version exactly once, in order.
 *
 * And wake-ups must resume, not the 30 s safety-net poll take over: each turn's events must reach the
 * client within {@link BOUND_MS} of the turn's answer, killed connections or not — the client's retry
 * (3 s, the server's `retry:`) plus the LISTEN reopen (1 s) plus 4 s of slack for a loaded machine, well
 * under the poll's 30 s. After the last kill, turns must arrive over the same connection within
 * {@link SETTLED_MS}: from a notification on the reopened LISTEN, as before any kill.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { GAME_EVENTS_CHANNEL } from '../../service/live-notifier.js';
import { recorder } from './summary.js';
import { STORE_TARGETS } from './world.js';
import {
  apiAt,
  follow,
  freshSchema,
  newGame,
  sleep,
  startServer,
  stopServer,
  takeTurn,
  upTo,
  versionsOf,
  type Taken,
} from './stream-world.js';

const rec = recorder('stream-db-kill');
afterAll(() => rec.flush());

const POSTGRES = STORE_TARGETS.filter((t) => t.kind === 'postgres');

const BOUND_MS = 8000;
const SETTLED_MS = 3000;

/** Kills every backend named `appName` (this test's server only); how many, and how many of them were LISTENing. */
const killBackends = async (admin: pg.Client, appName: string) => {
  const r = await admin.query<{ query: string }>(
    `SELECT pg_terminate_backend(pid), query FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
    [appName],
  );
  return { killed: r.rowCount ?? 0, listeners: r.rows.filter((x) => x.query.startsWith('LISTEN')).length };
};

describe('a stream while the database connections are killed', () => {
  if (POSTGRES.length === 0) {
    it('needs Postgres: set ARBITER_TEST_POSTGRES_URL or run one at the local default', () => {
      expect.fail('no Postgres reachable: the connection-kill test runs on a real database');
    });
  }

  it.each(POSTGRES)('on $kind: nothing lost or repeated, and wake-ups resume', async (target) => {
    if (target.unreachable !== undefined || !target.url) throw new Error(`Postgres at ${target.url} is unreachable: ${target.unreachable}`);
    const appName = `arbiter_rel_${randomBytes(5).toString('hex')}`;
    const { databaseUrl, drop } = freshSchema(target.url, { application_name: appName });
    const server = await startServer(databaseUrl);
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    const api = apiAt(() => server.base);
    const { players, game } = await newGame(api);
    const spectator = { handle: 'cy', ...(await api.register(`cy${game.id.slice(0, 6)}`)) };
    const stream = follow(() => server.base, game.id, spectator);
    try {
      expect(await stream.until(game.version, 10_000)).toBe(true);
      const taken: Taken[] = [];
      const play = async (n: number) => {
        for (let i = 0; i < n && !stream.state.stopped; i++) {
          const t = await takeTurn(api, players, game.id);
          if (!t) return;
          taken.push(t);
          rec.add('requestsSent', t.attempts);
        }
      };

      // Five rounds of kills while turns are played, at uneven moments: some land on a statement in flight.
      const playing = play(12);
      let listeners = 0;
      const killed: number[] = [];
      for (let round = 0; round < 5; round++) {
        await sleep(500 + Math.floor(Math.random() * 1000));
        const k = await killBackends(admin, appName);
        killed.push(k.killed);
        listeners += k.listeners;
        rec.add('faultsInjected', k.killed);
      }
      await playing;
      expect(
        killed.reduce((a, b) => a + b, 0),
        `backends killed per round: ${killed.join(', ')}`,
      ).toBeGreaterThanOrEqual(5);
      expect(listeners, 'the LISTEN connection was among the backends killed').toBeGreaterThan(0);
      expect(taken.length).toBeGreaterThanOrEqual(6);

      // Settled: the process listens again, and turns arrive over the open connection from notifications.
      await sleep(2000);
      const listening = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query = $2`, [
        appName,
        `LISTEN ${GAME_EVENTS_CHANNEL}`,
      ]);
      expect(listening.rowCount).toBe(1);
      const connection = stream.state.connections;
      const settledFrom = taken.length;
      await play(3);
      const last = taken.at(-1)!.to;
      expect(await stream.until(last, 20_000)).toBe(true);

      const got = versionsOf(stream.arrivals);
      rec.add('eventsLost', upTo(last).filter((v) => !got.includes(v)).length);
      expect(got).toEqual(upTo(last));
      const delay = (t: Taken) => stream.arrivals.find((a) => a.event.version === t.to)!.at - t.answeredAt;
      const delays = taken.map(delay);
      expect(Math.max(...delays), `delivery after each turn's answer (ms): ${delays.join(', ')}`).toBeLessThan(BOUND_MS);
      const settled = taken.slice(settledFrom);
      expect(settled.length).toBeGreaterThan(0);
      for (const t of settled) expect(delay(t)).toBeLessThan(SETTLED_MS);
      expect(stream.state.connections, 'no reconnect once settled').toBe(connection);
    } finally {
      await stream.stop();
      await admin.end();
      await stopServer(server);
      await drop();
    }
  });
});
