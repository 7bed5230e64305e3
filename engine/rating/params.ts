import type { Citation, RuleSource } from '../errors.js';

/**
 * The rating parameters as data, each with where its value comes from. Sources reuse the verification
 * tags of rule parameters (`Citation['verification']`: V read in the primary text, U unverified) so the
 * CLI and docs can print them the same way; the rating sources are not rule documents, hence their own list.
 */
export const RATING_SOURCES = {
  glickman: 'Mark E. Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf)',
  lichess: 'lichess-org/scalachess, rating/src/main/scala/glicko/model.scala',
  woogles: 'woogles-io/liwords, pkg/glicko/glicko.go',
  arbiter: 'Arbiter decision, justified in docs/rated-play.md',
} as const;
export type RatingSourceId = keyof typeof RATING_SOURCES;

export interface RatingCitation {
  readonly source: RatingSourceId | RuleSource;
  /** Section, constant or sentence inside the source. */
  readonly rule: string;
  readonly verification: NonNullable<Citation['verification']>;
}

/** A player's Glicko-2 rating on the familiar (Glicko-1) scale: rating, deviation (RD), volatility (σ). */
export interface Rating {
  readonly rating: number;
  readonly rd: number;
  readonly vol: number;
}

export interface RatingParams {
  /** τ: how much the volatility may change in one period. */
  readonly tau: number;
  /** A new player's rating; also the maximum deviation (inactivity never makes a player less known than a new one). */
  readonly initial: Rating;
  /** Length of a rating period in milliseconds: inactivity grows the deviation once per period. */
  readonly ratingPeriodMs: number;
  /** A rating is provisional while its deviation is at least this (lichess: `deviation >= 110`). */
  readonly provisionalRd: number;
  readonly sources: Readonly<Record<'tau' | 'initial' | 'ratingPeriodMs' | 'provisionalRd', readonly RatingCitation[]>>;
}

const c = (source: RatingCitation['source'], rule: string, verification: RatingCitation['verification']): RatingCitation => ({
  source,
  rule,
  verification,
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Arbiter's parameters. τ 0.5 and 1500/350/0.06 are Glickman's example values and what Woogles (the
 * Scrabble platform) runs; lichess's τ 0.75 is tuned on chess data, which we do not have for Scrabble.
 */
export const RATING_PARAMS: RatingParams = {
  tau: 0.5,
  initial: { rating: 1500, rd: 350, vol: 0.06 },
  ratingPeriodMs: 4 * DAY_MS,
  provisionalRd: 110,
  sources: {
    tau: [
      c('glickman', 'Step 1 and the example (τ = 0.5; "reasonable choices are between 0.3 and 1.2")', 'U'),
      c('woogles', 'VolatilityDeltaConstraint = 0.5', 'V'),
      c('lichess', 'Tau.default = 0.75 (not used: tuned on chess)', 'V'),
    ],
    initial: [
      c('woogles', 'InitialRating 1500, InitialRatingDeviation 350, InitialVolatility 0.06', 'V'),
      c('glickman', 'Step 1 (unrated player: 1500, 350; σ 0.06 in the example)', 'U'),
    ],
    ratingPeriodMs: [c('woogles', 'RatingPeriodinSeconds = 60 * 60 * 24 * 4', 'V'), c('arbiter', 'same period for both paces', 'U')],
    provisionalRd: [c('lichess', 'provisionalDeviation = 110; provisional = deviation >= provisionalDeviation', 'V')],
  },
};

/** Whether a rating is still provisional (shown with a `?`, as lichess does). */
export const isProvisional = (r: Rating, params: RatingParams = RATING_PARAMS): boolean => r.rd >= params.provisionalRd;
