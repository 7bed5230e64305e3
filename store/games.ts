import { err, ok, type Result } from '../engine/result.js';
import { Prisma, type Game, type Player, type Seat } from '../generated/prisma/client.js';
import type { Db, Tx } from './db.js';
import { storeError, type StoreError } from './errors.js';
import { answerOf, findIdempotent, type Idempotency } from './idempotency.js';
import type { JsonObject, JsonValue } from './json.js';
import { toJsonInput } from './prisma-json.js';

/**
 * The game-log repository. The store never interprets events: each is a `type` and a JSON `payload`,
 * numbered `seq` = 1, 2, … per game; `games.version` is the number of events. What the events mean,
 * and whether a turn is legal, is decided by the caller's `decide` inside the transaction.
 */

export type GameRow = Game;
export type SeatRow = Seat;

export interface NewEvent {
  readonly type: string;
  readonly payload: JsonObject;
}

export interface StoredEvent {
  readonly seq: number;
  readonly type: string;
  readonly payload: JsonValue;
  readonly createdAt: Date;
}

/** A message for the outbox, announcing one of the events written with it. */
export interface OutboxItem {
  readonly kind: string;
  readonly payload: JsonObject;
  /** Index into the events written in the same call; default: the last one. */
  readonly eventIndex?: number;
}

/** Projection columns a turn may change along with appending its events. */
export interface GameUpdate {
  readonly status?: string;
  readonly turnSeat?: number | null;
  readonly deadlineAt?: Date | null;
}

export interface NewGame {
  /** Defaults to a random uuid made by the database. */
  readonly id?: string;
  readonly ruleSetId: string;
  readonly ruleOverrides?: JsonObject;
  /** Must be registered first (`registerLexicon`): games reference lexicons by name and content hash. */
  readonly lexicon: { readonly name: string; readonly contentHash: string };
  /** The content hash of a board given as data (issue 21; the rows are in `game-created`); null for a named layout. */
  readonly layoutHash?: string | null;
  readonly status: string;
  readonly turnSeat?: number | null;
  readonly deadlineAt?: Date | null;
  readonly bagSeedCommitment: string;
  /** Stored apart in `game_secrets`. */
  readonly bagSeed: string;
  /** Player id per seat index (0, 1); null for an open seat. */
  readonly seats: readonly (string | null)[];
  /** The match the game belongs to and its place in it (0 = the first game); absent for a single game. */
  readonly match?: { readonly id: string; readonly index: number };
  /** A recorded game's scorekeeper (docs/recorded.md); absent for played and imported games. */
  readonly scorekeeperId?: string;
}

export interface LoadedGame {
  readonly game: GameRow;
  readonly seats: readonly SeatRow[];
  readonly events: readonly StoredEvent[];
}

/** What `decide` sees besides the game row and its events. Never part of ordinary reads. */
export interface GameSecrets {
  readonly bagSeed: string;
}

/** `decide`'s verdict: the events to append, the response to return (and store for idempotent retries). */
export interface Decision<R extends JsonValue> {
  readonly events: readonly NewEvent[];
  readonly response: R;
  readonly game?: GameUpdate;
  readonly outbox?: readonly OutboxItem[];
  /**
   * Further writes of the same turn, run in its transaction after the events and the game row are
   * written (e.g. the match status projection). Use only `tx`.
   */
  readonly alsoWrite?: (tx: Tx) => Promise<void>;
}

export type Decide<R extends JsonValue, E> = (
  game: GameRow,
  events: readonly StoredEvent[],
  secrets: GameSecrets,
) => Result<Decision<R>, E> | Promise<Result<Decision<R>, E>>;

export type TurnOutcome<R extends JsonValue> =
  /** This call appended `events`; the game is now at `version`. */
  | { readonly replayed: false; readonly response: R; readonly version: number; readonly events: readonly StoredEvent[] }
  /** A retry of a request already committed: its stored response; nothing was written. */
  | { readonly replayed: true; readonly response: R };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const gameNotFound = (gameId: string): StoreError => storeError('GAME_NOT_FOUND', `No game has the id "${gameId}".`, { gameId });

const toStoredEvent = (row: { seq: number; type: string; payload: unknown; createdAt: Date }): StoredEvent => ({
  seq: row.seq,
  type: row.type,
  payload: row.payload as JsonValue,
  createdAt: row.createdAt,
});

/** Writes `events` as seq `fromVersion + 1 …` and their outbox messages; returns the stored events. */
const writeEvents = async (
  tx: Tx,
  gameId: string,
  fromVersion: number,
  events: readonly NewEvent[],
  outbox: readonly OutboxItem[] = [],
): Promise<StoredEvent[]> => {
  const rows =
    events.length === 0
      ? []
      : await tx.gameEvent.createManyAndReturn({
          data: events.map((e, i) => ({ gameId, seq: fromVersion + 1 + i, type: e.type, payload: toJsonInput(e.payload) })),
        });
  if (outbox.length > 0) {
    const data = outbox.map((m) => {
      const index = m.eventIndex ?? events.length - 1;
      if (!Number.isInteger(index) || index < 0 || index >= events.length) {
        throw new Error(`outbox message "${m.kind}" points at event ${index}, but ${events.length} event(s) are written`);
      }
      return { gameId, eventSeq: fromVersion + 1 + index, kind: m.kind, payload: toJsonInput(m.payload) };
    });
    await tx.outboxMessage.createMany({ data });
  }
  return rows.sort((a, b) => a.seq - b.seq).map(toStoredEvent);
};

/**
 * Creates a game with its secret, seats and first events (version = number of events). Pass a
 * transaction (`db.transaction(tx => createGame(tx, …))`) so that all of it is written or none.
 */
export const createGame = async (
  tx: Tx,
  input: NewGame,
  firstEvents: readonly NewEvent[],
  outbox: readonly OutboxItem[] = [],
): Promise<GameRow> => {
  const game = await tx.game.create({
    data: {
      ...(input.id === undefined ? {} : { id: input.id }),
      ruleSetId: input.ruleSetId,
      ruleOverrides: input.ruleOverrides ?? {},
      lexiconName: input.lexicon.name,
      lexiconHash: input.lexicon.contentHash,
      layoutHash: input.layoutHash ?? null,
      status: input.status,
      version: firstEvents.length,
      turnSeat: input.turnSeat ?? null,
      deadlineAt: input.deadlineAt ?? null,
      bagSeedCommitment: input.bagSeedCommitment,
      secret: { create: { bagSeed: input.bagSeed } },
      seats: { create: input.seats.map((playerId, seat) => ({ seat, playerId })) },
      ...(input.match ? { matchId: input.match.id, matchIndex: input.match.index } : {}),
      ...(input.scorekeeperId ? { scorekeeperId: input.scorekeeperId } : {}),
    },
  });
  await writeEvents(tx, game.id, 0, firstEvents, outbox);
  return game;
};

/** The game row, its seats and its whole event log in order. The bag seed is not loaded. */
export const loadGame = async (client: Tx, gameId: string): Promise<Result<LoadedGame, StoreError>> => {
  if (!UUID.test(gameId)) return err(gameNotFound(gameId));
  const game = await client.game.findUnique({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  if (game === null) return err(gameNotFound(gameId));
  const { seats, ...row } = game;
  const events = await client.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  return ok({ game: row, seats, events: events.map(toStoredEvent) });
};

// ---------------------------------------------------------------------------------------------
// A turn's two statements. Prisma would spend a round trip per table (idempotency check, lock, game,
// secret, events; then events, outbox, game, idempotency record); a turn is dominated by those round
// trips (bench/persistence.ts), so each half is one SQL statement here. Unqualified table names resolve
// through the connection's search_path (store/db.ts sets it to the URL's schema).

/** jsonb from a raw query: the adapters hand it over parsed or as text depending on the driver. */
const jsonOf = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/** A row from `to_jsonb(…)`: snake_case columns to Prisma's camelCase fields, `*_at` columns to Dates. */
const rowOf = <T>(json: Record<string, unknown>): T => {
  const row: Record<string, unknown> = {};
  for (const [column, v] of Object.entries(json)) {
    row[column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = column.endsWith('_at') && typeof v === 'string' ? new Date(v) : v;
  }
  return row as T;
};

/** What a turn checks before its transaction: the game's status and version, and who sits where. */
export interface GameSeating {
  readonly id: string;
  readonly status: string;
  readonly version: number;
  /** A recorded game's scorekeeper; null for played and imported games. */
  readonly scorekeeperId: string | null;
  /** In seat order, with their players (null = open). */
  readonly seats: readonly { readonly seat: number; readonly player: Player | null }[];
}

/** The game's status, version and seats with their players, in one statement; null when there is no such game. */
export const gameSeating = async (client: Tx, gameId: string): Promise<GameSeating | null> => {
  if (!UUID.test(gameId)) return null;
  const rows = await client.$queryRawUnsafe<
    { id: string; status: string; version: number; scorekeeper_id: string | null; seats: unknown }[]
  >(
    `SELECT g.id::text AS id, g.status, g.version, g.scorekeeper_id::text AS scorekeeper_id,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('seat', s.seat, 'player', CASE WHEN p.id IS NULL THEN NULL ELSE to_jsonb(p) END) ORDER BY s.seat), '[]'::jsonb)
               FROM seats s LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id) AS seats
       FROM games g WHERE g.id = $1::uuid`,
    gameId,
  );
  const r = rows[0];
  if (!r) return null;
  const seats = (jsonOf(r.seats) as { seat: number; player: Record<string, unknown> | null }[]).map((x) => ({
    seat: x.seat,
    player: x.player === null ? null : rowOf<Player>(x.player),
  }));
  return { id: r.id, status: r.status, version: Number(r.version), scorekeeperId: r.scorekeeper_id, seats };
};

type OpenedTurn =
  | { readonly kind: 'prior'; readonly prior: { readonly requestHash: string; readonly response: unknown } }
  | { readonly kind: 'stale' }
  | { readonly kind: 'locked'; readonly game: GameRow; readonly events: StoredEvent[]; readonly secrets: GameSecrets };

/**
 * One statement: the idempotency record of `idem` if there is one; else the game row locked at
 * `expectedVersion` (an UPDATE of `updated_at`, which waits for a concurrent turn and then matches
 * nothing), with its secret and its event log. A retry therefore locks nothing.
 */
const openTurn = async (tx: Tx, gameId: string, expectedVersion: number, idem: Idempotency | null, now: Date): Promise<OpenedTurn> => {
  const rows = await tx.$queryRawUnsafe<{ idem: unknown; game: unknown; bag_seed: string | null; events: unknown }[]>(
    `WITH idem AS (
       SELECT request_hash AS "requestHash", response FROM idempotency_keys WHERE $3::text IS NOT NULL AND scope = $3::text AND key = $4::text
     ), locked AS (
       UPDATE games SET updated_at = $5::timestamptz WHERE id = $1::uuid AND version = $2::int AND NOT EXISTS (SELECT 1 FROM idem) RETURNING *
     )
     SELECT (SELECT to_jsonb(idem) FROM idem) AS idem,
            (SELECT to_jsonb(locked) FROM locked) AS game,
            (SELECT bag_seed FROM game_secrets WHERE game_id = $1::uuid AND EXISTS (SELECT 1 FROM locked)) AS bag_seed,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('seq', seq, 'type', type, 'payload', payload, 'createdAt', created_at) ORDER BY seq), '[]'::jsonb)
               FROM game_events WHERE game_id = $1::uuid AND EXISTS (SELECT 1 FROM locked)) AS events`,
    gameId,
    expectedVersion,
    idem?.scope ?? null,
    idem?.key ?? null,
    now.toISOString(),
  );
  const r = rows[0]!;
  const prior = jsonOf(r.idem) as { requestHash: string; response: unknown } | null;
  if (prior) return { kind: 'prior', prior };
  const game = jsonOf(r.game) as Record<string, unknown> | null;
  if (!game) return { kind: 'stale' };
  if (r.bag_seed === null) throw new Error(`game ${gameId} has no secret`);
  const events = (jsonOf(r.events) as { seq: number; type: string; payload: JsonValue; createdAt: string }[]).map((e) => ({
    ...e,
    createdAt: new Date(e.createdAt),
  }));
  return { kind: 'locked', game: rowOf<GameRow>(game), events, secrets: { bagSeed: r.bag_seed } };
};

/**
 * One statement: appends `events` as seq `fromVersion + 1 …`, their outbox messages and the idempotency
 * record, and moves the game row to its new version and projection. A concurrent duplicate of the
 * idempotency record fails it with a unique violation (23505).
 */
const commitTurn = async (
  tx: Tx,
  gameId: string,
  fromVersion: number,
  events: readonly NewEvent[],
  outbox: readonly OutboxItem[],
  update: GameUpdate,
  record: { readonly idem: Idempotency; readonly response: JsonValue } | null,
  now: Date,
): Promise<void> => {
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
  await tx.$executeRawUnsafe(
    `WITH ev AS (
       INSERT INTO game_events (game_id, seq, type, payload, created_at)
       SELECT $1::uuid, $2::int + e.i::int, e.v->>'type', e.v->'payload', $3::timestamptz FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(v, i)
     ), ob AS (
       INSERT INTO outbox (game_id, event_seq, kind, payload, created_at, next_attempt_at)
       SELECT $1::uuid, (m->>'seq')::int, m->>'kind', m->'payload', $3::timestamptz, $3::timestamptz FROM jsonb_array_elements($5::jsonb) AS m
     ), idem AS (
       INSERT INTO idempotency_keys (scope, key, request_hash, response, created_at)
       SELECT k->>'scope', k->>'key', k->>'requestHash', k->'response', $3::timestamptz FROM jsonb_array_elements($6::jsonb) AS k
     )
     UPDATE games SET
       version = $2::int + jsonb_array_length($4::jsonb),
       updated_at = $3::timestamptz,
       status = CASE WHEN $7::jsonb ? 'status' THEN $7::jsonb->>'status' ELSE status END,
       turn_seat = CASE WHEN $7::jsonb ? 'turnSeat' THEN ($7::jsonb->>'turnSeat')::int ELSE turn_seat END,
       deadline_at = CASE WHEN $7::jsonb ? 'deadlineAt' THEN ($7::jsonb->>'deadlineAt')::timestamptz ELSE deadline_at END
     WHERE id = $1::uuid`,
    gameId,
    fromVersion,
    now.toISOString(),
    JSON.stringify(events.map((e) => ({ type: e.type, payload: e.payload }))),
    JSON.stringify(messages),
    JSON.stringify(
      record ? [{ scope: record.idem.scope, key: record.idem.key, requestHash: record.idem.requestHash, response: record.response }] : [],
    ),
    JSON.stringify(projection),
  );
};

/** Carries a non-ok result out of the transaction callback, which rolls the transaction back. */
class Rollback<E> {
  constructor(readonly result: Result<never, E> | 'stale') {}
}

/** A unique violation: Prisma's P2002, or SQLSTATE 23505 from a raw statement (commitTurn). */
const isUniqueViolation = (e: unknown): boolean => {
  if (!(e instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (e.code === 'P2002') return true;
  const cause = (e.meta?.['driverAdapterError'] as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return e.code === 'P2010' && cause?.originalCode === '23505';
};

/**
 * One turn, in one transaction: replay a committed retry (same idempotency key and request hash),
 * lock the game row at `expectedVersion`, hand the game, its events and secrets to `decide`, then append
 * the decided events (seq = expectedVersion + 1 …), update the game's projection columns and version,
 * write outbox messages and the idempotency record.
 *
 * Errors, all with nothing written: `GAME_NOT_FOUND`; `STALE_VERSION` (details `expected`, `actual`) when
 * another turn got there first; `IDEMPOTENCY_KEY_REUSED`; or `decide`'s own error. Whatever `decide`
 * throws rolls back and is rethrown. `decide` must use only its arguments (no queries through
 * `db.prisma`, which on PGlite would wait for this transaction).
 */
export const runTurn = async <R extends JsonValue, E>(
  db: Db,
  gameId: string,
  expectedVersion: number,
  idem: Idempotency | null,
  decide: Decide<R, E>,
): Promise<Result<TurnOutcome<R>, StoreError | E>> => {
  if (!Number.isInteger(expectedVersion) || expectedVersion < 0) {
    throw new Error(`expectedVersion must be a non-negative integer, got ${expectedVersion}`);
  }
  if (!UUID.test(gameId)) return err(gameNotFound(gameId));
  try {
    return await db.transaction(async (tx): Promise<Result<TurnOutcome<R>, StoreError | E>> => {
      const now = new Date();
      const opened = await openTurn(tx, gameId, expectedVersion, idem, now);
      if (opened.kind === 'prior') {
        const prior = answerOf<R>(idem!, opened.prior);
        if (!prior.ok) return prior;
        return ok({ replayed: true, response: prior.value.response });
      }
      if (opened.kind === 'stale') throw new Rollback<E>('stale');
      const decision = await decide(opened.game, opened.events, opened.secrets);
      if (!decision.ok) throw new Rollback<E>(decision);
      const { events: newEvents, response, game: update = {}, outbox = [] } = decision.value;
      await commitTurn(tx, gameId, expectedVersion, newEvents, outbox, update, idem ? { idem, response } : null, now);
      // Hook (matches): further writes of this turn, after the game row moved on.
      if (decision.value.alsoWrite) await decision.value.alsoWrite(tx);
      const version = expectedVersion + newEvents.length;
      const appended = newEvents.map((e, i) => ({
        seq: expectedVersion + 1 + i,
        type: e.type,
        payload: e.payload as JsonValue,
        createdAt: now,
      }));
      return ok({ replayed: false, response, version, events: appended });
    });
  } catch (e) {
    if (e instanceof Rollback && e.result !== 'stale') return e.result as Result<never, E>;
    if (e instanceof Rollback || (idem && isUniqueViolation(e))) {
      const resolved = await explainConflict<R>(db, gameId, expectedVersion, idem);
      if (resolved) return resolved;
      if (e instanceof Rollback) throw new Error(`game ${gameId} matched neither version ${expectedVersion} nor any other`, { cause: e });
    }
    throw e;
  }
};

/**
 * After losing a race: a concurrent retry of the same request has committed by now (replay it), or the
 * game moved on (STALE_VERSION), or it does not exist. Null when none applies.
 */
const explainConflict = async <R extends JsonValue>(
  db: Db,
  gameId: string,
  expectedVersion: number,
  idem: Idempotency | null,
): Promise<Result<TurnOutcome<R>, StoreError> | null> => {
  if (idem) {
    const prior = await findIdempotent<R>(db.prisma, idem);
    if (!prior.ok) return prior;
    if (prior.value) return ok({ replayed: true, response: prior.value.response });
  }
  const game = await db.prisma.game.findUnique({ where: { id: gameId }, select: { version: true } });
  if (game === null) return err(gameNotFound(gameId));
  if (game.version === expectedVersion) return null;
  return err(
    storeError('STALE_VERSION', `Game "${gameId}" is at version ${game.version}, not ${expectedVersion}: reload it and decide again.`, {
      gameId,
      expected: expectedVersion,
      actual: game.version,
    }),
  );
};

/** Appends already-decided events: {@link runTurn} with a `decide` that returns them unchanged. */
export const appendEvents = async <R extends JsonValue = null>(
  db: Db,
  gameId: string,
  expectedVersion: number,
  events: readonly NewEvent[],
  options: { idempotency?: Idempotency; response?: R; game?: GameUpdate; outbox?: readonly OutboxItem[] } = {},
): Promise<Result<TurnOutcome<R>, StoreError>> =>
  runTurn<R, never>(db, gameId, expectedVersion, options.idempotency ?? null, () =>
    ok({
      events,
      response: (options.response ?? null) as R,
      ...(options.game ? { game: options.game } : {}),
      ...(options.outbox ? { outbox: options.outbox } : {}),
    }),
  );
