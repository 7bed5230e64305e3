import type { ForfeitFirstSecondRule, RuleSet } from '../rules/ruleset.js';
import type { Seat } from './events.js';
import type { GameState } from './state.js';

/**
 * Forfeits and byes (seed-001 §4): who counts as having gone first in games that were never played,
 * and what a forfeited game scores. Pure functions over plain data; `adjudication/end.ts` (the
 * `forfeit-order` dispute) and the match standing (`match.ts`) both use them.
 */

/** A player's part in an unplayed game (seed-001 §4): forfeited it, was the forfeiter's opponent, or had a bye. */
export const FORFEIT_ROLES = ['forfeiter', 'opponent', 'bye'] as const;
export type ForfeitRole = (typeof FORFEIT_ROLES)[number];

export const FIRST_SECOND_POSITIONS = ['first', 'second', 'neither'] as const;
export type FirstSecond = (typeof FIRST_SECOND_POSITIONS)[number];

/** One game in a player's sequence: played (going first or not), or unplayed in some role. */
export type PlayerGame = { readonly kind: 'played'; readonly first: boolean } | { readonly kind: 'unplayed'; readonly role: ForfeitRole };

export interface FirstSecondTally {
  /** The position counted for each game, in the order given. */
  readonly positions: readonly FirstSecond[];
  readonly firsts: number;
  readonly seconds: number;
}

/**
 * The firsts and seconds of one player over a sequence of games, in order (seed-001 §4, rule
 * `tournament.forfeitFirstSecond`). Played games count as they were played. Under
 * `alternate-from-first`, a game the player forfeited before it began counts as first, the next such
 * forfeit as second, then first …; the forfeiter's opponent and a player with a bye get neither.
 * Under `none` no rule assigns unplayed games, so they count as neither.
 */
export const firstSecondTally = (rule: ForfeitFirstSecondRule, games: readonly PlayerGame[]): FirstSecondTally => {
  let forfeits = 0;
  const positions = games.map((g): FirstSecond => {
    if (g.kind === 'played') return g.first ? 'first' : 'second';
    if (g.role !== 'forfeiter' || rule === 'none') return 'neither';
    forfeits++;
    return forfeits % 2 === 1 ? 'first' : 'second';
  });
  return { positions, firsts: positions.filter((p) => p === 'first').length, seconds: positions.filter((p) => p === 'second').length };
};

/** End reasons that make a game forfeited (the loser did not finish it). */
export const FORFEIT_END_REASONS = ['forfeited', 'timed-out'] as const;
export type ForfeitEndReason = (typeof FORFEIT_END_REASONS)[number];

/** The seat that forfeited an ended game (by forfeit or timeout), or null. */
export const forfeiterOf = (state: GameState): Seat | null =>
  state.status === 'ended' &&
  state.result &&
  state.result.loser !== null &&
  (FORFEIT_END_REASONS as readonly string[]).includes(state.result.reason)
    ? state.result.loser
    : null;

/** A forfeited game that had not begun: no turn was taken before it ended (seed-001 §4 "before it has begun"). */
export const forfeitedBeforeStart = (state: GameState): boolean =>
  forfeiterOf(state) !== null && state.history.every((h) => h.kind === 'end-adjustment' || h.kind === 'time-penalty');

/**
 * The scores a game is recorded with, e.g. for a match total. A forfeited game under
 * `time.overtimeForfeitScoring` `deduct-then-margin` is recorded as a win by at least
 * `time.forfeitMargin` (WESPA 2.3.6, 5.3.3: the forfeiter's score is lowered to the opponent's minus the
 * margin; if that is below zero, the margin is added to both); under `loss-scores-stand` (and for every
 * other game) the scores stand as played.
 */
export const recordedScores = (rules: RuleSet, state: GameState): readonly [number, number] => {
  const loser = forfeiterOf(state);
  if (loser === null || rules.time.overtimeForfeitScoring !== 'deduct-then-margin') return state.scores;
  const winner: Seat = loser === 0 ? 1 : 0;
  const margin = rules.time.forfeitMargin;
  let lost = Math.min(state.scores[loser], state.scores[winner] - margin);
  let won = state.scores[winner];
  if (lost < 0) {
    lost += margin;
    won += margin;
  }
  return loser === 0 ? [lost, won] : [won, lost];
};
