import { describe, expect, test } from 'vitest';
import { formatBoard, LAYOUTS, STANDARD_LAYOUT, tileAt } from './board.js';
import { parseBoardRows } from './board-text.js';
import { ENGLISH, SPANISH } from './tiles.js';

const EMPTY_ROW = '...............';
const rows = (overrides: Record<number, string>): string[] => Array.from({ length: 15 }, (_, i) => overrides[i] ?? EMPTY_ROW);

describe('parseBoardRows', () => {
  test('reads tiles, blanks and empty squares, and prints back the same', () => {
    const input = rows({ 7: '......CaT......', 8: '.......X.......' });
    const board = parseBoardRows(input, STANDARD_LAYOUT, ENGLISH);
    expect(board.ok).toBe(true);
    if (!board.ok) return;
    expect(board.value.tileCount).toBe(4);
    expect(tileAt(board.value, 7, 6)).toEqual({ letter: 'C', blank: false });
    expect(tileAt(board.value, 7, 7)).toEqual({ letter: 'A', blank: true });
    expect(tileAt(board.value, 8, 7)).toEqual({ letter: 'X', blank: false });
    expect(formatBoard(board.value).split('\n')).toEqual(input);
  });

  test('ignores spaces and reads digraph tiles in brackets', () => {
    const board = parseBoardRows(rows({ 7: '. . . . . . [CH] [ll] O . . . . . .' }), LAYOUTS['CrosswordGame']!, SPANISH);
    expect(board.ok && [tileAt(board.value, 7, 6), tileAt(board.value, 7, 7), tileAt(board.value, 7, 8)]).toEqual([
      { letter: 'CH', blank: false },
      { letter: 'LL', blank: true },
      { letter: 'O', blank: false },
    ]);
  });

  test.each([
    [
      'too few rows',
      rows({}).slice(0, 14),
      'The board has 14 rows; the CrosswordGame board has 15 (write one string per row, "." for an empty square).',
      { rows: 14, expected: 15 },
    ],
    [
      'a long row',
      rows({ 3: `${EMPTY_ROW}.` }),
      'Row 4 ("................") has 16 squares; the CrosswordGame board has 15 per row.',
      { row: 4, squares: 16, expected: 15 },
    ],
    [
      'a stray character',
      rows({ 0: '..#............' }),
      'Row 1 ("..#............") has "#" at position 3: write a letter, a lowercase letter for a blank, or "." for an empty square.',
      { row: 1 },
    ],
    [
      'an unclosed bracket',
      rows({ 1: '[CH.............' }),
      'Row 2 ("[CH.............") has "[" at position 1 without a multi-letter tile such as [CH] or [ch] after it.',
      { row: 2 },
    ],
    [
      'a letter not in the set',
      rows({ 14: '..............Ñ' }),
      'Row 15: O15 holds "Ñ", which is not a letter of the english tile set (use "." for an empty square).',
      { row: 15, square: 'O15', tile: 'Ñ' },
    ],
  ])('refuses %s with BAD_BOARD naming the row', (_name, input, message, details) => {
    const r = parseBoardRows(input, STANDARD_LAYOUT, ENGLISH);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('BAD_BOARD');
    expect(r.error.message).toBe(message);
    expect(r.error.details).toMatchObject(details);
  });
});
