import type { RuleError } from '../../errors.js';
import type { Result } from '../../result.js';

/**
 * What every pairing method sees and returns (issue 30, item 2). A method is a pure function of the
 * division as it stands before the round: who plays, how they rank, whom they have met, how often they
 * went first. It returns pairs with who goes first already decided, and the player with the bye.
 * Players are named by their entrant number in the division (1-based, as in a TSH `.t` file).
 */

export const PAIRING_METHODS = [
  /** Berger tables, each pair once (FIDE Handbook C.05 Annex 1). */
  'round-robin',
  /** Berger tables twice over, firsts swapped in the second half. */
  'double-round-robin',
  /** Each pair twice in consecutive rounds, once first each (seed-003's two-game match inside a round robin). */
  'match-round-robin',
  /** 1 v 2, 3 v 4 … by the standings before the round (TSH `koth`). */
  'king-of-the-hill',
  /** Initial Fontes: the field split in quarters by seed, … (TSH `initfontes`). */
  'initial-fontes',
  /** Swiss by wins then spread, avoiding repeats (TSH `swiss`). */
  'swiss',
  /** Minimum-weight perfect matching over rank difference, repeats, first/second balance and Gibsonization (Woogles COP). */
  'weighted',
  /** The director gives every pair (no method). */
  'manual',
] as const;
export type PairingMethod = (typeof PAIRING_METHODS)[number];

/** Who gets the bye in an odd round. */
export const BYE_CHOICES = ['lowest-ranked-without-bye', 'lowest-ranked', 'lowest-rated-without-bye'] as const;
export type ByeChoice = (typeof BYE_CHOICES)[number];

/** One player as a pairing method sees them. */
export interface PairingPlayer {
  /** Entrant number in the division, 1-based. */
  readonly id: number;
  /** Seed rating (what ranks players before round 1 and breaks ties in the standings). */
  readonly rating: number;
  /** Standing before this round: wins (a tie counts ½), losses, spread. */
  readonly wins: number;
  readonly losses: number;
  readonly spread: number;
  /** Rank before this round, 1 = top (standings order, with seed order before round 1). */
  readonly rank: number;
  /** Opponents of earlier rounds in round order; 0 = a bye, null = no game that round (withdrawn, not yet entered). */
  readonly opponents: readonly (number | null)[];
  /** Firsts and seconds so far (seed-001 §4 for unplayed games). */
  readonly firsts: number;
  readonly seconds: number;
  /** Byes received so far. */
  readonly byes: number;
}

export interface PairingRequest {
  /** The round to pair, 1-based. */
  readonly round: number;
  /** Rounds in the division (methods that look ahead, e.g. Gibsonization or round-robin cycles, need it). */
  readonly totalRounds: number;
  /** The active players (withdrawn ones left out), in rank order (rank 1 first). */
  readonly players: readonly PairingPlayer[];
  /** Couples the director fixed before pairing (`prePair`), each [a, b]; the method pairs the rest. */
  readonly prePaired: readonly (readonly [number, number])[];
  /** How many times two players may meet in the division before this round's game (0 = never again). Methods that cannot avoid a repeat report REPEAT_LIMIT. */
  readonly maxRepeats: number;
  readonly byeChoice: ByeChoice;
  /** Points a win is worth relative to spread, for Gibsonization: a player is clinched when no one can catch them with `totalRounds - round + 1` games left, counting wins then spread with `gibsonSpreadPerGame` per game. */
  readonly gibsonSpreadPerGame: number;
  /** A seed for the draws a method makes (who goes first when firsts and seconds tie), so the same request pairs the same way. */
  readonly seed: string;
  /** Round robins need the division's entrant numbers in seed order (all players, including withdrawn ones, so the table is fixed from round 1). */
  readonly roster: readonly number[];
  /**
   * Places that win a prize (default 1). Gibsonization (weighted method) pairs a clinched leader with the
   * highest-ranked player who can no longer reach any of these places; with 1, any player who cannot
   * finish first.
   */
  readonly prizePlaces?: number;
}

/** Why the first player of a pair goes first; `unknown`: an imported game whose record does not say (TSH p12 3 or 4, or none), counted neither first nor second. */
export const FIRST_REASONS = ['fewer-firsts', 'more-seconds', 'draw', 'schedule', 'director', 'unknown'] as const;
export type FirstReason = (typeof FIRST_REASONS)[number];

export interface PairedGame {
  /** Goes first. */
  readonly first: number;
  readonly second: number;
  readonly firstReason: FirstReason;
  /** Times these two have met before this round. */
  readonly repeats: number;
}

export interface RoundPairing {
  readonly games: readonly PairedGame[];
  /** The player with the bye (odd number of players), or null. */
  readonly bye: number | null;
  /**
   * Further players without a game this round, only from a fixed schedule (round robins, Initial Fontes)
   * whose scheduled opponents are absent (withdrawn) or pre-paired elsewhere: each is reported as a bye.
   * Absent or empty for every other method.
   */
  readonly extraByes?: readonly number[];
  /** Players clinched for first and paired apart (weighted method), for the record. */
  readonly gibsonized: readonly number[];
}

export type PairingResult = Result<RoundPairing, RuleError>;

/** A pairing method: pure, deterministic for a given request. */
export type Pairer = (request: PairingRequest) => PairingResult;
