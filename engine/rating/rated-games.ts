import type { EndReason, Seat } from '../game/events.js';
import { err, ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import { rate, rateInactive } from './glicko2.js';
import { isProvisional, RATING_PARAMS, type Rating, type RatingParams } from './params.js';

/**
 * Rated games (issue 33): which endings rate, the score each seat takes from a game's result, and one
 * game's update of both players — the same function whether a game has just ended (service/ratings.ts)
 * or a category is replayed from the games' logs ({@link replayRatings}), so a replayed log gives the
 * projection's numbers exactly.
 */

/**
 * Whether a game that ended for this reason is rated, and why. A `Record` over every end reason, so a
 * new reason does not compile until it is given a decision (ours, docs/rated-play.md "Which endings
 * rate"). An abort cancels a game before its first turn (the rule set allows it only then): there is no
 * result to rate. A forfeit, a timeout or a resignation is a result the losing player caused, and rates as
 * a loss: otherwise leaving a lost game would protect a rating.
 */
export const RATED_ENDINGS: Readonly<Record<EndReason, { readonly rates: boolean; readonly why: string }>> = {
  'went-out': { rates: true, why: 'played to the end' },
  'scoreless-turns': { rates: true, why: 'played to the end (the scoreless-turn limit)' },
  'consecutive-exchanges': { rates: true, why: 'played to the end (the exchange limit)' },
  resigned: { rates: true, why: 'a result the resigning player chose: a loss' },
  'timed-out': { rates: true, why: 'a loss on time is a loss' },
  forfeited: { rates: true, why: 'a forfeit is a loss the forfeiting player caused' },
  'challenge-lost': { rates: true, why: 'a loss under the rule set (a lost triple challenge)' },
  ruling: { rates: true, why: "a director's ruling decides the result; the scores stand" },
  aborted: { rates: false, why: 'cancelled before it was played: no result' },
};

export type GameScore = 0 | 0.5 | 1;

/** What rating needs of a game's result: why it ended and who won (null: a tie). */
export interface RatedOutcome {
  readonly reason: EndReason;
  readonly winner: Seat | null;
}

/** Each seat's score (win 1, tie ½, loss 0), or null when the ending is not rated ({@link RATED_ENDINGS}). */
export const ratedScores = (result: RatedOutcome): readonly [GameScore, GameScore] | null => {
  if (!RATED_ENDINGS[result.reason].rates) return null;
  if (result.winner === null) return [0.5, 0.5];
  return result.winner === 0 ? [1, 0] : [0, 1];
};

/** A player's standing in one category before a game: the rating and when it was last rated (ms; null: never). */
export interface Standing {
  readonly rating: Rating;
  readonly lastRatedAt: number | null;
  readonly games: number;
}

/** One seat's side of a rated game's update. */
export interface SeatChange {
  readonly score: GameScore;
  /** The rating as it stood before the game. */
  readonly before: Rating;
  /** Whole rating periods since the player's last rated game: the deviation grew that many times first. */
  readonly idlePeriods: number;
  readonly after: Rating;
  readonly provisional: boolean;
}

export const newStanding = (params: RatingParams = RATING_PARAMS): Standing => ({ rating: params.initial, lastRatedAt: null, games: 0 });

/** Whole rating periods between a player's last rated game and `at`. */
export const idlePeriods = (lastRatedAt: number | null, at: number, params: RatingParams = RATING_PARAMS): number =>
  lastRatedAt === null || at <= lastRatedAt ? 0 : Math.floor((at - lastRatedAt) / params.ratingPeriodMs);

/**
 * Both players' updates from one game at `at` (ms): each player's deviation first grows for the whole
 * periods they were idle (Glicko-2 step 6 per period), then both are rated against each other's rating as
 * it stood at the game (one game as its own rating period, as Woogles and lichess rate a game at its end).
 */
export function rateGame(
  standings: readonly [Standing, Standing],
  scores: readonly [GameScore, GameScore],
  at: number,
  params: RatingParams = RATING_PARAMS,
): Result<readonly [SeatChange, SeatChange], RuleError> {
  const idle = standings.map((s) => idlePeriods(s.lastRatedAt, at, params));
  const grown: Rating[] = [];
  for (const seat of [0, 1] as const) {
    const r = rateInactive(standings[seat].rating, idle[seat], params);
    if (!r.ok) return r;
    grown.push(r.value);
  }
  const changes: SeatChange[] = [];
  for (const seat of [0, 1] as const) {
    const opponent = grown[1 - seat]!;
    const r = rate(grown[seat]!, [{ opponent: { rating: opponent.rating, rd: opponent.rd }, score: scores[seat] }], params);
    if (!r.ok) return r;
    const before = standings[seat].rating;
    changes.push({ score: scores[seat], before, idlePeriods: idle[seat]!, after: r.value, provisional: isProvisional(r.value, params) });
  }
  return ok([changes[0]!, changes[1]!]);
}

/** One rated game's result as the replay reads it from the game's log (its last `rating-changed`). */
export interface RatedResult {
  readonly gameId: string;
  readonly category: string;
  /** When the game was rated (ms): games are replayed in this order. */
  readonly at: number;
  readonly players: readonly [string, string];
  readonly scores: readonly [GameScore, GameScore];
}

export interface ReplayedGame {
  readonly gameId: string;
  readonly category: string;
  readonly at: number;
  readonly players: readonly [string, string];
  readonly changes: readonly [SeatChange, SeatChange];
}

/** The key of a player's standing in a category. */
export const standingKey = (playerId: string, category: string): string => `${category} ${playerId}`;

/**
 * Every player's standing after the rated games `results`, replayed in order of `at` (then game id), from
 * `start` (default: everyone new). This is what player_ratings holds: the projection of the games' logs.
 * The store gives a game a rating time after both players' previous one, so the order is each player's
 * own order too.
 */
export function replayRatings(
  results: readonly RatedResult[],
  start: ReadonlyMap<string, Standing> = new Map(),
  params: RatingParams = RATING_PARAMS,
): Result<{ readonly standings: Map<string, Standing>; readonly games: readonly ReplayedGame[] }, RuleError> {
  const standings = new Map(start);
  const games: ReplayedGame[] = [];
  const ordered = [...results].sort((a, b) => a.at - b.at || (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0));
  for (const g of ordered) {
    const keys = g.players.map((p) => standingKey(p, g.category));
    const before = keys.map((k) => standings.get(k) ?? newStanding(params)) as [Standing, Standing];
    const r = rateGame(before, g.scores, g.at, params);
    if (!r.ok) return err(r.error);
    r.value.forEach((c, seat) => standings.set(keys[seat]!, { rating: c.after, lastRatedAt: g.at, games: before[seat]!.games + 1 }));
    games.push({ gameId: g.gameId, category: g.category, at: g.at, players: g.players, changes: r.value });
  }
  return ok({ standings, games });
}
