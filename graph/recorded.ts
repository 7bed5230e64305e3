import * as z from 'zod';
import { createRecordedGame, recordMove, type RecordedEntryText } from '../service/recorded-games.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH, gameAfterTurn } from '../service/turns.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { RuleSetPresetEnum } from './enums.js';
import { GAME_ERRORS, RateLimitedError, resultUnion, ValidationError } from './errors.js';
import { deps, GameType, value } from './game.js';
import { enforceRateLimit } from './rate-limit.js';

/**
 * Over-the-board games recorded live (issue 14 item 1, docs/recorded.md): `createRecordedGame` and
 * `recordMove`. The move input mirrors submitTurn's action (play, exchange, pass, challenge), with
 * what only a table knows: the announced score, an exchange's count, a challenge's result.
 */

const seatSchema = z.number().int().min(0, 'A seat is 0 or 1.').max(1, 'A seat is 0 or 1.');

const RecordedPlayerInput = builder.inputType('RecordedPlayerInput', {
  description: 'A player at the table: an account (handle: seated, the game is in their list) or just a name.',
  fields: (t) => ({
    handle: t.string({ required: false, description: 'The player’s handle, if they have an account.' }),
    name: t.string({
      required: false,
      description: 'The player’s name (required without a handle; with one, it replaces the display name in the record).',
      validate: z.string().trim().max(64).nullish(),
    }),
  }),
});

const CreateRecordedGameInput = builder.inputType('CreateRecordedGameInput', {
  description: 'An over-the-board game to record live: you are its scorekeeper.',
  fields: (t) => ({
    preset: t.field({ type: RuleSetPresetEnum, required: false, description: 'The rule-set preset (default NSA_2008).' }),
    overrides: t.field({ type: 'JSON', required: false, description: 'Rule-set overrides, nested like the rule set (as in createGame).' }),
    lexicon: t.string({
      required: false,
      description: 'Lexicon name (default: the server’s default); words are judged only by challenges.',
    }),
    players: t.field({
      type: [RecordedPlayerInput],
      description: 'The two players, seat 0 first.',
      validate: z.array(z.any()).length(2, 'A recorded game has two players.'),
    }),
    firstSeat: t.int({ required: false, description: 'The seat that moves first, 0 or 1 (default 0).', validate: seatSchema.nullish() }),
    clockMinutes: t.int({
      required: false,
      description:
        'Minutes on each player’s clock at the table (1–1440; NASPA and WESPA: 25, the rule set’s time.gameMinutes). With it, each move may carry the mover’s clock reading (entry.time) and overtime is charged at the end by the rule set; without it the game is untimed.',
    }),
    organization: t.id({
      required: false,
      description:
        'The club or event the game is played under (Organization.id), as for createGame: its directors may rule on the game’s disputes.',
    }),
    rated: t.boolean({
      required: false,
      description:
        'Rated (default false): its end updates both players’ ratings in the rule-set family’s recorded category (docs/rated-play.md). Both players must be accounts (RATED_NO_ACCOUNT); no overrides (RATED_OVERRIDES).',
    }),
  }),
});

const RecordedPlayInput = builder.inputType('RecordedPlayInput', {
  description: 'A play made at the table.',
  fields: (t) => ({
    move: t.string({
      description: 'As in submitTurn: `8H WORD` across, `H8 WORD` down; lowercase = blank; `.` or (…) = a tile already on the board.',
      validate: z.string().trim().min(1).max(64),
    }),
    score: t.int({
      required: false,
      description: 'The score announced at the table; if the engine’s differs the move is refused (SCORE_MISMATCH).',
    }),
  }),
});

const RecordedExchangeInput = builder.inputType('RecordedExchangeInput', {
  description: 'An exchange made at the table: how many tiles, and their faces if the scorekeeper saw them.',
  fields: (t) => ({
    count: t.int({ description: 'How many tiles were exchanged.', validate: z.number().int().min(1).max(32) }),
    tiles: t.string({
      required: false,
      description: 'The tiles put back, if known: `AEI`, `?` a blank.',
      validate: z.string().trim().max(32).nullish(),
    }),
  }),
});

const RecordedChallengeResultEnum = builder.enumType('RecordedChallengeResult', {
  description: 'What the word judge said about a challenged play at the table.',
  values: {
    PLAY_REMOVED: {
      value: 'play-removed' as const,
      description: 'A word was not acceptable: the play comes off the board, its score is taken back.',
    },
    PLAY_STANDS: {
      value: 'play-stands' as const,
      description: 'Every word challenged was acceptable: the play stands and the challenger pays as the rule set says.',
    },
  },
});

const RecordedChallengeInput = builder.inputType('RecordedChallengeInput', {
  description: 'A challenge of the last play, and its result.',
  fields: (t) => ({
    result: t.field({ type: RecordedChallengeResultEnum, description: 'What the word judge said.' }),
    words: t.stringList({
      required: false,
      description: 'The words challenged (default: PLAY_REMOVED the main word, PLAY_STANDS every word formed).',
      validate: z.array(z.string().trim().min(1).max(32)).max(16).nullish(),
    }),
  }),
});

const RecordedMoveInput = builder.inputType('RecordedMoveInput', {
  description:
    'Exactly one move (@oneOf), as in submitTurn’s action: play, exchange, pass: true, challenge; or outOfTime: true when the game ends on time.',
  isOneOf: true,
  fields: (t) => ({
    play: t.field({ type: RecordedPlayInput, required: false, description: 'Tiles placed on the board.' }),
    exchange: t.field({ type: RecordedExchangeInput, required: false, description: 'Tiles exchanged with the bag.' }),
    pass: t.boolean({ required: false, description: 'true: the player passed (false is refused).' }),
    challenge: t.field({ type: RecordedChallengeInput, required: false, description: 'The last play was challenged.' }),
    outOfTime: t.boolean({
      required: false,
      description:
        'true: no move — the mover’s clock reached the rule set’s overtime limit (time.overtimeForfeitMinutes), so the game ends on time; entry.time must show it (false is refused).',
    }),
  }),
});

const RecordedClockInput = builder.inputType('RecordedClockInput', {
  description: 'The mover’s clock as the scorekeeper read it after the move.',
  fields: (t) => ({
    seat: t.int({
      description: 'Whose clock: the mover’s seat, 0 or 1 (another seat is refused with CLOCK_NOT_MOVER).',
      validate: seatSchema,
    }),
    secondsLeft: t.int({
      description:
        'Seconds left on it; negative = overtime (−75 is 1:15 over). Never more than the last reading of the same clock (CLOCK_WENT_UP).',
    }),
  }),
});

const RemainingRackInput = builder.inputType('RemainingRackInput', {
  description: 'The tiles left on a rack when the game ends, so that their values are counted.',
  fields: (t) => ({
    seat: t.int({ description: 'The seat, 0 or 1.', validate: seatSchema }),
    tiles: t.string({ description: 'The tiles: `AEI`, `?` a blank.', validate: z.string().trim().min(1).max(32) }),
  }),
});

const RecordedEntryInput = builder.inputType('RecordedEntryInput', {
  description: 'One move as it happened at the table, with what the scorekeeper saw of the racks.',
  fields: (t) => ({
    move: t.field({ type: RecordedMoveInput, description: 'The move.' }),
    rack: t.string({
      required: false,
      description: 'The mover’s rack before the move, if known (all or part of it); the rest stays unseen.',
      validate: z.string().trim().max(32).nullish(),
    }),
    remainingRacks: t.field({
      type: [RemainingRackInput],
      required: false,
      description: 'On the move that ends the game: the tiles left on the racks the ending counts (FINAL_RACKS_REQUIRED names them).',
    }),
    time: t.field({
      type: RecordedClockInput,
      required: false,
      description: 'The mover’s clock after the move, in a game created with clockMinutes (otherwise NOT_TIMED).',
    }),
  }),
});

const RecordMoveInput = builder.inputType('RecordMoveInput', {
  description: 'A move of a recorded game: the game, the version you saw, a key that makes retries safe, and the move.',
  fields: (t) => ({
    gameId: t.id({ description: 'The game’s id (Game.id).' }),
    expectedVersion: t.int({
      description: 'The `version` of the game you saw; another move first is STALE_VERSION.',
      validate: z.number().int().min(0),
    }),
    idempotencyKey: t.string({
      description: 'A fresh random string per new move; the same one when retrying.',
      validate: z.string().trim().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH),
    }),
    entry: t.field({ type: RecordedEntryInput, description: 'The move and what was seen of the racks.' }),
  }),
});

type EntryShape = (typeof RecordedEntryInput)['$inferInput'];

const entryOf = (e: EntryShape): RecordedEntryText => {
  const m = e.move;
  const rest = { rack: e.rack ?? null, remainingRacks: e.remainingRacks ?? null, time: e.time ?? null };
  if (m.play) return { move: { kind: 'play', move: m.play.move, score: m.play.score ?? null }, ...rest };
  if (m.exchange) return { move: { kind: 'exchange', count: m.exchange.count, tiles: m.exchange.tiles ?? null }, ...rest };
  if (m.challenge) return { move: { kind: 'challenge', result: m.challenge.result, words: m.challenge.words ?? null }, ...rest };
  if (m.pass === true) return { move: { kind: 'pass' }, ...rest };
  if (m.outOfTime === true) return { move: { kind: 'out-of-time' }, ...rest };
  const field = m.outOfTime === false ? 'outOfTime' : 'pass';
  throw new ValidationError([{ field: `input.entry.move.${field}`, message: `${field} takes the value true.` }]);
};

builder.mutationFields((t) => ({
  createRecordedGame: t.field({
    type: GameType,
    description:
      'Creates an over-the-board game to record live, with you as its scorekeeper (the only one who records its moves); the players are accounts or names.',
    authScopes: { scope: 'games:play' },
    errors: { types: [...GAME_ERRORS, RateLimitedError], directResult: true, union: resultUnion('CreateRecordedGameResult', 'Game') },
    args: { input: t.arg({ type: CreateRecordedGameInput, required: true, description: 'The rules and the two players.' }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'createGame');
      return value(
        await createRecordedGame(deps(ctx), requirePlayer(ctx).player.id, {
          ruleSet: input.preset ?? null,
          overrides: input.overrides ?? null,
          lexicon: input.lexicon ?? null,
          players: input.players,
          firstSeat: (input.firstSeat ?? null) as 0 | 1 | null,
          clockMinutes: input.clockMinutes ?? null,
          organization: input.organization === null || input.organization === undefined ? null : String(input.organization),
          rated: input.rated ?? null,
        }),
      );
    },
  }),
  recordMove: t.field({
    type: GameType,
    description:
      'Records one move of an over-the-board game as it happened (scorekeeper only): placement and score are checked, and every tile shown must still be unseen; words are judged only by a challenge. Answers the game as you see it after the move.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('RecordMoveResult', 'Game') },
    args: { input: t.arg({ type: RecordMoveInput, required: true, description: 'The game, the version you saw, and the move.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requirePlayer(ctx).player.id;
      const d = deps(ctx);
      const done = value(
        await recordMove(d, me, {
          gameId: String(input.gameId),
          expectedVersion: input.expectedVersion,
          idempotencyKey: input.idempotencyKey,
          entry: entryOf(input.entry),
        }),
      );
      return done.game ?? value(await gameAfterTurn(d, me, done.receipt));
    },
  }),
}));
