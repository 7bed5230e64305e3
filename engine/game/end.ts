import type { RuleSet, ScorelessTurnKind } from '../rules/ruleset.js';
import { rackValue, type Distribution } from '../tiles.js';
import { other, type Adjustment, type EndReason, type Seat } from './events.js';

/**
 * End-of-game rules as pure functions of RuleSet data (no preset names): going out, scoreless
 * turns, consecutive exchanges, adjustments and the tie-break.
 */

/**
 * Adjustments when `outSeat` used its last tile with the bag empty (seed-003 rule 12a). `end.goingOut`:
 * `double-opponent-rack` gives the player who went out twice the opponent's rack (NASPA, WESPA 5.1.4(a));
 * `transfer-opponent-rack` adds the rack once and deducts it from its holder (seed-003 scoring 9,
 * WESPA 5.1.4(b)).
 */
export const goingOutAdjustments = (rules: RuleSet, dist: Distribution, outSeat: Seat, opponentRack: readonly string[]): Adjustment[] => {
  const v = rackValue(dist, opponentRack);
  const opp = other(outSeat);
  return rules.end.goingOut === 'double-opponent-rack'
    ? [{ seat: outSeat, points: 2 * v, kind: 'opponent-rack', tiles: opponentRack }]
    : [
        { seat: outSeat, points: v, kind: 'opponent-rack', tiles: opponentRack },
        { seat: opp, points: -v, kind: 'own-rack', tiles: opponentRack },
      ];
};

/**
 * Each player loses the value of their own rack: the scoreless-turns ending (NASPA B6, WESPA 5.2)
 * and the consecutive-exchanges ending (seed-003 rule 12b with scoring 9: nobody used all letters).
 */
export const ownRackAdjustments = (dist: Distribution, racks: readonly [readonly string[], readonly string[]]): Adjustment[] =>
  ([0, 1] as const).map((seat) => ({ seat, points: -rackValue(dist, racks[seat]), kind: 'own-rack' as const, tiles: racks[seat] }));

/** Whether a turn of `kind` counts toward the scoreless-turns ending (`end.scorelessKinds`). */
export const countsAsScoreless = (rules: RuleSet, kind: ScorelessTurnKind): boolean => rules.end.scorelessKinds.includes(kind);

/**
 * The scoreless-turn counter after a turn: a counted kind advances it; any other turn breaks the run
 * (it is no longer "consecutive scoreless turns of the listed kinds").
 */
export const nextScoreless = (rules: RuleSet, count: number, kind: ScorelessTurnKind | 'scoring-play'): number =>
  kind !== 'scoring-play' && countsAsScoreless(rules, kind) ? count + 1 : 0;

/** `end.scorelessTurns` consecutive scoreless turns end the game (NASPA B6.1: six). */
export const scorelessLimitReached = (rules: RuleSet, count: number): boolean =>
  rules.end.scorelessTurns !== null && count >= rules.end.scorelessTurns;

/** Both players exchanged `end.consecutiveExchangesEach` times in a row (seed-003 rule 12b: twice each, four exchanges). */
export const exchangeLimitReached = (rules: RuleSet, consecutiveExchanges: number): boolean =>
  rules.end.consecutiveExchangesEach !== null && consecutiveExchanges >= 2 * rules.end.consecutiveExchangesEach;

/** End reasons after which one seat loses whatever the score. */
export const LOSING_REASONS: readonly EndReason[] = ['resigned', 'timed-out', 'forfeited', 'challenge-lost'];

/**
 * The winner (null = a tie): a seat that resigned, timed out, forfeited or lost a triple challenge
 * loses; otherwise the higher final score wins (seed-003 scoring 10), and with `end.tieBreak`
 * `score-before-adjustments` a tie goes to the higher score before unplayed letters were counted.
 */
export const decideWinner = (
  rules: RuleSet,
  scores: readonly [number, number],
  before: readonly [number, number],
  loser: Seat | null,
): Seat | null => {
  if (loser !== null) return other(loser);
  if (scores[0] !== scores[1]) return scores[0] > scores[1] ? 0 : 1;
  if (rules.end.tieBreak === 'score-before-adjustments' && before[0] !== before[1]) return before[0] > before[1] ? 0 : 1;
  return null;
};
