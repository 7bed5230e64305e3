/**
 * The server side of bench/turnpath.ts, in its own process (forked with an IPC channel) so that its
 * CPU time (process.cpuUsage) and its CPU profile (--cpu-prof) hold the server alone, not the load
 * generator. It serves the API of bench/server.ts on `BENCH_BACKEND` (postgres | pglite) and answers
 * the parent's requests: games to create, the service-level loop, the bare commits, its CPU time.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { submitTurn } from '../service/turns.js';
import { installPgliteClock, mainThread, type PgliteClock } from './pglite-clock.js';
import { procMicros } from './proc.js';
import { startBenchServer, summarize, type BenchBackend, type BenchPlayer, type BenchServer, type Latencies } from './server.js';

export type { Latencies };

export type TurnServerRequest =
  | { readonly kind: 'games'; readonly count: number }
  | { readonly kind: 'service'; readonly turns: number }
  | { readonly kind: 'bare'; readonly concurrency: number; readonly seconds: number }
  /** `profile`: start V8's CPU profiler (BENCH_CPU_PROF set), or stop it and write `<dir>/turnpath-<backend>.cpuprofile`. */
  | { readonly kind: 'cpu'; readonly profile?: 'start' | 'stop' }
  | { readonly kind: 'close' };

export type TurnServerReply =
  | { readonly kind: 'ready'; readonly port: number; readonly players: readonly [BenchPlayer, BenchPlayer] }
  | { readonly kind: 'games'; readonly games: readonly { id: string; version: number }[] }
  | { readonly kind: 'service'; readonly turn: Latencies; readonly bare: Latencies }
  | { readonly kind: 'bare'; readonly bare: Latencies }
  /**
   * Microseconds of CPU (user + system; `systemMicros` the kernel's share, which on loopback includes the
   * receiving side's TCP path) since the process started, the resident set in bytes, and (on
   * Postgres) the CPU microseconds of the database backends serving the app's pool (null on PGlite, whose
   * database runs inside `micros`). On PGlite, `pglite` is the time inside its synchronous protocol calls
   * (bench/pglite-clock.ts: the embedded database's CPU, inside `micros`) and how many calls, and the
   * main thread's CPU (which bounds it) and its time waiting for a CPU (which bounds a preemption's share).
   */
  | {
      readonly kind: 'cpu';
      readonly micros: number;
      readonly systemMicros: number;
      readonly rss: number;
      readonly dbMicros: number | null;
      readonly pglite: {
        readonly micros: number;
        readonly wallMicros: number;
        readonly calls: number;
        readonly threadMicros: number;
        readonly waitMicros: number;
      } | null;
    }
  | { readonly kind: 'closed' };

/** One bare transaction, `BEGIN; INSERT one jsonb row; COMMIT`, on a session of the app's own pool (or PGlite's one connection). */
const bareCommit = (server: BenchServer, gameId: string, seq: number): Promise<unknown> =>
  server.app.services.db.withSession((s) =>
    s.transaction((t) =>
      t.query('INSERT INTO bench_commits (game_id, seq, payload) VALUES ($1, $2, $3)', [gameId, seq, JSON.stringify({ type: 'pass' })]),
    ),
  );

const runBare = async (server: BenchServer, concurrency: number, seconds: number): Promise<Latencies> => {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  const worker = async (): Promise<void> => {
    const gameId = randomUUID();
    for (let seq = 1; performance.now() < until; seq++) {
      const t0 = performance.now();
      try {
        await bareCommit(server, gameId, seq);
        latencies.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  return summarize(latencies, (performance.now() - started) / 1000, errors);
};

/**
 * service/turns.ts submitTurn called directly (no HTTP, no GraphQL, no token), one pass turn at a
 * time on one game, each followed by one bare commit, so both sides see the same load.
 */
const runService = async (server: BenchServer, players: readonly [BenchPlayer, BenchPlayer], turns: number) => {
  const game = await server.createGame(players[0], players[1]);
  const turn: number[] = [];
  const bare: number[] = [];
  let errors = 0;
  const started = performance.now();
  const bareGame = randomUUID();
  for (let i = 0; i < turns; i++) {
    const t0 = performance.now();
    const r = await submitTurn(server.app.services, players[i % 2]!.id, {
      gameId: game.id,
      expectedVersion: game.version,
      idempotencyKey: randomUUID(),
      action: { kind: 'pass' },
    });
    const t1 = performance.now();
    if (r.ok) {
      game.version = r.value.receipt.version;
      turn.push(t1 - t0);
    } else errors++;
    await bareCommit(server, bareGame, i + 1);
    bare.push(performance.now() - t1);
  }
  const seconds = (performance.now() - started) / 1000;
  return { turn: summarize(turn, seconds, errors), bare: summarize(bare, seconds, 0) };
};

/** The profiler runs only around the 64-game run, so that start-up, sign-ups and the other loops stay out of it. */
const session = new Session();
const profile = async (step: 'start' | 'stop', backend: BenchBackend): Promise<void> => {
  const dir = process.env['BENCH_CPU_PROF'];
  if (!dir) return;
  if (step === 'start') {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    return;
  }
  const { profile: p } = await session.post('Profiler.stop');
  writeFileSync(join(dir, `turnpath-${backend}.cpuprofile`), JSON.stringify(p));
  session.disconnect();
};

const POOL = Number(process.env['ARBITER_DB_POOL_MAX'] ?? 10);
let backendPids: number[] = [];

/** The CPU of the pool's backends: holds every pooled connection at once to learn their pids (first call), then reads /proc. */
const backendMicros = async (server: BenchServer): Promise<number | null> => {
  if (server.app.services.db.kind !== 'postgres') return null;
  if (!backendPids.length) {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let arrived = 0;
    const pids = Promise.all(
      Array.from({ length: POOL }, () =>
        server.app.services.db.withSession(async (s) => {
          const [row] = await s.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          if (++arrived === POOL) release();
          await held;
          return row!.pid;
        }),
      ),
    );
    backendPids = await pids;
  }
  return backendPids.reduce((sum, pid) => sum + procMicros(pid), 0);
};

/** The main thread's CPU and wait, as the `cpu` reply names them. */
const threadOf = ({ cpuMicros, waitMicros }: ReturnType<typeof mainThread>) => ({ threadMicros: cpuMicros, waitMicros });

const main = async (): Promise<void> => {
  const backend = (process.env['BENCH_BACKEND'] ?? 'postgres') as BenchBackend;
  // Before the app opens PGlite: the clock wraps its prototype.
  const clock: PgliteClock | null = backend === 'pglite' ? await installPgliteClock() : null;
  const server = await startBenchServer(`bench_turnpath_${process.pid}`, backend);
  const send = (m: TurnServerReply): void => {
    process.send!(m);
  };
  await server.app.services.db.withSession((s) =>
    s.exec(
      'CREATE TABLE bench_commits (id bigserial PRIMARY KEY, game_id uuid NOT NULL, seq int NOT NULL, payload jsonb NOT NULL, created_at timestamptz(3) NOT NULL DEFAULT now())',
    ),
  );
  const players = [await server.register('bench-a'), await server.register('bench-b')] as const;
  process.on('message', (m: TurnServerRequest) => {
    void (async () => {
      switch (m.kind) {
        case 'games': {
          const games = [];
          for (let i = 0; i < m.count; i++) games.push(await server.createGame(players[0], players[1]));
          return send({ kind: 'games', games });
        }
        case 'service':
          return send({ kind: 'service', ...(await runService(server, players, m.turns)) });
        case 'bare':
          return send({ kind: 'bare', bare: await runBare(server, m.concurrency, m.seconds) });
        case 'cpu': {
          if (m.profile) await profile(m.profile, backend);
          const u = process.cpuUsage();
          return send({
            kind: 'cpu',
            micros: u.user + u.system,
            systemMicros: u.system,
            rss: process.memoryUsage.rss(),
            dbMicros: await backendMicros(server),
            pglite: clock && {
              micros: clock.micros(),
              wallMicros: clock.wallMicros(),
              calls: clock.calls(),
              ...threadOf(mainThread()),
            },
          });
        }
        case 'close':
          if (server.loggedErrors.length) console.error('turn-server: unexpected errors', server.loggedErrors.slice(0, 3));
          await server.close();
          send({ kind: 'closed' });
          // A normal exit, so that --cpu-prof writes its profile.
          process.disconnect();
      }
    })();
  });
  send({ kind: 'ready', port: server.port, players });
};

await main();
