/**
 * CPU and memory of local processes from Linux's /proc, for the processes a bench cannot ask itself:
 * Postgres's backends, and the workers of a cluster. Times come in clock ticks (100 a second on Linux),
 * so a figure is only as fine as 10 ms: enough over a run of seconds.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MICROS = 10_000;
const PAGE_BYTES = 4096;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), or null once the process is gone. */
const statFields = (pid: number): string[] | null => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return null;
  }
};

/** The CPU (utime + stime) a process has used, in microseconds; 0 once it is gone (a backend whose connection the pool closed). */
export const procMicros = (pid: number): number => {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) * TICK_MICROS : 0;
};

/** The resident set of a process in bytes; 0 once it is gone. */
export const procRss = (pid: number): number => {
  const f = statFields(pid);
  return f ? Number(f[21]) * PAGE_BYTES : 0;
};

/** `root` and every process below it (a cluster's primary and its workers, and any child of theirs). */
export const processTree = (root: number): number[] => {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const ppid = Number(statFields(Number(name))?.[1]);
    if (!Number.isInteger(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const walk = (pid: number): void => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
};
