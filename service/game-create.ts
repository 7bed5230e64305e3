import { randomBytes, randomUUID } from 'node:crypto';
import type { Layout } from '../engine/board.js';
import { ruleError, type RuleError } from '../engine/errors.js';
import { parseLayout, type LayoutSpec } from '../engine/layout.js';
import type { RuleSet } from '../engine/rules/ruleset.js';
import { commitment } from '../engine/game/bag.js';
import { validateTimeControl } from '../engine/game/clock.js';
import { createGame as startEvents } from '../engine/game/decide.js';
import type { GameEvent, PlayerInfo, Seat, TimeControl } from '../engine/game/events.js';
import type { Lexicon } from '../engine/lexicon/lexicon.js';
import { err, ok, type Result } from '../engine/result.js';
import { createGame as insertGame, loadGame, runTurn, type GameSecrets } from '../store/games.js';
import type { JsonObject } from '../store/json.js';
import { findPlayerByHandle, findPlayerById, type PlayerRow } from '../store/players.js';
import { claimSeat, seatsOf, type SeatHolder } from '../store/seats.js';
import type { ServiceDeps, Tx } from './context.js';
import { fail } from './game-errors.js';
import { lexiconByName } from './lexicon-uploads.js';
import { fold, proposalOf, toStored, type GameProposed } from './game-log.js';
import { outboxFor, projection } from './game-projection.js';
import { getGame, type GameSnapshot } from './game-reads.js';
import { ensureRobotPlayer, isRobotHandle, robotKwg, wakeRobots } from './robot-seats.js';
import { organizationNamed } from './organizations.js';
import { ruleSetFor } from './rules.js';
import { ratedCategory } from './ratings.js';

/**
 * Creating and joining games (issue 4). A game with both players seated starts at once; one with an
 * open seat waits, as a `game-proposed` log, until a second player joins. The bag seed is made here,
 * stored apart (game_secrets), and only its commitment is public.
 */

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

export interface NewGameInput {
  /** Preset id (default NSA_2008). */
  readonly ruleSet?: string | null;
  /** Rule-set overrides, nested like the rule set. */
  readonly overrides?: unknown;
  /** Lexicon name (default: the server's default lexicon). */
  readonly lexicon?: string | null;
  readonly timeControl?: TimeControl | null;
  /** The opponent's handle; null = an open seat anyone may join; `robot:greedy` / `robot:equity` = a robot seat. */
  readonly opponent?: string | null;
  /** Analysis of the live game is open to the player against a robot (issue 19); default false. */
  readonly allowHints?: boolean | null;
  /** The creator's seat (default 0). */
  readonly seat?: Seat | null;
  /** Who moves first (default seat 0). */
  readonly firstSeat?: Seat | null;
  /** A board given as data (issue 21); it replaces the rule set's `board.layout`. */
  readonly layout?: LayoutSpec | null;
  /** The club or event (organization id) the game is played under: its directors may rule on it. Any creator may name one. */
  readonly organization?: string | null;
  /** Rated (issue 33): the game's end updates both players' ratings in its category; default false (casual). */
  readonly rated?: boolean | null;
}

const isSeat = (n: unknown): n is Seat => n === 0 || n === 1;

/** BAD_INPUT when `seat` or `firstSeat` is given and is not 0 or 1. */
const seatProblem = (input: NewGameInput) => {
  for (const field of ['seat', 'firstSeat'] as const) {
    const seat = input[field] ?? 0;
    if (!isSeat(seat)) return fail('BAD_INPUT', `${field} must be 0 or 1, not ${String(seat)}.`, { field });
  }
  return null;
};

const playerInfo = (p: PlayerRow): PlayerInfo => ({ name: p.displayName, id: p.handle });

/** The lexicon a new game names (a server's or an uploaded one), or the server's default. */
export const lexiconNamed = async (deps: ServiceDeps, name: string | null | undefined): Promise<Result<Lexicon, RuleError>> => {
  const chosen = name ?? deps.lexicons.defaultName;
  if (chosen === null) return err(ruleError('LEXICON_NOT_FOUND', 'No lexicon is loaded on this server: run `npm run lexicons`.', {}));
  return lexiconByName(deps, chosen);
};

/** A new game's first events: `game-created` and the draws when both seats are taken, else the proposal alone. */
const firstEvents = (
  proposal: GameProposed,
  players: readonly [PlayerRow, PlayerRow] | null,
  seed: string,
): Result<(GameEvent | GameProposed)[], RuleError> => {
  if (!players) return ok([proposal]);
  const { rules, lexicon, timeControl, firstSeat, createdAt, layout } = proposal;
  return startEvents({
    rules,
    lexicon,
    players: [playerInfo(players[0]), playerInfo(players[1])],
    timeControl,
    seed,
    firstSeat,
    createdAt,
    ...(layout ? { layout } : {}),
  });
};

/**
 * The rule set of a new game, with a layout given as data in place of its `board.layout` (named after the
 * layout's hash, so the stored rules say which board); LAYOUT_* errors name the row, column or square.
 */
const rulesWithLayout = (input: NewGameInput): Result<{ rules: RuleSet; layout: Layout | null }, RuleError> => {
  const rules = ruleSetFor(input.ruleSet, input.overrides);
  if (!rules.ok) return rules;
  if (!input.layout) return ok({ rules: rules.value, layout: null });
  const layout = parseLayout(input.layout);
  if (!layout.ok) return layout;
  return ok({ rules: { ...rules.value, board: { ...rules.value.board, layout: layout.value.name } }, layout: layout.value });
};

/** The opponent a new game names: a robot (its lexicon must have a move graph), a player by handle, or none (an open seat). */
const opponentFor = async (
  deps: ServiceDeps,
  handle: string | null | undefined,
  me: PlayerRow,
  lexicon: Lexicon,
): Promise<Result<{ opponent: PlayerRow | null; robot: boolean }, RuleError>> => {
  const wanted = handle?.trim().toLowerCase();
  if (isRobotHandle(wanted)) {
    const kwg = await robotKwg(deps, { name: lexicon.name, hash: lexicon.hash });
    if (!kwg.ok) return kwg;
    return ok({ opponent: await ensureRobotPlayer(deps.db.prisma, wanted), robot: true });
  }
  if (!handle) return ok({ opponent: null, robot: false });
  const opponent = await findPlayerByHandle(deps.db.prisma, handle.trim().toLowerCase());
  if (!opponent) return fail('PLAYER_NOT_FOUND', `No player has the handle "${handle}".`, { field: 'opponent', handle });
  if (opponent.id === me.id)
    return fail('ALREADY_SEATED', 'You cannot be your own opponent: name another player or leave the seat open.', { field: 'opponent' });
  return ok({ opponent, robot: false });
};

/**
 * Creates a game with the caller in `seat`. With an opponent, both players sit and the game starts
 * at once (the engine's `game-created` and the opening draws); without one, the game waits in
 * status `open` for {@link joinGame}. The bag seed is made here, stored apart (game_secrets), and
 * only its commitment is public.
 */
export async function createGame(deps: ServiceDeps, creatorId: string, input: NewGameInput): Promise<Result<GameSnapshot, RuleError>> {
  const prepared = await prepareGame(deps, creatorId, input);
  if (!prepared.ok) return prepared;
  await deps.db.transaction((tx) => prepared.value.write(tx));
  // The robot may move first: its move is played after this request, never inside it.
  if (prepared.value.robot) await wakeRobots(deps, prepared.value.id);
  // Read with its secret at hand, the game is held by this process: the first turn on it is one statement.
  return getGame(deps, creatorId, prepared.value.id, { hold: prepared.value.secrets });
}

/** A game checked and decided (events, seed, outbox) but not yet written. */
export interface PreparedGame {
  readonly id: string;
  /** The opponent seated at creation; null when the seat is open. */
  readonly opponentId: string | null;
  /** The opponent is a robot (service/robots.ts). */
  readonly robot: boolean;
  /** Writes the game (row, secret, seats, first events, outbox rows) in the caller's transaction; uses only `tx`. */
  readonly write: (tx: Tx) => Promise<void>;
  /** The bag seed written with it: the creating process holds the game with it (service/log-cache.ts). */
  readonly secrets: GameSecrets;
}

/**
 * {@link createGame} without the write: every check and read happens here, outside any transaction
 * (on PGlite a read through `db.prisma` inside one would wait forever), so that a caller can write
 * several games and more in one transaction — createMatch writes its match row and all its games so.
 * `options.match`: the match the game belongs to and its place in it (the match row must be written
 * first, in the same transaction). Errors as createGame's.
 */
export async function prepareGame(
  deps: ServiceDeps,
  creatorId: string,
  input: NewGameInput,
  options: { readonly match?: { readonly id: string; readonly index: number } } = {},
): Promise<Result<PreparedGame, RuleError>> {
  const rules = rulesWithLayout(input);
  if (!rules.ok) return rules;
  const layout = rules.value.layout;
  const lexicon = await lexiconNamed(deps, input.lexicon);
  if (!lexicon.ok) return lexicon;
  const tc = validateTimeControl(input.timeControl ?? { kind: 'untimed' });
  if (!tc.ok) return tc;
  const badSeat = seatProblem(input);
  if (badSeat) return badSeat;
  const mySeat = (input.seat ?? 0) as Seat;
  const firstSeat = (input.firstSeat ?? 0) as Seat;
  const me = await findPlayerById(deps.db.prisma, creatorId);
  if (!me) return fail('PLAYER_NOT_FOUND', 'The calling player no longer exists.', { playerId: creatorId });
  const org = await organizationNamed(deps, input.organization);
  if (!org.ok) return org;
  const seated = await opponentFor(deps, input.opponent, me, lexicon.value);
  if (!seated.ok) return seated;
  const { opponent, robot } = seated.value;
  const rated = ratedCategory(
    { rated: input.rated, ruleSetId: rules.value.rules.id, overrides: input.overrides, layout, robot },
    'correspondence',
  );
  if (!rated.ok) return rated;
  const seed = seedSource();
  const now = deps.now();
  const lex = { name: lexicon.value.name, hash: lexicon.value.hash };
  const seats: (PlayerRow | null)[] = mySeat === 0 ? [me, opponent] : [opponent, me];
  const proposal: GameProposed = {
    type: 'game-proposed',
    rules: rules.value.rules,
    lexicon: lex,
    timeControl: tc.value,
    firstSeat,
    createdAt: now.toISOString(),
    ...(layout ? { layout } : {}),
  };
  const first = firstEvents(proposal, opponent ? [seats[0]!, seats[1]!] : null, seed);
  if (!first.ok) return first;
  const events = first.value;
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
        ruleSetId: rules.value.rules.id,
        ruleOverrides: (input.overrides ?? {}) as JsonObject,
        lexicon: { name: lex.name, contentHash: lex.hash },
        layoutHash: layout?.hash ?? null,
        status: update.status,
        turnSeat: update.turnSeat,
        deadlineAt: update.deadlineAt,
        bagSeedCommitment: commitment(seed),
        bagSeed: seed,
        seats: seats.map((p) => p?.id ?? null),
        ...(options.match ? { match: options.match } : {}),
        ...(org.value ? { organizationId: org.value.id } : {}),
        ...(input.allowHints ? { allowHints: true } : {}),
        ...(rated.value ? { ratingCategory: rated.value } : {}),
      },
      events.map(toStored),
      outbox,
    );
  };
  return ok({ id, opponentId: opponent?.id ?? null, robot, write, secrets: { bagSeed: seed } });
}

/**
 * Starts a proposed game whose seats are both taken: appends `game-created` and the opening draws
 * at the proposal's version. Safe to call twice (the second finds the game started).
 */
export const startProposed = async (deps: ServiceDeps, gameId: string, seats: readonly SeatHolder[]): Promise<Result<true, RuleError>> => {
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
      ...(proposal.layout ? { layout: proposal.layout } : {}),
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
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
  options: { readonly viaMatch?: string } = {},
): Promise<Result<GameSnapshot, RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const { matchId, matchIndex, scorekeeperId } = loaded.value.game;
  if (scorekeeperId !== null)
    return fail('RECORDED_GAME', 'A recorded over-the-board game is not joined: its scorekeeper names its players.', { gameId });
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
