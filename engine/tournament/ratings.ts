import {
  DEFAULT_RATING_SYSTEM,
  DIVISION_RATING_SYSTEMS,
  isRatingSystemName,
  ratingsByRound,
  type RatedGame,
  type RatedPlayer,
  type RatingSystemName,
} from '../rating/division.js';
import type { Entrant, ForfeitReason } from './events.js';
import type { DivisionState, RoundState } from './state.js';

/**
 * A division's ratings in and out (issue 33, item 2), derived from its state on every read: the rounds whose
 * results are all in, from round 1 on, are rated by the division's rating system (engine/rating/division.ts),
 * so a ruling that changes a result changes the ratings after it with nothing stored to correct.
 */

export interface PlayerRatings {
  readonly ratingIn: number;
  /** After each complete round (index r: through round r + 1), whole points. */
  readonly byRound: readonly number[];
  /** After the last complete round; null before round 1 is complete. */
  readonly ratingOut: number | null;
}

export interface DivisionRatings {
  readonly system: RatingSystemName;
  /** Rounds rated: 1 to this one. */
  readonly rounds: number;
  readonly players: ReadonlyMap<number, PlayerRatings>;
}

/** Forfeits of a game that never began are not rated (NASPA counts games played); a game lost on time was played. */
const UNRATED_FORFEITS: readonly (ForfeitReason | null)[] = ['late-arrival', 'no-show', 'director'];

export const ratingSystemOf = (division: DivisionState): RatingSystemName => {
  const name = division.spec.ratingSystem;
  return name !== undefined && isRatingSystemName(name) ? name : DEFAULT_RATING_SYSTEM;
};

/** Whether every game of the round has a result (a round of byes only, once paired, is complete). */
const complete = (round: RoundState): boolean =>
  round.status !== 'unpaired' && round.games.every((g) => round.slips[g.first] !== undefined);

const ratedGames = (round: RoundState): RatedGame[] =>
  Object.values(round.slips)
    .filter((s) => s.kind === 'played' || !UNRATED_FORFEITS.includes(s.forfeitReason))
    .map((s) => {
      const d = s.scores[0] - s.scores[1];
      return { a: s.players[0], b: s.players[1], score: d > 0 ? 1 : d < 0 ? 0 : 0.5 };
    });

/** TSH's `lifeg` of an imported line: rated games before the event, which the NASPA multiplier reads. */
const lifeGamesOf = (e: Entrant): number | null => {
  const v = e.tsh?.fields.findLast((f) => f.name === 'lifeg')?.values[0];
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : null;
};

const CACHE = new WeakMap<DivisionState, DivisionRatings>();

/** The division's ratings through its last complete round (states are immutable, so each is computed once). */
export const divisionRatings = (division: DivisionState): DivisionRatings => {
  const cached = CACHE.get(division);
  if (cached) return cached;
  const rounds: RatedGame[][] = [];
  for (const round of division.rounds) {
    if (!complete(round)) break;
    rounds.push(ratedGames(round));
  }
  const players: RatedPlayer[] = division.entrants.map((e) => ({ id: e.number, ratingIn: e.rating, lifeGames: lifeGamesOf(e) }));
  const system = ratingSystemOf(division);
  const series = ratingsByRound(DIVISION_RATING_SYSTEMS[system], { players, rounds, plannedRounds: division.spec.rounds.length });
  const out: DivisionRatings = {
    system,
    rounds: rounds.length,
    players: new Map(
      players.map((p) => {
        const byRound = (series.get(p.id) ?? []).map((r) => Math.round(r));
        return [p.id, { ratingIn: p.ratingIn, byRound, ratingOut: byRound.at(-1) ?? null }];
      }),
    ),
  };
  CACHE.set(division, out);
  return out;
};

export interface RatingLine {
  readonly ratingIn: number;
  /** Null before round 1 is complete. */
  readonly ratingOut: number | null;
  /** Out minus in; null with no rating out, or for an unrated player (rating in 0). */
  readonly ratingChange: number | null;
}

/** One entrant's rating in and out through `throughRound` (default: every complete round). */
export const ratingLine = (division: DivisionState, entrant: number, throughRound?: number): RatingLine => {
  const p = divisionRatings(division).players.get(entrant);
  const ratingIn = p?.ratingIn ?? 0;
  const byRound = p?.byRound ?? [];
  const n = throughRound === undefined ? byRound.length : Math.min(Math.max(throughRound, 0), byRound.length);
  const ratingOut = n > 0 ? byRound[n - 1]! : null;
  return { ratingIn, ratingOut, ratingChange: ratingOut !== null && ratingIn > 0 ? ratingOut - ratingIn : null };
};
