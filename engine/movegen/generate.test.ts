import { describe, expect, test } from 'vitest';
import { emptyBoard, withTiles, type Board } from '../board.js';
import { KWG_ACCEPTS, KWG_ARC_INDEX_MASK, KWG_IS_END, KWG_TILE_SHIFT } from '../lexicon/kwg.js';
import { buildKwg } from '../lexicon/kwg-build.js';
import { scorePlacements } from '../scoring.js';
import { ENGLISH, rackValue } from '../tiles.js';
import { HOT_CONSTANTS } from './hot-constants.js';
import { bestMoves, generateMoves } from './generate.js';
import { LEAVE_FORMAT, leaveValue, type LeaveModel } from './leave.js';
import { MOVE_PLAY } from './move-list.js';
import type { Position } from './position.js';
import { BLANK_BIT, TILE_SLOTS } from './tile-codec.js';

const WORDS = ['AA', 'AB', 'AD', 'BA', 'BAD', 'CAB', 'CABS', 'DAB', 'DABS', 'QI', 'QIS', 'AS', 'SAD', 'ADS', 'BADS', 'SCAB', 'ZA', 'ZAS'];
const built = buildKwg(
  [...WORDS].sort(),
  ENGLISH.letters.map((l) => l.letter),
);
if (!built.ok) throw new Error(built.error.message);
const kwg = built.value.kwg;

const across = (board: Board, row: number, col: number, word: string): Board =>
  withTiles(
    board,
    [...word].map((letter, i) => ({ row, col: col + i, letter, blank: false })),
  );
const position = (board: Board, rack: string, bagCount = 50, rest: Partial<Position> = {}): Position => ({
  board,
  distribution: ENGLISH,
  rack: [...rack],
  bagCount,
  ...rest,
});

/** A model that only values keeping an S (4 points) and a blank (20), so equities are easy to check. */
const MODEL: LeaveModel = { format: LEAVE_FORMAT, distribution: 'english', tile: { S: 4, '?': 20 }, duplicate: {}, balance: [] };

test('the generator’s local constants are the KWG and codec constants', () => {
  expect(HOT_CONSTANTS).toEqual({
    KWG_ACCEPTS,
    KWG_ARC_INDEX_MASK,
    KWG_IS_END,
    KWG_TILE_SHIFT,
    BLANK_BIT,
    TILE_SLOTS,
    MOVE_PLAY,
  });
});

describe('plays', () => {
  const board = across(emptyBoard(), 7, 6, 'CAB');
  const moves = generateMoves(position(board, 'SD?'), kwg, { leaves: MODEL });
  const plays = moves.filter((m) => m.kind === 'play');

  test('every score is what the referee’s scoring code gives the same placements', () => {
    expect(plays.length).toBeGreaterThan(20);
    for (const m of plays) expect(m.score, m.notation).toBe(scorePlacements(board, ENGLISH, m.placements).score);
  });

  test('hooks and extensions through board tiles are found, written with "." for tiles played through', () => {
    const notations = plays.map((m) => m.notation);
    expect(notations).toContain('8G ...S');
    expect(notations).toContain('8F s...');
    expect(notations).toContain('8F S...');
  });

  test('the leave is the rack minus the tiles placed; equity is score + its value', () => {
    for (const m of plays) {
      const used = m.placements.map((p) => (p.blank ? '?' : p.letter));
      const rest = [...'SD?'];
      for (const u of used) rest.splice(rest.indexOf(u), 1);
      expect([...m.leave].sort()).toEqual(rest.sort());
      expect(m.equity).toBeCloseTo(m.score + leaveValue(MODEL, ENGLISH, m.leave));
    }
  });

  test('moves come best first by equity; bestMoves(n) is the head of that list', () => {
    for (let i = 1; i < moves.length; i++) expect(moves[i - 1]!.equity).toBeGreaterThanOrEqual(moves[i]!.equity);
    expect(bestMoves(position(board, 'SD?'), kwg, 3, { leaves: MODEL }).map((m) => m.notation)).toEqual(
      moves.slice(0, 3).map((m) => m.notation),
    );
  });
});

describe('exchanges and the pass', () => {
  test('one exchange per distinct set of tiles, when the bag holds at least seven', () => {
    const moves = generateMoves(position(emptyBoard(), 'AAB?'), kwg);
    // Keep 0–2 A, 0–1 B, 0–1 blank: 3 × 2 × 2 = 12 leaves, the whole rack kept being the pass.
    expect(moves.filter((m) => m.kind === 'exchange')).toHaveLength(11);
    expect(moves.filter((m) => m.kind === 'pass').map((m) => m.notation)).toEqual(['-']);
    const ex = moves.find((m) => m.kind === 'exchange' && m.leave.length === 0);
    expect(ex?.notation).toBe('-AAB?');
  });

  test('no exchange with fewer than seven in the bag (exchange.minBag), the pass stays', () => {
    const moves = generateMoves(position(emptyBoard(), 'AAB?', 6), kwg);
    expect(moves.filter((m) => m.kind === 'exchange')).toHaveLength(0);
    expect(moves.filter((m) => m.kind === 'pass')).toHaveLength(1);
  });

  test('with exchange.minBag 1 and at most the bag’s count, only small exchanges', () => {
    const moves = generateMoves(position(emptyBoard(), 'AB', 1, { rules: { exchangeMinBag: 1 } }), kwg);
    expect(
      moves
        .filter((m) => m.kind === 'exchange')
        .map((m) => m.notation)
        .sort(),
    ).toEqual(['-A', '-B']);
  });

  test('nonPlays: false lists plays only', () => {
    expect(generateMoves(position(emptyBoard(), 'AB'), kwg, { nonPlays: false }).every((m) => m.kind === 'play')).toBe(true);
  });
});

describe('end-game equity (bag empty)', () => {
  test('going out earns twice the opponent’s tiles; keeping tiles costs 10 plus twice their value', () => {
    const board = across(emptyBoard(), 7, 6, 'CAB');
    const moves = generateMoves(position(board, 'SD', 0, { unseen: [...'QZ'] }), kwg, { leaves: MODEL });
    const out = moves.find((m) => m.kind === 'play' && m.leave.length === 0)!;
    expect(out.equity).toBe(out.score + 2 * rackValue(ENGLISH, [...'QZ']));
    const keep = moves.find((m) => m.kind === 'play' && m.leave.join('') === 'D')!;
    expect(keep.equity).toBe(keep.score - (10 + 2 * 2));
  });
});

describe('first move', () => {
  test('on an empty board every play covers the centre and places two or more tiles', () => {
    const plays = generateMoves(position(emptyBoard(), 'QIS'), kwg).filter((m) => m.kind === 'play');
    expect(plays.map((m) => m.notation).sort()).toEqual(
      ['8G QI', '8H QI', 'H7 QI', 'H8 QI', '8F QIS', '8G QIS', '8H QIS', 'H6 QIS', 'H7 QIS', 'H8 QIS'].sort(),
    );
    expect(plays.find((m) => m.notation === '8F QIS')?.score).toBe(24);
  });
});
