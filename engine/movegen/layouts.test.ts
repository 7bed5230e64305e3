import { describe, expect, test } from 'vitest';
import {
  BRICKED_BOX_LAYOUT,
  emptyBoard,
  isBricked,
  NO_PREMIUM_LAYOUT,
  START_CORNER_LAYOUT,
  STANDARD_LAYOUT,
  startSquare,
  type Layout,
} from '../board.js';
import { parseLayout } from '../layout.js';
import { buildKwg } from '../lexicon/kwg-build.js';
import { applyPlay, checkPlay } from '../placement.js';
import { play } from '../placement.fixtures.js';
import { ENGLISH } from '../tiles.js';
import { generateMoves } from './generate.js';
import { placementKey, slowPlays, SortedWords } from './slow-generator.fixtures.js';

/**
 * The move generator on every kind of layout (issue 21): its plays, with their scores, are exactly the
 * slow oracle's (which asks the referee, checkPlay, about every candidate) on boards with quadruple
 * premiums, a start square off the centre and bricked squares, from the empty board on.
 */

const WORDS = [
  'AB',
  'BA',
  'AD',
  'DA',
  'BAD',
  'DAB',
  'CAB',
  'CABS',
  'SCAB',
  'ABS',
  'ADS',
  'BADS',
  'DABS',
  'AS',
  'QI',
  'QIS',
  'ZA',
  'ZAS',
  'ADZ',
];
const built = buildKwg(
  [...WORDS].sort(),
  ENGLISH.letters.map((l) => l.letter),
);
if (!built.ok) throw new Error(built.error.message);
const kwg = built.value.kwg;
const words = new SortedWords(WORDS);

const tiny = parseLayout({ rows: ['~.#.^', '.....', '^.-.#', '#....', '=..^~'], start: 'C3' });
if (!tiny.ok) throw new Error(tiny.error.message);

const LAYOUTS_UNDER_TEST: readonly Layout[] = [STANDARD_LAYOUT, NO_PREMIUM_LAYOUT, START_CORNER_LAYOUT, BRICKED_BOX_LAYOUT, tiny.value];
const RACKS = ['CABS', 'DA?', 'QIZ', 'BADS', 'AS?', 'ZAD'];

const fast = (board: ReturnType<typeof emptyBoard>, rack: string): Map<string, number> => {
  const out = new Map<string, number>();
  for (const m of generateMoves({ board, distribution: ENGLISH, rack: [...rack], bagCount: 50 }, kwg, { nonPlays: false }))
    if (m.kind === 'play') out.set(placementKey(m.placements), m.score);
  return out;
};

describe.each(LAYOUTS_UNDER_TEST.map((l) => [l.name, l] as const))('%s', (_name, layout) => {
  test('from the empty board on, the generator’s plays and scores are the oracle’s; none touches a bricked square', () => {
    let board = emptyBoard(layout);
    let compared = 0;
    for (const rack of RACKS) {
      const slow = slowPlays(board, ENGLISH, [...rack], words);
      const mine = fast(board, rack);
      expect([...mine.keys()].sort(), rack).toEqual([...slow.keys()].sort());
      for (const [k, p] of slow) expect(mine.get(k), p.notation).toBe(p.score);
      compared += slow.size;
      for (const key of mine.keys())
        for (const cell of key.split(' ')) {
          const [r, c] = cell.split(',').map(Number) as [number, number];
          expect(isBricked(layout, r, c)).toBe(false);
        }
      // Go on from the best play, so later racks meet a board with tiles.
      const best = generateMoves({ board, distribution: ENGLISH, rack: [...rack], bagCount: 50 }, kwg, { nonPlays: false })[0];
      if (best?.kind === 'play') {
        const judged = checkPlay(
          { board, distribution: ENGLISH, lexicon: words },
          play(best.notation.split(' ')[0]!, best.notation.split(' ')[1]!),
        );
        if (judged.ok) board = applyPlay(board, judged.value);
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  test('every first play covers the start square', () => {
    const start = startSquare(layout);
    const first = fast(emptyBoard(layout), 'CABS');
    expect(first.size).toBeGreaterThan(0);
    for (const key of first.keys()) {
      const squares = key.split(' ').map((cell) => cell.split(',').slice(0, 2).join(','));
      expect(squares, key).toContain(`${start.row},${start.col}`);
    }
  });
});
