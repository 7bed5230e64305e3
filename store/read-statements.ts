import type { Db } from './db.js';
import type { GameRow, StoredEvent } from './game-rows.js';
import type { SeatHolder } from './seats.js';
import { jsonOf, rowOf } from './json.js';
import { eventsJsonSql, eventsOfJson, seatsJsonSql, seatsOfJson } from './turn-statements.js';
import { isUuid } from './ids.js';

/**
 * Reading games (service/game-reads.ts getGame, myGames) in one statement on the driver itself
 * (`Db.statement`, like the turn's, store/turn-statements.ts): the game rows, their seats with their
 * players, and of each log only the events after the version the caller already holds
 * (service/log-cache.ts). Never the secret: `game_secrets` is not read here. docs/storage.md "The known log".
 */

/** The statement's name (a named prepared statement on Postgres). */
export const READ_STATEMENT = 'arbiter_read_games_tail';

/** What the caller holds of a game's log: its first `version` events, of the game row created at `createdAt` (ms). */
export interface KnownPrefix {
  readonly id: string;
  readonly version: number;
  /** Null with version 0: nothing known. */
  readonly createdAt: number | null;
}

/** A game as read: its row, seats, and its log after `after`. */
export interface GameTail {
  readonly game: GameRow;
  readonly seats: SeatHolder[];
  /**
   * The version the events follow: the known one when the row is still that game (created at the known
   * moment) at or past it; else 0, and `events` is the whole log.
   */
  readonly after: number;
  readonly events: StoredEvent[];
}

/**
 * `$1`: a JSON array of {@link KnownPrefix}; one row per game found, in the array's order (a game not
 * found has none). The created_at check is the commit's (store/turn-statements.ts COMMIT_TURN_SQL): a
 * known log of another game under a reused id, or of a game now behind it (a restored backup), gets the
 * whole log instead, in the same statement.
 */
export const READ_GAMES_SQL = `WITH q AS (
   SELECT (x->>'id')::uuid AS id, (x->>'version')::int AS known, (x->>'createdAt')::timestamptz AS known_at, i
     FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(x, i)
 ), g AS (
   SELECT q.i, to_jsonb(games) AS game, games.id,
          CASE WHEN q.known > 0 AND games.version >= q.known
                    AND games.created_at >= q.known_at AND games.created_at < q.known_at + interval '1 millisecond'
               THEN q.known ELSE 0 END AS after
     FROM q JOIN games ON games.id = q.id
 )
 SELECT g.game, g.after, ${seatsJsonSql('g.id')} AS seats, ${eventsJsonSql('g.id', 'g.after')} AS events
   FROM g ORDER BY g.i`;

/** {@link READ_GAMES_SQL}'s parameters. */
export const readParams = (known: readonly KnownPrefix[]): unknown[] => [
  JSON.stringify(
    known.map((k) => ({ id: k.id, version: k.version, createdAt: k.createdAt === null ? null : new Date(k.createdAt).toISOString() })),
  ),
];

/**
 * The games of `known` found (an id that is no uuid names none), in its order, each with only the events
 * after the known prefix when it still holds.
 */
export const readGameTails = async (db: Db, prefixes: readonly KnownPrefix[]): Promise<GameTail[]> => {
  const known = prefixes.filter((k) => isUuid(k.id));
  if (known.length === 0) return [];
  const rows = await db.statement<{ game: unknown; after: number; seats: unknown; events: unknown }>(
    READ_STATEMENT,
    READ_GAMES_SQL,
    readParams(known),
  );
  return rows.map((r) => ({
    game: rowOf<GameRow>(jsonOf(r.game) as Record<string, unknown>),
    after: Number(r.after),
    seats: seatsOfJson(r.seats),
    events: eventsOfJson(r.events),
  }));
};
