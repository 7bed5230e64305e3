/**
 * Robot policies as pure functions: given a position, the lexicon, and a random source (for ties
 * only), the move a robot seat makes. `greedy` takes the highest-scoring play (passing when there is
 * none); `equity` takes the highest equity (score + leave value) among every move, exchanges and the
 * pass included.
 */
import type { Kwg } from '../lexicon/kwg.js';
import { moveAt, sharedGenerator, type GeneratedMove, type MoveSet } from './generate.js';
import type { LeaveModel } from './leave.js';
import { MOVE_PASS, MOVE_PLAY } from './move-list.js';
import type { Position } from './position.js';
import { SHIPPED_LEAVES } from './shipped-leaves.js';

export const ROBOT_POLICIES = ['greedy', 'equity'] as const;
export type RobotPolicy = (typeof ROBOT_POLICIES)[number];

/** A random source in [0, 1): `Math.random`, or a seeded one for reproducible games. */
export type Rng = () => number;

export interface RobotOptions {
  /** Leave values of the equity robot (default: the shipped ones, `leaves.json`). */
  readonly leaves?: LeaveModel;
}

/**
 * The robot's move in this position. Ties (equal score, or equal equity) are broken by `rng`. It runs
 * the pruned best-move search (`MoveGenerator.best`), which keeps every move of the best key and
 * lists them in the order of the full generation, so the choice — ties and `rng` draws included — is
 * exactly {@link chooseMoveExhaustive}'s.
 */
export const chooseMove = (position: Position, kwg: Kwg, policy: RobotPolicy, rng: Rng, options: RobotOptions = {}): GeneratedMove => {
  const greedy = policy === 'greedy';
  const { set, order } = sharedGenerator(position.board.layout.rows.length).best(position, kwg, {
    leaves: greedy ? undefined : (options.leaves ?? SHIPPED_LEAVES),
    byScore: greedy,
  });
  return pick(set, order, greedy, rng);
};

/** The same choice over every move of the position (the reference the pruned search is tested and benched against). */
export const chooseMoveExhaustive = (
  position: Position,
  kwg: Kwg,
  policy: RobotPolicy,
  rng: Rng,
  options: RobotOptions = {},
): GeneratedMove => {
  const greedy = policy === 'greedy';
  const set = sharedGenerator(position.board.layout.rows.length).generate(position, kwg, {
    leaves: greedy ? undefined : (options.leaves ?? SHIPPED_LEAVES),
  });
  return pick(
    set,
    Array.from({ length: set.list.count }, (_, m) => m),
    greedy,
    rng,
  );
};

/** The best of the moves `order` lists (plays only for greedy, which passes without one), ties by `rng`. */
const pick = (set: MoveSet, order: readonly number[], greedy: boolean, rng: Rng): GeneratedMove => {
  const { list } = set;
  const key = greedy ? list.score : list.equity;
  let best = -Infinity;
  let ties: number[] = [];
  let pass = -1;
  for (const m of order) {
    if (list.kind[m] === MOVE_PASS) pass = m;
    if (greedy && list.kind[m] !== MOVE_PLAY) continue;
    const k = key[m]!;
    if (k > best) {
      best = k;
      ties = [m];
    } else if (k === best) ties.push(m);
  }
  const chosen = ties.length > 0 ? ties[Math.min(ties.length - 1, Math.floor(rng() * ties.length))]! : pass;
  return moveAt(set, chosen);
};

/** mulberry32: a tiny seeded random source for reproducible robot games (not for the bag: that is `bag.ts`). */
export const seededRng = (seed: number): Rng => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};
