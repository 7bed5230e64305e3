import type { Player } from '../generated/prisma/client.js';
import type { Db } from './db.js';
import { guardedRatingsParams, type GuardedRatings } from './ratings.js';
import type { GameRow, GameSecrets, GameUpdate, NewEvent, OutboxItem, StoredEvent } from './game-rows.js';
import type { Idempotency } from './idempotency.js';
import { jsonOf, rowOf, type JsonValue } from './json.js';
import type { SeatHolder } from './seats.js';

/**
 * A turn's two statements (store/games.ts runTurn; docs/storage.md "The turn's statements"), sent on the
 * driver itself (`Db.statement`), one round trip each: Prisma would spend a round trip per table, and its
 * interactive transaction two more for BEGIN and COMMIT, and a turn is dominated by round trips
 * (bench/turnpath.ts). Unqualified table names resolve through the connection's search_path (store/db.ts
 * sets it to the URL's schema).
 */

/**
 * The statements' JSON column of a game's seats with their players, in seat order (read by {@link seatsOfJson});
 * `gameId` is the SQL expression of the game's id, `also` a further condition.
 */
export const seatsJsonSql = (gameId: string, also = ''): string =>
  `(SELECT coalesce(jsonb_agg(jsonb_build_object('seat', s.seat, 'player', CASE WHEN p.id IS NULL THEN NULL ELSE to_jsonb(p) END) ORDER BY s.seat), '[]'::jsonb)
           FROM seats s LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = ${gameId}${also})`;

/** The statements' JSON column of a game's events after `after` (SQL expressions), in order (read by {@link eventsOfJson}). */
export const eventsJsonSql = (gameId: string, after: string, also = ''): string =>
  `(SELECT coalesce(jsonb_agg(jsonb_build_object('seq', e.seq, 'type', e.type, 'payload', e.payload, 'createdAt', e.created_at) ORDER BY e.seq), '[]'::jsonb)
           FROM game_events e WHERE e.game_id = ${gameId} AND e.seq > ${after}${also})`;

/** Seats with their players, as the statements aggregate them (`jsonb_agg` of `{ seat, player }`). */
export const seatsOfJson = (v: unknown): SeatHolder[] =>
  (jsonOf(v) as { seat: number; player: Record<string, unknown> | null }[]).map((x) => ({
    seat: x.seat,
    player: x.player === null ? null : rowOf<Player>(x.player),
  }));

/** Events as the statements aggregate them (`jsonb_agg` of `{ seq, type, payload, createdAt }`). */
export const eventsOfJson = (v: unknown): StoredEvent[] =>
  (jsonOf(v) as { seq: number; type: string; payload: JsonValue; createdAt: string }[]).map((e) => ({
    ...e,
    createdAt: new Date(e.createdAt),
  }));

type OpenedTurn =
  | { readonly kind: 'prior'; readonly prior: { readonly requestHash: string; readonly response: unknown } }
  | { readonly kind: 'stale' }
  | {
      readonly kind: 'read';
      readonly game: GameRow;
      readonly seats: SeatHolder[];
      readonly events: StoredEvent[];
      readonly secrets: GameSecrets;
    };

/** The statement names of a turn (named prepared statements on Postgres; test/reliability wraps the commit). */
export const TURN_STATEMENTS = {
  open: 'arbiter_open_turn_tail',
  commit: 'arbiter_commit_turn',
  commitRated: 'arbiter_commit_rated_turn',
} as const;

export const OPEN_TURN_SQL = `WITH idem AS (
   SELECT request_hash AS "requestHash", response FROM idempotency_keys WHERE $3::text IS NOT NULL AND scope = $3::text AND key = $4::text
 ), g AS (
   SELECT * FROM games WHERE id = $1::uuid AND version = $2::int AND NOT EXISTS (SELECT 1 FROM idem)
 )
 SELECT (SELECT to_jsonb(idem) FROM idem) AS idem,
        (SELECT to_jsonb(g) FROM g) AS game,
        (SELECT bag_seed FROM game_secrets WHERE game_id = $1::uuid AND EXISTS (SELECT 1 FROM g)) AS bag_seed,
        ${seatsJsonSql('$1::uuid', ' AND EXISTS (SELECT 1 FROM g)')} AS seats,
        ${eventsJsonSql('$1::uuid', '$5::int', ' AND EXISTS (SELECT 1 FROM g)')} AS events`;

/**
 * One statement, no lock and no transaction: the idempotency record of `idem` if there is one; else the
 * game row if it is at `expectedVersion`, with its secret, its seats (with their players) and its event
 * log after `knownVersion` (the caller keeps the events up to it: a log is append-only), all from the
 * statement's one snapshot. The version is checked again by {@link COMMIT_TURN_SQL}.
 */
export const openTurn = async (
  db: Db,
  gameId: string,
  expectedVersion: number,
  idem: Idempotency | null,
  knownVersion = 0,
): Promise<OpenedTurn> => {
  const rows = await db.statement<{ idem: unknown; game: unknown; bag_seed: string | null; seats: unknown; events: unknown }>(
    TURN_STATEMENTS.open,
    OPEN_TURN_SQL,
    [gameId, expectedVersion, idem?.scope ?? null, idem?.key ?? null, knownVersion],
  );
  const r = rows[0]!;
  const prior = jsonOf(r.idem) as { requestHash: string; response: unknown } | null;
  if (prior) return { kind: 'prior', prior };
  const game = jsonOf(r.game) as Record<string, unknown> | null;
  if (!game) return { kind: 'stale' };
  if (r.bag_seed === null) throw new Error(`game ${gameId} has no secret`);
  return {
    kind: 'read',
    game: rowOf<GameRow>(game),
    seats: seatsOfJson(r.seats),
    events: eventsOfJson(r.events),
    secrets: { bagSeed: r.bag_seed },
  };
};

/** What {@link COMMIT_RATED_TURN_SQL} raises when it wrote one rating row but could not commit the turn. */
export const RATING_GUARD = 'arbiter_rating_guard';

const RATED_CTES = `w AS (
   SELECT * FROM jsonb_to_recordset($9::jsonb) AS w("playerId" uuid, category text, rating float8, deviation float8, volatility float8,
          games int, provisional boolean, "lastRatedAt" timestamptz, "wasRating" float8, "wasDeviation" float8, "wasVolatility" float8,
          "wasGames" int, "wasLastRatedAt" timestamptz)
 ), r AS (
   INSERT INTO player_ratings AS r (player_id, category, rating, deviation, volatility, games, provisional, last_rated_at, updated_at)
   SELECT "playerId", category, rating, deviation, volatility, games, provisional, "lastRatedAt", $3::timestamptz FROM w ORDER BY "playerId"
   ON CONFLICT (player_id, category) DO UPDATE SET rating = EXCLUDED.rating, deviation = EXCLUDED.deviation,
     volatility = EXCLUDED.volatility, games = EXCLUDED.games, provisional = EXCLUDED.provisional,
     last_rated_at = EXCLUDED.last_rated_at, updated_at = EXCLUDED.updated_at
   WHERE EXISTS (SELECT 1 FROM w WHERE w."playerId" = r.player_id AND r.rating = w."wasRating" AND r.deviation = w."wasDeviation"
     AND r.volatility = w."wasVolatility" AND r.games = w."wasGames" AND (r.games = 0 OR r.last_rated_at = w."wasLastRatedAt"))
   RETURNING r.player_id
 ), `;

const RATING_CHANGES_CTE = `, rc AS (
   INSERT INTO rating_changes (player_id, category, game_id, game_seq, opponent_id, score, rating_before, deviation_before,
          volatility_before, rating_after, deviation_after, volatility_after, rated_at)
   SELECT "playerId", category, "gameId", "gameSeq", "opponentId", score, rb, db, vb, ra, da, va, "ratedAt"
     FROM jsonb_to_recordset($10::jsonb) AS c("playerId" uuid, category text, "gameId" uuid, "gameSeq" int, "opponentId" uuid,
          score float8, rb float8, db float8, vb float8, ra float8, da float8, va float8, "ratedAt" timestamptz)
    WHERE EXISTS (SELECT 1 FROM g)
 )`;

/** The turn's commit statement; `rated` adds the rating rows of a rated game's end ({@link COMMIT_RATED_TURN_SQL}). */
function commitTurnSql(rated: boolean): string {
  return `WITH ${rated ? RATED_CTES : ''}g AS (
   UPDATE games SET
     version = $2::int + jsonb_array_length($4::jsonb),
     updated_at = $3::timestamptz,
     status = CASE WHEN $7::jsonb ? 'status' THEN $7::jsonb->>'status' ELSE status END,
     turn_seat = CASE WHEN $7::jsonb ? 'turnSeat' THEN ($7::jsonb->>'turnSeat')::int ELSE turn_seat END,
     deadline_at = CASE WHEN $7::jsonb ? 'deadlineAt' THEN ($7::jsonb->>'deadlineAt')::timestamptz ELSE deadline_at END
   WHERE id = $1::uuid AND version = $2::int
     AND ($8::timestamptz IS NULL OR (created_at >= $8::timestamptz AND created_at < $8::timestamptz + interval '1 millisecond'))${
       rated ? `\n     AND (SELECT count(*) FROM r) = (SELECT count(*) FROM w)` : ''
     }
   RETURNING id
 ), ev AS (
   INSERT INTO game_events (game_id, seq, type, payload, created_at)
   SELECT $1::uuid, $2::int + e.i::int, e.v->>'type', e.v->'payload', $3::timestamptz FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(v, i)
   WHERE EXISTS (SELECT 1 FROM g)
 ), ob AS (
   INSERT INTO outbox (game_id, event_seq, kind, payload, created_at, next_attempt_at)
   SELECT $1::uuid, (m->>'seq')::int, m->>'kind', m->'payload', $3::timestamptz, $3::timestamptz FROM jsonb_array_elements($5::jsonb) AS m
   WHERE EXISTS (SELECT 1 FROM g)
 ), idem AS (
   INSERT INTO idempotency_keys (scope, key, request_hash, response, created_at)
   SELECT k->>'scope', k->>'key', k->>'requestHash', k->'response', $3::timestamptz FROM jsonb_array_elements($6::jsonb) AS k
   WHERE EXISTS (SELECT 1 FROM g)
 )${rated ? RATING_CHANGES_CTE : ''}
 SELECT count(*)::int AS committed${
   // The cast fails only at run time (its text is not a constant): the error undoes the one rating row written.
   rated
     ? `, CASE WHEN count(*) > 0 OR (SELECT count(*) FROM r) = 0 THEN 0 ELSE ('${RATING_GUARD} ' || (SELECT count(*) FROM r))::int END AS undone`
     : ''
 } FROM g`;
}

/**
 * One statement, atomic on its own: moves the game row from `$2` to its new version and projection, only
 * if it is still at `$2` (a concurrent turn that committed first leaves it unmatched; one still running
 * makes it wait for that one's row lock, then unmatched) and, when `$8` is given, only if it is the game
 * created at that millisecond (a turn on a game the process holds, store/game-rows.ts HeldGame, read
 * nothing that would tell another game under a reused id apart); and only then appends the events as
 * seq `$2 + 1 …`, their outbox messages and the idempotency record. Answers `committed` = 1, or 0 when
 * the row did not match. A concurrent duplicate of the idempotency record fails it with a unique
 * violation (23505), writing nothing.
 */
export const COMMIT_TURN_SQL = commitTurnSql(false);

/**
 * {@link COMMIT_TURN_SQL} for the end of a rated game (service/ratings.ts), still one statement, so that
 * the rating costs the last turn no round trip of its own. First both players' `player_ratings` rows
 * (`$9`, in player-id order as store/ratings.ts `lockRatings` takes them, so the two wait for each other
 * instead of deadlocking), each written only over the very row its new rating was computed from (the
 * ON CONFLICT's WHERE compares it with the values read; a row read as absent is inserted, and one made
 * meanwhile conflicts and fails the comparison); then the game row, only if both were written; then the
 * events, and both `rating_changes` rows (`$10`). A row that changed since it was read leaves the game
 * unmatched: `committed` = 0 with nothing written, or, when the other row was written, the statement
 * raises {@link RATING_GUARD} and so rolls back whole. Either way the caller rates again in a transaction.
 */
export const COMMIT_RATED_TURN_SQL = commitTurnSql(true);
/**
 * Sends {@link COMMIT_RATED_TURN_SQL} with {@link commitParams}' parameters and the rating rows: true when
 * it committed, false when it wrote nothing (the game moved on, or a rating row changed since it was read).
 */
export const commitRatedTurn = async (db: Db, params: readonly unknown[], ratings: GuardedRatings): Promise<boolean> => {
  try {
    const rows = await db.statement<{ committed: number }>(TURN_STATEMENTS.commitRated, COMMIT_RATED_TURN_SQL, [
      ...params,
      ...guardedRatingsParams(ratings),
    ]);
    return committedOf(rows);
  } catch (e) {
    if (String((e as { message?: unknown } | null)?.message).includes(RATING_GUARD)) return false;
    throw e;
  }
};

/** {@link COMMIT_TURN_SQL}'s parameters. */
export const commitParams = (
  gameId: string,
  fromVersion: number,
  events: readonly NewEvent[],
  outbox: readonly OutboxItem[],
  update: GameUpdate,
  record: { readonly idem: Idempotency; readonly response: JsonValue } | null,
  now: Date,
  createdAt: Date | null = null,
): unknown[] => {
  const messages = outbox.map((m) => {
    const index = m.eventIndex ?? events.length - 1;
    if (!Number.isInteger(index) || index < 0 || index >= events.length) {
      throw new Error(`outbox message "${m.kind}" points at event ${index}, but ${events.length} event(s) are written`);
    }
    return { seq: fromVersion + 1 + index, kind: m.kind, payload: m.payload };
  });
  const projection: Record<string, unknown> = {};
  if (update.status !== undefined) projection['status'] = update.status;
  if (update.turnSeat !== undefined) projection['turnSeat'] = update.turnSeat;
  if (update.deadlineAt !== undefined) projection['deadlineAt'] = update.deadlineAt === null ? null : update.deadlineAt.toISOString();
  return [
    gameId,
    fromVersion,
    now.toISOString(),
    JSON.stringify(events.map((e) => ({ type: e.type, payload: e.payload }))),
    JSON.stringify(messages),
    JSON.stringify(
      record ? [{ scope: record.idem.scope, key: record.idem.key, requestHash: record.idem.requestHash, response: record.response }] : [],
    ),
    JSON.stringify(projection),
    createdAt === null ? null : createdAt.toISOString(),
  ];
};

export const committedOf = (rows: readonly { committed?: unknown }[]): boolean => Number(rows[0]?.committed ?? 0) > 0;
