import { describe, expect, test } from 'vitest';
import {
  BRICKED_BOX_LAYOUT,
  emptyBoard,
  LAYOUTS,
  NO_PREMIUM_LAYOUT,
  START_CORNER_LAYOUT,
  STANDARD_LAYOUT,
  SUPER_LAYOUT,
  formatSquare,
  startSquare,
  type Layout,
} from './board.js';
import { hashOf, parseLayout } from './layout.js';
import { checkPlay } from './placement.js';
import { boardWith, play } from './placement.fixtures.js';
import { ENGLISH, ENGLISH_SUPER } from './tiles.js';

const rowsOf = (layout: Layout): string[] => [...layout.rows];
const code = (spec: Parameters<typeof parseLayout>[0]): string => {
  const r = parseLayout(spec);
  if (r.ok) throw new Error('accepted');
  return r.error.code;
};

describe('layouts given as data', () => {
  test('every named layout, given back as data with its start square, parses to the same rows, start and hash', () => {
    for (const layout of Object.values(LAYOUTS)) {
      const r = parseLayout({ rows: rowsOf(layout), start: formatSquare(startSquare(layout)) });
      expect(r.ok, layout.name).toBe(true);
      if (!r.ok) continue;
      expect(r.value.rows).toEqual(layout.rows);
      expect(r.value.start).toEqual(startSquare(layout));
      expect(r.value.hash).toBe(hashOf(layout));
      expect(r.value.name).toMatch(/^custom-[0-9a-f]{12}$/);
    }
  });

  test('the named layouts are square, 5 to 25 a side, with the start square the issue asks for', () => {
    expect(formatSquare(startSquare(STANDARD_LAYOUT))).toBe('H8');
    expect(formatSquare(startSquare(SUPER_LAYOUT))).toBe('K11');
    expect(formatSquare(startSquare(NO_PREMIUM_LAYOUT))).toBe('H8');
    expect(formatSquare(startSquare(START_CORNER_LAYOUT))).toBe('A1');
    expect(formatSquare(startSquare(BRICKED_BOX_LAYOUT))).toBe('F2');
    expect(NO_PREMIUM_LAYOUT.rows.join('').trim()).toBe('');
    expect(BRICKED_BOX_LAYOUT.rows.join('').split('#')).toHaveLength(10);
    for (const l of Object.values(LAYOUTS)) for (const row of l.rows) expect(row.length, l.name).toBe(l.rows.length);
  });

  test('"." is a plain square, the same as a space: one hash', () => {
    const dots = parseLayout({ rows: ['=...=', '.....', '..-..', '.....', '=...='], start: 'C3' });
    const spaces = parseLayout({ rows: ['=   =', '     ', '  -  ', '     ', '=   ='], start: 'c3' });
    expect(dots.ok && spaces.ok && dots.value.hash === spaces.value.hash).toBe(true);
  });

  test('the hash changes with the start square and with any square', () => {
    const rows = ['=   =', '     ', '  -  ', '     ', '=   ='];
    const a = parseLayout({ rows, start: 'C3' });
    const b = parseLayout({ rows, start: 'A1' });
    const c = parseLayout({ rows: ['=   =', '     ', '  ~  ', '     ', '=   ='], start: 'C3' });
    const hashes = [a, b, c].map((r) => (r.ok ? r.value.hash : ''));
    expect(new Set(hashes).size).toBe(3);
  });

  test.each([
    ['4 rows', { rows: ['    ', '    ', '    ', '    '], start: 'A1' }, 'LAYOUT_SIZE'],
    ['26 rows', { rows: new Array(26).fill(' '.repeat(26)), start: 'A1' }, 'LAYOUT_SIZE'],
    ['a short row', { rows: ['     ', '     ', '    ', '     ', '     '], start: 'A1' }, 'LAYOUT_RAGGED_ROWS'],
    ['an unknown symbol', { rows: ['     ', '     ', '  x  ', '     ', '     '], start: 'A1' }, 'LAYOUT_UNKNOWN_SYMBOL'],
    ['no start', { rows: new Array(5).fill('     ') }, 'LAYOUT_START_MISSING'],
    ['a blank start', { rows: new Array(5).fill('     '), start: ' ' }, 'LAYOUT_START_MISSING'],
    ['a start off the board', { rows: new Array(5).fill('     '), start: 'F1' }, 'LAYOUT_START_OFF_BOARD'],
    ['a start below the board', { rows: new Array(5).fill('     '), start: 'A6' }, 'LAYOUT_START_OFF_BOARD'],
    ['a start that is no square', { rows: new Array(5).fill('     '), start: '8H' }, 'LAYOUT_START_OFF_BOARD'],
    ['a bricked start', { rows: ['#    ', '     ', '     ', '     ', '     '], start: 'A1' }, 'LAYOUT_START_BRICKED'],
  ])('%s is refused: %s', (_what, spec, expected) => {
    expect(code(spec)).toBe(expected);
  });

  test('the errors name the row, column and square at fault', () => {
    const ragged = parseLayout({ rows: ['     ', '     ', '    ', '     ', '     '], start: 'A1' });
    expect(!ragged.ok && ragged.error.details).toMatchObject({ row: 3, squares: 4, expected: 5 });
    const symbol = parseLayout({ rows: ['     ', '     ', '  x  ', '     ', '     '], start: 'A1' });
    expect(!symbol.ok && symbol.error.details).toMatchObject({ row: 3, column: 'C', square: 'C3', symbol: 'x' });
    expect(!symbol.ok && symbol.error.message).toContain('Row 3, column C (C3)');
    const bricked = parseLayout({ rows: ['     ', '     ', '  #  ', '     ', '     '], start: 'C3' });
    expect(!bricked.ok && bricked.error.details).toMatchObject({ square: 'C3' });
  });
});

describe('placement and scoring across layouts', () => {
  const corner = START_CORNER_LAYOUT;
  const box = BRICKED_BOX_LAYOUT;
  const judge = (layout: Layout, words: readonly (readonly [string, string])[], coord: string, word: string, dist = ENGLISH) =>
    checkPlay({ board: words.length ? boardWith(words, layout) : emptyBoard(layout), distribution: dist }, play(coord, word));
  const score = (...args: Parameters<typeof judge>): number => {
    const r = judge(...args);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.value.score;
  };
  const refusal = (...args: Parameters<typeof judge>): string => {
    const r = judge(...args);
    if (r.ok) throw new Error('accepted');
    return r.error.code;
  };

  test.each([
    // Standard: CAT 8G covers H8 (DW): (3 + 1 + 1) × 2.
    [STANDARD_LAYOUT, '8G', 'CAT', 10],
    // No premiums: the same play is worth its face value.
    [NO_PREMIUM_LAYOUT, '8G', 'CAT', 5],
    // Start in the corner: A1 is a DW, D1 a DL, G1 a QW: (3+1+3+3×2+1+2+1) × 2 × 4 + 50.
    [corner, '1A', 'CABBAGE', 17 * 8 + 50],
    // Down the first column from A1, a DW; A2 and A3 are plain.
    [corner, 'A1', 'CAT', 10],
    // Bricked box: the first play covers F2, a DL: 3 + 1 + 1×2.
    [box, '2D', 'CAT', 6],
  ] as const)('%s: the first play %s %s scores %i', (layout, coord, word, expected) => {
    expect(score(layout, [], coord, word)).toBe(expected);
  });

  test('a quadruple letter square counts its tile four times', () => {
    // C1 holds T; C2 O, C3 W on the QL: 1 + 1 + 4 × 4.
    expect(score(corner, [['1A', 'CAT']], 'C1', '.OW')).toBe(18);
  });

  test('a quadruple word square on the super board multiplies by four', () => {
    // A1 is a QW on the 21×21 board: Z put there, OO already down A2–A3.
    const r = checkPlay({ board: boardWith([['A2', 'OO']], SUPER_LAYOUT), distribution: ENGLISH_SUPER }, play('A1', 'Z..'));
    expect(r.ok && r.value.words[0]).toMatchObject({ word: 'ZOO', score: (10 + 1 + 1) * 4 });
  });

  test('the first play must cover the layout’s start square, named in the refusal', () => {
    const r = judge(corner, [], '4C', 'CAT');
    expect(!r.ok && r.error.code).toBe('MISSES_CENTRE');
    expect(!r.ok && r.error.message).toContain('start square A1');
    expect(refusal(box, [], '6A', 'CAT')).toBe('MISSES_CENTRE');
    // The standard board keeps speaking of its centre.
    const std = judge(STANDARD_LAYOUT, [], '1A', 'CAT');
    expect(!std.ok && std.error.message).toContain('centre square H8');
  });

  test('a play over a bricked square is refused, naming the square', () => {
    const r = judge(box, [['2D', 'CAT']], 'E2', '.BBA');
    expect(!r.ok && r.error.code).toBe('SQUARE_BRICKED');
    expect(!r.ok && r.error.details).toMatchObject({ squares: ['E5'], layout: box.name });
    expect(!r.ok && r.error.message).toContain('E5');
    // Stopping short of the box is fine.
    // A (through) + B + B, E3 and E4 plain.
    expect(score(box, [['2D', 'CAT']], 'E2', '.BB')).toBe(7);
  });
});
