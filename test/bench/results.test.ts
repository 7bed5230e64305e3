import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { archiveResults, HISTORY_HEAD, mergeResults, moduleMarker, renderResults } from '../../bench/common.js';
import { MODULES } from '../../bench/run.js';
import type { BenchSection } from '../../bench/types.js';

/**
 * bench/RESULTS.md holds each module's latest figures only, one section and table per module with its
 * targets, in the layout bench/run.ts writes; what a run replaces goes to bench/HISTORY.md (issue 34
 * item 7). The bench modules import each other in no circle.
 */
const BENCH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bench');
const read = (name: string) => readFileSync(join(BENCH, name), 'utf8');
const markers = (text: string) => [...text.matchAll(/^<!-- bench module: ([\w-]+) -->$/gm)].map((m) => m[1]);

describe('bench/RESULTS.md', () => {
  const results = read('RESULTS.md');

  it('has one section per module of bench/run.ts, in its order, each a table with targets, and no dated subsections', () => {
    expect(markers(results)).toEqual(Object.keys(MODULES));
    expect(results).not.toMatch(/^###/m);
    const sections = results.split(/^<!-- bench module: [\w-]+ -->$/m).slice(1);
    for (const s of sections) {
      expect(s).toMatch(/^\n\n## .+\n\n\| metric \| value \| unit \| target \| met \|\n\|---\|---:\|---\|---\|---\|\n/);
      expect(s.match(/^## /gm)).toHaveLength(1);
      expect(s.match(/^\| metric \| value/gm)).toHaveLength(1);
    }
    // The judged turn path row is the HTTP turn over its bound, on both databases (item 6).
    expect(results).toMatch(
      /\| Postgres: 1 game, HTTP submitTurn p50 ÷ \(`\{ __typename \}` p50 \+ service submitTurn p50\)[^|]*\| [\d.–]+ \| × \| ≤ 1\.5× \| yes \|/,
    );
    expect(results).toMatch(
      /\| PGlite: 1 game, HTTP submitTurn p50 ÷ \(`\{ __typename \}` p50 \+ service submitTurn p50\)[^|]*\| [\d.–]+ \| × \| ≤ 1\.5× \| yes \|/,
    );
    expect(results).toMatch(
      /\| Postgres: 1 game, HTTP submitTurn ÷ `\{ __typename \}` \(p50; the old ratio, not judged\) \| [\d.–]+ \| × \| {2}\| {2}\|/,
    );
  });

  it('is laid out as bench/run.ts writes it, and links HISTORY.md, which holds the dated sections', () => {
    const section: BenchSection = {
      module: 'lexicon',
      title: 'Lexicons',
      rows: [{ metric: 'm', value: 1, unit: 'ms', target: '≤ 2 ms', met: true }],
    };
    const written = renderResults([section], [], new Date('2026-11-29T00:00:00Z'));
    // The head up to the first section is the same, but for the date.
    const head = (text: string) =>
      text
        .slice(0, text.indexOf(moduleMarker('lexicon')))
        .replace(/on \S+\.\n/, '')
        .replace(/Machine: .*\n/, '');
    expect(head(results)).toBe(head(written));
    expect(written).toContain('[HISTORY.md](HISTORY.md)');
    const history = read('HISTORY.md');
    expect(history.startsWith(HISTORY_HEAD)).toBe(true);
    expect(history).toContain('### On a quiet fast machine, every judged ratio taken on a warm server (2026-11-27, 17:20–17:35 UTC)');
    expect(history).toContain('### Lazy chunks: before / after in the same run (issue #17, 2026-11-27)');
    expect(read('../docs/benchmarks.md')).toContain('(../bench/HISTORY.md)');
  });

  it('a run of some modules replaces their sections only; a full run archives the file it replaces on top of HISTORY.md', () => {
    const now = new Date('2026-12-01T10:00:00Z');
    const fresh: BenchSection = {
      module: 'growth',
      title: 'Growth, again',
      rows: [{ metric: 'ratio', value: 1.1, unit: '×', target: '≤ 1.5×', met: true }],
    };
    const merged = mergeResults(results, [fresh], [], Object.keys(MODULES), now);
    expect(markers(merged)).toEqual(Object.keys(MODULES));
    expect(merged).toContain(
      '## Growth, again\n\n| metric | value | unit | target | met |\n|---|---:|---|---|---|\n| ratio | 1.1 | × | ≤ 1.5× | yes |',
    );
    expect(merged).not.toContain('## Growth (game length, stored games)');
    expect(merged.replace(/<!-- bench module: growth -->[\s\S]*?(?=<!-- bench module: turnpath)/, '')).toBe(
      results.replace(/<!-- bench module: growth -->[\s\S]*?(?=<!-- bench module: turnpath)/, ''),
    );

    // A failure list ends the file, and the next run's merge drops it.
    const failed = mergeResults(results, [], ['growth: no Postgres'], Object.keys(MODULES), now);
    expect(failed.endsWith('\n## Modules that failed\n\n- growth: no Postgres\n')).toBe(true);
    expect(mergeResults(failed, [], [], Object.keys(MODULES), now)).toBe(results);

    const archived = archiveResults(read('HISTORY.md'), results, now);
    expect(archived.startsWith(HISTORY_HEAD)).toBe(true);
    const top = archived.slice(HISTORY_HEAD.length);
    expect(top).toMatch(/^\n## RESULTS\.md until 2026-12-01T10:00:00\.000Z \(written [^)]+\)\n/);
    expect(top).toContain('\n### Lexicons\n');
    expect(top.indexOf('### Lexicons')).toBeLessThan(
      top.indexOf('## Turn path against its floors, Postgres and PGlite (issue #17): the dated sections'),
    );
    expect(archived).toContain(read('HISTORY.md').slice(HISTORY_HEAD.length).trim());
  });
});

describe('the bench modules', () => {
  it('import each other in no circle (static or dynamic imports)', () => {
    const files = readdirSync(BENCH).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
    const edges = new Map(
      files.map((f) => [
        f.replace(/\.ts$/, ''),
        [...read(f).matchAll(/(?:from|import\()\s*'\.\/([\w-]+)\.js'/g)].map((m) => m[1]!).filter((m) => m !== 'types'),
      ]),
    );
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      if (path.includes(node)) {
        cycles.push([...path.slice(path.indexOf(node)), node].join(' → '));
        return;
      }
      for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    };
    for (const node of edges.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});
