/**
 * `npm start`'s time to first answer (issue 34 item 5): from spawning `npm start` to the first `{ __typename }`
 * answered on /graphql, three ways — a new data directory on a machine that never made the PGlite template
 * (initdb and every migration: the very first start), a new data directory once the template exists
 * (store/pglite-template.ts), and a warm start (the same data directory again). Generated code and
 * lexicons are already up to date in all three (scripts/prestart.mjs skips them); how long that check
 * itself takes is a row of its own. Targets (issue 34): ≤ 10 s fresh, ≤ 4 s warm, on a quiet machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { templatePath } from '../store/pglite-template.js';
import { median } from './common.js';
import type { BenchRow, BenchSection } from './types.js';

const RUNS = 3;
const FRESH_TARGET_S = 10;
const WARM_TARGET_S = 4;
const ROOT = join(import.meta.dirname, '..');

const answers = async (port: number): Promise<boolean> => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    return res.status === 200;
  } catch {
    return false;
  }
};

/** Seconds from `npm start` to the first answer; the server (its whole process group) is stopped afterwards. */
const timeStart = async (dataDir: string, port: number): Promise<number> => {
  const t0 = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, ARBITER_DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'development' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      if (await answers(port)) return (performance.now() - t0) / 1000;
      if (performance.now() - t0 > 120_000) throw new Error('npm start did not answer within 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
};

const row = (metric: string, runs: number[], target?: number): BenchRow => {
  const value = Number(median(runs).toFixed(2));
  return target === undefined ? { metric, value, unit: 's' } : { metric, value, unit: 's', target: `≤ ${target} s`, met: value <= target };
};

export const run = async (): Promise<BenchSection> => {
  // Bring generated code and lexicons up to date once, so every run below measures the skip.
  if (spawnSync('node', ['scripts/prestart.mjs'], { cwd: ROOT, stdio: 'ignore' }).status !== 0) throw new Error('prestart failed');
  const check: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    spawnSync('node', ['scripts/prestart.mjs'], { cwd: ROOT, stdio: 'ignore' });
    check.push((performance.now() - t0) / 1000);
  }
  const work = mkdtempSync(join(tmpdir(), 'arbiter-start-'));
  const template = await templatePath();
  const first: number[] = [];
  const fresh: number[] = [];
  const warm: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      rmSync(template, { force: true });
      first.push(await timeStart(join(work, `first-${i}`), 4410 + i));
      if (!existsSync(template)) throw new Error('the first start did not keep a PGlite template');
      fresh.push(await timeStart(join(work, `fresh-${i}`), 4420 + i));
      warm.push(await timeStart(join(work, `fresh-${i}`), 4430 + i));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return {
    title: '`npm start`: time to the first answer',
    rows: [
      row('up-to-date check of generated code and lexicons (scripts/prestart.mjs)', check),
      row('new data directory, first ever (initdb + migrations; keeps the template)', first, FRESH_TARGET_S),
      row('new data directory, template kept (store/pglite-template.ts)', fresh, FRESH_TARGET_S),
      row('warm: the same data directory again', warm, WARM_TARGET_S),
    ],
    notes: [
      `Median of ${RUNS} starts each, from spawning \`npm start\` to the first \`{ __typename }\` answered; the lexicons are built and generated code is up to date in all of them.`,
      'The template is removed before each "first ever" start, so that row is what a machine pays once.',
    ],
  };
};
