import { describe, expect, test } from 'vitest';
import { emptyBoard, formatBoard, SUPER_LAYOUT, type Board } from './board.js';
import type { PlayMove } from './move.js';
import { boardWith, play, setLexicon } from './placement.fixtures.js';
import { applyPlay, checkPlay, PLACEMENT_ERROR_CODES, type PlayContext } from './placement.js';
import { ENGLISH, ENGLISH_SUPER, SPANISH } from './tiles.js';

const EMPTY = emptyBoard();
/** CAT across at 8G: C on G8, A on H8 (the used-up DWS), T on I8. */
const CAT = boardWith([['8G', 'CAT']]);
const ctx = (board: Board, extra: Partial<PlayContext> = {}): PlayContext => ({ board, distribution: ENGLISH, ...extra });
const noTiles: PlayMove = { kind: 'play', anchor: { row: 7, col: 7, dir: 'across' }, word: [] };

describe('rejected plays', () => {
  test.each([
    { name: 'no tiles at all', c: ctx(CAT), move: noTiles, code: 'EMPTY_PLAY', rule: 'rule 4', details: { anchor: '8H' } },
    {
      name: 'word runs off the right edge',
      c: ctx(CAT),
      move: play('9L', 'ALBUMS'),
      code: 'OFF_BOARD',
      rule: 'rule 5',
      details: { squares: ['P9', 'Q9'] },
    },
    {
      name: 'word runs off the bottom edge',
      c: ctx(CAT),
      move: play('O12', 'CRATE'),
      code: 'OFF_BOARD',
      rule: 'rule 5',
      details: { squares: ['O16'] },
    },
    {
      name: 'anchor itself off the board',
      c: ctx(CAT),
      move: play('16A', 'AT'),
      code: 'OFF_BOARD',
      rule: 'rule 5',
      details: { squares: ['A16', 'B16'] },
    },
    {
      name: '"." on an empty square',
      c: ctx(CAT),
      move: play('9G', 'A.'),
      code: 'NOTHING_TO_PLAY_THROUGH',
      rule: 'rule 5a',
      details: { squares: ['H9'] },
    },
    {
      name: 'a letter over a different tile',
      c: ctx(CAT),
      move: play('8G', 'CUT'),
      code: 'SQUARE_OCCUPIED',
      rule: 'rule 5',
      details: { squares: ['H8'] },
    },
    {
      name: 'a letter not in the set',
      c: ctx(CAT),
      move: play('G6', 'ÑO.'),
      code: 'UNKNOWN_TILE',
      rule: undefined,
      details: { squares: ['G6'], tiles: ['Ñ'] },
    },
    {
      name: 'a Spanish digraph in English',
      c: ctx(CAT),
      move: play('G6', '[CH]O.'),
      code: 'UNKNOWN_TILE',
      rule: undefined,
      details: { tiles: ['CH'] },
    },
    {
      name: 'a blank as a letter not in the set',
      c: ctx(CAT),
      move: play('G6', 'ñO.'),
      code: 'BAD_BLANK_DESIGNATION',
      rule: 'rule 10',
      details: { squares: ['G6'], tiles: ['Ñ'] },
    },
    {
      name: 'a blank with no letter',
      c: ctx(CAT),
      move: play('G6', '?O.'),
      code: 'BAD_BLANK_DESIGNATION',
      rule: 'rule 10',
      details: { squares: ['G6'], tiles: ['?'] },
    },
    {
      name: 'only tiles already on the board, as "."',
      c: ctx(CAT),
      move: play('8G', '...'),
      code: 'NO_TILES_PLACED',
      rule: 'rule 4',
      details: {},
    },
    {
      name: 'only tiles already on the board, as letters',
      c: ctx(CAT),
      move: play('8G', 'CAT'),
      code: 'NO_TILES_PLACED',
      rule: 'rule 4',
      details: {},
    },
    {
      name: 'a tile just before the start',
      c: ctx(CAT),
      move: play('8H', '..E'),
      code: 'WORD_NOT_WHOLE',
      rule: 'rule 5',
      details: { squares: ['G8'] },
    },
    {
      name: 'a tile just after the end',
      c: ctx(CAT),
      move: play('8D', 'EPI'),
      code: 'WORD_NOT_WHOLE',
      rule: 'rule 5',
      details: { squares: ['G8'] },
    },
    {
      name: 'first play off the centre',
      c: ctx(EMPTY),
      move: play('8A', 'CAT'),
      code: 'MISSES_CENTRE',
      rule: 'rule 3',
      details: { squares: ['H8'] },
    },
    {
      name: 'first play in the wrong row',
      c: ctx(EMPTY),
      move: play('7G', 'CAT'),
      code: 'MISSES_CENTRE',
      rule: 'rule 3',
      details: { squares: ['H8'] },
    },
    {
      name: 'first play on the super board misses K11',
      c: { board: emptyBoard(SUPER_LAYOUT), distribution: ENGLISH_SUPER },
      move: play('8H', 'CAT'),
      code: 'MISSES_CENTRE',
      rule: 'rule 3',
      details: { squares: ['K11'] },
    },
    {
      name: 'first play of one tile',
      c: ctx(EMPTY),
      move: play('8H', 'A'),
      code: 'FIRST_PLAY_TOO_SHORT',
      rule: 'rule 3',
      details: { tiles: ['A'] },
    },
    {
      name: 'a word away from every tile',
      c: ctx(CAT),
      move: play('2B', 'DOG'),
      code: 'NOT_CONNECTED',
      rule: 'rule 5',
      details: { squares: ['B2', 'C2', 'D2'] },
    },
    { name: 'one lone tile', c: ctx(CAT), move: play('1A', 'A'), code: 'NOT_CONNECTED', rule: 'rule 5', details: { squares: ['A1'] } },
    {
      name: 'a diagonal neighbour is no connection',
      c: ctx(CAT),
      move: play('9J', 'AT'),
      code: 'NOT_CONNECTED',
      rule: 'rule 5',
      details: { squares: ['J9', 'K9'] },
    },
    {
      name: 'tiles missing from the rack',
      c: ctx(CAT, { rack: ['Z', 'A', 'X', 'E', 'R', 'S', 'T'] }),
      move: play('9H', 'OX'),
      code: 'TILES_NOT_IN_RACK',
      rule: 'rule 4',
      details: { tiles: ['O'] },
    },
    {
      name: 'the same letter twice, one on the rack',
      c: ctx(CAT, { rack: ['A', 'B', 'C', 'D', 'E', 'F', 'G'] }),
      move: play('9G', 'AA'),
      code: 'TILES_NOT_IN_RACK',
      rule: 'rule 4',
      details: { tiles: ['A'] },
    },
    {
      name: 'a blank played with no ? on the rack',
      c: ctx(CAT, { rack: ['O', 'X'] }),
      move: play('9H', 'oX'),
      code: 'TILES_NOT_IN_RACK',
      rule: 'rule 4',
      details: { tiles: ['?'] },
    },
  ])('$name: $code', ({ c, move, code, rule, details }) => {
    const r = checkPlay(c, move);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(PLACEMENT_ERROR_CODES).toContain(code);
    expect(r.error.citation).toEqual(rule === undefined ? undefined : { source: 'seed-003', rule });
    expect(r.error.details).toMatchObject(details);
    const squares = (r.error.details?.['squares'] ?? []) as string[];
    for (const sq of squares) expect(r.error.message).toContain(sq);
  });

  test('messages name the square and the tiles', () => {
    const r = checkPlay(ctx(CAT), play('8G', 'CUT'));
    expect(!r.ok && r.error.message).toBe('The play 8G CUT writes U on H8, which already holds A.');
    const m = checkPlay(ctx(CAT, { rack: ['A', 'B'] }), play('9H', 'oX'));
    expect(!m.ok && m.error.message).toContain('needs ?X');
  });
});

describe('words are judged against the lexicon', () => {
  // HE at 8H; AX at 9H forms AX, HA and EX (scores: see scoring.test.ts, 17 + 5 + 17 = 39).
  const HE = boardWith([['8H', 'HE']]);
  const move = play('9H', 'AX');

  test.each([
    { lexicon: ['AX', 'HA', 'EX'], bad: [] },
    { lexicon: ['AX', 'HA'], bad: ['EX'], rule: 'rule 9' },
    { lexicon: ['HE'], bad: ['AX', 'HA', 'EX'], rule: 'rule 5' },
  ])('lexicon $lexicon: invalid $bad', ({ lexicon, bad, rule }) => {
    const r = checkPlay(ctx(HE, { lexicon: setLexicon(lexicon) }), move);
    if (bad.length === 0) {
      expect(r.ok && r.value.words.map((w) => w.valid)).toEqual([true, true, true]);
      return;
    }
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('INVALID_WORDS');
    expect(r.error.details).toMatchObject({ words: bad, lexicon: 'TEST' });
    expect(r.error.citation).toEqual({ source: 'seed-003', rule });
    for (const w of bad) expect(r.error.message).toContain(w);
  });

  test('with requireValidWords false a phony stands and is listed', () => {
    const r = checkPlay(ctx(HE, { lexicon: setLexicon(['AX', 'HA']), requireValidWords: false }), move);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.phonies).toEqual(['EX']);
    expect(r.value.words.map((w) => [w.word, w.valid])).toEqual([
      ['AX', true],
      ['HA', true],
      ['EX', false],
    ]);
    expect(r.value.score).toBe(39);
  });

  test('without a lexicon words are not judged', () => {
    const r = checkPlay(ctx(HE), move);
    expect(r.ok && [r.value.phonies, r.value.words.map((w) => w.valid)]).toEqual([[], [null, null, null]]);
  });

  test('a digraph word is judged as its letters run together', () => {
    const r = checkPlay({ board: EMPTY, distribution: SPANISH, lexicon: setLexicon(['CHICO']) }, play('8H', '[CH]ICO'));
    expect(r.ok && r.value.words.map((w) => [w.word, w.valid, w.score])).toEqual([['CHICO', true, 20]]);
  });
});

describe('accepted plays', () => {
  test('opening bingo from a rack: placements, score and the rack left', () => {
    // J8×2 + U1 + K5 + E1 + B3 + O1 + X8 = 35, ×2 (H8) = 70, + 50 = 120
    const r = checkPlay(ctx(EMPTY, { rack: ['X', 'O', 'B', 'E', 'K', 'U', 'J'] }), play('8D', 'JUKEBOX'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.placements.map((p) => [p.row, p.col, p.letter, p.blank])).toEqual([...'JUKEBOX'].map((l, i) => [7, 3 + i, l, false]));
    expect([r.value.bingo, r.value.bingoBonus, r.value.score]).toEqual([true, 50, 120]);
    expect(r.value.rackAfter).toEqual([]);
  });

  test('a blank uses a ? and the rest of the rack is returned', () => {
    // Z10 + o0 (H8 DWS) + O1 = 11, ×2 = 22
    const r = checkPlay(ctx(EMPTY, { rack: ['Z', '?', 'O', 'E', 'R'] }), play('8G', 'ZoO'));
    expect(r.ok && [r.value.score, r.value.rackAfter, r.value.placements[1]]).toEqual([
      22,
      ['E', 'R'],
      { row: 7, col: 7, letter: 'O', blank: true },
    ]);
  });

  test('rule sets pass their own bingo bonus', () => {
    const r = checkPlay(ctx(EMPTY, { bingoBonus: 40 }), play('8D', 'JUKEBOX'));
    expect(r.ok && r.value.score).toBe(110);
  });

  test.each([
    // QI at 8H, I a blank on the board: Q10 + i0 + S1 = 11, whichever way the played-through tiles are written
    ['..S'],
    ['QIS'],
    ['QiS'],
    ['qiS'],
  ])('played-through tiles written %s: the same play', (word) => {
    const r = checkPlay(ctx(boardWith([['8H', 'Qi']]), { rack: ['S'] }), play('8H', word));
    expect(r.ok && [r.value.score, r.value.placements, r.value.rackAfter, r.value.words[0]!.letters[1]!.blank]).toEqual([
      11,
      [{ row: 7, col: 9, letter: 'S', blank: false }],
      [],
      true,
    ]);
  });

  test('a one-tile play written either way forms the same word', () => {
    // A on H8; S on H9 forms AS down: A1 + S1 = 2 (H9 plain). Written across (9H), the across "word" is S alone.
    for (const move of [play('9H', 'S'), play('H8', '.S')]) {
      const r = checkPlay(ctx(CAT), move);
      expect(r.ok && r.value.words.map((w) => [w.word, w.main, w.score])).toEqual([['AS', true, 2]]);
    }
  });

  test('each connection of rule 5 is accepted', () => {
    const cases: [string, string][] = [
      ['8G', '...S'], // a: adding a letter to a word (C3+A1+T1+S1 = 6)
      ['G7', 'A.E'], // b: at right angles through a letter on the board
      ['9G', 'AT'], // c: parallel, forming CA and AT below
    ];
    for (const [coord, word] of cases) expect(checkPlay(ctx(CAT), play(coord, word)).ok).toBe(true);
  });

  test('applyPlay puts the tiles down and keeps blanks as blanks', () => {
    const r = checkPlay(ctx(CAT), play('G7', 'a.E'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const after = applyPlay(CAT, r.value);
    expect(after.tileCount).toBe(5);
    expect(formatBoard(after).split('\n').slice(6, 9)).toEqual(['......a........', '......CAT......', '......E........']);
    expect(CAT.tileCount).toBe(3);
  });

  test('Spanish CH is one square: the play ends at K8 and L8 may hold the next word', () => {
    // CH5 (H8 DWS) + I1 + C3 + O1 = 10, ×2 = 20
    const r = checkPlay({ board: EMPTY, distribution: SPANISH, rack: ['CH', 'I', 'C', 'O', 'A'] }, play('8H', '[CH]ICO'));
    expect(r.ok && [r.value.score, r.value.placements.map((p) => p.col), r.value.rackAfter]).toEqual([20, [7, 8, 9, 10], ['A']]);
  });

  test('super board: QWS play through a tile', () => {
    // Z10 (A1 QWS) + O1 + O1 (C1 on board) = 12, ×4 = 48
    const r = checkPlay({ board: boardWith([['C1', 'OX']], SUPER_LAYOUT), distribution: ENGLISH_SUPER }, play('1A', 'ZO.'));
    expect(r.ok && r.value.score).toBe(48);
  });
});
