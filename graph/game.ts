import { formatBoard, formatSquare, type Board } from '../engine/board.js';
import type { RuleError } from '../engine/errors.js';
import type { Adjustment } from '../engine/game/events.js';
import type { GameResult, TurnRecord } from '../engine/game/state.js';
import type { ReplayErrorItem, ReplayMismatch } from '../engine/gcg/replay.js';
import type { Result } from '../engine/result.js';
import { joinTiles } from '../engine/tiles.js';
import { gameRecord, importGame, type GameRecord } from '../service/game-record.js';
import type { ServiceDeps } from '../service/context.js';
import { createGame, joinGame } from '../service/game-create.js';
import { getGame, isSeatView, myGames, type GameSnapshot, type SeatHolder } from '../service/game-reads.js';
import { gameAfterTurn, submitTurn } from '../service/turns.js';
import { builder } from './builder.js';
import { connectionOf, requireForward } from './connection.js';
import { requirePlayer, type Context } from './context.js';
import {
  ArbiterError,
  ErrorInterface,
  GAME_ERRORS,
  NotFoundError,
  RuleViolation,
  UnauthenticatedError,
  ForbiddenError,
  ValidationError,
  unwrap,
} from './errors.js';
import { GamePauseType, TimeControlType } from './game-clock.js';
import { CreateGameInput, ImportGameInput, newGameOf, SubmitTurnInput, turnActionOf } from './game-inputs.js';
import { PlayerType } from './players.js';
import { RuleSetType, ScoredWordType } from './rules.js';

/**
 * Games (issue 4): `game`, `myGames`, `gameRecord`; `createGame`, `joinGame`, `submitTurn`,
 * `importGame`. Every field reads through the game use cases (service/game-*.ts, turns.ts), which hands out only the caller's
 * view of a game: their own rack when seated, never the other rack, the bag order or the seed
 * (revealed in `result.bagSeed` once the game is over). Reading needs the API scope games:read,
 * playing games:play (a signed-in player holds both).
 */

export const deps = (ctx: Context): ServiceDeps => ({ db: ctx.db, lexicons: ctx.lexicons, now: ctx.now });

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

const GameLexiconType = builder.objectRef<{ name: string; hash: string }>('GameLexicon').implement({
  description: 'The word list a game is judged with, by name and content hash.',
  fields: (t) => ({ name: t.exposeString('name'), hash: t.exposeString('hash') }),
});

interface SeatShape {
  readonly holder: SeatHolder;
  readonly game: GameSnapshot;
}

const GameSeatType = builder.objectRef<SeatShape>('GameSeat').implement({
  fields: (t) => ({
    seat: t.int({ resolve: (s) => s.holder.seat }),
    player: t.field({
      type: PlayerType,
      nullable: true,
      description: 'null: the seat is open (joinGame).',
      resolve: (s) => s.holder.player,
    }),
    isMe: t.boolean({ resolve: (s) => s.game.mySeat === s.holder.seat }),
    score: t.int({ resolve: (s) => s.game.view?.scores[s.holder.seat] ?? 0 }),
    rackSize: t.int({
      description: 'How many tiles the seat holds (never which).',
      resolve: (s) => s.game.view?.rackSizes[s.holder.seat] ?? 0,
    }),
  }),
});

const BoardTileType = builder.objectRef<{ row: number; col: number; letter: string; blank: boolean }>('BoardTile').implement({
  fields: (t) => ({
    square: t.string({ description: 'e.g. H8.', resolve: (x) => formatSquare(x) }),
    row: t.exposeInt('row', { description: '0-based, top row 0.' }),
    col: t.exposeInt('col', { description: '0-based, column A = 0.' }),
    letter: t.exposeString('letter', { description: 'The letter it stands for (a blank’s chosen letter).' }),
    blank: t.exposeBoolean('blank'),
  }),
});

export const BoardType = builder.objectRef<Board>('Board').implement({
  fields: (t) => ({
    rows: t.stringList({
      description: 'One string per row, top first: letters, lowercase for blanks, `.` for empty squares.',
      resolve: (b) => formatBoard(b).split('\n'),
    }),
    tiles: t.field({
      type: [BoardTileType],
      description: 'Every tile on the board, row by row.',
      resolve: (b) => {
        const n = b.layout.rows.length;
        return b.cells.flatMap((c, i) => (c ? [{ row: Math.floor(i / n), col: i % n, letter: c.letter, blank: c.blank }] : []));
      },
    }),
    layout: t.string({ resolve: (b) => b.layout.name }),
  }),
});

const TileCountType = builder.objectRef<{ tile: string; count: number }>('TileCount').implement({
  fields: (t) => ({ tile: t.exposeString('tile', { description: 'A letter, or ? for a blank.' }), count: t.exposeInt('count') }),
});

const GameMoveType = builder.objectRef<TurnRecord>('GameMove').implement({
  description: 'One line of the score sheet.',
  fields: (t) => ({
    seat: t.exposeInt('seat'),
    kind: t.exposeString('kind', {
      description: 'play, exchange, pass, challenge, phony-withdrawn, turn-lost, challenge-points, time-penalty, end-adjustment, ruling.',
    }),
    notation: t.string({ description: '8H WORD, -ABC (your own exchange) or -3, -, …', resolve: (m) => m.move }),
    score: t.exposeInt('score'),
    cumulative: t.exposeInt('cumulative', { description: 'The seat’s total after this line.' }),
    words: t.field({
      type: [ScoredWordType],
      description: 'For a play: main word first, then cross words.',
      resolve: (m) => [...(m.words ?? [])],
    }),
    tiles: t.string({
      nullable: true,
      description: 'Exchanged tiles (your own exchanges only) or the rack counted at the end.',
      resolve: (m) => (m.tiles ? joinTiles(m.tiles) : null),
    }),
    count: t.int({ nullable: true, description: 'How many tiles were exchanged.', resolve: (m) => m.count ?? null }),
  }),
});

const AdjustmentType = builder.objectRef<Adjustment>('EndAdjustment').implement({
  fields: (t) => ({
    seat: t.exposeInt('seat'),
    points: t.exposeInt('points'),
    kind: t.exposeString('kind', { description: 'opponent-rack (for going out) or own-rack (a deduction).' }),
    tiles: t.string({ description: 'The rack counted.', resolve: (a) => joinTiles(a.tiles) }),
  }),
});

const GameOutcomeType = builder.objectRef<GameResult>('GameOutcome').implement({
  fields: (t) => ({
    reason: t.exposeString('reason', {
      description: 'went-out, scoreless-turns, consecutive-exchanges, resigned, timed-out, forfeited, challenge-lost, ruling, aborted.',
    }),
    winner: t.int({ nullable: true, description: 'The winning seat; null for a tie or an aborted game.', resolve: (r) => r.winner }),
    loser: t.int({
      nullable: true,
      description: 'The seat that lost regardless of score (resigned …); else null.',
      resolve: (r) => r.loser,
    }),
    adjustments: t.field({ type: [AdjustmentType], resolve: (r) => [...r.adjustments] }),
    scoresBeforeAdjustments: t.intList({ resolve: (r) => [...r.scoresBeforeAdjustments] }),
    bagSeed: t.string({
      nullable: true,
      description: 'The bag seed, revealed at the end: sha256(bagSeed) = bagCommitment, and every draw can be re-derived.',
      resolve: (r) => r.seed,
    }),
  }),
});

const counted = (tiles: readonly string[]): { tile: string; count: number }[] => {
  const out: { tile: string; count: number }[] = [];
  for (const t of tiles) {
    const last = out[out.length - 1];
    if (last && last.tile === t) last.count++;
    else out.push({ tile: t, count: 1 });
  }
  return out;
};

export const GameType = builder.objectRef<GameSnapshot>('Game').implement({
  description: 'A game as you may see it: your own rack if you play in it, never the other player’s, nor the bag order.',
  fields: (t) => ({
    id: t.exposeID('id'),
    version: t.exposeInt('version', { description: 'Number of events so far: send it as expectedVersion with your next turn.' }),
    status: t.exposeString('status', {
      description: 'open (waiting for a player), playing, waiting-final (last tile played: pass or challenge), ended.',
    }),
    ruleSet: t.field({ type: RuleSetType, resolve: (g) => g.rules }),
    lexicon: t.field({ type: GameLexiconType, resolve: (g) => g.lexicon }),
    timeControl: t.field({ type: TimeControlType, resolve: (g) => ({ tc: g.timeControl, clock: g.clock }) }),
    seats: t.field({ type: [GameSeatType], resolve: (g) => g.seats.map((holder) => ({ holder, game: g })) }),
    mySeat: t.int({ nullable: true, description: 'Your seat; null when you are a spectator.', resolve: (g) => g.mySeat }),
    board: t.field({ type: BoardType, nullable: true, description: 'null while the game is open.', resolve: (g) => g.view?.board ?? null }),
    scores: t.intList({ description: 'By seat.', resolve: (g) => (g.view ? [...g.view.scores] : [0, 0]) }),
    myRack: t.string({
      nullable: true,
      description: 'Your tiles (`?` a blank); null for a spectator.',
      resolve: (g) => (g.view && isSeatView(g.view) ? joinTiles(g.view.rack) : null),
    }),
    bagCount: t.int({ description: 'Tiles left in the bag.', resolve: (g) => g.view?.bagCount ?? 0 }),
    unseenTiles: t.field({
      type: [TileCountType],
      description:
        'Tiles you have not seen (the bag and the opponent’s rack together), by tile; for a spectator, everything off the board.',
      resolve: (g) => (g.view ? counted(g.view.unseen) : []),
    }),
    whoseTurn: t.int({
      nullable: true,
      description: 'The seat to move; null when the game is open or over.',
      resolve: (g) => (g.view && g.status !== 'ended' ? g.view.turn : null),
    }),
    isMyTurn: t.boolean({ resolve: (g) => g.view !== null && g.status !== 'ended' && g.mySeat === g.view.turn }),
    deadline: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'correspondence: when the player to move loses on time — the turn’s start + turnSeconds + their bank remaining; while paused, frozen at the pause’s end + the time that was left. null for untimed games and once the game is over.',
      resolve: (g) => g.deadlineAt,
    }),
    paused: t.boolean({ description: 'The clock is stopped by a pause both players agreed to.', resolve: (g) => g.clock?.paused ?? false }),
    pause: t.field({
      type: GamePauseType,
      nullable: true,
      description: 'correspondence: the pause state and allowance; null otherwise.',
      resolve: (g) => g.clock,
    }),
    legalActions: t.stringList({
      description:
        'What you may do now: play, exchange, pass, challenge, resign, free-trade, blank-substitution (submitTurn); abort (abortGame, before the first turn); claim-timeout (claimTimeout); request-pause, accept-pause, decline-pause (requestPause, respondToPause); resume. Empty for spectators.',
      resolve: (g) => (g.view && isSeatView(g.view) ? [...g.view.legalActions] : []),
    }),
    lastMove: t.field({ type: GameMoveType, nullable: true, resolve: (g) => g.view?.lastMove ?? null }),
    history: t.field({
      type: [GameMoveType],
      description: 'Every line of the score sheet, in order.',
      resolve: (g) => [...(g.view?.history ?? [])],
    }),
    result: t.field({
      type: GameOutcomeType,
      nullable: true,
      description: 'Set once the game is over.',
      resolve: (g) => g.view?.result ?? null,
    }),
    bagCommitment: t.string({
      nullable: true,
      description: 'sha256 of the secret bag seed, published at creation (null for imported games).',
      resolve: (g) => g.bagCommitment,
    }),
    imported: t.exposeBoolean('imported'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const GameRecordType = builder.objectRef<GameRecord>('GameRecord').implement({
  description: 'A game as GCG: your own racks while it is on, every rack and the bag seed once it is over.',
  fields: (t) => ({
    gameId: t.exposeID('gameId'),
    gcg: t.exposeString('gcg'),
    complete: t.exposeBoolean('complete'),
    bagSeed: t.string({ nullable: true, resolve: (r) => r.bagSeed }),
  }),
});

const ReplayMismatchType = builder.objectRef<ReplayMismatch>('ReplayMismatch').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    line: t.exposeInt('line'),
    player: t.exposeString('player'),
    expected: t.string({ description: 'What the record says.', resolve: (m) => String(m.expected) }),
    actual: t.string({ description: 'What the engine computed.', resolve: (m) => String(m.actual) }),
    reason: t.exposeString('reason'),
  }),
});

const ReplayProblemType = builder.objectRef<ReplayErrorItem>('ReplayProblem').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    line: t.int({ nullable: true, resolve: (p) => p.line }),
  }),
});

builder.objectType(ImportRejectedError, {
  name: 'ImportRejected',
  description: 'The GCG record does not replay under the rules: every mismatch (scores, totals, end adjustments) and error, with its line.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    mismatches: t.field({ type: [ReplayMismatchType], resolve: (e) => [...e.mismatches] }),
    problems: t.field({ type: [ReplayProblemType], resolve: (e) => [...e.problems] }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Queries

const READ_ERRORS = [UnauthenticatedError, ForbiddenError, NotFoundError, RuleViolation];

builder.queryFields((t) => ({
  game: t.field({
    type: GameType,
    description: 'A game as you see it: with your rack if you play in it, as a spectator otherwise.',
    authScopes: { scope: 'games:read' },
    errors: { types: READ_ERRORS, directResult: true, union: { name: 'GameResult' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => value(await getGame(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  gameRecord: t.field({
    type: GameRecordType,
    description: 'The game as a GCG record. While it is on, only your own racks are shown; once over, every rack and the bag seed.',
    authScopes: { scope: 'games:read' },
    errors: { types: READ_ERRORS, directResult: true, union: { name: 'GameRecordResult' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => value(await gameRecord(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  myGames: t.connection({
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
  }),
}));

// ---------------------------------------------------------------------------------------------
// Mutations

builder.mutationFields((t) => ({
  createGame: t.field({
    type: GameType,
    description: 'Creates a game with you in a seat: against a named opponent (it starts at once) or with an open seat (joinGame).',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: { name: 'CreateGameResult' } },
    args: { input: t.arg({ type: CreateGameInput, required: true }) },
    resolve: async (_root, { input }, ctx) => value(await createGame(deps(ctx), requirePlayer(ctx).player.id, newGameOf(input))),
  }),
  joinGame: t.field({
    type: GameType,
    description: 'Takes the open seat of a game; the game starts at once.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: { name: 'JoinGameResult' } },
    args: { gameId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => value(await joinGame(deps(ctx), requirePlayer(ctx).player.id, String(args.gameId))),
  }),
  submitTurn: t.field({
    type: GameType,
    description:
      'Your turn, for your own seat: play, exchange, pass, challenge or resign. Answers the game as you see it after the turn; a retry with the same idempotencyKey answers the same again without a second turn.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: { name: 'SubmitTurnResult' } },
    args: { input: t.arg({ type: SubmitTurnInput, required: true }) },
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
    errors: { types: [...GAME_ERRORS, ImportRejectedError], directResult: true, union: { name: 'ImportGameResult' } },
    args: { input: t.arg({ type: ImportGameInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      value(
        await importGame(deps(ctx), requirePlayer(ctx).player.id, input.gcg, {
          lexicon: input.lexicon ?? null,
          seat: (input.seat ?? null) as 0 | 1 | null,
        }),
      ),
  }),
}));
