/**
 * The 64-game run of bench/turnpath.ts served by `npm start` as a cluster (issue #17): functions/server.ts
 * itself with ARBITER_WORKERS=2 (functions/cluster.ts), set up through its environment alone (a fresh
 * schema in DATABASE_URL, a known JWT secret, rate limits off, no demo seed; endless games are the
 * createGame overrides the client sends), and the same `npm start` in one process to compare it with.
 * Its figures are summed over the primary and every worker (/proc, bench/proc.ts), since no one process
 * holds them. Three loads:
 * - `autocannon`: the single-process run's load (bench/persistence.ts runStack), one keep-alive
 *   connection per game, so each game sticks to the worker that accepted its connection;
 * - `one connection` and `two connections`: a plain node:http client playing each game over one
 *   keep-alive connection, or over two opened one after the other (the primary hands connections to
 *   the workers in turn, so they land on different workers) that the game's turns take in turn: then
 *   every turn reaches the process that did not play the one before, whose game cache
 *   (service/log-cache.ts) is behind, and the turn takes its two-statement path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensureShippedLexicons } from '../scripts/build-lexicons.js';
import { runStack, TURNS_PER_GAME, type Lane, type LevelResult } from './persistence.js';
import { procMicros, procRss, processTree } from './proc.js';
import {
  BENCH_JWT_SECRET,
  benchClient,
  dropSchema,
  poolMax,
  postgresUrl,
  SUBMIT_TURN,
  summarize,
  withSchema,
  type BenchPlayer,
} from './server.js';
import type { BenchRow } from './types.js';

export const WORKERS = 2;
export type ClusterLoad = 'autocannon' | 'one connection' | 'two connections';
/** One `npm start` to measure: how many processes serve, under which load. */
export interface ClusterRun {
  readonly workers: number;
  readonly load: ClusterLoad;
}
/** `npm start` alone first: the same server path (request scope, metrics) as the cluster's workers, in one process. */
export const CLUSTER_RUNS: readonly ClusterRun[] = [
  { workers: 1, load: 'autocannon' },
  { workers: WORKERS, load: 'autocannon' },
  { workers: WORKERS, load: 'one connection' },
  { workers: WORKERS, load: 'two connections' },
];

export interface ClusterFigures extends ClusterRun {
  readonly stack: LevelResult;
  /** CPU of the primary and all workers over the run ÷ turns, and the primary's share of it. */
  readonly cpuMsPerTurn: number;
  readonly primaryMsPerTurn: number;
  /** CPU of the Postgres backends serving the cluster's pools over the run ÷ turns. */
  readonly dbCpuMsPerTurn: number;
  /** The load generator's CPU (this process) over the run ÷ turns: the third user of the machine's cores. */
  readonly clientMsPerTurn: number;
  /** Turns that read their game first (the two-statement path): reads of game_secrets ÷ turns. */
  readonly twoStatementShare: number;
  readonly rssMiB: number;
  readonly loadAvg: readonly [number, number];
}

/** Connections of one worker's pool: the cluster's total is the bare baseline's pool (poolMax()). */
export const workerPool = (workers: number): number => Math.max(1, Math.floor(poolMax() / workers));

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

interface RunningCluster {
  readonly proc: ChildProcess;
  readonly port: number;
  stop(): Promise<void>;
}

/** `node --import tsx functions/server.ts` (what `npm start` runs after its build steps) with ARBITER_WORKERS; resolves once every worker listens. */
const startCluster = async (databaseUrl: string, workers: number): Promise<RunningCluster> => {
  ensureShippedLexicons();
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-cluster-bench-'));
  const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../functions/server.ts', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      ARBITER_WORKERS: String(workers),
      ARBITER_DB_POOL_MAX: String(workerPool(workers)),
      ARBITER_JWT_SECRET: BENCH_JWT_SECRET,
      ARBITER_RATE_LIMITS: 'off',
      ARBITER_LOGIN_BACKOFF: 'off',
      ARBITER_SEED_DEMO: '0',
      ARBITER_DATA_DIR: dataDir,
      // The single-process bench server writes no request lines either: the comparison is of the cluster alone.
      ARBITER_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  // One process prints its banner when it listens; a cluster's primary, when the last worker does.
  const ready = workers > 1 ? `${workers} workers listening` : 'Arbiter API on';
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (seen.includes(ready)) resolve();
    });
    void exited.then((code) => reject(new Error(`the cluster exited (${code}) before listening: ${seen}`)));
  });
  return {
    proc,
    port,
    stop: async () => {
      proc.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

const postTurn = (port: number, agent: http.Agent, body: string, token: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        agent,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });

/**
 * Each game played TURNS_PER_GAME pass turns, one at a time, over `connections` keep-alive connections of
 * its own that its turns take in turn. The connections are opened one after the other, each with a first
 * request, so that the primary's round robin gives a game's two connections to different workers.
 */
const runOwnClient = async (
  port: number,
  players: readonly [BenchPlayer, BenchPlayer],
  games: readonly { id: string; version: number }[],
  connections: number,
  maxSeconds: number,
): Promise<LevelResult> => {
  const agents: http.Agent[][] = [];
  for (const _ of games) {
    const own: http.Agent[] = [];
    for (let c = 0; c < connections; c++) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      await postTurn(port, agent, JSON.stringify({ query: '{ __typename }' }), players[0].token);
      own.push(agent);
    }
    agents.push(own);
  }
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + maxSeconds * 1000;
  const play = async (game: { id: string; version: number }, own: http.Agent[]): Promise<void> => {
    for (let turn = 0; turn < TURNS_PER_GAME && performance.now() < until; turn++) {
      const input = {
        gameId: game.id,
        expectedVersion: game.version,
        idempotencyKey: randomUUID(),
        action: { pass: true },
      };
      const t0 = performance.now();
      const res = await postTurn(
        port,
        own[turn % own.length]!,
        JSON.stringify({ query: SUBMIT_TURN, variables: { input } }),
        players[turn % 2]!.token,
      );
      const r = (
        JSON.parse(res.body) as {
          data?: { submitTurn?: { __typename: string; version: number } };
        }
      ).data?.submitTurn;
      if (res.status === 200 && r?.__typename === 'Game') {
        latencies.push(performance.now() - t0);
        game.version = r.version;
      } else errors++;
    }
  };
  await Promise.all(games.map((g, i) => play({ ...g }, agents[i]!)));
  const seconds = (performance.now() - started) / 1000;
  for (const own of agents) for (const a of own) a.destroy();
  return summarize(latencies, seconds, errors);
};

const runLoad = (
  load: ClusterLoad,
  port: number,
  players: readonly [BenchPlayer, BenchPlayer],
  games: readonly { id: string; version: number }[],
  maxSeconds: number,
): Promise<LevelResult> => {
  if (load !== 'autocannon') return runOwnClient(port, players, games, load === 'one connection' ? 1 : 2, maxSeconds);
  const lanes: Lane[] = games.map((g) => ({
    games: [{ ...g }],
    game: 0,
    turn: 0,
    errors: 0,
    done: 0,
  }));
  return runStack({ host: '127.0.0.1', port }, players, lanes, maxSeconds);
};

/** What the Postgres side knows: its backends serving the cluster (by application_name), and how often a turn read game_secrets. */
const dbSide = (url: string, schema: string, appName: string) => {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  return {
    backendCpu: async (): Promise<Map<number, number>> => {
      const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [appName]);
      return new Map(rows.map((r) => [r.pid, procMicros(r.pid)]));
    },
    // Only the first statement of a turn (store/turn-statements.ts open) reads game_secrets, for the bag's seed.
    secretReads: async (): Promise<number> => {
      const { rows } = await admin.query<{ n: string }>(
        "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'game_secrets'",
        [schema],
      );
      return Number(rows[0]?.n ?? 0);
    },
    end: () => admin.end(),
  };
};

const GAMES = 64;
const WARM_SECONDS = 3;
/** Postgres writes a backend's table statistics at most every 10 s while it idles (and at its exit): the count before the run waits them out. */
const STATS_SETTLE_MS = 11_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One cluster on a fresh schema: sign-ups, a warm-up of both workers, then the 64 games under `load`. */
export const measureCluster = async ({ workers, load }: ClusterRun, maxSeconds: number): Promise<ClusterFigures> => {
  const load0 = loadavg()[0]!;
  const url = postgresUrl();
  const schema = `bench_cluster_${process.pid}`;
  const appName = `arbiter_bench_cluster_${process.pid}`;
  const databaseUrl = `${withSchema(url, schema)}&application_name=${appName}`;
  const cluster = await startCluster(databaseUrl, workers);
  const db = dbSide(url, schema, appName);
  try {
    const client = benchClient('127.0.0.1', cluster.port);
    const players = [await client.register('bench-a'), await client.register('bench-b')] as const;
    const newGames = async () => {
      const games = [];
      for (let i = 0; i < GAMES; i++) games.push(await client.createGame(players[0], players[1]));
      return games;
    };
    await runLoad(load, cluster.port, players, await newGames(), WARM_SECONDS);
    const games = await newGames();
    await sleep(STATS_SETTLE_MS);
    const reads0 = await db.secretReads();
    const pids = processTree(cluster.proc.pid!);
    const cpu0 = pids.map(procMicros);
    const backends0 = await db.backendCpu();
    const client0 = process.cpuUsage();
    const stack = await runLoad(load, cluster.port, players, games, maxSeconds);
    const client1 = process.cpuUsage(client0);
    const cpu1 = pids.map(procMicros);
    const backends1 = await db.backendCpu();
    const rss = pids.reduce((sum, pid) => sum + procRss(pid), 0);
    await cluster.stop();
    await sleep(500);
    const turns = Math.max(1, stack.count);
    let dbMicros = 0;
    for (const [pid, micros] of backends1) dbMicros += micros - (backends0.get(pid) ?? 0);
    return {
      workers,
      load,
      stack,
      cpuMsPerTurn: cpu1.reduce((sum, c, i) => sum + c - cpu0[i]!, 0) / 1000 / turns,
      primaryMsPerTurn: (cpu1[0]! - cpu0[0]!) / 1000 / turns,
      dbCpuMsPerTurn: dbMicros / 1000 / turns,
      clientMsPerTurn: (client1.user + client1.system) / 1000 / turns,
      twoStatementShare: ((await db.secretReads()) - reads0) / turns,
      rssMiB: rss / 2 ** 20,
      loadAvg: [load0, loadavg()[0]!],
    };
  } finally {
    if (cluster.proc.exitCode === null) await cluster.stop();
    await db.end();
    await dropSchema(url, schema);
  }
};

const sig = (x: number, digits = 3): number => Number(x.toPrecision(digits));

export interface ClusterTargets {
  readonly throughputShare: number;
  readonly p99OverBare: number;
  readonly cpuMsPerTurn: number;
}

/** One load's rows, each ratio against the bare commits measured right after that cluster stopped. */
export const clusterRows = (f: ClusterFigures, bare: LevelResult, targets: ClusterTargets): BenchRow[] => {
  const name = `Postgres, \`npm start\` ${f.workers > 1 ? `cluster of ${f.workers}` : 'in 1 process'} (${f.load})`;
  const share = f.stack.perSecond / bare.perSecond;
  const p99X = f.stack.p99 / bare.p99;
  return [
    {
      metric: `${name}: ${GAMES} games, turns/s ÷ bare commits/s`,
      value: sig(share),
      unit: `× (${Math.round(f.stack.perSecond)} turns/s, ${f.stack.count} turns, ${f.stack.errors} errors / ${Math.round(bare.perSecond)} commits/s)`,
      target: `≥ ${targets.throughputShare}`,
      met: share >= targets.throughputShare,
    },
    {
      metric: `${name}: ${GAMES} games, p99 ÷ bare p99`,
      value: sig(p99X),
      unit: `× (${sig(f.stack.p99)} ms / ${sig(bare.p99)} ms; turn p50 ${sig(f.stack.p50)} ms)`,
      target: `≤ ${targets.p99OverBare}×`,
      met: p99X <= targets.p99OverBare,
    },
    {
      metric: `${name}: server CPU per pass turn${f.workers > 1 ? ', primary and workers' : ''}`,
      value: sig(f.cpuMsPerTurn),
      unit: `ms (${f.workers > 1 ? `primary ${sig(f.primaryMsPerTurn)} ms; ` : ''}RSS ${Math.round(f.rssMiB)} MiB)`,
      target: `≤ ${targets.cpuMsPerTurn} ms`,
      met: f.cpuMsPerTurn <= targets.cpuMsPerTurn,
    },
    {
      metric: `${name}: database CPU per pass turn (the pools' backends)`,
      value: sig(f.dbCpuMsPerTurn),
      unit: 'ms',
    },
    {
      metric: `${name}: load generator CPU per pass turn (the bench process)`,
      value: sig(f.clientMsPerTurn),
      unit: 'ms',
    },
    {
      metric: `${name}: turns that read their game first (two statements, not one)`,
      value: Math.round(f.twoStatementShare * 100),
      unit: '%',
    },
    {
      metric: `${name}: load average (1 min) at start / end`,
      value: sig(f.loadAvg[0], 2),
      unit: `/ ${sig(f.loadAvg[1], 2)} (2 cores)`,
    },
  ];
};

export const CLUSTER_NOTES = [
  `\`npm start\`: functions/server.ts (without npm's build steps) in its own process, once alone and then with ARBITER_WORKERS=${WORKERS}, configured through its environment only: DATABASE_URL on a fresh schema, ARBITER_JWT_SECRET, ARBITER_RATE_LIMITS=off, ARBITER_LOGIN_BACKOFF=off, ARBITER_SEED_DEMO=0, ARBITER_LOG_LEVEL=warn (no request lines, like the bench server of the rows above); endless games are the createGame overrides the client sends. Unlike that bench server (createApp's Yoga on a bare node:http server) it runs functions/local-server.ts's request wrapping (request id and scope, metrics): compare the cluster with \`npm start\` in 1 process. Each is started afresh, warmed with ${WARM_SECONDS} s of the same load on other games, and left idle ${STATS_SETTLE_MS / 1000} s before the run, so that Postgres's table statistics are settled.`,
  `Pool size: the processes' connections in total equal the bare baseline's pool of ${poolMax()} (ARBITER_DB_POOL_MAX=${workerPool(WORKERS)} in each of ${WORKERS} workers, ${workerPool(1)} in one process); the bare commits run on the pool of a bench server (turn-server.ts, db.withSession) started once the measured server has stopped.`,
  "CPU: utime + stime from /proc (10 ms ticks) over the run ÷ turns, of the server's processes (a cluster's primary and every worker), of the Postgres backends whose application_name is the server's, and (process.cpuUsage) of the bench process generating the load. Two-statement share: reads of game_secrets over the run (only a turn's first statement reads it, for the bag's seed) ÷ turns.",
  "Loads: `autocannon` is the rows above's (runStack, one keep-alive connection per game). `one connection` and `two connections` use a plain node:http client (costlier per request than autocannon): each game over one keep-alive connection, or over two opened one after the other, which the primary's round robin hands to different workers, the game's turns taking them in turn.",
  "Each process keeps its own game cache (service/log-cache.ts): a turn at the version its process knows is one statement (the commit), else two (the game's row, seats and new events first). On keep-alive connections a game sticks to the worker that accepted its connection (the share above ~0–2%: the first turn of a game created through another worker). When a game's turns reach different workers (`two connections`: ~99%) every turn reads first: correctness is kept by the commit's version check, and the cost is that read, in the database's CPU and the server's.",
];
