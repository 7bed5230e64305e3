import { err, ok, type Result } from '../engine/result.js';
import { Prisma, type Game, type Seat } from '../generated/prisma/client.js';
import type { Db, Tx } from './db.js';
import { storeError, type StoreError } from './errors.js';
import { findIdempotent, recordIdempotent, type Idempotency } from './idempotency.js';
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
  readonly status: string;
  readonly turnSeat?: number | null;
  readonly deadlineAt?: Date | null;
  readonly bagSeedCommitment: string;
  /** Stored apart in `game_secrets`. */
  readonly bagSeed: string;
  /** Player id per seat index (0, 1); null for an open seat. */
  readonly seats: readonly (string | null)[];
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
      status: input.status,
      version: firstEvents.length,
      turnSeat: input.turnSeat ?? null,
      deadlineAt: input.deadlineAt ?? null,
      bagSeedCommitment: input.bagSeedCommitment,
      secret: { create: { bagSeed: input.bagSeed } },
      seats: { create: input.seats.map((playerId, seat) => ({ seat, playerId })) },
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

/** Carries a non-ok result out of the transaction callback, which rolls the transaction back. */
class Rollback<E> {
  constructor(readonly result: Result<never, E> | 'stale') {}
}

const isUniqueViolation = (e: unknown): boolean => e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002';

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
      if (idem) {
        const prior = await findIdempotent<R>(tx, idem);
        if (!prior.ok) return prior;
        if (prior.value) return ok({ replayed: true, response: prior.value.response });
      }
      // The row lock serialises turns on one game; a loser waits, then sees the new version and matches nothing.
      const locked = await tx.game.updateMany({ where: { id: gameId, version: expectedVersion }, data: { updatedAt: new Date() } });
      if (locked.count === 0) throw new Rollback<E>('stale');
      const game = await tx.game.findUniqueOrThrow({ where: { id: gameId } });
      const secret = await tx.gameSecret.findUniqueOrThrow({ where: { gameId } });
      const events = (await tx.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } })).map(toStoredEvent);
      const decision = await decide(game, events, { bagSeed: secret.bagSeed });
      if (!decision.ok) throw new Rollback<E>(decision);
      const { events: newEvents, response, game: update = {}, outbox = [] } = decision.value;
      const appended = await writeEvents(tx, gameId, expectedVersion, newEvents, outbox);
      const version = expectedVersion + newEvents.length;
      await tx.game.update({ where: { id: gameId }, data: { ...update, version } });
      if (idem) await recordIdempotent(tx, idem, response);
      return ok({ replayed: false, response, version, events: appended });
    });
  } catch (e) {
    if (e instanceof Rollback && e.result !== 'stale') return e.result as Result<never, E>;
    if (e instanceof Rollback || (idem && isUniqueViolation(e))) {
      const resolved = await explainConflict<R>(db, gameId, expectedVersion, idem);
      if (resolved) return resolved;
      if (e instanceof Rollback) throw new Error(`game ${gameId} matched neither version ${expectedVersion} nor any other`);
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
