import { err, ok, type Result } from '../engine/result.js';
import type { Player } from '../generated/prisma/client.js';
import { isPrismaKnownError } from './prisma-errors.js';
import type { Db, Tx } from './db.js';
import { storeError, type StoreError } from './errors.js';
import { answerOf, findIdempotent, type Idempotency } from './idempotency.js';
import type { JsonObject, JsonValue } from './json.js';
import type { SeatHolder } from './seats.js';
import { toJsonInput } from './prisma-json.js';
import type { GameRow, GameSecrets, GameUpdate, HeldGame, NewEvent, OutboxItem, SeatRow, StoredEvent } from './game-rows.js';
import type { GuardedRatings } from './ratings.js';
import {
  COMMIT_TURN_SQL,
  commitParams,
  commitRatedTurn,
  committedOf,
  openTurn,
  seatsJsonSql,
  seatsOfJson,
  TURN_STATEMENTS,
} from './turn-statements.js';
import { isUuid } from './ids.js';

/**
 * The game-log repository. The store never interprets events: each is a `type` and a JSON `payload`,
 * numbered `seq` = 1, 2, … per game; `games.version` is the number of events. What the events mean,
 * and whether a turn is legal, is decided by the caller's `decide` inside the transaction.
 */

export type { GameRow, GameSecrets, GameUpdate, HeldGame, NewEvent, OutboxItem, SeatRow, StoredEvent } from './game-rows.js';

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
  /** The club or event the game is played under (docs/adjudication.md, directors); absent for none. */
  readonly organizationId?: string;
  /** Hints (analysis) allowed to a player against a robot (docs/movegen.md). */
  readonly allowHints?: boolean;
  /** A rated game's category (engine/rating/categories.ts); absent for a casual game. */
  readonly ratingCategory?: string;
}

export interface LoadedGame {
  readonly game: GameRow;
  readonly seats: readonly SeatRow[];
  readonly events: readonly StoredEvent[];
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
  /**
   * One more event of the same turn, made in its transaction from rows it locks and writes there (a rated
   * game's `rating-changed`: the two players' ratings, service/ratings.ts), appended after `events` as seq
   * `seq`. It runs first in the transaction, before the game row is moved on, so every transaction takes
   * its rating locks before its game's row lock. `response` and `game` must already count the event;
   * `outbox`, when it returns one, replaces the decision's (e.g. `game-ended` with the rating change).
   */
  readonly lastEvent?: (tx: Tx, seq: number) => Promise<LastEvent>;
  /**
   * The same event made from the rating rows as read before the commit, written by the commit statement
   * itself (store/turn-statements.ts COMMIT_RATED_TURN_SQL), which costs the turn no transaction and no
   * round trip of its own. When a row changed since it was read (another game of the player ended), nothing
   * is written and `lastEvent` runs in its transaction instead. Ignored with `alsoWrite`.
   */
  readonly guardedLastEvent?: (db: Db, seq: number) => Promise<GuardedLastEvent>;
}

/** What {@link Decision.guardedLastEvent} makes: the event, and the rating rows to write with it. */
export interface GuardedLastEvent extends LastEvent {
  readonly ratings: GuardedRatings;
  /** Told whether the commit statement wrote them (false: not committed that way; the transaction may follow). */
  readonly settled: (written: boolean) => void;
}

/** What {@link Decision.lastEvent} makes: the event, and the outbox amended with what it decided. */
export interface LastEvent {
  readonly event: NewEvent;
  readonly outbox?: (decided: readonly OutboxItem[]) => readonly OutboxItem[];
}

export type Decide<R extends JsonValue, E> = (
  game: GameRow,
  /** The log, or only its events after `knownVersion` when runTurn was given one. */
  events: readonly StoredEvent[],
  secrets: GameSecrets,
  /** In seat order, with their players (null = open): read with the game, so callers need not read them first. */
  seats: readonly SeatHolder[],
) => Result<Decision<R>, E> | Promise<Result<Decision<R>, E>>;

export type TurnOutcome<R extends JsonValue> =
  /** This call appended `events`; the game is now at `version`. */
  | { readonly replayed: false; readonly response: R; readonly version: number; readonly events: readonly StoredEvent[] }
  /** A retry of a request already committed: its stored response; nothing was written. */
  | { readonly replayed: true; readonly response: R };

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
      ...(input.organizationId ? { organizationId: input.organizationId } : {}),
      ...(input.allowHints ? { allowHints: true } : {}),
      ...(input.ratingCategory ? { rated: true, ratingCategory: input.ratingCategory } : {}),
    },
  });
  await writeEvents(tx, game.id, 0, firstEvents, outbox);
  return game;
};

/** The game row, its seats and its whole event log in order. The bag seed is not loaded. */
export const loadGame = async (client: Tx, gameId: string): Promise<Result<LoadedGame, StoreError>> => {
  if (!isUuid(gameId)) return err(gameNotFound(gameId));
  const game = await client.game.findUnique({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  if (game === null) return err(gameNotFound(gameId));
  const { seats, ...row } = game;
  const events = await client.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  return ok({ game: row, seats, events: events.map(toStoredEvent) });
};

// ---------------------------------------------------------------------------------------------
// The turn: its seating check (the long way, service/turns.ts) and runTurn over the two statements of
// store/turn-statements.ts.

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
  if (!isUuid(gameId)) return null;
  const rows = await client.$queryRawUnsafe<
    { id: string; status: string; version: number; scorekeeper_id: string | null; seats: unknown }[]
  >(
    `SELECT g.id::text AS id, g.status, g.version, g.scorekeeper_id::text AS scorekeeper_id, ${seatsJsonSql('g.id')} AS seats
       FROM games g WHERE g.id = $1::uuid`,
    gameId,
  );
  const r = rows[0];
  if (!r) return null;
  return { id: r.id, status: r.status, version: Number(r.version), scorekeeperId: r.scorekeeper_id, seats: seatsOfJson(r.seats) };
};

/** Carries the version check's failure out of the `alsoWrite` transaction, which rolls it back. */
class Stale {}

/** A unique violation: Prisma's P2002, or SQLSTATE 23505 from a raw statement (the driver's own, or through Prisma). */
const isUniqueViolation = (e: unknown): boolean => {
  if ((e as { code?: unknown } | null)?.code === '23505') return true;
  if (!isPrismaKnownError(e)) return false;
  if (e.code === 'P2002') return true;
  const cause = (e.meta?.['driverAdapterError'] as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return e.code === 'P2010' && cause?.originalCode === '23505';
};

/**
 * One turn, atomically: replay a committed retry (same idempotency key and request hash), read the game
 * at `expectedVersion`, hand the game, its seats, events and secrets to `decide`, then append the decided
 * events (seq = expectedVersion + 1 …), update the game's projection columns and version, write outbox
 * messages and the idempotency record — if the game is still at `expectedVersion`.
 *
 * Two round trips (docs/storage.md "The turn's statements"): {@link OPEN_TURN_SQL} reads, `decide`
 * runs with no transaction open, {@link COMMIT_TURN_SQL} checks the version and writes, as one
 * statement. A decision with `alsoWrite` (a match's last game) writes in a transaction instead.
 *
 * With `knownVersion` > 0 the caller already holds the log up to that version (service/log-cache.ts): `decide`
 * gets only the events after it, so a long game is not read and parsed again on every turn. With `held`
 * (the game as the caller last committed it, at `expectedVersion`) the read is skipped: `decide` gets no
 * events and the commit alone checks that the game is still that one at that version; whatever does not
 * commit that way (a refusal, a race, a key already used) goes the two-statement way, so every answer and
 * error is the one the read would have given.
 *
 * Errors, all with nothing written: `GAME_NOT_FOUND`; `STALE_VERSION` (details `expected`, `actual`) when
 * another turn got there first; `IDEMPOTENCY_KEY_REUSED`; or `decide`'s own error. Whatever `decide`
 * throws is rethrown.
 */
export const runTurn = async <R extends JsonValue, E>(
  db: Db,
  gameId: string,
  expectedVersion: number,
  idem: Idempotency | null,
  decide: Decide<R, E>,
  knownVersion = 0,
  held: HeldGame | null = null,
): Promise<Result<TurnOutcome<R>, StoreError | E>> => {
  if (!Number.isInteger(expectedVersion) || expectedVersion < 0) {
    throw new Error(`expectedVersion must be a non-negative integer, got ${expectedVersion}`);
  }
  if (!Number.isInteger(knownVersion) || knownVersion < 0 || knownVersion > expectedVersion) {
    throw new Error(`knownVersion must be an integer in 0…${expectedVersion}, got ${knownVersion}`);
  }
  if (held && (held.row.version !== expectedVersion || knownVersion !== expectedVersion)) {
    throw new Error(`a held game must be at the expected and known version ${expectedVersion}, not ${held.row.version}`);
  }
  if (!isUuid(gameId)) return err(gameNotFound(gameId));
  const now = new Date();
  if (held) {
    // The row as it will be once committed: the turn writes `now` as its updated_at.
    const decision = await decide({ ...held.row, updatedAt: now }, [], held.secrets, held.seats);
    if (decision.ok && !decision.value.alsoWrite) {
      const committed = await commitDecision(db, gameId, expectedVersion, decision.value, idem, now, held.row.createdAt).catch(
        (e: unknown) => {
          if (idem && isUniqueViolation(e)) return null;
          throw e;
        },
      );
      if (committed) return ok(committed);
    }
  }
  const opened = await openTurn(db, gameId, expectedVersion, idem, knownVersion);
  if (opened.kind === 'prior') {
    const prior = answerOf<R>(idem!, opened.prior);
    if (!prior.ok) return prior;
    return ok({ replayed: true, response: prior.value.response });
  }
  if (opened.kind === 'stale') return lostRace<R>(db, gameId, expectedVersion, idem);
  const decision = await decide({ ...opened.game, updatedAt: now }, opened.events, opened.secrets, opened.seats);
  if (!decision.ok) return decision;
  try {
    const committed = await commitDecision(db, gameId, expectedVersion, decision.value, idem, now, null);
    return committed ? ok(committed) : await lostRace<R>(db, gameId, expectedVersion, idem);
  } catch (e) {
    if (idem && isUniqueViolation(e)) return lostRace<R>(db, gameId, expectedVersion, idem, e);
    throw e;
  }
};

/**
 * Commits a decision at `expectedVersion` (and, with `createdAt`, only on the game created then): the
 * commit statement alone (with a guarded last event's rating rows, when they did not change since read), or
 * with hooks a transaction — the last event made from rows it locks (ratings) first, then the commit, then
 * further writes of the turn (matches) after the game row moved on. Null when the game is not at that
 * version (nothing written).
 */
const commitDecision = async <R extends JsonValue>(
  db: Db,
  gameId: string,
  expectedVersion: number,
  decision: Decision<R>,
  idem: Idempotency | null,
  now: Date,
  createdAt: Date | null,
): Promise<TurnOutcome<R> | null> => {
  const { events: decided, response, game: update = {}, outbox = [], alsoWrite, lastEvent } = decision;
  const record = idem ? { idem, response } : null;
  if (!alsoWrite && !lastEvent) {
    const params = commitParams(gameId, expectedVersion, decided, outbox, update, record, now, createdAt);
    const rows = await db.statement<{ committed: number }>(TURN_STATEMENTS.commit, COMMIT_TURN_SQL, params);
    return committedOf(rows) ? outcomeOf(decided, response, expectedVersion, now) : null;
  }
  if (!alsoWrite && decision.guardedLastEvent) {
    // Not written: a rating row changed since it was read (rated again in the transaction below), or the game moved on (found there again).
    const last = await decision.guardedLastEvent(db, expectedVersion + decided.length + 1);
    const events = [...decided, last.event];
    const messages = last.outbox ? last.outbox(outbox) : outbox;
    let written = false;
    try {
      written = await commitRatedTurn(
        db,
        commitParams(gameId, expectedVersion, events, messages, update, record, now, createdAt),
        last.ratings,
      );
    } finally {
      last.settled(written);
    }
    if (written) return outcomeOf(events, response, expectedVersion, now);
  }
  try {
    return await db.transaction(async (tx) => {
      const last = lastEvent ? await lastEvent(tx, expectedVersion + decided.length + 1) : null;
      const events = last ? [...decided, last.event] : decided;
      const messages = last?.outbox ? last.outbox(outbox) : outbox;
      const params = commitParams(gameId, expectedVersion, events, messages, update, record, now, createdAt);
      if (!committedOf(await tx.$queryRawUnsafe<{ committed: number }[]>(COMMIT_TURN_SQL, ...params))) throw new Stale();
      await alsoWrite?.(tx);
      return outcomeOf(events, response, expectedVersion, now);
    });
  } catch (e) {
    if (e instanceof Stale) return null;
    throw e;
  }
};

/** What a committed decision answers: its response, the new version and the events as stored. */
const outcomeOf = <R extends JsonValue>(events: readonly NewEvent[], response: R, fromVersion: number, now: Date): TurnOutcome<R> => ({
  replayed: false,
  response,
  version: fromVersion + events.length,
  events: events.map((e, i) => ({ seq: fromVersion + 1 + i, type: e.type, payload: e.payload as JsonValue, createdAt: now })),
});

/** {@link explainConflict}, which must find an explanation: the game cannot be at the version it did not match. */
const lostRace = async <R extends JsonValue>(
  db: Db,
  gameId: string,
  expectedVersion: number,
  idem: Idempotency | null,
  cause?: unknown,
): Promise<Result<TurnOutcome<R>, StoreError>> => {
  const resolved = await explainConflict<R>(db, gameId, expectedVersion, idem);
  if (resolved) return resolved;
  if (cause !== undefined && !(cause instanceof Stale)) throw cause;
  throw new Error(`game ${gameId} matched neither version ${expectedVersion} nor any other`, { cause });
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
