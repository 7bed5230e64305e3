import type { RuleError } from '../engine/errors.js';
import type { ReplayErrorItem, ReplayMismatch } from '../engine/gcg/replay.js';
import type { Result } from '../engine/result.js';
import { joinTiles } from '../engine/tiles.js';
import { gameRecord, importGame, type GameRecord } from '../service/game-record.js';
import type { ServiceDeps } from '../service/context.js';
import { createGame, joinGame } from '../service/game-create.js';
import { getGame, isSeatView, myGames, type GameSnapshot } from '../service/game-reads.js';
import { gameAfterTurn, submitTurn } from '../service/turns.js';
import { builder } from './builder.js';
import { connectionOf, requireForward } from './connection.js';
import { requirePlayer, requireScope, type Context } from './context.js';
import { GameActionEnum, GameStateEnum } from './enums.js';
import {
  ArbiterError,
  ErrorInterface,
  GAME_ERRORS,
  NotFoundError,
  RateLimitedError,
  RuleViolation,
  UnauthenticatedError,
  ForbiddenError,
  ValidationError,
  resultUnion,
  unwrap,
} from './errors.js';
import { enforceRateLimit } from './rate-limit.js';
import { GamePauseType, TimeControlType } from './game-clock.js';
import { CreateGameInput, ImportGameInput, newGameOf, SubmitTurnInput, turnActionOf } from './game-inputs.js';
import { BoardType, counted, GameLexiconType, GameMoveType, GameOutcomeType, GameSeatType, seatsOf, TileCountType } from './game-parts.js';
import { RuleSetType } from './rules.js';

/**
 * Games (issue 4): `game`, `myGames`, `gameRecord`; `createGame`, `joinGame`, `submitTurn`,
 * `importGame`. Every field reads through the game use cases (service/game-*.ts, turns.ts), which hands out only the caller's
 * view of a game: their own rack when seated, never the other rack, the bag order or the seed
 * (revealed in `result.bagSeed` once the game is over). Reading needs the API scope games:read,
 * playing games:play (a signed-in player holds both).
 */

export const deps = (ctx: Context): ServiceDeps => ({
  db: ctx.db,
  lexicons: ctx.lexicons,
  now: ctx.now,
  ...(ctx.robotTurns ? { robotTurns: ctx.robotTurns } : {}),
});

// ---------------------------------------------------------------------------------------------
// Errors of their own

/** importGame: the record does not replay; every mismatch and error of the replay is listed. */
export class ImportRejectedError extends ArbiterError {
  readonly mismatches: readonly ReplayMismatch[];
  readonly problems: readonly ReplayErrorItem[];
  constructor(e: RuleError) {
    super(e.code, e.message, null, e.citation ?? null);
    this.mismatches = (e.details?.['mismatches'] as ReplayMismatch[] | undefined) ?? [];
    this.problems = (e.details?.['errors'] as ReplayErrorItem[] | undefined) ?? [];
  }
}

/** The value of a service result; BAD_INPUT becomes a ValidationError, the rest as graph/errors.ts maps them. */
export const value = <T>(r: Result<T, RuleError>): T => {
  if (r.ok) return r.value;
  if (r.error.code === 'BAD_INPUT')
    throw new ValidationError([{ field: `input.${String(r.error.details?.['field'] ?? '')}`, message: r.error.message }]);
  if (r.error.code === 'GCG_REPLAY_FAILED') throw new ImportRejectedError(r.error);
  return unwrap(r);
};

// ---------------------------------------------------------------------------------------------
// Types

/** The game `id` as the caller sees it (games:read): what game(id:) answers and node(id:) loads. */
const readGame = async (ctx: Context, id: string): Promise<Result<GameSnapshot, RuleError>> =>
  getGame(deps(ctx), requireScope(ctx, 'games:read').player.id, id);

/** A node loader's answer: the value, null when there is none (node(id:) answers null), or the typed error. */
export const valueOrNull = <T>(r: Result<T, RuleError>, valueOf: (r: Result<T, RuleError>) => T = value): T | null =>
  !r.ok && r.error.code.endsWith('_NOT_FOUND') ? null : valueOf(r);

export const GameType = builder.node(builder.objectRef<GameSnapshot>('Game'), {
  description:
    'A game as you may see it: your own rack if you play in it, never the other player’s, nor the bag order. A Node: node(id:) answers the same view as game(id:).',
  id: { resolve: (g) => g.id },
  loadOne: async (id, ctx) => valueOrNull(await readGame(ctx, id)),
  fields: (t) => ({
    version: t.exposeInt('version', {
      description: 'Number of events so far (0 or more): send it as expectedVersion with your next turn; any write raises it.',
    }),
    status: t.exposeString('status', {
      description: 'Where the game stands, in the old spelling: open, playing, waiting-final, ended.',
      deprecationReason: 'Use state (the GameState enum).',
    }),
    state: t.field({ type: GameStateEnum, description: 'Where the game stands.', resolve: (g) => g.status }),
    ruleSet: t.field({
      type: RuleSetType,
      description: 'The game’s rules: its preset with any overrides, fixed at creation.',
      resolve: (g) => g.rules,
    }),
    lexicon: t.field({ type: GameLexiconType, description: 'The word list its words are judged by.', resolve: (g) => g.lexicon }),
    timeControl: t.field({
      type: TimeControlType,
      description: 'How the game is timed, and a correspondence game’s clock now.',
      resolve: (g) => ({ tc: g.timeControl, clock: g.clock, readings: g.view?.clockReadings ?? null }),
    }),
    seats: t.field({ type: [GameSeatType], description: 'The two seats, seat 0 first.', resolve: seatsOf }),
    mySeat: t.int({ nullable: true, description: 'Your seat, 0 or 1; null when you are a spectator.', resolve: (g) => g.mySeat }),
    bagCommitment: t.string({
      nullable: true,
      description:
        'The hex sha256 of the secret bag seed, published at creation so that every draw can be checked once the seed is revealed (result.bagSeed); null for imported games.',
      resolve: (g) => g.bagCommitment,
    }),
    imported: t.exposeBoolean('imported', { description: 'The game was stored from a GCG record (importGame), not played here.' }),
    recorded: t.exposeBoolean('recorded', {
      description:
        'The game is played over the board and recorded live by its scorekeeper (createRecordedGame, recordMove), not played here.',
    }),
    rated: t.exposeBoolean('rated', {
      description:
        'Rated: the game’s end updates both players’ ratings in ratingCategory (docs/rated-play.md); false for a casual game. Fixed at creation.',
    }),
    ratingCategory: t.string({
      nullable: true,
      description: 'The rating category of a rated game: rule-set family/pace, e.g. tournament/correspondence; null for a casual game.',
      resolve: (g) => g.ratingCategory,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the game was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the game last changed.' }),
  }),
});

// The position and the score sheet, as the caller's view shows them (a second call keeps each function short).
builder.objectFields(GameType, (t) => ({
  board: t.field({
    type: BoardType,
    nullable: true,
    description: 'The board now; null while the game is open.',
    resolve: (g) => g.view?.board ?? null,
  }),
  scores: t.intList({ description: 'The scores by seat (index 0 = seat 0).', resolve: (g) => (g.view ? [...g.view.scores] : [0, 0]) }),
  myRack: t.string({
    nullable: true,
    description: 'Your tiles (`?` a blank, [CH] a digraph); null for a spectator and while the game is open.',
    resolve: (g) => (g.view && isSeatView(g.view) ? joinTiles(g.view.rack) : null),
  }),
  bagCount: t.int({ description: 'Tiles left in the bag (0 while the game is open).', resolve: (g) => g.view?.bagCount ?? 0 }),
  unseenTiles: t.field({
    type: [TileCountType],
    description: 'Tiles you have not seen (the bag and the opponent’s rack together), by tile; for a spectator, everything off the board.',
    resolve: (g) => (g.view ? counted(g.view.unseen) : []),
  }),
  whoseTurn: t.int({
    nullable: true,
    description: 'The seat to move, 0 or 1; null when the game is open or over.',
    resolve: (g) => (g.view && g.status !== 'ended' ? g.view.turn : null),
  }),
  isMyTurn: t.boolean({
    description: 'You hold the seat to move (false for spectators and once the game is over).',
    resolve: (g) => g.view !== null && g.status !== 'ended' && g.mySeat === g.view.turn,
  }),
  deadline: t.field({
    type: 'DateTime',
    nullable: true,
    description:
      'Correspondence games: when the player to move loses on time — the turn’s start + turnSeconds + their bank remaining; while paused, frozen at the pause’s end + the time that was left. null for untimed games and once the game is over.',
    resolve: (g) => g.deadlineAt,
  }),
  paused: t.boolean({ description: 'The clock is stopped by a pause both players agreed to.', resolve: (g) => g.clock?.paused ?? false }),
  pause: t.field({
    type: GamePauseType,
    nullable: true,
    description: 'Correspondence games: the pause state and what is left of the allowance; null for other games.',
    resolve: (g) => g.clock,
  }),
  legalActions: t.stringList({
    description:
      'What you may do now, in the old spelling: play, exchange, pass, challenge, resign, free-trade, blank-substitution, abort, claim-timeout, request-pause, accept-pause, decline-pause, resume.',
    deprecationReason: 'Use actions (the GameAction enum).',
    resolve: (g) => [...g.actions],
  }),
  actions: t.field({
    type: [GameActionEnum],
    description:
      'What you may do now, each naming the mutation that does it; empty for spectators and when nothing is allowed. On a recorded game: empty for its players (they act at the table), and for its scorekeeper the moves recordMove takes now (PLAY, EXCHANGE, PASS, CHALLENGE).',
    resolve: (g) => [...g.actions],
  }),
  lastMove: t.field({
    type: GameMoveType,
    nullable: true,
    description: 'The last line of the score sheet; null before the first turn.',
    resolve: (g) => g.view?.lastMove ?? null,
  }),
  history: t.field({
    type: [GameMoveType],
    description: 'Every line of the score sheet, in order.',
    resolve: (g) => [...(g.view?.history ?? [])],
  }),
  result: t.field({
    type: GameOutcomeType,
    nullable: true,
    description: 'How the game ended; null until it is over.',
    resolve: (g) => g.view?.result ?? null,
  }),
}));

const GameRecordType = builder.objectRef<GameRecord>('GameRecord').implement({
  description: 'A game as GCG: your own racks while it is on, every rack and the bag seed once it is over.',
  fields: (t) => ({
    gameId: t.exposeID('gameId', { description: 'The game’s id (Game.id).' }),
    gcg: t.exposeString('gcg', { description: 'The record as GCG text (docs/gcg.md).' }),
    complete: t.exposeBoolean('complete', { description: 'The game is over: every rack is shown, and the bag seed.' }),
    bagSeed: t.string({
      nullable: true,
      description: 'The bag seed (also in the record as #bag-seed) once the game is over; null before, and for imported games.',
      resolve: (r) => r.bagSeed,
    }),
  }),
});

const ReplayMismatchType = builder.objectRef<ReplayMismatch>('ReplayMismatch').implement({
  description: 'A number in a GCG record that the rules do not give: a score, a total or an end adjustment.',
  fields: (t) => ({
    code: t.exposeString('code', {
      description: 'What does not add up: SCORE_MISMATCH, CUMULATIVE_SCORE_MISMATCH, PENALTY_RACK_MISMATCH, PHONY_RETURNED_MISMATCH …',
    }),
    line: t.exposeInt('line', { description: 'The record’s line, 1-based.' }),
    player: t.exposeString('player', { description: 'The player the line belongs to, as the record names them.' }),
    expected: t.string({ description: 'What the record says.', resolve: (m) => String(m.expected) }),
    actual: t.string({ description: 'What the engine computed.', resolve: (m) => String(m.actual) }),
    reason: t.exposeString('reason', { description: 'A sentence explaining the difference.' }),
  }),
});

const ReplayProblemType = builder.objectRef<ReplayErrorItem>('ReplayProblem').implement({
  description: 'A GCG record line that could not be replayed at all (an illegal move, a tile not in the rack …).',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The engine’s error code, e.g. TILES_NOT_IN_RACK.' }),
    message: t.exposeString('message', { description: 'A sentence naming the line and what is wrong.' }),
    line: t.int({ nullable: true, description: 'The record’s line, 1-based; null when no one line is at fault.', resolve: (p) => p.line }),
  }),
});

builder.objectType(ImportRejectedError, {
  name: 'ImportRejected',
  description: 'The GCG record does not replay under the rules: every mismatch (scores, totals, end adjustments) and error, with its line.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    mismatches: t.field({
      type: [ReplayMismatchType],
      description: 'Every number the record gives that the rules do not.',
      resolve: (e) => [...e.mismatches],
    }),
    problems: t.field({
      type: [ReplayProblemType],
      description: 'Every line that could not be replayed.',
      resolve: (e) => [...e.problems],
    }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Queries

const READ_ERRORS = [UnauthenticatedError, ForbiddenError, NotFoundError, RuleViolation];
export const GAME_ID = 'The game’s id (Game.id).';

builder.queryFields((t) => ({
  game: t.field({
    type: GameType,
    description: 'A game as you see it: with your rack if you play in it, as a spectator otherwise. Needs games:read.',
    authScopes: { scope: 'games:read' },
    errors: { types: READ_ERRORS, directResult: true, union: resultUnion('GameResult', 'Game') },
    args: { id: t.arg.id({ required: true, description: GAME_ID }) },
    resolve: async (_root, args, ctx) => value(await readGame(ctx, String(args.id))),
  }),
  gameRecord: t.field({
    type: GameRecordType,
    description: 'The game as a GCG record. While it is on, only your own racks are shown; once over, every rack and the bag seed.',
    authScopes: { scope: 'games:read' },
    errors: { types: READ_ERRORS, directResult: true, union: resultUnion('GameRecordResult', 'GameRecord') },
    args: { id: t.arg.id({ required: true, description: GAME_ID }) },
    resolve: async (_root, args, ctx) => value(await gameRecord(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  myGames: t.connection(
    {
      type: GameType,
      description:
        'Your games as an inbox: awaiting your move first, then awaiting your opponent, then open seats, then finished games; in each group the soonest deadline first and untimed games last. Forward pagination (first, after).',
      authScopes: { scope: 'games:read' },
      resolve: async (_root, args, ctx) => {
        requireForward('myGames', args);
        return connectionOf(
          value(await myGames(deps(ctx), requirePlayer(ctx).player.id, { first: args.first ?? null, after: args.after ?? null })),
        );
      },
    },
    { description: 'A page of your games (myGames).' },
    { description: 'One of your games, with its cursor.' },
  ),
}));

// ---------------------------------------------------------------------------------------------
// Mutations

builder.mutationFields((t) => ({
  createGame: t.field({
    type: GameType,
    description: 'Creates a game with you in a seat: against a named opponent (it starts at once) or with an open seat (joinGame).',
    authScopes: { scope: 'games:play' },
    errors: { types: [...GAME_ERRORS, RateLimitedError], directResult: true, union: resultUnion('CreateGameResult', 'Game') },
    args: { input: t.arg({ type: CreateGameInput, required: true, description: 'The game’s settings.' }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'createGame');
      return value(await createGame(deps(ctx), requirePlayer(ctx).player.id, newGameOf(input)));
    },
  }),
  joinGame: t.field({
    type: GameType,
    description: 'Takes the open seat of a game; the game starts at once.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('JoinGameResult', 'Game') },
    args: { gameId: t.arg.id({ required: true, description: GAME_ID }) },
    resolve: async (_root, args, ctx) => value(await joinGame(deps(ctx), requirePlayer(ctx).player.id, String(args.gameId))),
  }),
  submitTurn: t.field({
    type: GameType,
    description:
      'Your turn, for your own seat: play, exchange, pass, challenge or resign. Answers the game as you see it after the turn; a retry with the same idempotencyKey answers the same again without a second turn.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('SubmitTurnResult', 'Game') },
    args: { input: t.arg({ type: SubmitTurnInput, required: true, description: 'The game, the version you saw, and the action.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requirePlayer(ctx).player.id;
      const d = deps(ctx);
      const turn = value(
        await submitTurn(d, me, {
          gameId: String(input.gameId),
          expectedVersion: input.expectedVersion,
          idempotencyKey: input.idempotencyKey,
          action: turnActionOf(input.action),
        }),
      );
      // A turn played now answers from the state it computed; a replayed retry rebuilds the same view.
      return turn.game ?? value(await gameAfterTurn(d, me, turn.receipt));
    },
  }),
  importGame: t.field({
    type: GameType,
    description: 'Stores a GCG record as a finished game, after replaying it through the rules (every score checked).',
    authScopes: { scope: 'games:play' },
    errors: {
      types: [...GAME_ERRORS, ImportRejectedError, RateLimitedError],
      directResult: true,
      union: resultUnion('ImportGameResult', 'Game'),
    },
    args: { input: t.arg({ type: ImportGameInput, required: true, description: 'The record, and your seat in it.' }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'importGame');
      return value(
        await importGame(deps(ctx), requirePlayer(ctx).player.id, input.gcg, {
          lexicon: input.lexicon ?? null,
          seat: (input.seat ?? null) as 0 | 1 | null,
          tileSet: input.tileSet ?? null,
        }),
      );
    },
  }),
}));
