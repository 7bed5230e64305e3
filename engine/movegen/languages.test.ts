/**
 * The move generator on non-English tile sets (issue 21): a KWG built in the test from a handful
 * of words over the set's alphabet, digraph tiles and accented letters included. Scores worked by
 * hand on the empty standard board (H8 the double-word centre; D8 and L8 double letter).
 */
import { describe, expect, test } from 'vitest';
import { emptyBoard } from '../board.js';
import { buildKwg } from '../lexicon/kwg-build.js';
import { CATALAN, POLISH, type Distribution } from '../tiles.js';
import { generateMoves } from './generate.js';

const kwgOf = (words: string[], d: Distribution) => {
  const built = buildKwg(
    [...words].sort(),
    d.letters.map((k) => k.letter),
  );
  if (!built.ok) throw new Error(built.error.message);
  return built.value;
};
const plays = (words: string[], d: Distribution, rack: string[]) =>
  generateMoves({ board: emptyBoard(), distribution: d, rack, bagCount: 50 }, kwgOf(words, d).kwg, { nonPlays: false, order: 'score' });

describe('move generation beyond English', () => {
  test('Polish: the best opening from ĆĘIKPST is STĘPIĆ at 8G for 46, as in the issue’s record', () => {
    // 8G STĘPIĆ: S 1 + T 2 + Ę 5 + P 2 + I 1 + Ć 6 × 2 (L8) = 23, × 2 (H8) = 46. STĘP (at 8E, 8F, 8G or 8H) is worth (1+2+5+2) × 2 = 20 at most.
    const moves = plays(['STĘP', 'STĘPIĆ', 'PIĆ', 'KĘS'], POLISH, [...'ĆĘIKPST']);
    expect(moves[0]).toMatchObject({ notation: '8G STĘPIĆ', score: 46 });
    expect(moves.some((m) => m.notation.endsWith('KĘS'))).toBe(true);
  });

  test('Catalan: L·L and NY are one tile each, on the rack and in the word graph', () => {
    // CEL·LA is four tiles: (C 2 + E 1 + L·L 10 + A 1) × 2 = 28 wherever it covers H8, since no placement of four tiles
    // through H8 reaches D8 or L8 (the double-letter squares of row 8 and column H).
    const kwg = kwgOf(['CEL·LA', 'ANY'], CATALAN);
    expect(kwg.unspellable).toBe(0);
    const moves = plays(['CEL·LA', 'ANY'], CATALAN, ['C', 'E', 'L·L', 'A', 'NY', 'R', 'S']);
    const cella = moves.filter((m) => m.notation.includes('[L·L]'));
    expect(cella.map((m) => m.score)).toEqual(cella.map(() => 28));
    expect(cella.map((m) => m.notation).sort()).toEqual([
      '8E CE[L·L]A',
      '8F CE[L·L]A',
      '8G CE[L·L]A',
      '8H CE[L·L]A',
      'H5 CE[L·L]A',
      'H6 CE[L·L]A',
      'H7 CE[L·L]A',
      'H8 CE[L·L]A',
    ]);
    // ANY: (A 1 + NY 10) × 2 = 22, two tiles.
    expect(moves.find((m) => m.notation === '8H A[NY]')).toMatchObject({ score: 22, tilesPlayed: 2 });
  });
});
