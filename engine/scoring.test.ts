import { describe, expect, test } from 'vitest';
import { emptyBoard, SUPER_LAYOUT, tileAt, type Board, type Placement } from './board.js';
import { boardWith, play } from './placement.fixtures.js';
import { scorePlacements } from './scoring.js';
import { ENGLISH, ENGLISH_SUPER, SPANISH, type Distribution } from './tiles.js';

/** The tiles a move puts down on `board` (squares written as `.` or already occupied are skipped). */
const placed = (board: Board, coord: string, word: string): Placement[] => {
  const m = play(coord, word);
  const dr = m.anchor.dir === 'down' ? 1 : 0;
  const out: Placement[] = [];
  m.word.forEach((t, i) => {
    const row = m.anchor.row + dr * i;
    const col = m.anchor.col + (1 - dr) * i;
    if (t.kind === 'letter' && !tileAt(board, row, col)) out.push({ row, col, letter: t.letter, blank: t.blank });
  });
  return out;
};

const score = (board: Board, coord: string, word: string, dist: Distribution = ENGLISH) =>
  scorePlacements(board, dist, placed(board, coord, word), { dir: play(coord, word).anchor.dir });

const EMPTY = emptyBoard();

// Each row: the board, the play, and the hand arithmetic (standard layout unless noted).
// Premium squares used: H8 DWS; D8, L8, D1, L1, I9 DLS; A1, H1, O1 TWS; E5, K5 DWS.
// Super layout: A1 QWS; C3 DWS; F3 QLS.
test.each([
  {
    name: 'opening play on the H8 DWS',
    // F4 (H8, DWS) + A1 + R1 + M3 = 9, ×2 = 18
    board: EMPTY,
    coord: '8H',
    word: 'FARM',
    dist: ENGLISH,
    words: [['FARM', 18]],
    bingo: false,
    total: 18,
  },
  {
    name: 'letter premium before the word premium',
    // Z10×2 (D8 DLS) = 20 + E1 + B3 + R1 + A1 (H8 DWS) = 26, ×2 = 52 (not (10×2)+… doubled after)
    board: EMPTY,
    coord: '8D',
    word: 'ZEBRA',
    dist: ENGLISH,
    words: [['ZEBRA', 52]],
    bingo: false,
    total: 52,
  },
  {
    name: 'seven-tile opening bingo',
    // J8×2 (D8 DLS) = 16 + U1 + K5 + E1 + B3 (H8 DWS) + O1 + X8 = 35, ×2 = 70, + 50 bingo = 120
    board: EMPTY,
    coord: '8D',
    word: 'JUKEBOX',
    dist: ENGLISH,
    words: [['JUKEBOX', 70]],
    bingo: true,
    total: 120,
  },
  {
    name: 'a blank on the DWS still doubles the word',
    // Z10 + o0 (blank on H8 DWS) + O1 = 11, ×2 = 22
    board: EMPTY,
    coord: '8G',
    word: 'ZoO',
    dist: ENGLISH,
    words: [['ZOO', 22]],
    bingo: false,
    total: 22,
  },
  {
    name: 'two TWS: 1A–1H ×9',
    // A1 (A1 TWS) + B3 + S1 + O1 (D1 DLS, already covered: face) + L1 + U1 + T1 (on board) + E1 (H1 TWS)
    // = 10, ×3×3 = 90; six tiles, no bingo
    board: boardWith([
      ['D1', 'OX'],
      ['G1', 'TO'],
    ]),
    coord: '1A',
    word: 'ABS.LU.E',
    dist: ENGLISH,
    words: [['ABSOLUTE', 90]],
    bingo: false,
    total: 90,
  },
  {
    name: 'three TWS: a 15-letter word across row 1, ×27, with a bingo',
    // Placed: D2 (A1 TWS), C3 (E1), R1 (F1), T1 (H1 TWS), T1×2 (L1 DLS) = 2, O1 (N1), N1 (O1 TWS).
    // On board at face: E1 M3 O1 (D1 DLS not counted again) A1 I1 Z10 A1 I1.
    // Sum 2+1+3+1+3+1+1+1+1+10+1+2+1+1+1 = 30, ×3×3×3 = 810, + 50 bingo (7 tiles) = 860
    board: boardWith([
      ['1B', 'EMO'],
      ['1G', 'A'],
      ['1I', 'IZA'],
      ['1M', 'I'],
    ]),
    coord: '1A',
    word: 'D...CR.T...T.ON',
    dist: ENGLISH,
    words: [['DEMOCRATIZATION', 810]],
    bingo: true,
    total: 860,
  },
  {
    name: 'two DWS: 5E–5K ×4',
    // R1 (E5 DWS) + E1 + A1 + D2 (H5, on board) + I1 + N1 + G2 (K5 DWS) = 9, ×2×2 = 36
    board: boardWith([['H5', 'DOES']]),
    coord: '5E',
    word: 'REA.ING',
    dist: ENGLISH,
    words: [['READING', 36]],
    bingo: false,
    total: 36,
  },
  {
    name: 'parallel play: each word scored, X on the I9 DLS counted in both of its words',
    // AX: A1 (H9) + X8×2 (I9 DLS) = 17; HA: H4 (H8 on board) + A1 = 5; EX: E1 (I8 on board) + X16 = 17
    // total 17 + 5 + 17 = 39
    board: boardWith([['8H', 'HE']]),
    coord: '9H',
    word: 'AX',
    dist: ENGLISH,
    words: [
      ['AX', 17],
      ['HA', 5],
      ['EX', 17],
    ],
    bingo: false,
    total: 39,
  },
  {
    name: 'a premium covered on an earlier turn counts at face value',
    // Q10 (H8, DWS used up) + I1 + S1 = 12, no ×2
    board: boardWith([['8H', 'QI']]),
    coord: '8H',
    word: '..S',
    dist: ENGLISH,
    words: [['QIS', 12]],
    bingo: false,
    total: 12,
  },
  {
    name: 'played-through tiles written as letters score the same as "."',
    // as above: 10 + 1 + 1 = 12
    board: boardWith([['8H', 'QI']]),
    coord: '8H',
    word: 'QIS',
    dist: ENGLISH,
    words: [['QIS', 12]],
    bingo: false,
    total: 12,
  },
  {
    name: 'a blank already on the board scores 0 when played through',
    // Q10 + i0 (blank on board) + S1 = 11
    board: boardWith([['8H', 'Qi']]),
    coord: '8H',
    word: '..S',
    dist: ENGLISH,
    words: [['QIS', 11]],
    bingo: false,
    total: 11,
  },
  {
    name: 'super board QLS under a DWS',
    // Q10 (C3 DWS) + U1 (D3 on board) + I1 + Z10×4 (F3 QLS) = 52, ×2 = 104
    board: boardWith([['D3', 'US']], SUPER_LAYOUT),
    coord: '3C',
    word: 'Q.IZ',
    dist: ENGLISH_SUPER,
    words: [['QUIZ', 104]],
    bingo: false,
    total: 104,
  },
  {
    name: 'super board QWS',
    // Z10 (A1 QWS) + O1 + O1 (C1 on board) = 12, ×4 = 48
    board: boardWith([['C1', 'OX']], SUPER_LAYOUT),
    coord: '1A',
    word: 'ZO.',
    dist: ENGLISH_SUPER,
    words: [['ZOO', 48]],
    bingo: false,
    total: 48,
  },
  {
    name: 'Spanish digraph CH is one square',
    // CH5 (H8 DWS) + I1 + C3 + O1 = 10, ×2 = 20; the word occupies H8–K8
    board: EMPTY,
    coord: '8H',
    word: '[CH]ICO',
    dist: SPANISH,
    words: [['CHICO', 20]],
    bingo: false,
    total: 20,
  },
])('$name', ({ board, coord, word, dist, words, bingo, total }) => {
  const s = score(board, coord, word, dist);
  expect(s.words.map((w) => [w.word, w.score])).toEqual(words);
  expect(s.bingo).toBe(bingo);
  expect(s.bingoBonus).toBe(bingo ? 50 : 0);
  expect(s.score).toBe(total);
});

describe('the arithmetic is itemised', () => {
  test('JUKEBOX: letter values, multipliers and sums', () => {
    const [w] = score(EMPTY, '8D', 'JUKEBOX').words;
    expect(w!.main).toBe(true);
    expect(w!.start).toEqual({ row: 7, col: 3, dir: 'across' });
    expect(w!.letters.map((l) => [l.letter, l.face, l.letterMultiplier, l.wordMultiplier, l.value])).toEqual([
      ['J', 8, 2, 1, 16],
      ['U', 1, 1, 1, 1],
      ['K', 5, 1, 1, 5],
      ['E', 1, 1, 1, 1],
      ['B', 3, 1, 2, 3],
      ['O', 1, 1, 1, 1],
      ['X', 8, 1, 1, 8],
    ]);
    expect([w!.letterSum, w!.wordMultiplier, w!.score, w!.valid]).toEqual([35, 2, 70, null]);
  });

  test('stacked word premiums multiply: ×9 for A1 and H1', () => {
    const [w] = score(
      boardWith([
        ['D1', 'OX'],
        ['G1', 'TO'],
      ]),
      '1A',
      'ABS.LU.E',
    ).words;
    expect(w!.wordMultiplier).toBe(9);
    expect(w!.letters.filter((l) => !l.newlyPlaced).map((l) => [l.letter, l.letterMultiplier, l.wordMultiplier])).toEqual([
      ['O', 1, 1],
      ['T', 1, 1],
    ]);
  });

  test('a blank on a premium: face 0, word premium kept', () => {
    const [w] = score(EMPTY, '8G', 'ZoO').words;
    expect(w!.letters[1]).toEqual({
      row: 7,
      col: 7,
      letter: 'O',
      blank: true,
      newlyPlaced: true,
      face: 0,
      letterMultiplier: 1,
      wordMultiplier: 2,
      value: 0,
    });
  });

  test('cross words start where they really start and are not main', () => {
    const s = score(boardWith([['8H', 'HE']]), '9H', 'AX');
    expect(s.words.map((w) => [w.main, w.start])).toEqual([
      [true, { row: 8, col: 7, dir: 'across' }],
      [false, { row: 7, col: 7, dir: 'down' }],
      [false, { row: 7, col: 8, dir: 'down' }],
    ]);
  });
});

describe('one-tile plays', () => {
  // Board: CAT at 8G. S at J8 forms CATS only: C3 + A1 + T1 + S1 = 6 (J8 plain).
  const cat = boardWith([['8G', 'CAT']]);
  const s: Placement = { row: 7, col: 9, letter: 'S', blank: false };

  test.each(['across', 'down'] as const)('the only word formed is the main word, written %s', (dir) => {
    const r = scorePlacements(cat, ENGLISH, [s], { dir });
    expect(r.words.map((w) => [w.word, w.main, w.score])).toEqual([['CATS', true, 6]]);
    expect(r.score).toBe(6);
  });

  test('a tile forming words both ways: the written direction is main, default across', () => {
    // Board: CAT at 8G and A at J9, below J8. S at J8 forms CATS (6) and SA (S1 + A1 = 2): 8
    const b = boardWith([
      ['8G', 'CAT'],
      ['J9', 'A'],
    ]);
    expect(scorePlacements(b, ENGLISH, [s]).words.map((w) => [w.word, w.main])).toEqual([
      ['CATS', true],
      ['SA', false],
    ]);
    expect(scorePlacements(b, ENGLISH, [s], { dir: 'down' }).words.map((w) => [w.word, w.main])).toEqual([
      ['SA', true],
      ['CATS', false],
    ]);
    expect(scorePlacements(b, ENGLISH, [s]).score).toBe(8);
  });
});

describe('options and invariants', () => {
  test('rule sets pass their own bingo bonus and rack size', () => {
    // FARM: 18 as above; 4 tiles make a bingo on a 4-tile rack: 18 + 35 = 53
    const r = scorePlacements(EMPTY, ENGLISH, placed(EMPTY, '8H', 'FARM'), { bingoBonus: 35, rackSize: 4 });
    expect([r.bingo, r.bingoBonus, r.score]).toEqual([true, 35, 53]);
  });

  test('direction is inferred from two or more placements', () => {
    const r = scorePlacements(EMPTY, ENGLISH, placed(EMPTY, 'H8', 'FARM'));
    expect(r.words[0]!.start).toEqual({ row: 7, col: 7, dir: 'down' });
    expect(r.score).toBe(18);
  });

  test('no placements score nothing', () => {
    expect(scorePlacements(EMPTY, ENGLISH, [])).toEqual({ words: [], bingo: false, bingoBonus: 0, score: 0 });
  });

  test.each([
    [
      'not in one line',
      [
        { row: 7, col: 7, letter: 'A', blank: false },
        { row: 8, col: 8, letter: 'B', blank: false },
      ],
    ],
    [
      'with a gap',
      [
        { row: 7, col: 7, letter: 'A', blank: false },
        { row: 7, col: 9, letter: 'B', blank: false },
      ],
    ],
  ])('placements %s are a broken invariant', (_, ps) => {
    expect(() => scorePlacements(EMPTY, ENGLISH, ps)).toThrow();
  });

  test('placing on an occupied square is a broken invariant', () => {
    expect(() => scorePlacements(boardWith([['8H', 'A']]), ENGLISH, [{ row: 7, col: 7, letter: 'B', blank: false }])).toThrow();
  });
});
