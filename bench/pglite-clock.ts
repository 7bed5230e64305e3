/**
 * The embedded database's share of the server's CPU on PGlite (issue #17). PGlite runs Postgres as
 * WebAssembly on the main thread: every statement, whichever way it is sent (Prisma's adapter, the
 * turn's prepared statements, a session's query), ends in `execProtocolRawSync`, which runs Postgres's
 * main loop synchronously until the messages are consumed, together with the JS that PGlite's wasm
 * calls back to read its input and write its output. The main thread's CPU inside those calls is the
 * database's CPU. Node has no per-thread CPU clock, so each call is bounded from above twice: by its
 * wall time (too high when the OS preempts the thread: on a loaded machine by as much again) and by the
 * process's CPU over it (getrusage: too high by whatever V8's helper threads ran meanwhile); the smaller
 * of the two is counted. Both clocks cost ~1–5 µs a call, counted on the API's side.
 *
 * Installed by the bench's server (bench/turn-server.ts) on PGlite's prototype before the app opens its
 * database, so the app itself carries no hook; the app's dynamic import gets the same module.
 */
import { readFileSync } from 'node:fs';

export interface PgliteClock {
  /** Microseconds of CPU inside PGlite's synchronous protocol calls since the clock was installed (each call's smaller bound). */
  readonly micros: () => number;
  /** Their wall time alone, in microseconds. */
  readonly wallMicros: () => number;
  /** How many such calls (one per protocol message batch PGlite was handed). */
  readonly calls: () => number;
}

type Sync = (message: Uint8Array) => Uint8Array;

let installed: PgliteClock | undefined;

export const installPgliteClock = async (): Promise<PgliteClock> => {
  if (installed) return installed;
  const { PGlite } = await import('@electric-sql/pglite');
  const proto = PGlite.prototype as unknown as { execProtocolRawSync: Sync };
  const original = proto.execProtocolRawSync;
  let micros = 0;
  let wallMicros = 0;
  let calls = 0;
  proto.execProtocolRawSync = function timed(this: unknown, message: Uint8Array): Uint8Array {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    try {
      return original.call(this, message);
    } finally {
      const cpu = process.cpuUsage(cpu0);
      const wall = (performance.now() - t0) * 1000;
      micros += Math.min(wall, cpu.user + cpu.system);
      wallMicros += wall;
      calls++;
    }
  };
  installed = { micros: () => micros, wallMicros: () => wallMicros, calls: () => calls };
  return installed;
};

/**
 * The main thread's time on a CPU and waiting for one (runnable, not running), in microseconds, from the
 * scheduler's own accounting (/proc/<pid>/task/<pid>/schedstat, nanoseconds). Its CPU is the process's
 * without V8's compiler and GC helper threads and libuv's pool, and time inside PGlite cannot exceed it;
 * its wait bounds how much of the time inside PGlite was the thread preempted rather than Postgres working.
 */
export const mainThread = (): { readonly cpuMicros: number; readonly waitMicros: number } => {
  const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
  return { cpuMicros: Number(run) / 1000, waitMicros: Number(wait) / 1000 };
};
