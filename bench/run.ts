/**
 * `npm run bench`: runs every bench module and rewrites bench/RESULTS.md with the machine, the date and
 * each module's figures with their targets (bench/common.ts `renderResults`); the RESULTS.md it replaces
 * goes to the top of bench/HISTORY.md. Modules run one after another so they do not compete for the two
 * cores. `npm run bench -- <module…>` runs only those and replaces only their sections of RESULTS.md;
 * `npm run bench -- --print <module…>` prints the sections instead of writing anything.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { archiveResults, mergeResults, renderResults } from './common.js';
import type { BenchModule, BenchSection } from './types.js';

export const MODULES: Record<string, () => Promise<BenchModule>> = {
  lexicon: () => import('./lexicon.js'),
  engine: () => import('./engine.js'),
  movegen: () => import('./movegen.js'),
  'robot-seats': () => import('./robot-seats.js'),
  coldstart: () => import('./coldstart.js'),
  reliability: () => import('./reliability.js'),
  security: () => import('./security.js'),
  persistence: () => import('./persistence.js'),
  growth: () => import('./growth.js'),
  turnpath: () => import('./turnpath.js'),
  'tournament-pairing': () => import('./tournament-pairing.js'),
  'tournament-standings': () => import('./tournament-standings.js'),
  'tournament-tsh': () => import('./tournament-tsh.js'),
  leaderboard: () => import('./leaderboard.js'),
  streams: () => import('./streams.js'),
  start: () => import('./start.js'),
  ratings: () => import('./ratings.js'),
  lobby: () => import('./lobby.js'),
};

const DIR = dirname(fileURLToPath(import.meta.url));
export const RESULTS = join(DIR, 'RESULTS.md');
export const HISTORY = join(DIR, 'HISTORY.md');

const read = (path: string): string | null => (existsSync(path) ? readFileSync(path, 'utf8') : null);

/** Writes a run's sections: all modules rewrite RESULTS.md (the old one archived), some replace their own sections. */
export const writeResults = (sections: readonly BenchSection[], failures: readonly string[], all: boolean, now = new Date()): void => {
  const existing = read(RESULTS);
  if (all || existing === null) {
    if (existing !== null) writeFileSync(HISTORY, archiveResults(read(HISTORY), existing, now));
    writeFileSync(RESULTS, renderResults(sections, failures, now));
  } else writeFileSync(RESULTS, mergeResults(existing, sections, failures, Object.keys(MODULES), now));
};

async function main(): Promise<void> {
  const print = process.argv.includes('--print');
  const only = process.argv.slice(2).filter((a) => a !== '--print');
  const sections: BenchSection[] = [];
  const failures: string[] = [];
  for (const [name, load] of Object.entries(MODULES)) {
    if (only.length && !only.includes(name)) continue;
    process.stderr.write(`bench: ${name}…\n`);
    try {
      const t0 = performance.now();
      sections.push({ ...(await (await load()).run()), module: name });
      process.stderr.write(`bench: ${name} took ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    } catch (e) {
      failures.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (print) process.stdout.write(renderResults(sections, failures));
  else {
    writeResults(sections, failures, only.length === 0);
    process.stderr.write(`bench: wrote ${RESULTS}\n`);
  }
  if (failures.length) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
