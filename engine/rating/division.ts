import { rate, type PeriodResult } from './glicko2.js';
import { naspa } from './naspa.js';
import type { DivisionRatingInput, DivisionRatingSystem, RatedGame, RatedPlayer } from './division-types.js';
import { RATING_PARAMS, type Rating, type RatingParams } from './params.js';

export type { DivisionRatingInput, DivisionRatingSystem, RatedGame, RatedPlayer };

/**
 * Tournament ratings (issue 33, item 2): a division's players carry a rating in, and after each complete
 * round a rating system gives each a rating out. A system is a pure function of the players with their
 * ratings in and the results of the rounds so far; which one a division uses is data (its spec names it),
 * so a stored log gives the same ratings on every read. Plain numbers in and out: nothing here knows a
 * tournament's log (engine/tournament/ratings.ts reads one into this shape).
 */

/**
 * The deviation assumed for a rating brought in without one (a TSH line carries a rating only): 60, the
 * RD a player reaches after about a hundred rated games under our parameters. Our choice, stated in
 * docs/tournaments.md: a tournament entrant with a published rating is an established player, and
 * lichess's provisional threshold (110, engine/rating/params.ts) marks the other end.
 */
export const ESTABLISHED_RD = 60;

/** Glicko-2 with each round one rating period; unrated players start at the initial rating. */
export const glicko2Division = (params: RatingParams = RATING_PARAMS, establishedRd = ESTABLISHED_RD): DivisionRatingSystem => {
  const byRound = ({ players, rounds }: DivisionRatingInput): ReadonlyMap<number, readonly number[]> => {
    let current = new Map<number, Rating>(
      players.map((p) => [p.id, p.ratingIn > 0 ? { rating: p.ratingIn, rd: establishedRd, vol: params.initial.vol } : params.initial]),
    );
    const out = new Map<number, number[]>(players.map((p) => [p.id, []]));
    for (const games of rounds) {
      const results = new Map<number, PeriodResult[]>();
      const add = (id: number, opponent: number, score: 0 | 0.5 | 1) => {
        const o = current.get(opponent);
        if (o) results.set(id, [...(results.get(id) ?? []), { opponent: { rating: o.rating, rd: o.rd }, score }]);
      };
      for (const g of games) {
        add(g.a, g.b, g.score);
        add(g.b, g.a, (1 - g.score) as 0 | 0.5 | 1);
      }
      const next = new Map<number, Rating>();
      for (const [id, r] of current) {
        const rated = rate(r, results.get(id) ?? [], params);
        // Inputs built here are always valid (positive deviations, scores 0/½/1); keep the rating if not.
        next.set(id, rated.ok ? rated.value : r);
        out.get(id)!.push(next.get(id)!.rating);
      }
      current = next;
    }
    return out;
  };
  return {
    name: 'glicko2',
    description: 'Glicko-2, each round a rating period (Glickman, "Example of the Glicko-2 system"; engine/rating/glicko2.ts).',
    byRound,
    rate: (input) => {
      const series = byRound(input);
      return new Map(input.players.map((p) => [p.id, series.get(p.id)!.at(-1) ?? p.ratingIn]));
    },
  };
};

export const RATING_SYSTEM_NAMES = ['glicko2', 'naspa'] as const;
export type RatingSystemName = (typeof RATING_SYSTEM_NAMES)[number];
export const DEFAULT_RATING_SYSTEM: RatingSystemName = 'glicko2';

export const DIVISION_RATING_SYSTEMS: Readonly<Record<RatingSystemName, DivisionRatingSystem>> = {
  glicko2: glicko2Division(),
  naspa,
};

export const isRatingSystemName = (name: string): name is RatingSystemName => (RATING_SYSTEM_NAMES as readonly string[]).includes(name);

/**
 * Each player's rating after every round of `input.rounds` (index r: through round r + 1), each rated from
 * the ratings in with the rounds so far, as TSH rates a division after each round (its `newr` list).
 */
export const ratingsByRound = (system: DivisionRatingSystem, input: DivisionRatingInput): ReadonlyMap<number, readonly number[]> => {
  if (system.byRound) return system.byRound(input);
  const out = new Map<number, number[]>(input.players.map((p) => [p.id, []]));
  for (let r = 1; r <= input.rounds.length; r++) {
    const after = system.rate({ ...input, rounds: input.rounds.slice(0, r) });
    for (const [id, list] of out) list.push(after.get(id) ?? input.players.find((p) => p.id === id)!.ratingIn);
  }
  return out;
};
