import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import { apply, replay } from '../engine/game/apply.js';
import { commitment } from '../engine/game/bag.js';
import { activePause, banksAt, deadline, validateTimeControl } from '../engine/game/clock.js';
import { createGame as startEvents, decide, type Command, type DecideContext } from '../engine/game/decide.js';
import { isGameEventType, type GameEvent, type PlayerInfo, type Seat, type TimeControl } from '../engine/game/events.js';
import type { GameState, GameStatus } from '../engine/game/state.js';
import { spectatorView, viewFor, type ClockView, type SeatView, type SpectatorView } from '../engine/game/view.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import { parseRack } from '../engine/move.js';
import { err, ok, type Result } from '../engine/result.js';
import type { RuleSet } from '../engine/rules/ruleset.js';
import type { Db, Tx } from '../store/db.js';
import {
  createGame as insertGame,
  gameSeating,
  loadGame,
  runTurn,
  type Decision,
  type GameRow,
  type GameUpdate,
  type NewEvent,
  type OutboxItem,
  type StoredEvent,
} from '../store/games.js';
import type { Idempotency } from '../store/idempotency.js';
import type { JsonObject } from '../store/json.js';
import { findPlayerByHandle, findPlayerById, type PlayerRow } from '../store/players.js';
import { claimSeat, gamesOfPlayer, seatsOf, type PlayerGameRow, type SeatHolder } from '../store/seats.js';
import type { LexiconRegistry } from './lexicons.js';
import { refreshMatchStatusInTx } from './match-status.js';
import { ruleSetFor } from './rules.js';
import { webhookOutboxItem } from './webhook-events.js';
import { cursorCodec, type Page } from './paging.js';

/**
 * The game use cases (issue 4): create, join, submit a turn, read a game as its caller may see it,
 * list a player's games. Every write is one `runTurn` transaction: check the expected version,
 * rebuild the state by folding the events, let the engine decide, append its events, the outbox
 * rows and the idempotency record. Expected failures come back as `RuleError` values with stable
 * codes (the engine's, the store's, and {@link GAME_SERVICE_ERROR_CODES}).
 *
 * Hidden information stays here: the bag seed is read only inside `runTurn`'s decide callback, and
 * what leaves this module is a seat's or a spectator's view (`engine/game/view.ts`), never a state.
 */

export const GAME_SERVICE_ERROR_CODES = [
  /** The caller holds no seat in the game, so cannot act in it. */
  'NOT_SEATED',
  /** The game waits for a player to take its open seat. */
  'GAME_NOT_STARTED',
  /** joinGame: the game has no open seat (any more). */
  'SEAT_TAKEN',
  /** joinGame / createGame: a player cannot hold both seats. */
  'ALREADY_SEATED',
  /** joinGame: the game belongs to a match (details.matchId): take its place with joinMatch. */
  'JOIN_THE_MATCH',
  /** createGame: no player has the opponent's handle. */
  'PLAYER_NOT_FOUND',
  /** An input the engine never sees is malformed (details.field names it). */
  'BAD_INPUT',
  /** myGames: `after` is not a cursor this service handed out. */
  'CURSOR_INVALID',
  /** importGame: the record does not replay under the rules (details list the mismatches and errors). */
  'GCG_REPLAY_FAILED',
  /** importGame: the record stops before the game ended. */
  'GCG_INCOMPLETE',
] as const;
export type GameServiceErrorCode = (typeof GAME_SERVICE_ERROR_CODES)[number];

const fail = (code: GameServiceErrorCode, message: string, details: Record<string, unknown> = {}) => err(ruleError(code, message, details));

/** What the use cases need, made once per process (the GraphQL context carries the same things). */
export interface GameDeps {
  readonly db: Db;
  readonly lexicons: LexiconRegistry;
  /** The clock: timestamps in events, deadlines. */
  readonly now: () => Date;
}

// ---------------------------------------------------------------------------------------------
// The bag seed

/** 256 bits of secret randomness per game, hex. */
const randomSeed = (): string => randomBytes(32).toString('hex');
let seedSource: () => string = randomSeed;

/**
 * Test seam: the source of new games' bag seeds (so a test can replay predictable racks). Pass
 * null to restore the secure default. Never used by the app itself.
 */
export const setBagSeedSourceForTests = (source: (() => string) | null): void => {
  seedSource = source ?? randomSeed;
};

// ---------------------------------------------------------------------------------------------
// Events in the store

/**
 * A game whose second seat is open starts with this service event (not an engine event): the
 * settings the engine's `game-created` will carry once both players sit. It is skipped by the fold.
 */
export interface GameProposed {
  readonly type: 'game-proposed';
  readonly rules: RuleSet;
  readonly lexicon: { readonly name: string; readonly hash: string };
  readonly timeControl: TimeControl;
  readonly firstSeat: Seat;
  readonly createdAt: string;
}

/** An event as the store keeps it: its type, and the whole event as the payload. */
export const toStored = (e: GameEvent | GameProposed): NewEvent => ({ type: e.type, payload: e as unknown as JsonObject });
const engineEvents = (stored: readonly StoredEvent[]): GameEvent[] =>
  stored.filter((e) => isGameEventType(e.type)).map((e) => e.payload as unknown as GameEvent);
const proposalOf = (stored: readonly StoredEvent[]): GameProposed | null => {
  const first = stored[0];
  return first && first.type === 'game-proposed' ? (first.payload as unknown as GameProposed) : null;
};

/** Folds a stored log; a log the fold rejects is a broken invariant (only `decide`d events are stored). */
const fold = (events: readonly GameEvent[]): GameState => {
  const r = replay(events);
  if (!r.ok) throw new Error(`stored game log does not replay at event ${r.error.index}: ${r.error.code} ${r.error.message}`);
  return r.value;
};

// ---------------------------------------------------------------------------------------------
// Projection columns, deadlines, outbox

/** `open` (a seat is free), then the engine's statuses. */
export const GAME_ROW_STATUSES = ['open', 'playing', 'waiting-final', 'ended'] as const;
export type GameRowStatus = (typeof GAME_ROW_STATUSES)[number];

/**
 * The game row's projection columns. `deadline_at` is the engine's `deadline(state)` (clock.ts): the
 * turn's start + turn time + the mover's bank, frozen while paused; null when untimed or over. Every
 * write that changes the clock rewrites it, and the deadline sweeper scans it.
 */
const projection = (state: GameState): Required<GameUpdate> => {
  const d = deadline(state);
  return { status: state.status, turnSeat: state.status === 'ended' ? null : state.turn, deadlineAt: d === null ? null : new Date(d) };
};

/** The webhook announcements of a turn (contract: service/webhook-events.ts). */
const outboxFor = (
  gameId: string,
  version: number,
  before: GameState | null,
  after: GameState,
  decided: readonly GameEvent[],
  seats: readonly SeatHolder[],
  deadline: Date | null,
): OutboxItem[] => {
  const out: OutboxItem[] = [];
  const challengeAt = decided.findIndex((e) => e.type === 'challenge');
  const challenge = decided[challengeAt];
  if (challenge && challenge.type === 'challenge') {
    out.push(
      webhookOutboxItem(
        {
          kind: 'challenge-resolved',
          gameId,
          version,
          challengerSeat: challenge.seat,
          challengedSeat: challenge.seat === 0 ? 1 : 0,
          valid: challenge.valid,
          words: challenge.words.map((w) => w.word),
        },
        challengeAt,
      ),
    );
  }
  // A pause that starts or ends moves the deadline: the player to move hears it as a fresh your-turn.
  const clockMoved = decided.find((e) => e.type === 'pause-accepted' || e.type === 'resumed');
  if (after.status === 'ended') {
    const r = after.result!;
    out.push(
      webhookOutboxItem({
        kind: 'game-ended',
        gameId,
        version,
        reason: r.reason,
        winnerSeat: r.winner,
        loserSeat: r.loser,
        scores: [...after.scores],
      }),
    );
  } else if (before === null || before.turn !== after.turn || before.status === 'ended' || clockMoved) {
    const playerId = seats.find((s) => s.seat === after.turn)?.player?.id;
    const pause = after.clock.pause.active;
    out.push(
      webhookOutboxItem({
        kind: 'your-turn',
        gameId,
        version,
        seat: after.turn,
        ...(playerId ? { playerId } : {}),
        ...(deadline ? { deadlineAt: deadline.toISOString() } : {}),
        ...(clockMoved
          ? {
              paused: clockMoved.type === 'pause-accepted',
              ...(clockMoved.type === 'pause-accepted' && pause ? { pausedUntil: pause.until } : {}),
            }
          : {}),
      }),
    );
  }
  return out;
};

// ---------------------------------------------------------------------------------------------
// Reading a game

/** A game as one caller may see it: the engine's view for their seat, or a spectator's. */
export interface GameSnapshot {
  readonly id: string;
  readonly version: number;
  readonly status: GameRowStatus;
  readonly rules: RuleSet;
  readonly lexicon: { readonly name: string; readonly hash: string };
  readonly seats: readonly SeatHolder[];
  /** The caller's seat; null for a spectator. */
  readonly mySeat: Seat | null;
  /** Null while the game waits for its second player. */
  readonly view: SeatView | SpectatorView | null;
  readonly timeControl: TimeControl;
  readonly deadlineAt: Date | null;
  /** A correspondence game's clock as of the caller's `now` (null otherwise, and while the game is open). */
  readonly clock: GameClock | null;
  /** `sha256(seed)` for a seeded game; null for an imported one. */
  readonly bagCommitment: string | null;
  readonly imported: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The engine's clock view, read at a moment: whether a pause is running, and the banks as they stand. */
export interface GameClock extends ClockView {
  readonly paused: boolean;
  /** Each seat's bank at the moment of reading: the mover's shrinks once their turn time is used. */
  readonly banksNow: readonly [number, number];
}

const clockAt = (state: GameState, view: SeatView | SpectatorView, now: Date): GameClock | null => {
  if (!view.clock) return null;
  const at = now.toISOString();
  return { ...view.clock, paused: state.status !== 'ended' && activePause(state, at) !== null, banksNow: banksAt(state, at) };
};

export const isSeatView = (v: SeatView | SpectatorView): v is SeatView => 'seat' in v;

const seatOf = (seats: readonly SeatHolder[], playerId: string | null): Seat | null => {
  if (playerId === null) return null;
  const s = seats.find((x) => x.player?.id === playerId);
  return s ? (s.seat as Seat) : null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const gameNotFound = (gameId: string) => err(ruleError('GAME_NOT_FOUND', `No game has the id "${gameId}".`, { gameId }));

/**
 * The game `gameId` as `viewerId` sees it (null = anonymous spectator): their own rack if seated,
 * never the other's. `atVersion` shows it as it was after that many events (an idempotent retry
 * answers with the view it first answered with).
 */
export async function getGame(
  deps: GameDeps,
  viewerId: string | null,
  gameId: string,
  options: { readonly atVersion?: number; readonly deadlineAt?: Date | null } = {},
): Promise<Result<GameSnapshot, RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const { game } = loaded.value;
  const seats = await seatsOf(deps.db.prisma, game.id);
  const version = options.atVersion === undefined ? game.version : Math.min(options.atVersion, game.version);
  const stored = loaded.value.events.slice(0, version);
  const events = engineEvents(stored);
  const state = events.length ? fold(events) : null;
  const current = version === game.version;
  const deadlineAt =
    options.deadlineAt !== undefined
      ? options.deadlineAt
      : current
        ? game.deadlineAt
        : state && deadline(state)
          ? new Date(deadline(state)!)
          : null;
  return ok(snapshotOf(game, seats, stored, state, seatOf(seats, viewerId), version, deadlineAt, deps.now()));
}

/**
 * The game at `version` for the seat `mySeat` (null: a spectator): `stored` is its log up to there,
 * folded into `state` (null while the game is open). getGame and a just-played turn both answer with it.
 */
const snapshotOf = (
  game: Pick<GameRow, 'id' | 'lexiconName' | 'lexiconHash' | 'createdAt' | 'updatedAt'>,
  seats: readonly SeatHolder[],
  stored: readonly StoredEvent[],
  state: GameState | null,
  mySeat: Seat | null,
  version: number,
  deadlineAt: Date | null,
  now: Date,
): GameSnapshot => {
  const first = engineEvents(stored.slice(0, 2))[0];
  const settings = first?.type === 'game-created' ? first : proposalOf(stored);
  if (!settings) throw new Error(`game ${game.id} has neither game-created nor game-proposed`);
  const view = state === null ? null : mySeat === null ? spectatorView(state) : viewFor(state, mySeat, now.toISOString());
  return {
    id: game.id,
    version,
    status: state ? state.status : 'open',
    rules: settings.rules,
    lexicon: settings.lexicon ?? { name: game.lexiconName, hash: game.lexiconHash },
    seats,
    mySeat,
    view,
    timeControl: settings.timeControl,
    deadlineAt,
    clock: state && view ? clockAt(state, view, now) : null,
    bagCommitment: state?.commitment ?? null,
    imported: state?.bagKind === 'imported',
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
  };
};

// ---------------------------------------------------------------------------------------------
// Creating and joining

export interface NewGameInput {
  /** Preset id (default NSA_2008). */
  readonly ruleSet?: string | null;
  /** Rule-set overrides, nested like the rule set. */
  readonly overrides?: unknown;
  /** Lexicon name (default: the server's default lexicon). */
  readonly lexicon?: string | null;
  readonly timeControl?: TimeControl | null;
  /** The opponent's handle; null = an open seat anyone may join. */
  readonly opponent?: string | null;
  /** The creator's seat (default 0). */
  readonly seat?: Seat | null;
  /** Who moves first (default seat 0). */
  readonly firstSeat?: Seat | null;
}

const isSeat = (n: unknown): n is Seat => n === 0 || n === 1;

const playerInfo = (p: PlayerRow): PlayerInfo => ({ name: p.displayName, id: p.handle });

const lexiconNamed = (deps: GameDeps, name: string | null | undefined): Result<Lexicon, RuleError> => {
  const chosen = name ?? deps.lexicons.defaultName;
  if (chosen === null) return err(ruleError('LEXICON_NOT_FOUND', 'No lexicon is loaded on this server: run `npm run lexicons`.', {}));
  return deps.lexicons.get(chosen);
};

/**
 * Creates a game with the caller in `seat`. With an opponent, both players sit and the game starts
 * at once (the engine's `game-created` and the opening draws); without one, the game waits in
 * status `open` for {@link joinGame}. The bag seed is made here, stored apart (game_secrets), and
 * only its commitment is public.
 */
export async function createGame(deps: GameDeps, creatorId: string, input: NewGameInput): Promise<Result<GameSnapshot, RuleError>> {
  const prepared = await prepareGame(deps, creatorId, input);
  if (!prepared.ok) return prepared;
  await deps.db.transaction((tx) => prepared.value.write(tx));
  return getGame(deps, creatorId, prepared.value.id);
}

/** A game checked and decided (events, seed, outbox) but not yet written. */
export interface PreparedGame {
  readonly id: string;
  /** The opponent seated at creation; null when the seat is open. */
  readonly opponentId: string | null;
  /** Writes the game (row, secret, seats, first events, outbox rows) in the caller's transaction; uses only `tx`. */
  readonly write: (tx: Tx) => Promise<void>;
}

/**
 * {@link createGame} without the write: every check and read happens here, outside any transaction
 * (on PGlite a read through `db.prisma` inside one would wait forever), so that a caller can write
 * several games and more in one transaction — createMatch writes its match row and all its games so.
 * `options.match`: the match the game belongs to and its place in it (the match row must be written
 * first, in the same transaction). Errors as createGame's.
 */
export async function prepareGame(
  deps: GameDeps,
  creatorId: string,
  input: NewGameInput,
  options: { readonly match?: { readonly id: string; readonly index: number } } = {},
): Promise<Result<PreparedGame, RuleError>> {
  const rules = ruleSetFor(input.ruleSet, input.overrides);
  if (!rules.ok) return rules;
  const lexicon = lexiconNamed(deps, input.lexicon);
  if (!lexicon.ok) return lexicon;
  const tc = validateTimeControl(input.timeControl ?? { kind: 'untimed' });
  if (!tc.ok) return tc;
  const mySeat = input.seat ?? 0;
  const firstSeat = input.firstSeat ?? 0;
  if (!isSeat(mySeat)) return fail('BAD_INPUT', `seat must be 0 or 1, not ${String(mySeat)}.`, { field: 'seat' });
  if (!isSeat(firstSeat)) return fail('BAD_INPUT', `firstSeat must be 0 or 1, not ${String(firstSeat)}.`, { field: 'firstSeat' });
  const me = await findPlayerById(deps.db.prisma, creatorId);
  if (!me) return fail('PLAYER_NOT_FOUND', 'The calling player no longer exists.', { playerId: creatorId });
  let opponent: PlayerRow | null = null;
  if (input.opponent) {
    opponent = await findPlayerByHandle(deps.db.prisma, input.opponent.trim().toLowerCase());
    if (!opponent)
      return fail('PLAYER_NOT_FOUND', `No player has the handle "${input.opponent}".`, { field: 'opponent', handle: input.opponent });
    if (opponent.id === me.id)
      return fail('ALREADY_SEATED', 'You cannot be your own opponent: name another player or leave the seat open.', { field: 'opponent' });
  }
  const seed = seedSource();
  const now = deps.now();
  const lex = { name: lexicon.value.name, hash: lexicon.value.hash };
  const seats: (PlayerRow | null)[] = mySeat === 0 ? [me, opponent] : [opponent, me];
  let events: (GameEvent | GameProposed)[];
  if (opponent) {
    const started = startEvents({
      rules: rules.value,
      lexicon: lex,
      players: [playerInfo(seats[0]!), playerInfo(seats[1]!)],
      timeControl: tc.value,
      seed,
      firstSeat,
      createdAt: now.toISOString(),
    });
    if (!started.ok) return started;
    events = started.value;
  } else {
    events = [{ type: 'game-proposed', rules: rules.value, lexicon: lex, timeControl: tc.value, firstSeat, createdAt: now.toISOString() }];
  }
  const state = opponent ? fold(events as GameEvent[]) : null;
  const update = state ? projection(state) : { status: 'open', turnSeat: null, deadlineAt: null };
  const holders: SeatHolder[] = seats.map((player, seat) => ({ seat, player }));
  const id = randomUUID();
  const outbox = state ? outboxFor(id, events.length, null, state, [], holders, update.deadlineAt) : [];
  const write = async (tx: Tx): Promise<void> => {
    await insertGame(
      tx,
      {
        id,
        ruleSetId: rules.value.id,
        ruleOverrides: (input.overrides ?? {}) as JsonObject,
        lexicon: { name: lex.name, contentHash: lex.hash },
        status: update.status,
        turnSeat: update.turnSeat,
        deadlineAt: update.deadlineAt,
        bagSeedCommitment: commitment(seed),
        bagSeed: seed,
        seats: seats.map((p) => p?.id ?? null),
        ...(options.match ? { match: options.match } : {}),
      },
      events.map(toStored),
      outbox,
    );
  };
  return ok({ id, opponentId: opponent?.id ?? null, write });
}

/**
 * Starts a proposed game whose seats are both taken: appends `game-created` and the opening draws
 * at the proposal's version. Safe to call twice (the second finds the game started).
 */
const startProposed = async (deps: GameDeps, gameId: string, seats: readonly SeatHolder[]): Promise<Result<true, RuleError>> => {
  const players = seats.map((s) => s.player);
  if (players.length !== 2 || !players[0] || !players[1]) return ok(true);
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const proposal = proposalOf(loaded.value.events);
  if (!proposal || loaded.value.events.length !== 1) return ok(true);
  const now = deps.now();
  const r = await runTurn<null, RuleError>(deps.db, gameId, 1, null, (_game, _events, secrets) => {
    const started = startEvents({
      rules: proposal.rules,
      lexicon: proposal.lexicon,
      players: [playerInfo(players[0]!), playerInfo(players[1]!)],
      timeControl: proposal.timeControl,
      seed: secrets.bagSeed,
      firstSeat: proposal.firstSeat,
      createdAt: now.toISOString(),
    });
    if (!started.ok) return started;
    const state = fold(started.value);
    const update = projection(state);
    return ok({
      events: started.value.map(toStored),
      response: null,
      game: update,
      outbox: outboxFor(gameId, 1 + started.value.length, null, state, [], seats, update.deadlineAt),
    });
  });
  // Someone else started it meanwhile: fine.
  if (!r.ok && r.error.code !== 'STALE_VERSION') return r;
  return ok(true);
};

/**
 * Takes the open seat of a proposed game; the game starts at once. A game of a match is refused with
 * JOIN_THE_MATCH (details.matchId): its place is taken for all the match's games at once with joinMatch,
 * which passes `options.viaMatch` (the match it is joining).
 */
export async function joinGame(
  deps: GameDeps,
  playerId: string,
  gameId: string,
  options: { readonly viaMatch?: string } = {},
): Promise<Result<GameSnapshot, RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const { matchId, matchIndex } = loaded.value.game;
  if (matchId !== null && matchId !== options.viaMatch) {
    return fail(
      'JOIN_THE_MATCH',
      `This game is game ${(matchIndex ?? 0) + 1} of a match: join the match ${matchId} (joinMatch), which seats you in all its games.`,
      { gameId, matchId },
    );
  }
  const seats = await seatsOf(deps.db.prisma, gameId);
  if (seats.some((s) => s.player?.id === playerId)) {
    // Already seated: a retried join (or the creator) — make sure the game has started, then answer.
    const started = await startProposed(deps, gameId, seats);
    if (!started.ok) return started;
    return fail('ALREADY_SEATED', 'You already hold a seat in this game.', { gameId });
  }
  const open = seats.find((s) => s.player === null);
  if (!open || !(await claimSeat(deps.db.prisma, gameId, open.seat, playerId))) {
    return fail('SEAT_TAKEN', 'This game has no open seat: another player has joined it.', { gameId });
  }
  const after = await seatsOf(deps.db.prisma, gameId);
  const started = await startProposed(deps, gameId, after);
  if (!started.ok) return started;
  return getGame(deps, playerId, gameId);
}

// ---------------------------------------------------------------------------------------------
// Turns

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

/** The idempotency request hash: sha256 of the canonical JSON of the game, version and action. */
export const turnRequestHash = (req: Omit<TurnRequest, 'idempotencyKey'>): string =>
  createHash('sha256')
    .update(canonicalJson({ gameId: req.gameId, expectedVersion: req.expectedVersion, action: req.action }), 'utf8')
    .digest('hex');

export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

/**
 * Plays one turn for the caller's seat (see the module comment). Errors: the engine's rule codes
 * (NOT_YOUR_TURN, TILES_NOT_IN_RACK …), STALE_VERSION, IDEMPOTENCY_KEY_REUSED, GAME_NOT_FOUND,
 * NOT_SEATED, GAME_NOT_STARTED, BAD_INPUT, LEXICON_NOT_FOUND / LEXICON_HASH_MISMATCH.
 * A turn this call played also answers `game`, the caller's view right after it, made from the state
 * the turn computed (no second read); a replayed retry has none: {@link gameAfterTurn} rebuilds it.
 */
export async function submitTurn(
  deps: GameDeps,
  playerId: string,
  req: TurnRequest,
): Promise<Result<{ receipt: TurnReceipt; replayed: boolean; game?: GameSnapshot }, RuleError>> {
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
  // One statement for the game's status and its seats (store/games.ts gameSeating).
  const row = await gameSeating(deps.db.prisma, req.gameId);
  if (!row) return gameNotFound(req.gameId);
  const seats = row.seats;
  const seat = seatOf(seats, playerId);
  if (seat === null) return fail('NOT_SEATED', 'You hold no seat in this game: only its two players can act in it.', { gameId: row.id });
  if (row.status === 'open') {
    const started = await startProposed(deps, row.id, seats);
    if (!started.ok) return started;
    if (seats.some((s) => s.player === null))
      return fail('GAME_NOT_STARTED', 'The game waits for a second player to join.', { gameId: row.id });
  }
  const command = commandOf(req.action, seat);
  if (!command.ok) return command;
  const idem = { scope: `player:${playerId}`, key, requestHash: turnRequestHash(req) };
  const now = deps.now();
  const r = await runGameCommand({ db: deps.db, lexicons: deps.lexicons, now }, row.id, req.expectedVersion, idem, seats, (state, ctx) =>
    decide(state, command.value, ctx),
  );
  if (!r.ok) return r;
  const { receipt, replayed, after } = r.value;
  return ok({ receipt, replayed, ...(after ? { game: after.snapshotFor(playerId, now) } : {}) });
}

/** What {@link runGameCommand} needs: the database, the lexicons (null: words are not judged) and the moment of the command. */
export interface CommandDeps {
  readonly db: Db;
  readonly lexicons: LexiconRegistry | null;
  readonly now: Date;
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
  seats: readonly SeatHolder[],
  decideOn: (state: GameState, ctx: DecideContext) => Result<readonly GameEvent[], RuleError>,
): Promise<Result<{ receipt: TurnReceipt; replayed: boolean; after?: AfterTurn }, RuleError>> {
  const now = deps.now;
  let afterTurn: AfterTurn | undefined;
  const outcome = await runTurn<TurnReceipt, RuleError>(deps.db, gameId, expectedVersion, idem, (game, stored, secrets) => {
    const state = fold(engineEvents(stored));
    let lexicon: Lexicon | null = null;
    if (state.lexicon && deps.lexicons) {
      const l = deps.lexicons.getMatching(state.lexicon);
      if (!l.ok) return l;
      lexicon = l.value;
    }
    const decided = decideOn(state, { lexicon, seed: state.bagKind === 'seeded' ? secrets.bagSeed : null, now: now.toISOString() });
    if (!decided.ok) return decided;
    let after = state;
    for (const e of decided.value) {
      const r = apply(after, e);
      if (!r.ok) throw new Error(`decide produced an event the fold rejects: ${r.error.code}`);
      after = r.value;
    }
    const update = projection(after);
    const version = game.version + decided.value.length;
    // `game` already carries the turn's updated_at (runTurn writes the same moment again with the events).
    const done = after;
    afterTurn = {
      snapshotFor: (viewerId, at) => snapshotOf(game, seats, stored, done, seatOf(seats, viewerId), version, update.deadlineAt, at),
    };
    return ok({
      events: decided.value.map(toStored),
      response: { gameId: game.id, version, deadlineAt: update.deadlineAt?.toISOString() ?? null },
      game: update,
      ...matchTurn(game, after, outboxFor(game.id, version, state, after, decided.value, seats, update.deadlineAt)),
    });
  });
  if (!outcome.ok) return outcome;
  if (outcome.value.replayed || !afterTurn) return ok({ receipt: outcome.value.response, replayed: outcome.value.replayed });
  return ok({ receipt: outcome.value.response, replayed: false, after: afterTurn });
}

/** What a command just committed, to answer from without reading the game again. */
export interface AfterTurn {
  /** The game as `viewerId` sees it right after the command (its clock read at `now`). */
  snapshotFor(viewerId: string | null, now: Date): GameSnapshot;
}

/**
 * The match part of a turn (hook of runGameCommand): when the turn leaves a game of a match ended, the
 * match's status projection is written in the same transaction, and `game-ended` names the match
 * (`matchId`, `matchIndex`). A single game's turn is unchanged.
 */
const matchTurn = (game: GameRow, after: GameState, outbox: readonly OutboxItem[]): Pick<Decision<TurnReceipt>, 'outbox' | 'alsoWrite'> => {
  const { matchId, matchIndex } = game;
  if (matchId === null || after.status !== 'ended') return { outbox };
  return {
    outbox: outbox.map((m) => (m.kind === 'game-ended' ? { ...m, payload: { ...m.payload, matchId, matchIndex } } : m)),
    alsoWrite: async (tx) => {
      await refreshMatchStatusInTx(tx, matchId);
    },
  };
};

/** A started game the caller sits in: its id, the caller's seat, the seats and the version now. */
export interface SeatedGame {
  readonly id: string;
  readonly seat: Seat;
  readonly seats: readonly SeatHolder[];
  readonly version: number;
}

/** GAME_NOT_FOUND, NOT_SEATED (the caller has no seat) or GAME_NOT_STARTED (a seat is still open). */
export async function seatedGame(db: Db, playerId: string, gameId: string): Promise<Result<SeatedGame, RuleError>> {
  const row = UUID.test(gameId)
    ? await db.prisma.game.findUnique({ where: { id: gameId }, select: { id: true, status: true, version: true } })
    : null;
  if (!row) return gameNotFound(gameId);
  const seats = await seatsOf(db.prisma, row.id);
  const seat = seatOf(seats, playerId);
  if (seat === null) return fail('NOT_SEATED', 'You hold no seat in this game: only its two players can act in it.', { gameId: row.id });
  if (row.status === 'open') return fail('GAME_NOT_STARTED', 'The game waits for a second player to join.', { gameId: row.id });
  return ok({ id: row.id, seat, seats, version: row.version });
}

/** The game as the caller saw it right after the turn of `receipt` (the same on every retry). */
export const gameAfterTurn = (deps: GameDeps, playerId: string, receipt: TurnReceipt): Promise<Result<GameSnapshot, RuleError>> =>
  getGame(deps, playerId, receipt.gameId, {
    atVersion: receipt.version,
    deadlineAt: receipt.deadlineAt === null ? null : new Date(receipt.deadlineAt),
  });

// ---------------------------------------------------------------------------------------------
// A player's games

export const DEFAULT_GAMES_PAGE = 20;
export const MAX_GAMES_PAGE = 100;

export type GamesPage = Page<GameSnapshot>;

const { encode: cursorOf, decode: gameIdOf } = cursorCodec('game');

/** Inbox groups, in order: awaiting my move, the opponent's move, waiting for a second player, over. */
const inboxRank = (r: PlayerGameRow): number => {
  const live = r.status === 'playing' || r.status === 'waiting-final';
  if (live) return r.turnSeat === r.seat ? 0 : 1;
  return r.status === 'open' ? 2 : 3;
};

/**
 * The caller's games as an inbox for clients that poll (issue 5): those awaiting the caller's move
 * first, then those awaiting the opponent, then open seats, then finished games; inside a group the
 * soonest deadline first and untimed games last, then the most recently changed. A relay page of
 * `first` after the cursor `after`.
 */
export async function myGames(
  deps: GameDeps,
  playerId: string,
  page: { readonly first?: number | null; readonly after?: string | null },
): Promise<Result<GamesPage, RuleError>> {
  const first = page.first ?? DEFAULT_GAMES_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_GAMES_PAGE)
    return fail('BAD_INPUT', `first must be 1–${MAX_GAMES_PAGE}, not ${first}.`, { field: 'first' });
  const rows = await gamesOfPlayer(deps.db.prisma, playerId);
  const time = (d: Date | null) => (d === null ? Number.POSITIVE_INFINITY : d.getTime());
  // A player in both seats (allowed for imports) is listed once, under the seat that is to move.
  const bySeat = new Map<string, PlayerGameRow>();
  for (const r of rows) {
    const seen = bySeat.get(r.gameId);
    if (!seen || inboxRank(r) < inboxRank(seen)) bySeat.set(r.gameId, r);
  }
  const unique = [...bySeat.values()];
  unique.sort(
    (a, b) =>
      inboxRank(a) - inboxRank(b) ||
      time(a.deadlineAt) - time(b.deadlineAt) ||
      b.updatedAt.getTime() - a.updatedAt.getTime() ||
      (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0),
  );
  let start = 0;
  if (page.after) {
    const id = gameIdOf(page.after);
    const at = id === null ? -1 : unique.findIndex((r) => r.gameId === id);
    if (at < 0)
      return fail('CURSOR_INVALID', `"${page.after}" is not a cursor of your game list (or that game is no longer in it).`, {
        field: 'after',
      });
    start = at + 1;
  }
  const slice = unique.slice(start, start + first);
  const edges: { cursor: string; node: GameSnapshot }[] = [];
  for (const r of slice) {
    const g = await getGame(deps, playerId, r.gameId);
    if (g.ok) edges.push({ cursor: cursorOf(r.gameId), node: g.value });
  }
  return ok({ edges, hasNextPage: start + first < unique.length, hasPreviousPage: start > 0, totalCount: unique.length });
}

// ---------------------------------------------------------------------------------------------
// Internals shared with game-record.ts

/** The engine log and seats of a game, for the record export (no secrets: the seed is only in game_secrets). */
export async function loadGameLog(
  deps: GameDeps,
  gameId: string,
): Promise<Result<{ readonly events: readonly GameEvent[]; readonly seats: readonly SeatHolder[]; readonly version: number }, RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  return ok({
    events: engineEvents(loaded.value.events),
    seats: await seatsOf(deps.db.prisma, gameId),
    version: loaded.value.game.version,
  });
}
