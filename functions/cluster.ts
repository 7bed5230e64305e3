/**
 * `npm start` on several cores: with ARBITER_WORKERS (a number, or `auto` for one per core) and
 * DATABASE_URL set, the process forks that many workers, each a whole server (functions/server.ts)
 * sharing the port through node:cluster. PGlite stays single-process: its database lives in the
 * memory of the process that opened it, and its data directory cannot be opened by two at once.
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';

export const WORKERS_ENV = 'ARBITER_WORKERS';
/** Set by the primary on each worker: the leader seeds, migrates first and sweeps for robot turns; followers only serve. */
export const ROLE_ENV = 'ARBITER_CLUSTER_ROLE';
export type ClusterRole = 'leader' | 'follower';

/** How many processes serve: 1 unless ARBITER_WORKERS asks for more on Postgres; a bad value stops the start. */
export const workerCount = (env: Readonly<Record<string, string | undefined>>, cores: number = availableParallelism()): number => {
  const raw = env[WORKERS_ENV]?.trim();
  if (raw === undefined || raw === '') return 1;
  const n = raw === 'auto' ? cores : /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new Error(`${WORKERS_ENV} must be a number of processes from 1 to 256 or "auto", not "${raw}"`);
  if (n > 1 && !env['DATABASE_URL']) {
    // `auto` is safe to set everywhere; an explicit count the embedded database cannot honour is a mistake.
    if (raw === 'auto') return 1;
    throw new Error(`${WORKERS_ENV}=${raw} needs DATABASE_URL: the embedded database (PGlite) serves one process only`);
  }
  return n;
};

export const clusterRole = (env: Readonly<Record<string, string | undefined>>): ClusterRole | null => {
  const role = env[ROLE_ENV];
  return role === 'leader' || role === 'follower' ? role : null;
};

/** A worker that dies this soon after it was forked is not replaced: a start-up error would only loop. */
const CRASH_LOOP_MS = 10_000;

/**
 * The primary: forks the leader, waits until it listens (it applies the migrations and seeds the demo
 * players, so the followers find both done), then forks the followers. A worker that dies is replaced;
 * SIGTERM or SIGINT stops every worker gracefully (each closes its server and its database pool).
 */
export const runPrimary = (count: number, log: (line: string) => void = console.log): Promise<number> =>
  new Promise((resolve) => {
    let stopping = false;
    const roles = new Map<Worker, { role: ClusterRole; forkedAt: number }>();
    const fork = (role: ClusterRole): Worker => {
      // Followers seed nothing and leave the periodic robot sweep to the leader (wake-ups still play in
      // every worker: a robot turn is safe in any process, service/robot-turns.ts submits it at a version).
      const extra = role === 'leader' ? {} : { ARBITER_SEED_DEMO: '0', ARBITER_ROBOT_SWEEP_MS: '0' };
      const worker = cluster.fork({ [ROLE_ENV]: role, ...extra });
      roles.set(worker, { role, forkedAt: Date.now() });
      return worker;
    };
    const stop = (signal: NodeJS.Signals, code: number) => {
      if (stopping) return;
      stopping = true;
      process.exitCode = code;
      log(`${signal}: stopping ${roles.size} workers`);
      for (const w of roles.keys()) w.process.kill('SIGTERM');
      if (roles.size === 0) resolve(code);
    };
    cluster.on('exit', (worker, exitCode, signal) => {
      const was = roles.get(worker);
      roles.delete(worker);
      if (stopping) {
        if (roles.size === 0) resolve(process.exitCode === undefined ? 0 : Number(process.exitCode));
        return;
      }
      log(`worker ${worker.process.pid} (${was?.role}) exited (${signal ?? exitCode})`);
      if (!was || Date.now() - was.forkedAt < CRASH_LOOP_MS) {
        log(`worker ${worker.process.pid} died during start-up: stopping the cluster`);
        stop('SIGTERM', 1);
        return;
      }
      fork(was.role);
    });
    process.once('SIGINT', () => stop('SIGINT', 0));
    process.once('SIGTERM', () => stop('SIGTERM', 0));
    let listening = 0;
    cluster.on('listening', () => {
      if (++listening === count) log(`Arbiter cluster: ${count} workers listening, primary pid ${process.pid}`);
    });
    fork('leader').once('listening', () => {
      for (let i = 1; i < count; i++) fork('follower');
    });
  });
