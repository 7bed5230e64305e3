/**
 * Reading and writing a TSH division file (issue 30, items 7 and 12): the largest real `.t` of
 * test/fixtures/tsh (109 players, 14 rounds, written by tsh in 2006; SOURCES.tsv) parsed to its
 * syntax tree, checked across lines and formatted back. Target: importing a 109-player, 14-round
 * `.t` ≤ 100 ms; the figure for that is the first parse + check in a fresh process (no warm-up),
 * since an import is a one-off. Warm figures (median of 200) and a floor (splitting the same text
 * into lines and `;` segments) are reported beside it.
 *
 * `npx tsx bench/tournament-tsh.ts` prints the section; bench/run.ts can list it as a module.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkTsh, formatTsh, parseTsh, tshPlayers } from '../engine/tournament/tsh/index.js';
import { standings } from '../engine/tournament/standings.js';
import { loadTshDivision } from '../engine/tournament/tsh-load.js';
import type { BenchSection } from './types.js';

const FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'tsh', 'cop-2006-b.t');
const TARGET_MS = 100;
const RUNS = 200;

const time = (f: () => unknown): number => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

const median = (runs: number, f: () => unknown): number => {
  const t = Array.from({ length: runs }, () => time(f)).sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)]!;
};

const parseOrThrow = (text: string) => {
  const r = parseTsh(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

export async function run(): Promise<BenchSection> {
  const text = readFileSync(FILE, 'utf8');
  // Cold: the first import in this process, JIT and all.
  const t0 = performance.now();
  const file = parseOrThrow(text);
  checkTsh(file);
  const coldMs = performance.now() - t0;
  // The whole import as the API and the CLI do it: parse, the division's events, the fold, its standings.
  const t1 = performance.now();
  const loaded = loadTshDivision(text);
  if (!loaded.ok) throw new Error(loaded.error.message);
  standings(loaded.value.division);
  const importMs = performance.now() - t1;
  const importWarmMs = median(20, () => {
    const l = loadTshDivision(text);
    if (l.ok) standings(l.value.division);
  });
  const players = tshPlayers(file);
  if (formatTsh(file) !== text) throw new Error('the file did not format back byte for byte');
  const parseMs = median(RUNS, () => parseTsh(text));
  const checkMs = median(RUNS, () => checkTsh(file));
  const formatMs = median(RUNS, () => formatTsh(file));
  const floorMs = median(RUNS, () => text.split('\n').map((l) => l.split(';')));
  const shape = `${players.length}-player, ${players[0]?.opponents.length ?? 0}-round`;
  return {
    title: 'TSH division files (issue 30)',
    rows: [
      {
        metric: `import of a real ${shape} .t: parse + check, first call in the process`,
        value: coldMs,
        unit: 'ms',
        target: `≤ ${TARGET_MS} ms`,
        met: coldMs <= TARGET_MS,
      },
      {
        metric: `import as a division (parse, events, fold) and its standings, first call in the process`,
        value: importMs,
        unit: 'ms',
        target: `≤ ${TARGET_MS} ms`,
        met: importMs <= TARGET_MS,
      },
      { metric: 'the same, median, warm', value: importWarmMs, unit: 'ms' },
      { metric: 'parse (median, warm)', value: parseMs, unit: 'ms' },
      { metric: 'check across lines (median, warm)', value: checkMs, unit: 'ms' },
      { metric: 'format back, byte for byte (median, warm)', value: formatMs, unit: 'ms' },
      { metric: 'floor: split into lines and ; segments (median, warm)', value: floorMs, unit: 'ms' },
      { metric: 'parse ÷ floor', value: parseMs / floorMs, unit: '×' },
    ],
    notes: [
      `File: test/fixtures/tsh/cop-2006-b.t (${text.length.toLocaleString('en-US')} characters). Warm figures: median of ${RUNS} runs after the cold one.`,
      'Formatting re-reads each line to see that its raw text still says the same, so it costs about one more parse.',
    ],
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(JSON.stringify(await run(), null, 2));
