import type { Db, Tx } from './db.js';

/**
 * The ratings projection (issue 33, migrations/20270103091000_ratings): `player_ratings` (a player's
 * rating per category) and `rating_changes` (one row per player per rated game). Written only inside
 * the transaction that ends or re-rules a rated game (service/ratings.ts), after {@link lockRatings}.
 */

/** A player's row of `player_ratings` as the rating update reads it. */
export interface RatingRow {
  readonly playerId: string;
  readonly category: string;
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
  readonly games: number;
  /** Null for a row just made with the defaults (no rated game yet). */
  readonly lastRatedAt: Date | null;
}

/** The defaults of a player with no rated game yet in a category. */
export interface RatingDefaults {
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
  readonly provisional: boolean;
}

interface RawRating {
  player_id: string;
  category: string;
  rating: number;
  deviation: number;
  volatility: number;
  games: number;
  last_rated_at: Date | string;
}

const rowOf = (r: RawRating): RatingRow => ({
  playerId: r.player_id,
  category: r.category,
  rating: Number(r.rating),
  deviation: Number(r.deviation),
  volatility: Number(r.volatility),
  games: Number(r.games),
  lastRatedAt: Number(r.games) === 0 ? null : new Date(r.last_rated_at),
});

/**
 * Locks the rating rows of `playerIds` in `category`, making each missing one with the defaults, and
 * answers them by player id: one statement, an upsert whose no-op update takes the row lock an existing
 * row needs (as SELECT … FOR UPDATE would) and returns the row. Rows are taken in player-id order, so
 * two transactions locking overlapping sets wait for each other instead of deadlocking: two games ending
 * at once for one player are rated one after the other, the second from the first's result.
 */
export const lockRatings = async (
  tx: Tx,
  playerIds: readonly string[],
  category: string,
  defaults: RatingDefaults,
  now: Date,
): Promise<Map<string, RatingRow>> => {
  const ids = [...new Set(playerIds)].sort();
  if (ids.length === 0) return new Map();
  // A new row's last_rated_at is a placeholder: `games` = 0 says it was never rated.
  const rows = await tx.$queryRawUnsafe<RawRating[]>(
    `INSERT INTO player_ratings AS r (player_id, category, rating, deviation, volatility, games, provisional, last_rated_at, updated_at)
     SELECT p, $2, $3, $4, $5, 0, $6, $7::timestamptz, $7::timestamptz FROM unnest($1::uuid[]) AS p ORDER BY p
     ON CONFLICT (player_id, category) DO UPDATE SET player_id = r.player_id
     RETURNING r.player_id::text AS player_id, r.category, r.rating, r.deviation, r.volatility, r.games, r.last_rated_at`,
    ids,
    category,
    defaults.rating,
    defaults.deviation,
    defaults.volatility,
    defaults.provisional,
    now.toISOString(),
  );
  return new Map(rows.map((r) => [r.player_id, rowOf(r)]));
};

/** A player's rating after a rated game (or after a recompute: `games` and `lastRatedAt` unchanged then). */
export interface RatingWrite {
  readonly playerId: string;
  readonly category: string;
  readonly rating: number;
  readonly deviation: number;
  readonly volatility: number;
  readonly games: number;
  readonly provisional: boolean;
  readonly lastRatedAt: Date;
}

/** Writes players' ratings, all in one statement. */
export const writeRatings = async (tx: Tx, writes: readonly RatingWrite[], now: Date): Promise<void> => {
  if (writes.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE player_ratings r SET rating = w.rating, deviation = w.deviation, volatility = w.volatility, games = w.games,
            provisional = w.provisional, last_rated_at = w."lastRatedAt", updated_at = $2::timestamptz
       FROM jsonb_to_recordset($1::jsonb) AS w("playerId" uuid, category text, rating float8, deviation float8, volatility float8,
            games int, provisional boolean, "lastRatedAt" timestamptz)
      WHERE r.player_id = w."playerId" AND r.category = w.category`,
    JSON.stringify(writes.map((w) => ({ ...w, lastRatedAt: w.lastRatedAt.toISOString() }))),
    now.toISOString(),
  );
};

/** One player's row of `rating_changes`. */
export interface RatingChangeRow {
  readonly playerId: string;
  readonly category: string;
  readonly gameId: string;
  /** The seq of the game's `rating-changed` event that carries this change. */
  readonly gameSeq: number;
  readonly opponentId: string | null;
  readonly score: number;
  readonly before: { readonly rating: number; readonly rd: number; readonly vol: number };
  readonly after: { readonly rating: number; readonly rd: number; readonly vol: number };
  readonly ratedAt: Date;
}

/** Changes as the statements' JSON reads them (`jsonb_to_recordset`, store/turn-statements.ts too). */
export const changesJson = (changes: readonly RatingChangeRow[]): string =>
  JSON.stringify(
    changes.map((c) => ({
      playerId: c.playerId,
      category: c.category,
      gameId: c.gameId,
      gameSeq: c.gameSeq,
      opponentId: c.opponentId,
      score: c.score,
      rb: c.before.rating,
      db: c.before.rd,
      vb: c.before.vol,
      ra: c.after.rating,
      da: c.after.rd,
      va: c.after.vol,
      ratedAt: c.ratedAt.toISOString(),
    })),
  );

/** Writes players' changes for games, replacing those a recompute supersedes (the key: game and player), in one statement. */
export const writeRatingChanges = async (tx: Tx, changes: readonly RatingChangeRow[]): Promise<void> => {
  if (changes.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO rating_changes (player_id, category, game_id, game_seq, opponent_id, score, rating_before, deviation_before,
            volatility_before, rating_after, deviation_after, volatility_after, rated_at)
     SELECT "playerId", category, "gameId", "gameSeq", "opponentId", score, rb, db, vb, ra, da, va, "ratedAt"
       FROM jsonb_to_recordset($1::jsonb) AS c("playerId" uuid, category text, "gameId" uuid, "gameSeq" int, "opponentId" uuid,
            score float8, rb float8, db float8, vb float8, ra float8, da float8, va float8, "ratedAt" timestamptz)
     ON CONFLICT (game_id, player_id) DO UPDATE SET game_seq = EXCLUDED.game_seq, score = EXCLUDED.score,
            rating_before = EXCLUDED.rating_before, deviation_before = EXCLUDED.deviation_before,
            volatility_before = EXCLUDED.volatility_before, rating_after = EXCLUDED.rating_after,
            deviation_after = EXCLUDED.deviation_after, volatility_after = EXCLUDED.volatility_after`,
    changesJson(changes),
  );
};

/**
 * Two players' rating rows in `category` as they are now, without a lock (an absent row is not in the
 * map): one statement on the driver's session, for a rated game's end that writes the ratings in its
 * commit statement only over these very rows (store/turn-statements.ts COMMIT_RATED_TURN_SQL).
 */
export const readRatings = async (db: Db, players: readonly [string, string], category: string): Promise<Map<string, RatingRow>> => {
  const rows = await db.statement<RawRating & Record<string, unknown>>(
    'arbiter_read_ratings',
    `SELECT player_id::text AS player_id, category, rating, deviation, volatility, games, last_rated_at
       FROM player_ratings WHERE category = $1 AND player_id IN ($2::uuid, $3::uuid)`,
    [category, players[0], players[1]],
  );
  return new Map(rows.map((r) => [r.player_id, rowOf(r)]));
};

/** A rated game's rating writes for its commit statement: each new row with the row it was computed from (null: none). */
export interface GuardedRatings {
  readonly rows: readonly { readonly write: RatingWrite; readonly was: RatingRow | null }[];
  readonly changes: readonly RatingChangeRow[];
}

/** {@link GuardedRatings} as COMMIT_RATED_TURN_SQL's `$9` and `$10`. */
export const guardedRatingsParams = (g: GuardedRatings): [string, string] => [
  JSON.stringify(
    g.rows.map(({ write: w, was }) => ({
      ...w,
      lastRatedAt: w.lastRatedAt.toISOString(),
      wasRating: was?.rating ?? null,
      wasDeviation: was?.deviation ?? null,
      wasVolatility: was?.volatility ?? null,
      wasGames: was?.games ?? null,
      wasLastRatedAt: was?.lastRatedAt?.toISOString() ?? null,
    })),
  ),
  changesJson(g.changes),
];

/** A stored rated game, one row per game, as a recompute replays it. */
export interface RatedGameRow {
  readonly gameId: string;
  readonly gameSeq: number;
  readonly ratedAt: Date;
  /** By seat: the player of seat 0 first (the row of the lower seat is the one whose opponent is seat 1). */
  readonly players: readonly [string, string];
  readonly scores: readonly [number, number];
}

/** When a game was rated, in its category; null when it has no rating change. */
export const ratedAtOf = async (tx: Tx, gameId: string): Promise<Date | null> => {
  const rows = await tx.$queryRawUnsafe<{ rated_at: Date | string }[]>(
    `SELECT rated_at FROM rating_changes WHERE game_id = $1::uuid LIMIT 1`,
    gameId,
  );
  return rows[0] ? new Date(rows[0].rated_at) : null;
};

/** The players rated in `category` at or after `from`: every rating a recompute from there may change. */
export const playersRatedSince = async (tx: Tx, category: string, from: Date): Promise<string[]> => {
  const rows = await tx.$queryRawUnsafe<{ player_id: string }[]>(
    `SELECT DISTINCT player_id::text AS player_id FROM rating_changes WHERE category = $1 AND rated_at >= $2::timestamptz`,
    category,
    from.toISOString(),
  );
  return rows.map((r) => r.player_id);
};

/**
 * The rated games of `category` at or after `from`, in rating order, each with its two players in seat
 * order (seats from the `seats` table) and their scores.
 */
export const ratedGamesSince = async (tx: Tx, category: string, from: Date): Promise<RatedGameRow[]> => {
  const rows = await tx.$queryRawUnsafe<
    { game_id: string; game_seq: number; rated_at: Date | string; players: string[]; scores: number[] }[]
  >(
    `SELECT c.game_id::text AS game_id, max(c.game_seq) AS game_seq, max(c.rated_at) AS rated_at,
            array_agg(c.player_id::text ORDER BY s.seat) AS players, array_agg(c.score ORDER BY s.seat) AS scores
       FROM rating_changes c JOIN seats s ON s.game_id = c.game_id AND s.player_id = c.player_id
      WHERE c.category = $1 AND c.rated_at >= $2::timestamptz
      GROUP BY c.game_id ORDER BY max(c.rated_at), c.game_id`,
    category,
    from.toISOString(),
  );
  return rows.map((r) => ({
    gameId: r.game_id,
    gameSeq: Number(r.game_seq),
    ratedAt: new Date(r.rated_at),
    players: [r.players[0]!, r.players[1]!],
    scores: [Number(r.scores[0]), Number(r.scores[1])],
  }));
};

/** Each player's rating as it stood just before `from` (their last change before it), for those who had one. */
export const ratingsBefore = async (
  tx: Tx,
  category: string,
  playerIds: readonly string[],
  from: Date,
): Promise<Map<string, { rating: number; rd: number; vol: number; ratedAt: Date; games: number }>> => {
  const rows = await tx.$queryRawUnsafe<
    { player_id: string; rating_after: number; deviation_after: number; volatility_after: number; rated_at: Date | string; games: number }[]
  >(
    `SELECT DISTINCT ON (player_id) player_id::text AS player_id, rating_after, deviation_after, volatility_after, rated_at,
            (count(*) OVER (PARTITION BY player_id))::int AS games
       FROM rating_changes WHERE category = $1 AND player_id = ANY($2::uuid[]) AND rated_at < $3::timestamptz
      ORDER BY player_id, rated_at DESC, game_id DESC`,
    category,
    [...playerIds],
    from.toISOString(),
  );
  return new Map(
    rows.map((r) => [
      r.player_id,
      {
        rating: Number(r.rating_after),
        rd: Number(r.deviation_after),
        vol: Number(r.volatility_after),
        ratedAt: new Date(r.rated_at),
        games: Number(r.games),
      },
    ]),
  );
};
