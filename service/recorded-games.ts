import { randomUUID } from 'node:crypto';
import type { RuleError } from '../engine/errors.js';
import type { PlayerInfo, Seat } from '../engine/game/events.js';
import { recordedGameStart, recordedMoveEvents, type RecordedEntry, type RecordedMove } from '../engine/game/recorded.js';
import { validateTimeControl } from '../engine/game/clock.js';
import { parseRack } from '../engine/move.js';
import { err, ok, type Result } from '../engine/result.js';
import { createGame as insertGame, gameSeating } from '../store/games.js';
import type { JsonObject } from '../store/json.js';
import { findPlayerByHandle, findPlayerById, type PlayerRow } from '../store/players.js';
import type { SeatHolder } from '../store/seats.js';
import type { ServiceDeps, Tx } from './context.js';
import { fail, gameNotFound } from './game-errors.js';
import { fold, toStored } from './game-log.js';
import { outboxFor, projection } from './game-projection.js';
import { getGame, type GameSnapshot } from './game-reads.js';
import { lexiconNamed } from './game-create.js';
import { organizationNamed } from './organizations.js';
import { ruleSetFor } from './rules.js';
import { ratedCategory } from './ratings.js';
import { runGameCommand, turnKeysProblem, turnRequestHash, type TurnReceipt } from './turns.js';

/**
 * Over-the-board games recorded live (issue 14 item 1, docs/recorded.md). The caller who creates the
 * game is its scorekeeper, and the only one who records its moves; each of the two players is named by
 * an account handle (then seated: the game is theirs, in their lists, with their rack visible to them
 * alone) or only by a name (a player without an account). The engine's part is
 * `engine/game/recorded.ts`; a move is one `runGameCommand` transaction, as a turn is.
 */

/** A player at the table: an account (`handle`, seated) or just a name. */
export interface RecordedPlayer {
  readonly handle?: string | null;
  readonly name?: string | null;
}

export interface NewRecordedGame {
  readonly ruleSet?: string | null;
  readonly overrides?: unknown;
  readonly lexicon?: string | null;
  readonly players: readonly RecordedPlayer[];
  /** Who moves first (default seat 0). */
  readonly firstSeat?: Seat | null;
  /** Minutes on each player's clock at the table (e.g. the rule set's `time.gameMinutes`); absent = untimed, no readings. */
  readonly clockMinutes?: number | null;
  /** The club or event (organization id) the game is played under, as for createGame. */
  readonly organization?: string | null;
  /** Rated (issue 33) in the rule-set family's `recorded` category; both players must be accounts. */
  readonly rated?: boolean | null;
}

const MAX_NAME = 64;

const tablePlayer = async (
  deps: ServiceDeps,
  p: RecordedPlayer,
  i: number,
): Promise<Result<{ info: PlayerInfo; row: PlayerRow | null }, RuleError>> => {
  const field = `players[${i}]`;
  if (p.handle) {
    const row = await findPlayerByHandle(deps.db.prisma, p.handle.trim().toLowerCase());
    if (!row) return fail('PLAYER_NOT_FOUND', `No player has the handle "${p.handle}".`, { field: `${field}.handle`, handle: p.handle });
    return ok({ info: { name: p.name?.trim() || row.displayName, id: row.handle }, row });
  }
  const name = p.name?.trim() ?? '';
  if (name === '' || name.length > MAX_NAME)
    return fail('BAD_INPUT', `${field} needs a handle or a name of 1–${MAX_NAME} characters.`, { field: `${field}.name` });
  return ok({ info: { name }, row: null });
};

/** The minutes on each player's clock at the table, checked as a clock time control (1–1440), the error naming `clockMinutes`. */
export const checkClockMinutes = (minutes: number | null | undefined): Result<number | null, RuleError> => {
  if (minutes === null || minutes === undefined) return ok(null);
  const tc = validateTimeControl({ kind: 'clock', minutes });
  return tc.ok ? ok(minutes) : err({ ...tc.error, details: { ...tc.error.details, field: 'clockMinutes' } });
};

/** Creates a recorded game, the caller its scorekeeper. Errors: BAD_INPUT, PLAYER_NOT_FOUND, ALREADY_SEATED, the rule set's and the lexicon's. */
export async function createRecordedGame(
  deps: ServiceDeps,
  scorekeeperId: string,
  input: NewRecordedGame,
): Promise<Result<GameSnapshot, RuleError>> {
  const prepared = await prepareRecordedGame(deps, scorekeeperId, input);
  if (!prepared.ok) return prepared;
  await deps.db.transaction((tx) => prepared.value.write(tx));
  return getGame(deps, scorekeeperId, prepared.value.id);
}

/** A recorded game checked and decided but not yet written (as service/game-create.ts `PreparedGame`). */
export interface PreparedRecordedGame {
  readonly id: string;
  /** Writes the game (row, seats, first events, outbox rows) in the caller's transaction; uses only `tx`. */
  readonly write: (tx: Tx) => Promise<void>;
}

/**
 * {@link createRecordedGame} without the write: every check and read happens here, outside any transaction,
 * so that a caller can write the game with more in one transaction (an accepted seek, service/seeks.ts).
 */
export async function prepareRecordedGame(
  deps: ServiceDeps,
  scorekeeperId: string,
  input: NewRecordedGame,
): Promise<Result<PreparedRecordedGame, RuleError>> {
  const rules = ruleSetFor(input.ruleSet, input.overrides);
  if (!rules.ok) return rules;
  const lexicon = await lexiconNamed(deps, input.lexicon);
  if (!lexicon.ok) return lexicon;
  const clock = checkClockMinutes(input.clockMinutes);
  if (!clock.ok) return clock;
  const firstSeat = input.firstSeat ?? 0;
  if (firstSeat !== 0 && firstSeat !== 1)
    return fail('BAD_INPUT', `firstSeat must be 0 or 1, not ${String(firstSeat)}.`, { field: 'firstSeat' });
  if (input.players.length !== 2) return fail('BAD_INPUT', 'A recorded game has two players.', { field: 'players' });
  if (!(await findPlayerById(deps.db.prisma, scorekeeperId)))
    return fail('PLAYER_NOT_FOUND', 'The calling player no longer exists.', { playerId: scorekeeperId });
  const org = await organizationNamed(deps, input.organization);
  if (!org.ok) return org;
  const a = await tablePlayer(deps, input.players[0]!, 0);
  if (!a.ok) return a;
  const b = await tablePlayer(deps, input.players[1]!, 1);
  if (!b.ok) return b;
  if (a.value.row && a.value.row.id === b.value.row?.id)
    return fail('ALREADY_SEATED', 'One account cannot hold both seats: name the other player.', { field: 'players[1].handle' });
  const rated = ratedCategory(
    {
      rated: input.rated,
      ruleSetId: rules.value.id,
      overrides: input.overrides,
      robot: false,
      accountless: !a.value.row || !b.value.row,
    },
    'recorded',
  );
  if (!rated.ok) return rated;
  const lex = { name: lexicon.value.name, hash: lexicon.value.hash };
  const events = recordedGameStart({
    rules: rules.value,
    lexicon: lex,
    players: [a.value.info, b.value.info],
    firstSeat,
    createdAt: deps.now().toISOString(),
    clockMinutes: input.clockMinutes ?? null,
  });
  const state = fold(events);
  const update = projection(state);
  const holders: SeatHolder[] = [a.value.row, b.value.row].map((player, seat) => ({ seat, player }));
  const id = randomUUID();
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
        deadlineAt: null,
        // The bag is at the table: no seed, as in an import; the draws are unknown.
        bagSeedCommitment: '',
        bagSeed: '',
        seats: holders.map((h) => h.player?.id ?? null),
        scorekeeperId,
        ...(org.value ? { organizationId: org.value.id } : {}),
        ...(rated.value ? { ratingCategory: rated.value } : {}),
      },
      events.map(toStored),
      outboxFor(id, events.length, null, state, [], holders, null),
    );
  };
  return ok({ id, write });
}

/** A recorded move as the API takes it: racks and exchanged tiles written as racks (`AEI`, `?` a blank, `[CH]` a digraph). */
export interface RecordedEntryText {
  readonly move:
    | { readonly kind: 'play'; readonly move: string; readonly score?: number | null }
    | { readonly kind: 'exchange'; readonly count: number; readonly tiles?: string | null }
    | { readonly kind: 'pass' }
    | { readonly kind: 'challenge'; readonly result: 'play-removed' | 'play-stands'; readonly words?: readonly string[] | null }
    | { readonly kind: 'out-of-time' };
  readonly rack?: string | null;
  /** The mover's clock after the move (seconds, negative = overtime), in a game recorded with clockMinutes. */
  readonly time?: { readonly seat: number; readonly secondsLeft: number } | null;
  readonly remainingRacks?: readonly { readonly seat: number; readonly tiles: string }[] | null;
}

export interface RecordMoveRequest {
  readonly gameId: string;
  readonly expectedVersion: number;
  readonly idempotencyKey: string;
  readonly entry: RecordedEntryText;
}

const rackOf = (text: string | null | undefined, field: string): Result<string[] | null, RuleError> => {
  if (text == null || text.trim() === '') return ok(null);
  const r = parseRack(text.trim());
  return r.ok ? r : err({ ...r.error, details: { ...r.error.details, field } });
};

/** The engine's entry for the API's text; BAD_RACK (details.field) when a rack does not parse. */
export const recordedEntryOf = (t: RecordedEntryText): Result<RecordedEntry, RuleError> => {
  const rack = rackOf(t.rack, 'entry.rack');
  if (!rack.ok) return rack;
  const remaining: (string[] | null)[] = [null, null];
  for (const [i, r] of (t.remainingRacks ?? []).entries()) {
    if (r.seat !== 0 && r.seat !== 1)
      return fail('BAD_INPUT', `A seat is 0 or 1, not ${r.seat}.`, { field: `entry.remainingRacks[${i}].seat` });
    const tiles = rackOf(r.tiles, `entry.remainingRacks[${i}].tiles`);
    if (!tiles.ok) return tiles;
    remaining[r.seat] = tiles.value;
  }
  const time = t.time ?? null;
  if (time && time.seat !== 0 && time.seat !== 1)
    return fail('BAD_INPUT', `A seat is 0 or 1, not ${time.seat}.`, { field: 'entry.time.seat' });
  let move: RecordedMove;
  if (t.move.kind === 'exchange') {
    const tiles = rackOf(t.move.tiles, 'entry.move.exchange.tiles');
    if (!tiles.ok) return tiles;
    move = { kind: 'exchange', count: t.move.count, tiles: tiles.value };
  } else move = t.move;
  return ok({
    move,
    rack: rack.value,
    remainingRacks: remaining,
    time: time && { seat: time.seat as Seat, secondsLeft: time.secondsLeft },
  });
};

/**
 * Records one move of a recorded game (see the module comment), with a turn's version check and
 * idempotency. Errors: NOT_RECORDED, NOT_SCOREKEEPER, GAME_NOT_FOUND, BAD_INPUT, STALE_VERSION,
 * IDEMPOTENCY_KEY_REUSED, and the engine's (placement codes, SCORE_MISMATCH, RACK_NOT_IN_BAG,
 * NOTHING_TO_CHALLENGE, FINAL_RACKS_REQUIRED …).
 */
export async function recordMove(
  deps: ServiceDeps,
  callerId: string,
  req: RecordMoveRequest,
): Promise<Result<{ receipt: TurnReceipt; replayed: boolean; game?: GameSnapshot }, RuleError>> {
  const bad = turnKeysProblem(req);
  if (bad) return bad;
  const entry = recordedEntryOf(req.entry);
  if (!entry.ok) return entry;
  const row = await gameSeating(deps.db.prisma, req.gameId);
  if (!row) return gameNotFound(req.gameId);
  if (row.scorekeeperId === null)
    return fail('NOT_RECORDED', 'This game is played here, turn by turn (submitTurn): only recorded games take recorded moves.', {
      gameId: row.id,
    });
  if (row.scorekeeperId !== callerId)
    return fail('NOT_SCOREKEEPER', 'Only the game’s scorekeeper (the account that created it) records its moves.', { gameId: row.id });
  const action = { recorded: req.entry };
  const idem = {
    scope: `player:${callerId}`,
    key: req.idempotencyKey.trim(),
    requestHash: turnRequestHash({ gameId: req.gameId, expectedVersion: req.expectedVersion, action }),
  };
  const now = deps.now();
  const r = await runGameCommand(
    { db: deps.db, lexicons: deps.lexicons, now },
    row.id,
    req.expectedVersion,
    idem,
    row.seats,
    (state, ctx) => recordedMoveEvents(state, entry.value, ctx),
  );
  if (!r.ok) return r;
  const { receipt, replayed, after } = r.value;
  return ok({ receipt, replayed, ...(after ? { game: after.snapshotFor(callerId, now) } : {}) });
}
