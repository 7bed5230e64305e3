/**
 * Robot-against-robot games, pure engine: the provably fair seeded bag of `bag.ts`, the board and
 * scoring of the referee, the end of game of `end.ts` under a rule set (NSA_2008 by default: going
 * out earns twice the opponent's rack, six scoreless turns end the game). What the leave-value fit
 * (`scripts/leave-values.ts`) and the robot bench measure.
 */
import { emptyBoard, STANDARD_LAYOUT, withTiles, type Board, type Layout } from '../board.js';
import { drawTiles } from '../game/bag.js';
import { goingOutAdjustments, ownRackAdjustments } from '../game/end.js';
import { canonical } from '../game/multiset.js';
import type { Kwg } from '../lexicon/kwg.js';
import { NSA_2008 } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { ENGLISH, fullBag, type Distribution } from '../tiles.js';
import type { GeneratedMove } from './generate.js';
import type { LeaveModel } from './leave.js';
import type { Position } from './position.js';
import { chooseMove, seededRng, type RobotPolicy } from './robot.js';

export interface SelfPlaySeat {
  readonly policy: RobotPolicy;
  /** Leave values of an equity seat (default: the shipped ones). */
  readonly leaves?: LeaveModel;
}

export interface SelfPlayOptions {
  readonly kwg: Kwg;
  /** The bag's secret seed (`bag.ts`): the same seed deals the same tiles to the same draws. */
  readonly seed: string;
  readonly seats: readonly [SelfPlaySeat, SelfPlaySeat];
  /** Seat 0 moves first unless this says 1. */
  readonly first?: 0 | 1;
  readonly distribution?: Distribution;
  readonly layout?: Layout;
  readonly rules?: RuleSet;
  /** Called after every move, with the mover, the move and the bag count left after the draw. */
  readonly onMove?: (seat: 0 | 1, move: GeneratedMove, bagAfter: number) => void;
}

export interface SelfPlayResult {
  /** Final scores, end-of-game adjustments included. */
  readonly scores: readonly [number, number];
  readonly winner: 0 | 1 | null;
  readonly turns: number;
}

interface Table {
  board: Board;
  bag: string[];
  draws: number;
  racks: [string[], string[]];
  scores: [number, number];
  scoreless: number;
}

const draw = (t: Table, seed: string, seat: 0 | 1, count: number): void => {
  const d = drawTiles(seed, t.draws, t.bag, count);
  t.draws += d.tiles.length;
  t.bag = d.bag;
  t.racks[seat] = [...t.racks[seat], ...d.tiles];
};

/** Plays one game to its end and returns the scores. */
export const playSelfGame = (o: SelfPlayOptions): SelfPlayResult => {
  const dist = o.distribution ?? ENGLISH;
  const rules = o.rules ?? NSA_2008;
  const rackSize = rules.board.rackSize;
  const t: Table = {
    board: emptyBoard(o.layout ?? STANDARD_LAYOUT),
    bag: fullBag(dist),
    draws: 0,
    racks: [[], []],
    scores: [0, 0],
    scoreless: 0,
  };
  let seat: 0 | 1 = o.first ?? 0;
  draw(t, o.seed, seat, rackSize);
  draw(t, o.seed, seat === 0 ? 1 : 0, rackSize);
  const rng = seededRng(t.draws + o.seed.length);
  for (let turns = 1; ; turns++) {
    const opp: 0 | 1 = seat === 0 ? 1 : 0;
    const position: Position = {
      board: t.board,
      distribution: dist,
      rack: t.racks[seat],
      bagCount: t.bag.length,
      unseen: [...t.bag, ...t.racks[opp]],
      rules: {
        rackSize,
        bingoBonus: rules.board.bingoBonus,
        exchangeMinBag: rules.exchange.minBag,
        exchangeMaxIsBagCount: rules.exchange.maxIsBagCount,
      },
    };
    const move = chooseMove(position, o.kwg, o.seats[seat].policy, rng, { leaves: o.seats[seat].leaves });
    applyMove(t, o.seed, seat, move, dist, rackSize);
    o.onMove?.(seat, move, t.bag.length);
    const ended = endOfGame(t, rules, dist, seat);
    if (ended) return { scores: t.scores, winner: t.scores[0] === t.scores[1] ? null : t.scores[0] > t.scores[1] ? 0 : 1, turns };
    seat = opp;
  }
};

const applyMove = (t: Table, seed: string, seat: 0 | 1, move: GeneratedMove, dist: Distribution, rackSize: number): void => {
  if (move.kind === 'play') {
    t.board = withTiles(t.board, move.placements);
    t.scores[seat] += move.score;
    t.racks[seat] = [...move.leave];
    t.scoreless = move.score === 0 ? t.scoreless + 1 : 0;
    draw(t, seed, seat, rackSize - t.racks[seat].length);
    return;
  }
  t.scoreless++;
  if (move.kind === 'exchange' && move.move.kind === 'exchange') {
    // The new tiles are drawn before the old ones go back (seed-003 rule 11).
    const returned = move.move.tiles ?? [];
    t.racks[seat] = [...move.leave];
    draw(t, seed, seat, returned.length);
    t.bag = canonical(dist, [...t.bag, ...returned]);
  }
};

/** Ends the game when `seat` went out or the scoreless turns ran out; returns whether it ended. */
const endOfGame = (t: Table, rules: RuleSet, dist: Distribution, seat: 0 | 1): boolean => {
  const opp: 0 | 1 = seat === 0 ? 1 : 0;
  let adjustments;
  if (t.racks[seat].length === 0 && t.bag.length === 0) adjustments = goingOutAdjustments(rules, dist, seat, t.racks[opp]);
  else if (rules.end.scorelessTurns !== null && t.scoreless >= rules.end.scorelessTurns) adjustments = ownRackAdjustments(dist, t.racks);
  else return false;
  for (const a of adjustments) t.scores[a.seat] += a.points;
  return true;
};
