/**
 * The robots' pruned best-move search (shadow.ts bounds, `PlayGenerator.runBest`) against the full
 * generation: on every position the bench and the generator's tests use, the pruned choice has the
 * equity (greedy: the score) of the best move of the whole list, and — because the search keeps every
 * tie, in the full list's order — it is the very move the exhaustive choice makes with the same random
 * source. And the bounds themselves hold: no play of the full list is worth more than its anchor's bound.
 *
 * Positions: every decision point of the liwords records (full and partial racks, the end game with
 * an empty bag included), 80 random racks holding one or two blanks on real boards at random turns,
 * 20 on the empty board, 20 on the 21×21 super board, the layouts of layouts.test.ts (quadruple
 * premiums, an off-centre start, bricked squares, a 5×5 board) and Spanish with its digraph tiles.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  BRICKED_BOX_LAYOUT,
  emptyBoard,
  NO_PREMIUM_LAYOUT,
  START_CORNER_LAYOUT,
  STANDARD_LAYOUT,
  SUPER_LAYOUT,
  withTiles,
  type Board,
  type Layout,
} from '../board.js';
import { parseLayout } from '../layout.js';
import { buildKwg } from '../lexicon/kwg-build.js';
import type { Kwg } from '../lexicon/kwg.js';
import { BLANK, ENGLISH, ENGLISH_SUPER, fullBag, SPANISH, type Distribution } from '../tiles.js';
import { realPositions, sowpods } from '../../test/movegen/positions.js';
import { moveAt, sharedGenerator } from './generate.js';
import { MOVE_PLAY } from './move-list.js';
import { positionFromState, type Position } from './position.js';
import { chooseMove, chooseMoveExhaustive, ROBOT_POLICIES, seededRng } from './robot.js';
import { SHIPPED_LEAVES } from './shipped-leaves.js';

const { kwg } = sowpods();

// The tests are long and synchronous: let the worker answer vitest's messages between them (a
// message waits for a turn of the event loop, and awaiting a test is not one).
afterEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

/** The best key of the full list: the equity of any move, or the score of a play (greedy; null without one). */
const fullBest = (position: Position, k: Kwg, greedy: boolean): number | null => {
  const set = sharedGenerator(position.board.layout.rows.length).generate(position, k, { leaves: greedy ? undefined : SHIPPED_LEAVES });
  let best: number | null = null;
  for (let m = 0; m < set.list.count; m++) {
    if (greedy && set.list.kind[m] !== MOVE_PLAY) continue;
    const key = greedy ? set.list.score[m]! : set.list.equity[m]!;
    if (best === null || key > best) best = key;
  }
  return best;
};

/** Checks both policies on one position; returns a description of any disagreement. */
const disagreements = (position: Position, k: Kwg, seed: number): string[] => {
  const out: string[] = [];
  for (const policy of ROBOT_POLICIES) {
    const greedy = policy === 'greedy';
    const pruned = chooseMove(position, k, policy, seededRng(seed));
    const exhaustive = chooseMoveExhaustive(position, k, policy, seededRng(seed));
    const best = fullBest(position, k, greedy);
    const key = greedy ? (pruned.kind === 'play' ? pruned.score : null) : pruned.equity;
    if (key !== best) out.push(`${policy}: pruned ${pruned.notation} ${key}, full list's best ${best}`);
    if (pruned.notation !== exhaustive.notation) out.push(`${policy}: pruned ${pruned.notation}, exhaustive ${exhaustive.notation}`);
  }
  return out;
};

/** Plays of the full list worth more than the bound of the anchor they come from (the leftmost anchor they cover). */
const boundViolations = (position: Position, k: Kwg): string[] => {
  const out: string[] = [];
  const g = sharedGenerator(position.board.layout.rows.length);
  for (const byScore of [false, true]) {
    const bounds = g.anchorBounds(position, k, { leaves: byScore ? undefined : SHIPPED_LEAVES, byScore });
    const at = new Map<number, number>();
    for (let a = 0; a < bounds.count; a++) at.set((bounds.dir[a]! * 64 + bounds.lane[a]!) * 64 + bounds.square[a]!, bounds.bound[a]!);
    const set = g.generate(position, k, { leaves: byScore ? undefined : SHIPPED_LEAVES, nonPlays: false });
    const { list } = set;
    for (let m = 0; m < list.count; m++) {
      let bound: number | undefined;
      for (let i = list.start[m]!; bound === undefined && i < list.start[m]! + list.length[m]!; i++)
        bound = at.get((list.dir[m]! * 64 + list.lane[m]!) * 64 + i);
      const key = byScore ? list.score[m]! : list.equity[m]!;
      if (bound === undefined || key > bound) out.push(`${moveAt(set, m).notation} ${key} > bound ${bound}`);
    }
  }
  return out;
};

/** A board made by playing, from random racks without blanks, the highest-scoring play `turns` times. */
const builtBoard = (next: () => number, dist: Distribution, board: Board, k: Kwg, turns: number): Board => {
  let b = board;
  const pool = fullBag(dist).filter((t) => t !== BLANK);
  for (let i = 0; i < turns; i++) {
    const rack = Array.from({ length: 7 }, () => pool[Math.floor(next() * pool.length)]!);
    const move = chooseMoveExhaustive({ board: b, distribution: dist, rack, bagCount: 50 }, k, 'greedy', next);
    b = withTiles(b, move.placements);
  }
  return b;
};

/** Seven tiles from `pool` with `blanks` of them blanks. */
const rackWithBlanks = (next: () => number, pool: readonly string[], blanks: number): string[] => {
  const left = pool.filter((t) => t !== BLANK);
  const rack: string[] = Array.from({ length: blanks }, () => BLANK);
  while (rack.length < 7 && left.length > 0) rack.push(left.splice(Math.floor(next() * left.length), 1)[0]!);
  return rack;
};

describe('the pruned robot chooses what the exhaustive one chooses', () => {
  const real = realPositions().map((p) => positionFromState(p.state, p.seat));

  test.each([0, 1, 2, 3])(
    'every decision point of the liwords records, quarter %i',
    (q) => {
      const part = real.filter((_, i) => i % 4 === q);
      expect(part.length).toBeGreaterThan(200);
      expect(part.some((p) => p.bagCount === 0)).toBe(true);
      for (const [i, p] of part.entries()) expect(disagreements(p, kwg, i), `#${i} ${p.rack.join('')}`).toEqual([]);
    },
    120_000,
  );

  // Drawn once, in order, from one seeded source; checked in batches of 20 (two-blank racks are the slow ones).
  const blankCases = (): Position[] => {
    const next = seededRng(19);
    return Array.from({ length: 100 }, (_, i) => {
      const base = real[Math.floor(next() * real.length)]!;
      const board = i < 80 ? base.board : emptyBoard();
      const pool = i < 80 ? (base.unseen ?? []).concat(base.rack) : fullBag(ENGLISH);
      const rack = rackWithBlanks(next, pool, 1 + (i % 2));
      return { board, distribution: ENGLISH, rack, bagCount: i % 5 === 0 ? 0 : 40, unseen: pool.slice(0, 7) };
    });
  };
  test.each([0, 1, 2, 3, 4])(
    '80 random racks with one or two blanks on real boards (a fifth in the end game), 20 on the empty board: batch %i of 5',
    (batch) => {
      const cases = blankCases().slice(20 * batch, 20 * batch + 20);
      expect(cases).toHaveLength(20);
      for (const [j, position] of cases.entries()) {
        const i = 20 * batch + j;
        expect(disagreements(position, kwg, i), `#${i} ${position.rack.join('')}`).toEqual([]);
        if (i % 4 === 1) expect(boundViolations(position, kwg), `#${i} ${position.rack.join('')}`).toEqual([]);
      }
    },
    120_000,
  );

  test('no play beats its anchor’s bound, by equity or by score (every 10th real position)', () => {
    for (const [i, p] of real.entries()) if (i % 10 === 3) expect(boundViolations(p, kwg), `#${i} ${p.rack.join('')}`).toEqual([]);
  }, 120_000);

  test('20 positions on the 21×21 super board with the English super tiles', () => {
    const next = seededRng(21);
    for (let i = 0; i < 20; i++) {
      const board = builtBoard(next, ENGLISH_SUPER, emptyBoard(SUPER_LAYOUT), kwg, 1 + (i % 6));
      const rack = rackWithBlanks(next, fullBag(ENGLISH_SUPER), i % 3);
      const position: Position = { board, distribution: ENGLISH_SUPER, rack, bagCount: 50 };
      expect(disagreements(position, kwg, i), rack.join('')).toEqual([]);
      expect(boundViolations(position, kwg), rack.join('')).toEqual([]);
    }
  }, 120_000);

  const small = (words: string[], dist: Distribution): Kwg => {
    const built = buildKwg(
      [...words].sort(),
      dist.letters.map((l) => l.letter),
    );
    if (!built.ok) throw new Error(built.error.message);
    return built.value.kwg;
  };

  test('every layout kind: quadruple premiums, off-centre start, bricked squares, a 5×5 board', () => {
    const words = ['AB', 'BA', 'AD', 'DA', 'BAD', 'DAB', 'CAB', 'CABS', 'SCAB', 'ABS', 'ADS', 'BADS', 'DABS', 'AS', 'QI', 'QIS', 'ZA'];
    const k = small([...words, 'ZAS', 'ADZ'], ENGLISH);
    const tiny = parseLayout({ rows: ['~.#.^', '.....', '^.-.#', '#....', '=..^~'], start: 'C3' });
    if (!tiny.ok) throw new Error(tiny.error.message);
    const layouts: Layout[] = [STANDARD_LAYOUT, NO_PREMIUM_LAYOUT, START_CORNER_LAYOUT, BRICKED_BOX_LAYOUT, tiny.value];
    const next = seededRng(5);
    let plays = 0;
    for (const layout of layouts) {
      let board = emptyBoard(layout);
      for (const rack of ['CABS', 'DA?', 'QIZ', 'BADS', 'AS?', 'ZAD', '??SAB', 'CABS?DZ']) {
        const position: Position = { board, distribution: ENGLISH, rack: [...rack], bagCount: 30 };
        expect(disagreements(position, k, plays), `${layout.name} ${rack}`).toEqual([]);
        expect(boundViolations(position, k), `${layout.name} ${rack}`).toEqual([]);
        const move = chooseMove(position, k, 'equity', next);
        if (move.kind === 'play') {
          board = withTiles(board, move.placements);
          plays++;
        }
      }
    }
    expect(plays).toBeGreaterThan(10);
  });

  test('Spanish with the digraph tiles CH, LL, RR', () => {
    const words = ['CHE', 'CHICO', 'CHICOS', 'CASA', 'CASAS', 'HOLA', 'LLAMA', 'LLAMAS', 'PERRO', 'PERROS', 'RRA', 'AL', 'LA'];
    const k = small([...words, 'LO', 'OH', 'HA', 'AH', 'SOL', 'SAL', 'ESO', 'OSO', 'OCHO', 'CALLE', 'CORRER', 'MAS', 'AS', 'ES'], SPANISH);
    const next = seededRng(34);
    const pool = fullBag(SPANISH);
    let board = emptyBoard();
    for (let i = 0; i < 25; i++) {
      const rack = rackWithBlanks(next, pool, i % 3);
      const position: Position = { board, distribution: SPANISH, rack, bagCount: i % 4 === 0 ? 0 : 30, unseen: pool.slice(0, 7) };
      expect(disagreements(position, k, i), rack.join(' ')).toEqual([]);
      expect(boundViolations(position, k), rack.join(' ')).toEqual([]);
      const move = chooseMove(position, k, 'greedy', next);
      if (move.kind === 'play') board = withTiles(board, move.placements);
    }
    expect(board.tileCount).toBeGreaterThan(10);
  });
});

describe('ties', () => {
  test('among equal plays the pruned robot takes the one the exhaustive robot takes, seed by seed', () => {
    const opening: Position = { board: emptyBoard(), distribution: ENGLISH, rack: [...'QUIRKSE'], bagCount: 86 };
    const chosen = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const pruned = chooseMove(opening, kwg, 'greedy', seededRng(seed));
      expect(pruned.notation).toBe(chooseMoveExhaustive(opening, kwg, 'greedy', seededRng(seed)).notation);
      chosen.add(pruned.notation);
    }
    // The opening's best score is reached at several squares: the seeds spread over them.
    expect(chosen.size).toBeGreaterThan(1);
  });
});
