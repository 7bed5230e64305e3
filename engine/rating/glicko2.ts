import glicko2 from 'glicko2';
import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { RATING_PARAMS, type Rating, type RatingParams } from './params.js';

/** One game of the rating period, from the rated player's side. */
export interface PeriodResult {
  readonly opponent: { readonly rating: number; readonly rd: number };
  /** 1 win, 0.5 draw, 0 loss. */
  readonly score: 0 | 0.5 | 1;
}

export const RATING_ERROR_CODES = ['BAD_RATING', 'BAD_RESULT', 'BAD_RATING_PARAMS', 'BAD_PERIODS'] as const;

const finite = (x: number): boolean => typeof x === 'number' && Number.isFinite(x);

/** The package replaces a zero rating, RD or σ by its default (`x || default`), so zeros are refused here. */
const checkRating = (r: Rating, what: string): RuleError | null =>
  finite(r.rating) && finite(r.rd) && r.rd > 0 && finite(r.vol) && r.vol > 0
    ? null
    : ruleError('BAD_RATING', `The ${what} rating needs a finite rating and a positive deviation and volatility.`, { ...r });

const checkParams = (p: RatingParams): RuleError | null =>
  finite(p.tau) && p.tau > 0 && checkRating(p.initial, 'initial') === null
    ? null
    : ruleError('BAD_RATING_PARAMS', 'τ must be positive and the initial rating valid.', { tau: p.tau, initial: p.initial });

const checkResult = (r: PeriodResult, i: number): RuleError | null => {
  if (![0, 0.5, 1].includes(r.score)) {
    return ruleError('BAD_RESULT', `Result ${i + 1} has score ${String(r.score)}; a score is 0, 0.5 or 1.`, { index: i });
  }
  const bad = checkRating({ ...r.opponent, vol: 1 }, `opponent ${i + 1}`);
  return bad && ruleError('BAD_RESULT', bad.message, { index: i, opponent: r.opponent });
};

/** A fresh instance per call: the package keeps players in the instance, so sharing one would make calls interfere. */
const instance = (p: RatingParams): glicko2.Glicko2 =>
  new glicko2.Glicko2({ tau: p.tau, rating: p.initial.rating, rd: p.initial.rd, vol: p.initial.vol });

/** RD never above a new player's: a long absence makes a player unknown, not less known than unknown. */
const capped = (r: Rating, p: RatingParams): Rating => ({ ...r, rd: Math.min(r.rd, p.initial.rd) });

/**
 * The player's rating after one rating period with these games (Glicko-2 steps 1–8). With no games it
 * is {@link rateInactive} for one period. Opponents' volatilities do not enter the player's update.
 */
export function rate(player: Rating, results: readonly PeriodResult[], params: RatingParams = RATING_PARAMS): Result<Rating> {
  const bad = checkParams(params) ?? checkRating(player, "player's") ?? results.map(checkResult).find((e) => e !== null);
  if (bad) return err(bad);
  const g = instance(params);
  const me = g.makePlayer(player.rating, player.rd, player.vol);
  // The opponents are rated too (the package rates everyone in the instance); their results are discarded.
  const matches = results.map((r): glicko2.Match => [me, g.makePlayer(r.opponent.rating, r.opponent.rd, params.initial.vol), r.score]);
  g.updateRatings(matches);
  return ok(capped({ rating: me.getRating(), rd: me.getRd(), vol: me.getVol() }, params));
}

/**
 * The rating after `periods` whole rating periods without a game: only the deviation grows, by Glicko-2
 * step 6 (φ' = √(φ² + σ²)) once per period, up to the initial deviation.
 */
export function rateInactive(player: Rating, periods = 1, params: RatingParams = RATING_PARAMS): Result<Rating> {
  const bad = checkParams(params) ?? checkRating(player, "player's");
  if (bad) return err(bad);
  if (!Number.isInteger(periods) || periods < 0) {
    return err(ruleError('BAD_PERIODS', `The number of idle periods must be a whole number ≥ 0, not ${periods}.`, { periods }));
  }
  let current = player;
  for (let i = 0; i < periods && current.rd < params.initial.rd; i++) {
    const g = instance(params);
    const me = g.makePlayer(current.rating, current.rd, current.vol);
    g.updateRatings([]);
    // Keep the input rating exactly: the package's scale round trip could move it by a rounding error.
    current = capped({ rating: current.rating, rd: me.getRd(), vol: current.vol }, params);
  }
  return ok(current);
}
