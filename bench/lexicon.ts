/**
 * Lexicon load time, memory and lookup speed for the shipped lexicons, against a plain
 * `Set<string>` built from the same word list. Targets: ready in ≤ 20 ms and ≤ 15 MB, `has()` in
 * the millions per second.
 */
import { readFileSync } from 'node:fs';
import { decodeDawgFile } from '../engine/lexicon/dawg-file.js';
import type { GraphLexicon } from '../engine/lexicon/graph.js';
import { ensureShippedLexicons, shippedSourcePath } from '../scripts/build-lexicons.js';
import { SHIPPED_LEXICONS } from '../engine/lexicon/shipped.js';
import { median, retainedMb, timeMs } from './common.js';
import type { BenchRow, BenchSection } from './types.js';

const LOAD_MS_TARGET = 20;
const MEMORY_MB_TARGET = 15;
const LOOKUPS_TARGET = 1_000_000;
const RUNS = 15;

const decodeOrThrow = (bytes: Uint8Array): GraphLexicon => {
  const r = decodeDawgFile(bytes);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

const setFromText = (text: string): Set<string> => {
  const set = new Set<string>();
  for (const line of text.split('\n')) {
    const w = line.trim().toUpperCase();
    if (w) set.add(w);
  }
  return set;
};

/** Half words from the list, half the same words with one letter changed (mostly not words). */
const queries = (words: readonly string[], n: number): string[] => {
  const out: string[] = [];
  let seed = 12345;
  const rand = (k: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  for (let i = 0; i < n; i++) {
    const w = words[rand(words.length)]!;
    if (i % 2 === 0) out.push(w);
    else {
      const at = rand(w.length);
      out.push(w.slice(0, at) + String.fromCharCode(65 + rand(26)) + w.slice(at + 1));
    }
  }
  return out;
};

const lookupsPerSecond = (has: (w: string) => boolean, qs: readonly string[]): number => {
  let hits = 0;
  for (const q of qs) if (has(q)) hits++; // warm-up
  const rounds = 5;
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) for (const q of qs) if (has(q)) hits++;
  const ms = performance.now() - t0;
  if (hits < 0) throw new Error('unreachable');
  return Math.round((rounds * qs.length) / (ms / 1000));
};

const round2 = (x: number): number => Math.round(x * 100) / 100;

export async function run(): Promise<BenchSection> {
  const built = ensureShippedLexicons();
  const rows: BenchRow[] = [];
  const notes: string[] = [
    `Load times are medians of ${RUNS} cold decodes (a new lexicon each time, no cache); "with file read" adds readFileSync of the .dawg file.`,
    'Memory is the heap plus ArrayBuffer growth retained by one loaded lexicon, measured between forced garbage collections.',
    'Lookups mix words of the list with one-letter mutations of them (half and half).',
    'The Set baseline splits and uppercases the plain word list text (already read) into a Set<string>.',
    "A Set answers faster per lookup (V8 caches each query string's hash), but costs ~20× the memory and ~100× the load time.",
  ];
  for (const shipped of SHIPPED_LEXICONS) {
    const path = built.find((b) => b.name === shipped.name)!.path;
    const bytes = readFileSync(path);
    const text = readFileSync(shippedSourcePath(shipped.package, shipped.file), 'utf8');
    const n = shipped.name;

    const fromBytes = median(Array.from({ length: RUNS }, () => timeMs(() => decodeOrThrow(bytes))));
    const withRead = median(Array.from({ length: RUNS }, () => timeMs(() => decodeOrThrow(readFileSync(path)))));
    const mem = retainedMb(() => decodeOrThrow(readFileSync(path)));
    const lex = decodeOrThrow(bytes);
    const words = [...lex.words()];
    const qs = queries(words, 200_000);
    const graphRate = lookupsPerSecond((w) => lex.has(w), qs);

    const setMs = median(Array.from({ length: 5 }, () => timeMs(() => setFromText(text))));
    const setMem = retainedMb(() => setFromText(text));
    const set = setFromText(text);
    const setRate = lookupsPerSecond((w) => set.has(w), qs);

    rows.push(
      { metric: `${n}: words`, value: lex.wordCount, unit: 'words' },
      { metric: `${n}: file size`, value: round2(bytes.length / 2 ** 20), unit: 'MB' },
      {
        metric: `${n}: load from bytes`,
        value: round2(fromBytes),
        unit: 'ms',
        target: `≤ ${LOAD_MS_TARGET} ms`,
        met: fromBytes <= LOAD_MS_TARGET,
      },
      {
        metric: `${n}: load with file read`,
        value: round2(withRead),
        unit: 'ms',
        target: `≤ ${LOAD_MS_TARGET} ms`,
        met: withRead <= LOAD_MS_TARGET,
      },
      {
        metric: `${n}: memory (heap + buffers)`,
        value: round2(mem.total),
        unit: 'MB',
        target: `≤ ${MEMORY_MB_TARGET} MB`,
        met: mem.total <= MEMORY_MB_TARGET,
      },
      {
        metric: `${n}: has() lookups`,
        value: graphRate,
        unit: 'lookups/s',
        target: `≥ ${LOOKUPS_TARGET.toLocaleString('en-US')}/s`,
        met: graphRate >= LOOKUPS_TARGET,
      },
      { metric: `${n}: Set<string> baseline load`, value: round2(setMs), unit: 'ms' },
      { metric: `${n}: Set<string> baseline memory`, value: round2(setMem.total), unit: 'MB' },
      { metric: `${n}: Set<string> baseline lookups`, value: setRate, unit: 'lookups/s' },
    );
  }
  return { title: 'Lexicons', rows, notes };
}
