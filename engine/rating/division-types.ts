/**
 * The shapes a division rating system works on (issue 33, item 2), apart from the systems themselves so
 * that each system (division.ts's Glicko-2, naspa.ts) depends on them and not on one another.
 */

/** A player of the division as a rating system sees them. */
export interface RatedPlayer {
  /** The entrant number. */
  readonly id: number;
  /** The rating brought in; 0 for an unrated player (TSH's convention). */
  readonly ratingIn: number;
  /** Rated games played before the event, when known (the NASPA multiplier depends on it). */
  readonly lifeGames: number | null;
}

/** One rated game of a round: `score` is `a`'s (1 a win, ½ a tie, 0 a loss). */
export interface RatedGame {
  readonly a: number;
  readonly b: number;
  readonly score: 0 | 0.5 | 1;
}

export interface DivisionRatingInput {
  readonly players: readonly RatedPlayer[];
  /** The rated games of each complete round so far, round 1 first. */
  readonly rounds: readonly (readonly RatedGame[])[];
  /** Rounds the division is planned to have (NASPA splits a long event by it); at least `rounds.length`. */
  readonly plannedRounds: number;
}

/** A rating system: players with their ratings in, the rounds so far → each player's rating out (by id). */
export interface DivisionRatingSystem {
  readonly name: string;
  readonly description: string;
  readonly rate: (input: DivisionRatingInput) => ReadonlyMap<number, number>;
  /**
   * The ratings after each round in one pass, for a system whose rating after round r depends only on the
   * rounds up to r (Glicko-2); without it {@link ratingsByRound} rates each prefix of the rounds afresh.
   */
  readonly byRound?: (input: DivisionRatingInput) => ReadonlyMap<number, readonly number[]>;
}
