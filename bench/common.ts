/**
 * What the bench modules share: timing helpers, and the layout of bench/RESULTS.md (`renderResults`,
 * `mergeResults`) and of bench/HISTORY.md (`archiveResults`). A leaf: it imports no bench module, so no
 * module imports bench/run.ts (which imports every module) and the modules form no circle.
 *
 * RESULTS.md holds only each module's latest figures: one section per module, its table with each target
 * and whether it is met, and its notes. What a run replaces goes to HISTORY.md, newest first.
 */
import { cpus, totalmem, platform, arch } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BenchSection } from './types.js';

/** `global.gc` when node ran with --expose-gc, else the same function unlocked at run time. */
const gcFunction = (): (() => void) => {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
};
export const gc = gcFunction();

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** The fastest of `runs` calls, in ms. */
export const bestOf = (runs: number, f: () => void): number => {
  let best = Infinity;
  for (let i = 0; i < runs; i++) best = Math.min(best, timeMs(f));
  return best;
};

export const timeMs = (f: () => unknown): number => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

/** Heap plus ArrayBuffer memory retained by what `make` returns, in MB. */
export const retainedMb = (make: () => unknown): { heap: number; total: number } => {
  gc();
  gc();
  const before = process.memoryUsage();
  const kept = make();
  gc();
  gc();
  const after = process.memoryUsage();
  if (kept === undefined) throw new Error('nothing retained');
  const heap = after.heapUsed - before.heapUsed;
  return { heap: heap / 2 ** 20, total: (heap + after.arrayBuffers - before.arrayBuffers) / 2 ** 20 };
};

const formatValue = (v: number): string =>
  Number.isInteger(v)
    ? v.toLocaleString('en-US')
    : Math.abs(v) < 1
      ? v.toLocaleString('en-US', { maximumSignificantDigits: 3 }) // small ratios keep their digits
      : v.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** The line before a module's section in RESULTS.md: what a run of some modules replaces (`mergeResults`). */
export const moduleMarker = (module: string): string => `<!-- bench module: ${module} -->`;

export const HISTORY_LINK = 'Earlier figures, and the dated sections of past sessions, are in [HISTORY.md](HISTORY.md).';

const TABLE_HEAD = ['| metric | value | unit | target | met |', '|---|---:|---|---|---|'];

/** One module's section: its marker (when the module is named), title, table and notes. */
export const renderSection = (s: BenchSection): string[] => {
  const lines = [...(s.module ? [moduleMarker(s.module), ''] : []), `## ${s.title}`, '', ...TABLE_HEAD];
  for (const r of s.rows) {
    lines.push(
      `| ${r.metric} | ${formatValue(r.value)} | ${r.unit} | ${r.target ?? ''} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`,
    );
  }
  if (s.notes?.length) lines.push('', ...s.notes.map((n) => `- ${n}`));
  lines.push('');
  return lines;
};

const header = (now: Date): string[] => {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${now.toISOString()}.`,
    '',
    `Machine: ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${arch()}; Node ${process.version}.`,
    '',
    `The latest figures of each module: one table each, with every target and whether it is met. ${HISTORY_LINK}`,
    '',
  ];
};

const failureLines = (failures: readonly string[]): string[] =>
  failures.length ? ['## Modules that failed', '', ...failures.map((f) => `- ${f}`), ''] : [];

/** RESULTS.md after a run of every module. */
export const renderResults = (sections: readonly BenchSection[], failures: readonly string[], now = new Date()): string =>
  [...header(now), ...sections.flatMap(renderSection), ...failureLines(failures)].join('\n');

/** `text` cut at its module markers: what comes before the first, and each module's block. */
const blocksOf = (text: string): { head: string; blocks: Map<string, string> } => {
  const parts = text.split(/^(?=<!-- bench module: [\w-]+ -->$)/m);
  const blocks = new Map<string, string>();
  let head = '';
  for (const part of parts) {
    const module = /^<!-- bench module: ([\w-]+) -->$/m.exec(part.split('\n')[0] ?? '')?.[1];
    // A failure list of an earlier run ends the file, after the last module's section: not part of it.
    if (module) blocks.set(module, part.replace(/\n## Modules that failed\n[\s\S]*$/, '').replace(/\n*$/, '\n'));
    else head += part;
  }
  return { head, blocks };
};

/**
 * RESULTS.md after a run of some modules (`npm run bench -- turnpath`): their sections replace theirs in
 * `existing`, each noted with the date it was measured; every other module's section stays as it was, in
 * `order` (the modules of bench/run.ts), and a module not yet in the file is added in its place.
 */
export const mergeResults = (
  existing: string,
  sections: readonly BenchSection[],
  failures: readonly string[],
  order: readonly string[],
  now = new Date(),
): string => {
  const { head, blocks } = blocksOf(existing);
  for (const s of sections) {
    if (!s.module) continue;
    const dated = { ...s, notes: [...(s.notes ?? []), `Measured alone by \`npm run bench -- ${s.module}\` on ${now.toISOString()}.`] };
    blocks.set(s.module, renderSection(dated).join('\n'));
  }
  const known = [...order, ...[...blocks.keys()].filter((m) => !order.includes(m))];
  const body = known.flatMap((m) => (blocks.has(m) ? [blocks.get(m)!] : []));
  const failed = failures.length ? `\n${failureLines(failures).join('\n')}` : '';
  return `${head.replace(/\n*$/, '\n\n')}${body.join('\n')}${failed}`.replace(/\n*$/, '\n');
};

export const HISTORY_HEAD = [
  '# Benchmark history',
  '',
  'What bench/RESULTS.md held before it was rewritten, newest first: each module section as it stood, the',
  'dated sections of past sessions, unchanged. The latest figures are in [RESULTS.md](RESULTS.md).',
  '',
].join('\n');

/**
 * HISTORY.md with the RESULTS.md a full run replaces put on top (below the file's head): its title becomes
 * a dated section and every other heading goes one level down, so the file keeps one outline.
 */
export const archiveResults = (history: string | null, replaced: string, now = new Date()): string => {
  const written = /Written by `npm run bench` on ([^\s.]+(?:\.\d+Z)?)/.exec(replaced)?.[1];
  const body = replaced
    .replace(/^# Benchmark results\n/, '')
    .replace(/^(#{2,5}) /gm, '#$1 ')
    .trim();
  const section = [`## RESULTS.md until ${now.toISOString()}${written ? ` (written ${written})` : ''}`, '', body, ''].join('\n');
  const rest = history === null ? '' : history.startsWith(HISTORY_HEAD) ? history.slice(HISTORY_HEAD.length) : `\n${history}`;
  return `${HISTORY_HEAD}\n${section}${rest.replace(/^\n*/, '\n')}`.replace(/\n*$/, '\n');
};

/** A module run alone (`npx tsx bench/<module>.ts`): its section as RESULTS.md would show it, on stdout. */
export const printSections = (sections: readonly BenchSection[]): void => {
  process.stdout.write(renderResults(sections, []));
};
