import type { RatingRow } from '../store/ratings.js';

/**
 * The rating rows this process last wrote at a rated game's end (service/ratings.ts), so that the next end
 * for the same players reads nothing before its commit. Correctness never rests on it: the commit writes a
 * rating only over the very row it was computed from (store/turn-statements.ts COMMIT_RATED_TURN_SQL), so a
 * row changed elsewhere (another process, a recompute) costs one refused commit and a transaction, after
 * which the entry is gone. Keyed by player and category alone, not by database handle: a uuid names one
 * player, and a row from another database would only fail the same comparison. Bounded: the oldest go first.
 */

const MAX_ROWS = 5000;
const rows = new Map<string, RatingRow>();

const keyOf = (playerId: string, category: string): string => `${playerId}/${category}`;

/** The row this process last wrote for the player in the category, if it still holds one. */
export const cachedRating = (playerId: string, category: string): RatingRow | null => rows.get(keyOf(playerId, category)) ?? null;

/** Keeps rows just committed (the most recent stay). */
export const rememberRatings = (written: readonly RatingRow[]): void => {
  for (const r of written) {
    const key = keyOf(r.playerId, r.category);
    rows.delete(key);
    rows.set(key, r);
  }
  while (rows.size > MAX_ROWS) rows.delete(rows.keys().next().value!);
};

/** Forgets the players' rows in the category: they are changing, or changed, elsewhere than as remembered. */
export const forgetRatings = (playerIds: readonly string[], category: string): void => {
  for (const id of playerIds) rows.delete(keyOf(id, category));
};
