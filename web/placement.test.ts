import { describe, expect, test } from 'vitest';
import { notationOf, parseRows, parseSquare, splitTiles, squareName, type Placed } from './placement.js';

const empty = (n = 15) => parseRows(Array.from({ length: n }, () => '.'.repeat(n)));
const put = (row: number, col: number, letter: string, blank = false): Placed => ({ row, col, letter, blank, rackIndex: 0 });

describe('the play page writes the notation of the tiles it placed', () => {
  test.each([
    [[put(7, 7, 'C'), put(7, 8, 'A'), put(7, 9, 'T')], '8H CAT'],
    [[put(7, 7, 'C'), put(8, 7, 'A'), put(9, 7, 'T')], 'H8 CAT'],
    [[put(7, 9, 'T'), put(7, 7, 'C'), put(7, 8, 'A', true)], '8H CaT'],
  ])('%j → %s', (placed, move) => {
    expect(notationOf(empty(), placed)).toEqual({ ok: true, move, dir: move.startsWith('8') ? 'across' : 'down' });
  });

  test('through tiles already on the board, written as dots; a single tile runs the way it joins', () => {
    const rows = Array.from({ length: 15 }, () => '.'.repeat(15));
    rows[7] = '.......CAT.....';
    const board = parseRows(rows);
    expect(notationOf(board, [put(7, 10, 'S')])).toEqual({ ok: true, move: '8H ...S', dir: 'across' });
    expect(notationOf(board, [put(6, 8, 'Z'), put(8, 8, 'S')])).toEqual({ ok: true, move: 'I7 Z.S', dir: 'down' });
    expect(notationOf(board, [put(8, 7, 'A')])).toEqual({ ok: true, move: 'H8 .A', dir: 'down' });
  });

  test('says why there is no play', () => {
    expect(notationOf(empty(), [])).toMatchObject({ ok: false, message: 'Place tiles on the board first.' });
    expect(notationOf(empty(), [put(7, 7, 'A'), put(8, 8, 'B')])).toMatchObject({
      ok: false,
      message: 'Place the tiles in one row or one column.',
    });
    expect(notationOf(empty(), [put(7, 7, 'A'), put(7, 9, 'B')])).toMatchObject({ ok: false, message: expect.stringContaining('gap') });
  });

  test('digraph tiles and squares', () => {
    expect(splitTiles('A[CH]?b')).toEqual(['A', 'CH', '?', 'b']);
    expect(parseRows(['[ch].A'])).toEqual([[{ letter: 'CH', blank: true }, null, { letter: 'A', blank: false }]]);
    expect(notationOf(empty(), [put(7, 7, 'CH'), put(7, 8, 'E')])).toMatchObject({ move: '8H [CH]E' });
    expect(squareName({ row: 7, col: 7 })).toBe('H8');
    expect(parseSquare('O15')).toEqual({ row: 14, col: 14 });
  });
});
