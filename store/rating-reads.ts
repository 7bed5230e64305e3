import type { PlayerRating, RatingChange } from '../generated/prisma/client.js';
import type { Db, Tx } from './db.js';
import type { PlayerRow } from './players.js';

/**
 * Reads of the rating projections (`player_ratings`, `rating_changes`, written by the rated-games code when
 * a rated game ends) for a player's page and the leaderboard (docs/players.md). Nothing here writes them.
 */

export type PlayerRatingRow = PlayerRating;
export type RatingChangeRow = RatingChange;

/** A player's rating in every category they have been rated in, by category id. */
export const ratingsOfPlayer = (client: Tx, playerId: string): Promise<PlayerRatingRow[]> =>
  client.playerRating.findMany({ where: { playerId }, orderBy: { category: 'asc' } });

/** A player's rating changes in one category, oldest first (the index `(player_id, category, rated_at)`, times unique per player). */
export const ratingChangesOf = (client: Tx, playerId: string, category: string): Promise<RatingChangeRow[]> =>
  client.ratingChange.findMany({ where: { playerId, category }, orderBy: [{ ratedAt: 'asc' }, { gameId: 'asc' }] });

/** The player's rating changes from the games `gameIds` (a player's recent games). */
export const ratingChangesOfGames = (client: Tx, playerId: string, gameIds: readonly string[]): Promise<RatingChangeRow[]> =>
  gameIds.length ? client.ratingChange.findMany({ where: { playerId, gameId: { in: [...gameIds] } } }) : Promise.resolve([]);

/** The players `ids` (a history's opponents), in no particular order. */
export const playersByIds = (client: Tx, ids: readonly string[]): Promise<PlayerRow[]> =>
  ids.length ? client.player.findMany({ where: { id: { in: [...ids] } } }) : Promise.resolve([]);

/** One row of the leaderboard: the rating and who holds it. */
export interface LeaderboardRow {
  readonly playerId: string;
  readonly handle: string;
  readonly displayName: string;
  readonly rating: number;
  readonly deviation: number;
  readonly games: number;
  readonly provisional: boolean;
  readonly lastRatedAt: Date;
}

/** Where the previous page ended: its last row's rating and player id (the order's two keys). */
export interface LeaderboardKey {
  readonly rating: number;
  readonly playerId: string;
}

const LEADERBOARD_SELECT = `SELECT r.player_id, p.handle, p.display_name, r.rating, r.deviation, r.games, r.provisional, r.last_rated_at
FROM player_ratings r JOIN players p ON p.id = r.player_id
WHERE r.category = $1 AND r.provisional = $2 AND p.deleted_at IS NULL AND NOT p.profile_hidden`;

// Two statements rather than one with `$3 IS NULL OR …`: a prepared statement's generic plan could not
// then start the index scan at the cursor. `rating <= $3` is the index condition that starts the walk
// where the last page ended (the order mixes DESC and ASC, so a row comparison cannot); the rest
// settles ties. Players hidden or deleted are skipped by the nested loop's lookup of each one's row.
const ORDER = `ORDER BY r.rating DESC, r.player_id LIMIT`;
export const LEADERBOARD_FIRST_SQL = `${LEADERBOARD_SELECT}\n${ORDER} $3`;
export const LEADERBOARD_AFTER_SQL = `${LEADERBOARD_SELECT}
  AND r.rating <= $3::float8 AND (r.rating < $3::float8 OR r.player_id > $4::uuid)
${ORDER} $5`;

interface RawLeaderboardRow extends Record<string, unknown> {
  player_id: string;
  handle: string;
  display_name: string;
  rating: number | string;
  deviation: number | string;
  games: number;
  provisional: boolean;
  last_rated_at: Date | string;
}

const rowOf = (r: RawLeaderboardRow): LeaderboardRow => ({
  playerId: r.player_id,
  handle: r.handle,
  displayName: r.display_name,
  rating: Number(r.rating),
  deviation: Number(r.deviation),
  games: r.games,
  provisional: r.provisional,
  lastRatedAt: r.last_rated_at instanceof Date ? r.last_rated_at : new Date(r.last_rated_at),
});

/**
 * Up to `limit` listed players of `category` (established or provisional), best first, after `after`:
 * one statement on the driver that walks `player_ratings_leaderboard_idx`.
 */
export const leaderboardRows = async (
  db: Pick<Db, 'statement'>,
  category: string,
  provisional: boolean,
  after: LeaderboardKey | null,
  limit: number,
): Promise<LeaderboardRow[]> => {
  const rows = after
    ? await db.statement<RawLeaderboardRow>('arbiter_leaderboard_after', LEADERBOARD_AFTER_SQL, [
        category,
        provisional,
        after.rating,
        after.playerId,
        limit,
      ])
    : await db.statement<RawLeaderboardRow>('arbiter_leaderboard_first', LEADERBOARD_FIRST_SQL, [category, provisional, limit]);
  return rows.map(rowOf);
};

/** Hides or shows a player's page and leaderboard entries; false when no such (undeleted) player. */
export const updateProfileHidden = async (client: Tx, playerId: string, hidden: boolean): Promise<boolean> => {
  const r = await client.player.updateMany({ where: { id: playerId, deletedAt: null }, data: { profileHidden: hidden } });
  return r.count === 1;
};
