/**
 * Placement and scoring across tile sets (issue 21): accented letters, digraph tiles (on the rack,
 * as a blank, played through) and letters a set has not got. Scores are worked by hand on the
 * standard board: H8 the double-word centre, J7 plain; values from each set's published table.
 */
import { describe, expect, test } from 'vitest';
import { checkPlay } from './placement.js';
import { boardWith, play } from './placement.fixtures.js';
import { emptyBoard, type Board } from './board.js';
import { DISTRIBUTIONS, splitTiles } from './tiles.js';

const check = (set: string, coord: string, word: string, rack: string, board: Board = emptyBoard()) =>
  checkPlay({ board, distribution: DISTRIBUTIONS[set]!, rack: splitTiles(rack)! }, play(coord, word));

describe.each([
  // (Ź 9 + Ł 3 + E 1) × 2 = 26
  { set: 'polish', coord: '8H', word: 'ŹŁE', rack: 'ŹŁEAIKO', score: 26 },
  // (B 3 + Ä 6 + R 1) × 2 = 20
  { set: 'german', coord: '8H', word: 'BÄR', rack: 'BÄRENTS', score: 20 },
  // (Ø 5 + L 1) × 2 = 12
  { set: 'norwegian', coord: '8H', word: 'ØL', rack: 'ØLAKSTE', score: 12 },
  // (Č 5 + A 1 + Š 6 + A 1) × 2 = 26, E8–H8
  { set: 'slovene', coord: '8E', word: 'ČAŠA', rack: 'ČAŠAIKO', score: 26 },
  // (Q 10 + U 3 + I 1) × 2 = 28
  { set: 'italian', coord: '8H', word: 'QUI', rack: 'QUIETOA', score: 28 },
  // Dutch IJ is two tiles: (I 1 + J 4 + S 2) × 2 = 14
  { set: 'dutch', coord: '8H', word: 'IJS', rack: 'IJSBEER', score: 14 },
  // (P 3 + E 1 + RR 8 + O 1) × 2 = 26, G8–J8
  { set: 'spanish', coord: '8G', word: 'PE[RR]O', rack: 'PE[RR]OSAL', score: 26 },
  // (C 2 + E 1 + L·L 10 + A 1) × 2 = 28
  { set: 'catalan', coord: '8H', word: 'CE[L·L]A', rack: 'CE[L·L]ARST', score: 28 },
  // The blank as L·L scores 0: (2 + 1 + 0 + 1) × 2 = 8
  { set: 'catalan', coord: '8H', word: 'CE[l·l]A', rack: 'CE?ARST', score: 8 },
  // (Ç 10 + A 1) × 2 = 22 (Catalan has no word in Ç alone; words are not judged here)
  { set: 'catalan', coord: '8H', word: 'ÇA', rack: 'ÇAEIRST', score: 22 },
  // (K 10 + E 1 + P 3 + I 1) × 2 = 30
  { set: 'french', coord: '8H', word: 'KEPI', rack: 'KEPIRST', score: 30 },
])('$set: $coord $word', ({ set, coord, word, rack, score }) => {
  test(`scores ${score}`, () => {
    const r = check(set, coord, word, rack);
    expect(r.ok ? r.value.score : r.error.code).toBe(score);
  });
});

describe('digraphs and letters a set has not got', () => {
  test('a digraph on the board is played through as one square: J7 A. onto the L·L = A 1 + L·L 10 = 11', () => {
    const board = boardWith([['8H', 'CE[L·L]A']]);
    const r = check('catalan', 'J7', 'A.', 'AEIRSTU', board);
    expect(r.ok && r.value.words.map((w) => [w.word, w.score])).toEqual([['AL·L', 11]]);
  });
  test('two L tiles are not the L·L tile', () => {
    const r = check('catalan', '8H', 'CE[L·L]A', 'CELLARS');
    expect(r.ok ? 'ok' : r.error.code).toBe('TILES_NOT_IN_RACK');
  });
  test('French tiles carry no accents: É is not a French tile', () => {
    const r = check('french', '8H', 'ÉTÉ', 'ÉTÉSRAI');
    expect(r.ok ? 'ok' : [r.error.code, r.error.message]).toEqual(['UNKNOWN_TILE', 'The french tile set has no É (H8), É (J8).']);
  });
  test('a Polish letter on an English board is refused', () => {
    const r = check('english', '8H', 'ŹLE', 'ŹLEAIKO');
    expect(r.ok ? 'ok' : r.error.code).toBe('UNKNOWN_TILE');
  });
});
