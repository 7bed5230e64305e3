import { RATING_SYSTEM_NAMES, type RatingSystemName } from '../engine/rating/division.js';
import { ratingLine } from '../engine/tournament/ratings.js';
import { builder } from './builder.js';
import { enumName } from './enums.js';
import { EntrantType, StandingType } from './tournament-types.js';

/**
 * A division's ratings on the tournament types (issue 33, item 2): the rating system as an enum, and each
 * player's rating in, out and change on Entrant and Standing. Computed by the engine from the log on each
 * read (engine/tournament/ratings.ts), never stored.
 */

const SYSTEM_ABOUT: Readonly<Record<RatingSystemName, string>> = {
  glicko2: 'Glicko-2, each round a rating period; a rating brought in without a deviation counts as established (RD 60).',
  naspa: 'The NASPA rating system as tsh computes it (nsa2008): excess wins × multiplier, acceleration and feedback, long events split.',
};

export const RatingSystemEnum = builder.enumType('TournamentRatingSystem', {
  description: 'How a division’s ratings out are computed after each complete round (docs/tournaments.md#tournament-ratings).',
  values: Object.fromEntries(RATING_SYSTEM_NAMES.map((v) => [enumName(v), { value: v, description: SYSTEM_ABOUT[v] }])),
});

builder.objectFields(EntrantType, (t) => ({
  ratingIn: t.int({
    description: 'The rating brought into the division (the seed rating; 0 unrated).',
    resolve: (e) => e.entrant.rating,
  }),
  ratingOut: t.int({
    nullable: true,
    description:
      'The rating after the last round whose results are all in, by the division’s rating system; null before round 1 is complete.',
    resolve: (e) => ratingLine(e.division, e.entrant.number).ratingOut,
  }),
  ratingChange: t.int({
    nullable: true,
    description: 'The rating out minus the rating in; null without a rating out or for an unrated player.',
    resolve: (e) => ratingLine(e.division, e.entrant.number).ratingChange,
  }),
}));

builder.objectFields(StandingType, (t) => ({
  ratingIn: t.int({ description: 'The rating brought into the division (0 unrated).', resolve: (s) => s.entrant.rating }),
  ratingOut: t.int({
    nullable: true,
    description: 'The rating after the rounds these standings cover that are complete; null before round 1 is complete.',
    resolve: (s) => s.ratings?.ratingOut ?? null,
  }),
  ratingChange: t.int({
    nullable: true,
    description: 'The rating out minus the rating in; null without a rating out or for an unrated player.',
    resolve: (s) => s.ratings?.ratingChange ?? null,
  }),
}));
