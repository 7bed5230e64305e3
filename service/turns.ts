import { loadUploadedLexicon } from './lexicon-uploads.js';
import { createHash } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import { apply } from '../engine/game/apply.js';
import { decide, type Command, type DecideContext } from '../engine/game/decide.js';
import type { GameEvent, Seat } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import { parseRack } from '../engine/move.js';
import { err, ok, type Result } from '../engine/result.js';
import { gameSeating, runTurn, type Decide, type Decision, type GameRow, type OutboxItem, type StoredEvent } from '../store/games.js';
import type { Idempotency } from '../store/idempotency.js';
import type { JsonObject } from '../store/json.js';
import { seatsOf, type SeatHolder } from '../store/seats.js';
import type { Db, ServiceDeps } from './context.js';
import { startProposed } from './game-create.js';
import { fail, gameNotFound } from './game-errors.js';
import { engineEvents, fold, foldOn, toStored } from './game-log.js';
import { forgetLog, knownLog, releaseHeld, rememberLog, type KnownLog } from './log-cache.js';
import { outboxFor, projection } from './game-projection.js';
import { getGame, seatOf, snapshotOf, type GameSnapshot } from './game-reads.js';
import type { LexiconRegistry } from './lexicons.js';
import { refreshMatchStatusInTx } from './match-status.js';
import { recordLeagueGameEnd } from './tournament-league.js';
import { hasRobotSeat, wakeRobots } from './robot-seats.js';
import { ratingStep } from './ratings.js';
import { isUuid } from './ids.js';

/**
 * The turn path (issue 4): a player's turn or a lifecycle command as one `runTurn` transaction —
 * check the expected version, rebuild the state by folding the events, let the engine decide, append
 * its events, the projection, the outbox rows and the idempotency record. The bag seed is read only
 * inside `runTurn`'s decide callback. Errors: the engine's rule codes, the store's (STALE_VERSION,
 * IDEMPOTENCY_KEY_REUSED …) and the game service's (service/game-errors.ts).
 */

export const TURN_ACTION_KINDS = ['play', 'exchange', 'pass', 'challenge', 'resign', 'free-trade', 'blank-substitution'] as const;
export type TurnActionKind = (typeof TURN_ACTION_KINDS)[number];

/** What a player asks for on their turn, in notation (the seat is the caller's, never an input). */
export type TurnAction =
  | { readonly kind: 'play'; readonly move: string }
  /** `tiles` as a rack: `AEI`, `?` a blank, `[CH]` a digraph. */
  | { readonly kind: 'exchange'; readonly tiles: string }
  | { readonly kind: 'pass' }
  /** `words`: the words challenged (default: every word the play formed). */
  | { readonly kind: 'challenge'; readonly words?: readonly string[] | null }
  | { readonly kind: 'resign' }
  | { readonly kind: 'free-trade'; readonly tiles: string }
  | { readonly kind: 'blank-substitution'; readonly blanks: readonly string[]; readonly move: string };

export interface TurnRequest {
  readonly gameId: string;
  /** The version the caller decided on (`Game.version`); another turn in between is STALE_VERSION. */
  readonly expectedVersion: number;
  /** The client's retry token: the same key and request again returns the first answer. */
  readonly idempotencyKey: string;
  readonly action: TurnAction;
}

/** What a committed turn answers (and what an idempotent retry answers again). */
export interface TurnReceipt extends JsonObject {
  readonly gameId: string;
  readonly version: number;
  readonly deadlineAt: string | null;
}

const tilesOf = (text: string, field: string): Result<string[], RuleError> => {
  const r = parseRack(text.trim(), 'BAD_EXCHANGE');
  return r.ok ? r : err({ ...r.error, details: { ...r.error.details, field } });
};

const commandOf = (action: TurnAction, seat: Seat): Result<Command, RuleError> => {
  switch (action.kind) {
    case 'play':
      return ok({ kind: 'play', seat, move: action.move });
    case 'exchange': {
      const tiles = tilesOf(action.tiles, 'action.exchange.tiles');
      return tiles.ok ? ok({ kind: 'exchange', seat, tiles: tiles.value }) : tiles;
    }
    case 'pass':
      return ok({ kind: 'pass', seat });
    case 'challenge':
      return ok(action.words && action.words.length ? { kind: 'challenge', seat, words: action.words } : { kind: 'challenge', seat });
    case 'resign':
      return ok({ kind: 'resign', seat });
    case 'free-trade': {
      const tiles = tilesOf(action.tiles, 'action.freeTrade.tiles');
      return tiles.ok ? ok({ kind: 'free-trade', seat, tiles: tiles.value }) : tiles;
    }
    case 'blank-substitution':
      return ok({ kind: 'blank-substitution', seat, blanks: action.blanks, move: action.move });
  }
};

/** JSON with sorted keys, so that equal requests hash equally whatever order the client wrote. */
const canonicalJson = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined && x !== null);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
};

/** The idempotency request hash: sha256 of the canonical JSON of the game, version and action (any JSON: a turn's, a recorded move's). */
export const turnRequestHash = (req: { readonly gameId: string; readonly expectedVersion: number; readonly action: unknown }): string =>
  createHash('sha256')
    .update(canonicalJson({ gameId: req.gameId, expectedVersion: req.expectedVersion, action: req.action }), 'utf8')
    .digest('hex');

export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

/** BAD_INPUT when the expected version or the idempotency key of a turn (or a recorded move) is malformed; else null. */
export const turnKeysProblem = (req: { readonly expectedVersion: number; readonly idempotencyKey: string }) => {
  if (!Number.isInteger(req.expectedVersion) || req.expectedVersion < 0) {
    return fail('BAD_INPUT', `expectedVersion must be a game version (a whole number ≥ 0), not ${req.expectedVersion}.`, {
      field: 'expectedVersion',
    });
  }
  const key = req.idempotencyKey.trim();
  if (key === '' || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return fail(
      'BAD_INPUT',
      `idempotencyKey must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} characters (a fresh random string per new request, the same one on a retry).`,
      { field: 'idempotencyKey' },
    );
  }
  return null;
};

/**
 * Plays one turn for the caller's seat (see the module comment). Errors: the engine's rule codes
 * (NOT_YOUR_TURN, TILES_NOT_IN_RACK …), STALE_VERSION, IDEMPOTENCY_KEY_REUSED, GAME_NOT_FOUND,
 * NOT_SEATED, GAME_NOT_STARTED, BAD_INPUT, LEXICON_NOT_FOUND / LEXICON_HASH_MISMATCH.
 * A turn this call played also answers `game`, the caller's view right after it, made from the state
 * the turn computed (no second read); a replayed retry has none: {@link gameAfterTurn} rebuilds it.
 */
export async function submitTurn(
  deps: ServiceDeps,
  playerId: string,
  req: TurnRequest,
): Promise<Result<{ receipt: TurnReceipt; replayed: boolean; game?: GameSnapshot }, RuleError>> {
  const bad = turnKeysProblem(req);
  if (bad) return bad;
  const idem = { scope: `player:${playerId}`, key: req.idempotencyKey.trim(), requestHash: turnRequestHash(req) };
  const now = deps.now();
  // The usual turn reads the seats with the game (two round trips in all); anything unusual — a refusal
  // of the store, a game not ready for this player — goes the long way round, which checks in the order
  // a client is told (game, seat, start, action, then version and key).
  if (isUuid(req.gameId) && commandOf(req.action, 0).ok) {
    const quick = await playTurn(deps, playerId, req, idem, now, null);
    if (quick.ok || !RECHECKED.has(quick.error.code)) return quick;
  }
  const row = await gameSeating(deps.db.prisma, req.gameId);
  if (!row) return gameNotFound(req.gameId);
  const refused = seatingProblem(row, row.seats, playerId);
  if (refused && refused.error.code !== 'GAME_NOT_STARTED') return refused;
  if (row.status === 'open') {
    const started = await startProposed(deps, row.id, row.seats);
    if (!started.ok) return started;
    if (row.seats.some((s) => s.player === null))
      return fail('GAME_NOT_STARTED', 'The game waits for a second player to join.', { gameId: row.id });
  }
  const command = commandOf(req.action, seatOf(row.seats, playerId)!);
  if (!command.ok) return command;
  return playTurn(deps, playerId, { ...req, gameId: row.id }, idem, now, row.seats);
}

/**
 * The quick path's refusals that the long way checks again, so that a client sees the same error either
 * way (GAME_NOT_STARTED: an open game, which the long way starts first when both seats are taken).
 */
const RECHECKED = new Set(['GAME_NOT_STARTED', 'NOT_SEATED', 'RECORDED_GAME', 'GAME_NOT_FOUND', 'STALE_VERSION', 'IDEMPOTENCY_KEY_REUSED']);

/** RECORDED_GAME, NOT_SEATED, or GAME_NOT_STARTED for an open game; null when `playerId` may play in it. */
const seatingProblem = (
  game: { readonly id: string; readonly status: string; readonly scorekeeperId: string | null },
  seats: readonly SeatHolder[],
  playerId: string,
) => {
  if (game.scorekeeperId !== null)
    return fail('RECORDED_GAME', 'This game is played over the board: its scorekeeper enters the moves (recordMove).', { gameId: game.id });
  if (seatOf(seats, playerId) === null)
    return fail('NOT_SEATED', 'You hold no seat in this game: only its two players can act in it.', { gameId: game.id });
  if (game.status === 'open') return fail('GAME_NOT_STARTED', 'The game waits for a second player to join.', { gameId: game.id });
  return null;
};

/** The turn itself, with the seats read before (the long way) or with the game (null: the quick path). */
async function playTurn(
  deps: ServiceDeps,
  playerId: string,
  req: TurnRequest,
  idem: Idempotency,
  now: Date,
  seatsRead: readonly SeatHolder[] | null,
): Promise<Result<{ receipt: TurnReceipt; replayed: boolean; game?: GameSnapshot }, RuleError>> {
  let seen: { gameId: string; seats: readonly SeatHolder[] } | undefined;
  const admit = (turn: TurnRead) => seatingProblem(turn.game, turn.seats, playerId);
  const r = await runGameCommand(
    { db: deps.db, lexicons: deps.lexicons, now, admit },
    req.gameId,
    req.expectedVersion,
    idem,
    seatsRead,
    (state, ctx, turn) => {
      seen = { gameId: turn.game.id, seats: turn.seats };
      const command = commandOf(req.action, seatOf(turn.seats, playerId)!);
      return command.ok ? decide(state, command.value, ctx) : command;
    },
  );
  if (!r.ok) return r;
  const { receipt, replayed, after } = r.value;
  if (!replayed && seen && hasRobotSeat(seen.seats)) await wakeRobots(deps, seen.gameId);
  return ok({ receipt, replayed, ...(after ? { game: after.snapshotFor(playerId, now) } : {}) });
}

/** A command's decision on the folded state; `turn` is the game row and seats as read with it. */
export type DecideOn = (state: GameState, ctx: DecideContext, turn: TurnRead) => Result<readonly GameEvent[], RuleError>;

/** What {@link runGameCommand} needs: the database, the lexicons (null: words are not judged) and the moment of the command. */
export interface CommandDeps {
  readonly db: Db;
  readonly lexicons: LexiconRegistry | null;
  readonly now: Date;
  /** Refuses the command from the game row and seats as read, before the log is folded (a caller that read neither first). */
  readonly admit?: (turn: TurnRead) => Result<never, RuleError> | null;
}

/** The game row and its seats as a command's transaction read them. */
export interface TurnRead {
  readonly game: GameRow;
  readonly seats: readonly SeatHolder[];
}

/**
 * One command as one `runTurn` transaction at `expectedVersion`: fold the stored log, let `decide`
 * return the events (stamped with `now` via `DecideContext.now`), append them with the new projection
 * (status, turn seat, `deadline_at`) and their webhook outbox rows. The seed is seen only here, inside
 * the transaction. Errors as `runTurn`'s (STALE_VERSION …) or `decide`'s.
 */
export async function runGameCommand(
  deps: CommandDeps,
  gameId: string,
  expectedVersion: number,
  idem: Idempotency | null,
  seats: readonly SeatHolder[] | null,
  decideOn: DecideOn,
): Promise<Result<{ receipt: TurnReceipt; replayed: boolean; after?: AfterTurn }, RuleError>> {
  const missing: { lexicon?: { readonly name: string; readonly hash: string } } = {};
  const first = await runGameCommandOnce(deps, gameId, expectedVersion, idem, seats, decideOn, missing);
  // A game judged by an uploaded list this process has not loaded yet: load it from the database, then once more.
  const { lexicons } = deps;
  if (first.ok || !missing.lexicon || !lexicons) return first;
  const loaded = await loadUploadedLexicon({ db: deps.db, lexicons, now: () => deps.now }, missing.lexicon.name, missing.lexicon.hash);
  return loaded ? runGameCommandOnce(deps, gameId, expectedVersion, idem, seats, decideOn, {}) : first;
}

async function runGameCommandOnce(
  deps: CommandDeps,
  gameId: string,
  expectedVersion: number,
  idem: Idempotency | null,
  seatsRead: readonly SeatHolder[] | null,
  decideOn: DecideOn,
  missing: { lexicon?: { readonly name: string; readonly hash: string } },
): Promise<Result<{ receipt: TurnReceipt; replayed: boolean; after?: AfterTurn }, RuleError>> {
  const now = deps.now;
  let afterTurn: ((written: readonly StoredEvent[]) => AfterTurn) | undefined;
  let known = knownLog(deps.db, gameId, expectedVersion);
  let committed: Omit<KnownLog, 'at' | 'version'> | undefined;
  const decideTurn: Decide<TurnReceipt, RuleError> = (game, tail, secrets, seatsNow) => {
    if (known && known.createdAt !== game.createdAt.getTime()) return err(ruleError(OTHER_LOG, 'not this game’s log'));
    // Logs are never changed in place: a turn on the version this process knows reads no tail and reuses its log.
    const stored = known && tail.length > 0 ? [...known.stored, ...tail] : (known?.stored ?? tail);
    // The seats the caller read before, or (null) those read with the game.
    const seats = seatsRead ?? seatsNow;
    const refused = deps.admit?.({ game, seats });
    if (refused) return refused;
    const state = known ? foldOn(known.state, engineEvents(tail)) : fold(engineEvents(stored));
    let lexicon: Lexicon | null = null;
    if (state.lexicon && deps.lexicons) {
      const l = deps.lexicons.getMatching(state.lexicon);
      if (!l.ok) {
        missing.lexicon = state.lexicon;
        return l;
      }
      lexicon = l.value;
    }
    const decided = decideOn(
      state,
      { lexicon, seed: state.bagKind === 'seeded' ? secrets.bagSeed : null, now: now.toISOString() },
      { game, seats },
    );
    if (!decided.ok) return decided;
    let after = state;
    for (const e of decided.value) {
      const r = apply(after, e);
      if (!r.ok) throw new Error(`decide produced an event the fold rejects: ${r.error.code}`);
      after = r.value;
    }
    const update = projection(after);
    // A rated game's end adds its `rating-changed`, made in the transaction (service/ratings.ts).
    const rating = ratingStep(game, seats, state, after, now);
    const version = game.version + decided.value.length + (rating ? 1 : 0);
    // `game` already carries the turn's updated_at (runTurn writes the same moment again with the events).
    const done = after;
    committed = {
      createdAt: game.createdAt.getTime(),
      stored,
      state: after,
      held: { row: { ...game, version, ...update }, seats: seatsNow, secrets },
    };
    // A rated end's snapshot shows its `rating-changed`, which only the commit makes: it takes the committed events.
    afterTurn = (written) => {
      const log = rating ? [...stored, ...written] : stored;
      return { snapshotFor: (viewerId, at) => snapshotOf(game, seats, log, done, viewerId, version, update.deadlineAt, at) };
    };
    return ok({
      events: decided.value.map(toStored),
      response: { gameId: game.id, version, deadlineAt: update.deadlineAt?.toISOString() ?? null },
      game: update,
      ...matchTurn(game, after, outboxFor(game.id, version, state, after, decided.value, seats, update.deadlineAt), now),
      ...rating,
    });
  };
  // A game this process committed at exactly the caller's version: decide on it and send only the commit.
  const held = known?.version === expectedVersion ? known.held : null;
  let outcome = await runTurn(deps.db, gameId, expectedVersion, idem, decideTurn, known?.version ?? 0, held);
  if (!outcome.ok && outcome.error.code === OTHER_LOG) {
    forgetLog(deps.db, gameId);
    known = null;
    outcome = await runTurn(deps.db, gameId, expectedVersion, idem, decideTurn);
  }
  // The game moved on in another process: the next command reads it (the known events still spare most of that).
  if (held && (outcome.ok ? outcome.value.replayed : outcome.error.code === 'STALE_VERSION')) releaseHeld(deps.db, gameId);
  if (!outcome.ok) return outcome;
  if (!outcome.value.replayed && committed) {
    const { version, events } = outcome.value;
    rememberLog(deps.db, gameId, { ...committed, version, stored: [...committed.stored, ...events] });
  }
  if (outcome.value.replayed || !afterTurn) return ok({ receipt: outcome.value.response, replayed: outcome.value.replayed });
  return ok({ receipt: outcome.value.response, replayed: false, after: afterTurn(outcome.value.events) });
}

/** A known log whose game row is not the game's (an id reused after a reset): read the whole log instead. */
const OTHER_LOG = 'KNOWN_LOG_MISMATCH';

/** What a command just committed, to answer from without reading the game again. */
export interface AfterTurn {
  /** The game as `viewerId` sees it right after the command (its clock read at `now`). */
  snapshotFor(viewerId: string | null, now: Date): GameSnapshot;
}

/**
 * The match part of a turn (hook of runGameCommand): when the turn leaves a game of a match ended, the
 * match's status projection is written in the same transaction, and `game-ended` names the match
 * (`matchId`, `matchIndex`). A single game's turn is unchanged. A league game's end (issue 30) records its
 * result in its tournament in the same transaction (service/tournament-league.ts), and `game-ended` names
 * the tournament, division and round.
 */
const matchTurn = (
  game: GameRow,
  after: GameState,
  outbox: readonly OutboxItem[],
  now: Date,
): Pick<Decision<TurnReceipt>, 'outbox' | 'alsoWrite'> => {
  const { matchId, matchIndex, tournamentId, tournamentDivision, tournamentRound } = game;
  if ((matchId === null && tournamentId === null) || after.status !== 'ended') return { outbox };
  const named = {
    ...(matchId === null ? {} : { matchId, matchIndex }),
    ...(tournamentId === null ? {} : { tournamentId, tournamentDivision, tournamentRound }),
  };
  return {
    outbox: outbox.map((m) => (m.kind === 'game-ended' ? { ...m, payload: { ...m.payload, ...named } } : m)),
    alsoWrite: async (tx) => {
      if (matchId !== null) await refreshMatchStatusInTx(tx, matchId);
      if (tournamentId !== null) await recordLeagueGameEnd(tx, game, after, now);
    },
  };
};

/** A started game the caller sits in: its id, the caller's seat, the seats and the version now. */
export interface SeatedGame {
  readonly id: string;
  readonly seat: Seat;
  readonly seats: readonly SeatHolder[];
  readonly version: number;
  /** An over-the-board game recorded by its scorekeeper: its players act only at the table. */
  readonly recorded: boolean;
}

/** GAME_NOT_FOUND, NOT_SEATED (the caller has no seat) or GAME_NOT_STARTED (a seat is still open). */
export async function seatedGame(db: Db, playerId: string, gameId: string): Promise<Result<SeatedGame, RuleError>> {
  const row = isUuid(gameId)
    ? await db.prisma.game.findUnique({ where: { id: gameId }, select: { id: true, status: true, version: true, scorekeeperId: true } })
    : null;
  if (!row) return gameNotFound(gameId);
  const seats = await seatsOf(db.prisma, row.id);
  const seat = seatOf(seats, playerId);
  if (seat === null) return fail('NOT_SEATED', 'You hold no seat in this game: only its two players can act in it.', { gameId: row.id });
  if (row.status === 'open') return fail('GAME_NOT_STARTED', 'The game waits for a second player to join.', { gameId: row.id });
  return ok({ id: row.id, seat, seats, version: row.version, recorded: row.scorekeeperId !== null });
}

/** The game as the caller saw it right after the turn of `receipt` (the same on every retry). */
export const gameAfterTurn = (deps: ServiceDeps, playerId: string, receipt: TurnReceipt): Promise<Result<GameSnapshot, RuleError>> =>
  getGame(deps, playerId, receipt.gameId, {
    atVersion: receipt.version,
    deadlineAt: receipt.deadlineAt === null ? null : new Date(receipt.deadlineAt),
  });
