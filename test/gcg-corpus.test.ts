/**
 * Every GCG record in test/fixtures/gcg replayed through the game engine (issue 2 + 3): the real
 * liwords games must agree with the rules to the point, and each broken MAGPIE fixture must be
 * rejected or flagged as MAGPIE-expectations.tsv says. Expected final scores are read from the
 * files with a regex here, independently of the parser under test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseGcg } from '../engine/gcg/index.js';
import { replayGcg } from '../engine/gcg/replay.js';

const ROOT = join(import.meta.dirname, 'fixtures', 'gcg');
const LIWORDS = readdirSync(join(ROOT, 'liwords'))
  .filter((f) => f.endsWith('.gcg'))
  .sort();
const MAGPIE = readdirSync(join(ROOT, 'MAGPIE'))
  .filter((f) => f.endsWith('.gcg'))
  .sort();

/** The last running total of each player, straight from the text: `>NICK: ... +SCORE CUM`. */
const lastTotals = (text: string): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^>([^:]+):.*\s[+-]\d+\s+(-?\d+)\s*$/.exec(line);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
};
/** A finished record ends with the end-of-game rack lines (and possibly time penalties). */
const isFinished = (text: string): boolean => /^>[^:]+:.*\(([A-Z?]+)\)\s+[+-]\d+\s+-?\d+\s*$/m.test(text) && !/^#incomplete/m.test(text);

const replayFile = (path: string) => {
  const bytes = readFileSync(path);
  const doc = parseGcg(bytes);
  return { text: bytes.toString('latin1'), doc, report: doc.ok ? replayGcg(doc.value) : null };
};

const EXPECTATIONS = readFileSync(join(ROOT, 'MAGPIE-expectations.tsv'), 'utf8')
  .split(/\r?\n/)
  .slice(1)
  .filter((l) => l.trim())
  .map((l) => {
    const [file, layer, code] = l.split('\t');
    return { file: file!, layer: layer as 'parse' | 'replay' | 'ok', code: code! };
  });

describe('the corpus is whole', () => {
  test('67 liwords records and 61 MAGPIE fixtures, each with an expectation', () => {
    expect(LIWORDS).toHaveLength(67);
    expect(MAGPIE).toHaveLength(61);
    expect(EXPECTATIONS.map((e) => e.file).sort()).toEqual(MAGPIE);
  });
});

describe('liwords games replay with no mismatches', () => {
  test.each(LIWORDS)('%s', (file) => {
    const { text, doc, report } = replayFile(join(ROOT, 'liwords', file));
    expect(doc.ok).toBe(true);
    expect(report!.errors).toEqual([]);
    expect(report!.mismatches).toEqual([]);
    expect(report!.ok).toBe(true);
    if (isFinished(text)) {
      expect(report!.complete).toBe(true);
      expect(report!.finalScores).toEqual(lastTotals(text));
      const totals = Object.values(lastTotals(text));
      const winner = report!.result!.winner;
      if (totals[0] === totals[1]) expect(winner).toBeNull();
      else expect(report!.finalScores[winner!]).toBe(Math.max(...totals));
    } else {
      expect(report!.complete).toBe(false);
    }
  });
});

describe('MAGPIE fixtures are handled as MAGPIE-expectations.tsv says', () => {
  test.each(EXPECTATIONS)('$file: $layer $code', ({ file, layer, code }) => {
    const { text, doc, report } = replayFile(join(ROOT, 'MAGPIE', file));
    if (layer === 'parse') {
      expect(doc.ok ? 'parsed' : doc.error.code).toBe(code);
      return;
    }
    expect(doc.ok).toBe(true);
    if (layer === 'replay') {
      expect(report!.ok).toBe(false);
      expect([...report!.mismatches.map((m) => m.code), ...report!.errors.map((e) => e.code)]).toContain(code);
      return;
    }
    expect(report!.mismatches).toEqual([]);
    expect(report!.errors).toEqual([]);
    if (isFinished(text)) {
      expect(report!.complete).toBe(true);
      expect(report!.finalScores).toEqual(lastTotals(text));
    } else {
      expect(report!.complete).toBe(false);
    }
  });
});
