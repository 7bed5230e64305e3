/**
 * Resume without loss across a server restart (issue 31; heavy: `npm run test:reliability`). A spectator
 * holds the game's event stream (GET /v1/games/{id}/events) like EventSource while the players take turns.
 * The server process dies twice mid-game: once killing itself right after a turn commits (before the
 * stream could send that turn, or the player hear of it), once killed from outside at a moment of no
 * choosing. Each time a new process on the same database takes over; the player retries with the same
 * idempotency key and plays on there, the stream client reconnects there with `Last-Event-ID`. What it
 * got over its connections must be every version exactly once, in order, and the same events a fresh
 * stream of the whole log sends.
 */
import { afterAll, describe, expect, it } from 'vitest';
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
  type Server,
  type Taken,
} from './stream-world.js';

const rec = recorder('stream-restart');
afterAll(() => rec.flush());

const POSTGRES = STORE_TARGETS.filter((t) => t.kind === 'postgres');

describe('a stream resumed across a server restart', () => {
  if (POSTGRES.length === 0) {
    it('needs Postgres: set ARBITER_TEST_POSTGRES_URL or run one at the local default', () => {
      expect.fail('no Postgres reachable: the restart test runs a server process on a real database');
    });
  }

  it.each(POSTGRES)('on $kind: every version once, in order, across two killed processes', async (target) => {
    if (target.unreachable !== undefined || !target.url) throw new Error(`Postgres at ${target.url} is unreachable: ${target.unreachable}`);
    const { databaseUrl, drop } = freshSchema(target.url);
    const servers: Server[] = [];
    let current: Server = await startServer(databaseUrl, 3); // dies right after its third turn commits
    servers.push(current);
    const api = apiAt(() => current.base);
    const { players, game } = await newGame(api);
    rec.add('requestsSent', 4);
    const spectator = { handle: 'cy', ...(await api.register(`cy${game.id.slice(0, 6)}`)) };
    const stream = follow(() => current.base, game.id, spectator);
    try {
      expect(await stream.until(game.version, 10_000)).toBe(true);
      const taken: Taken[] = [];
      const play = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const t = await takeTurn(api, players, game.id);
          if (!t) return;
          taken.push(t);
          rec.add('requestsSent', t.attempts);
        }
      };

      // Turns 1-2 answered; turn 3 commits and the process dies before answering.
      const first = current;
      const playing = play(5);
      const died = await first.exited;
      expect(died).toEqual({ code: null, signal: 'SIGKILL' });
      rec.add('faultsInjected');
      current = await startServer(databaseUrl);
      servers.push(current);
      await playing; // turn 3's retry on the new process gets the committed answer; turns 4-5 there

      // Killed from outside while a turn is in flight.
      const second = current;
      const more = play(6);
      await sleep(300);
      second.proc.kill('SIGKILL');
      await second.exited;
      rec.add('faultsInjected');
      current = await startServer(databaseUrl);
      servers.push(current);
      await more;

      const last = taken.at(-1)!.to;
      expect(taken.length).toBeGreaterThanOrEqual(8);
      expect(await stream.until(last, 20_000)).toBe(true);
      await stream.stop();
      const got = versionsOf(stream.arrivals);
      rec.add('eventsLost', upTo(last).filter((v) => !got.includes(v)).length);
      expect(got).toEqual(upTo(last));
      // It did reconnect: its events came over more than one connection.
      expect(new Set(stream.arrivals.map((a) => a.connection)).size).toBeGreaterThan(1);

      // The same events, field for field, as a fresh stream of the whole log sends.
      const fresh = follow(() => current.base, game.id, spectator);
      expect(await fresh.until(last, 10_000)).toBe(true);
      await fresh.stop();
      expect(stream.arrivals.map((a) => a.event)).toEqual(fresh.arrivals.map((a) => a.event));
    } finally {
      await stream.stop();
      for (const s of servers) await stopServer(s);
      await drop();
    }
  });
});
