import * as z from 'zod';
import { joinTiles } from '../engine/tiles.js';
import { hundredths, type RankedMove, type TurnAnalysis } from '../engine/movegen/analysis.js';
import {
  analyzePosition,
  gameAnalysis,
  gameCgp,
  MAX_ANALYSIS_TOP,
  type AnalysisResult,
  type AnalysisSource,
  type GameAnalysis,
} from '../service/analysis.js';
import { builder } from './builder.js';
import { requireScope } from './context.js';
import { AnalyzedMoveKindEnum } from './enums.js';
import { GAME_ERRORS, RateLimitedError, resultUnion, ValidationError } from './errors.js';
import { deps, GameType, value } from './game.js';
import { enforceRateLimit } from './rate-limit.js';

/**
 * Position analysis (issue 19): `analyzePosition`, `gameAnalysis` and the `cgp` field of a game, over
 * service/analysis.ts. A live game is refused with ANALYSIS_NOT_ALLOWED (a RuleViolation) except to its
 * player against a robot when the game allows hints; each query takes a token of the `analysis` limit.
 */

const AnalyzedMoveType = builder.objectRef<RankedMove>('AnalyzedMove').implement({
  description: 'One legal move of a position with its score, the tiles it keeps and its equity.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Its place among every move of the position by equity: 1 is the best.' }),
    kind: t.field({ type: AnalyzedMoveKindEnum, description: 'A play, an exchange or the pass.', resolve: (m) => m.kind }),
    notation: t.exposeString('notation', { description: 'The move in GCG notation: `8H QI.S`, `-AEIU`, `-`.' }),
    score: t.exposeInt('score', { description: 'Points it scores (0 for an exchange or a pass).' }),
    leave: t.string({ description: 'The tiles it keeps on the rack (`?` a blank).', resolve: (m) => joinTiles(m.leave) }),
    equity: t.exposeFloat('equity', { description: 'Score plus the value of the leave (docs/movegen.md: static equity).' }),
    tilesPlayed: t.exposeInt('tilesPlayed', { description: 'Tiles put on the board.' }),
  }),
});

const PositionAnalysisType = builder.objectRef<AnalysisResult>('PositionAnalysis').implement({
  description: 'The moves of a position ranked by equity, and where the move actually made stands among them.',
  fields: (t) => ({
    cgp: t.exposeString('cgp', { description: 'The position as a CGP line, with only the rack of the player to move.' }),
    moveCount: t.exposeInt('moveCount', { description: 'How many legal moves the position has (plays, exchanges, the pass).' }),
    moves: t.field({ type: [AnalyzedMoveType], description: 'The best moves, best first.', resolve: (a) => [...a.top] }),
    played: t.field({
      type: AnalyzedMoveType,
      nullable: true,
      description: 'The move actually made here, with its rank; null when the source does not say or it is not a legal move (a phony).',
      resolve: (a) => a.made,
    }),
    playedKnown: t.boolean({ description: 'The source says which move was made here (a CGP line does not).', resolve: (a) => a.madeKnown }),
    equityLost: t.float({
      nullable: true,
      description: 'Best equity minus the equity of the move made; null when that move is not known.',
      resolve: (a) => (a.made && a.top[0] ? hundredths(a.top[0].equity - a.made.equity) : null),
    }),
  }),
});

const TurnAnalysisType = builder.objectRef<TurnAnalysis>('TurnAnalysis').implement({
  description: 'One turn of a game: the move made, the best one, and the equity the choice cost.',
  fields: (t) => ({
    version: t.int({ description: 'The game’s version before the move (analyzePosition takes it).', resolve: (x) => x.point.version }),
    seat: t.int({ description: 'The seat that moved.', resolve: (x) => x.point.seat }),
    played: t.field({
      type: AnalyzedMoveType,
      nullable: true,
      description: 'The move made, with its rank; null when it is not a legal move (a phony that stood).',
      resolve: (x) => x.made,
    }),
    best: t.field({ type: AnalyzedMoveType, description: 'The best move by equity.', resolve: (x) => x.best }),
    equityLost: t.float({
      nullable: true,
      description: 'The best move’s equity minus the played move’s; null when played is null.',
      resolve: (x) => x.equityLost,
    }),
  }),
});

const GameAnalysisType = builder.objectRef<GameAnalysis>('GameAnalysis').implement({
  description: 'A game turn by turn: what was played, what was best, what it cost.',
  fields: (t) => ({
    gameId: t.exposeID('gameId', { description: 'The game.' }),
    turns: t.field({ type: [TurnAnalysisType], description: 'Every move made with a known rack, in order.', resolve: (g) => [...g.turns] }),
    totalEquityLost: t.floatList({
      description: 'Per seat (0, 1): the sum of equityLost over its turns.',
      resolve: (g) =>
        [0, 1].map((s) => hundredths(g.turns.filter((x) => x.point.seat === s).reduce((sum, x) => sum + (x.equityLost ?? 0), 0))),
    }),
  }),
});

const AnalyzePositionInput = builder.inputType('AnalyzePositionInput', {
  description: 'The position to analyse: exactly one of gameId, gcg or cgp.',
  fields: (t) => ({
    gameId: t.id({ required: false, description: 'A game: its position at `version`.' }),
    version: t.int({ required: false, description: 'With gameId: the game’s version (default: now).' }),
    gcg: t.string({
      required: false,
      description: 'A GCG record: its position before move `turn`.',
      validate: z.string().max(200_000).nullish(),
    }),
    turn: t.int({ required: false, description: 'With gcg: the move, 1 = the first with a known rack.' }),
    cgp: t.string({
      required: false,
      description: 'A CGP line (its first rack is the player to move).',
      validate: z.string().max(2_000).nullish(),
    }),
    lexicon: t.string({
      required: false,
      description: 'With gcg or cgp: the lexicon (default: the CGP’s `lex`, else the server’s default).',
    }),
    top: t.int({ required: false, description: `How many moves to list, 1 to ${MAX_ANALYSIS_TOP} (default 10).` }),
  }),
});

const sourceOf = (input: (typeof AnalyzePositionInput)['$inferInput']): AnalysisSource => {
  const given = [input.gameId, input.gcg, input.cgp].filter((x) => x != null).length;
  if (given !== 1) throw new ValidationError([{ field: 'input', message: 'Give exactly one of gameId, gcg or cgp.' }]);
  if (input.gameId != null) return { kind: 'game', gameId: String(input.gameId), version: input.version ?? null };
  if (input.gcg != null) {
    if (input.turn == null) throw new ValidationError([{ field: 'input.turn', message: 'A GCG record needs the turn to analyse.' }]);
    return { kind: 'gcg', gcg: input.gcg, turn: input.turn, lexicon: input.lexicon ?? null };
  }
  return { kind: 'cgp', cgp: input.cgp!, lexicon: input.lexicon ?? null };
};

const ANALYSIS_ERRORS = [...GAME_ERRORS, RateLimitedError];

builder.queryFields((t) => ({
  analyzePosition: t.field({
    type: PositionAnalysisType,
    description:
      'The best moves of a position by equity, and the rank of the move made there. A live game: ANALYSIS_NOT_ALLOWED, except for your own turns against a robot in a game created with allowHints; after the game, anyone may.',
    authScopes: { scope: 'games:read' },
    errors: { types: ANALYSIS_ERRORS, directResult: true, union: resultUnion('AnalyzePositionResult', 'PositionAnalysis') },
    args: { input: t.arg({ type: AnalyzePositionInput, required: true, description: 'The position and how many moves to list.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requireScope(ctx, 'games:read').player.id;
      const source = sourceOf(input);
      await enforceRateLimit(ctx, 'analysis');
      return value(await analyzePosition(deps(ctx), me, source, { top: input.top ?? null }));
    },
  }),
  gameAnalysis: t.field({
    type: GameAnalysisType,
    description: 'Every turn of a game: the move made, the best move, the equity lost. The same rule as analyzePosition for a live game.',
    authScopes: { scope: 'games:read' },
    errors: { types: ANALYSIS_ERRORS, directResult: true, union: resultUnion('GameAnalysisResult', 'GameAnalysis') },
    args: { gameId: t.arg.id({ required: true, description: 'The game’s id.' }) },
    resolve: async (_root, args, ctx) => {
      const me = requireScope(ctx, 'games:read').player.id;
      await enforceRateLimit(ctx, 'analysis');
      return value(await gameAnalysis(deps(ctx), me, String(args.gameId)));
    },
  }),
}));

builder.objectField(GameType, 'cgp', (t) =>
  t.string({
    nullable: true,
    description:
      'The position as a CGP line (docs/movegen.md), from your side: your rack only (a spectator’s line has none). Null while open.',
    resolve: async (g, _args, ctx) => value(await gameCgp(deps(ctx), g.id, g.version, g.mySeat)),
  }),
);
