import * as z from 'zod';
import { abortGame, claimTimeout, requestPause, respondToPause, resumeGame } from '../service/lifecycle.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { GAME_ERRORS, resultUnion } from './errors.js';
import { deps, GAME_ID, GameType, value } from './game.js';

/**
 * The lifecycle mutations of a game (issue 5): claimTimeout, requestPause, respondToPause, resume,
 * abortGame. Each answers the game as the caller sees it afterwards, or a typed error in its `…Result`
 * union (RuleViolation with the engine's code: NOT_OVERDUE, OWN_TURN, PAUSE_LIMIT_REACHED,
 * ABORT_TOO_LATE …; StaleVersionError when `expectedVersion` is given and another write came first).
 * Resigning is the `resign: true` turn action of submitTurn, open on either player's turn.
 */

const versionArg = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) =>
  t.arg.int({
    required: false,
    description: 'The `version` you decided on; if the game changed since, STALE_VERSION. Default: the version now.',
    validate: z.number().int().min(0).nullish(),
  });

builder.mutationFields((t) => ({
  claimTimeout: t.field({
    type: GameType,
    description:
      'Claims the game on time: allowed to the opponent of the player to move once the deadline (turn time + their bank) has passed. The player to move loses (reason timed-out) — unless you have already played out and only their final pass or challenge is pending: then they are passed for and the game ends as played out. Before the deadline: NOT_OVERDUE with details.deadline.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('ClaimTimeoutResult', 'Game') },
    args: { gameId: t.arg.id({ required: true, description: GAME_ID }), expectedVersion: versionArg(t) },
    resolve: async (_root, args, ctx) =>
      value(
        await claimTimeout(deps(ctx), requirePlayer(ctx).player.id, String(args.gameId), {
          expectedVersion: args.expectedVersion ?? null,
        }),
      ),
  }),
  abortGame: t.field({
    type: GameType,
    description:
      'Cancels the game before its first turn (either player): it ends with reason aborted and no winner. After the first turn: ABORT_TOO_LATE (resign instead).',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('AbortGameResult', 'Game') },
    args: { gameId: t.arg.id({ required: true, description: GAME_ID }), expectedVersion: versionArg(t) },
    resolve: async (_root, args, ctx) =>
      value(
        await abortGame(deps(ctx), requirePlayer(ctx).player.id, String(args.gameId), {
          expectedVersion: args.expectedVersion ?? null,
        }),
      ),
  }),
}));

// The pause handshake of a correspondence game.
builder.mutationFields((t) => ({
  requestPause: t.field({
    type: GameType,
    description:
      'Asks your opponent to stop the clock for `seconds` (at least 3600, at most what is left of the game’s pause time). The clock keeps running until they accept (respondToPause). A request lapses when the turn passes.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('RequestPauseResult', 'Game') },
    args: {
      gameId: t.arg.id({ required: true, description: GAME_ID }),
      seconds: t.arg.int({
        required: true,
        description:
          'How long the pause may last, in seconds: at least 3600, at most what is left of the game’s pause allowance (GamePause.secondsLeft).',
      }),
      expectedVersion: versionArg(t),
    },
    resolve: async (_root, args, ctx) =>
      value(
        await requestPause(deps(ctx), requirePlayer(ctx).player.id, String(args.gameId), args.seconds, {
          expectedVersion: args.expectedVersion ?? null,
        }),
      ),
  }),
  respondToPause: t.field({
    type: GameType,
    description: 'Answers your opponent’s pause request: accept = true stops the clock now for the seconds asked; false declines.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('RespondToPauseResult', 'Game') },
    args: {
      gameId: t.arg.id({ required: true, description: GAME_ID }),
      accept: t.arg.boolean({ required: true, description: 'true: accept, and the clock stops now; false: decline.' }),
      expectedVersion: versionArg(t),
    },
    resolve: async (_root, args, ctx) =>
      value(
        await respondToPause(deps(ctx), requirePlayer(ctx).player.id, String(args.gameId), args.accept, {
          expectedVersion: args.expectedVersion ?? null,
        }),
      ),
  }),
  resume: t.field({
    type: GameType,
    description:
      'Ends a running pause early (either player): the clock runs again now, and only the time actually paused counts against the game’s allowance.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('ResumeResult', 'Game') },
    args: { gameId: t.arg.id({ required: true, description: GAME_ID }), expectedVersion: versionArg(t) },
    resolve: async (_root, args, ctx) =>
      value(
        await resumeGame(deps(ctx), requirePlayer(ctx).player.id, String(args.gameId), {
          expectedVersion: args.expectedVersion ?? null,
        }),
      ),
  }),
}));
