import { z } from 'zod';
import { TIME_CONTROL_KINDS, type TimeControl } from '../engine/game/events.js';
import type { NewGameInput } from '../service/game-create.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH, type TurnAction } from '../service/turns.js';
import { builder } from './builder.js';
import { ValidationError } from './errors.js';

/** The inputs of the game mutations, and their translation to the service's plain types. */

const seatSchema = z.number().int().min(0, 'A seat is 0 or 1.').max(1, 'A seat is 0 or 1.');

export const TimeControlKindEnum = builder.enumType('TimeControlKind', {
  description: 'untimed; correspondence (a deadline per turn); clock (minutes per player, kept by the clients).',
  values: TIME_CONTROL_KINDS,
});

export const TimeControlInput = builder.inputType('TimeControlInput', {
  fields: (t) => ({
    kind: t.field({ type: TimeControlKindEnum }),
    turnSeconds: t.int({ required: false, description: 'correspondence: seconds for each turn, 3600 (1 hour) to 1209600 (14 days).' }),
    bankSeconds: t.int({
      required: false,
      description:
        'correspondence: each player’s time bank, drawn on when a turn takes longer than turnSeconds; 0 (default) to 2592000 (30 days).',
    }),
    maxPauses: t.int({ required: false, description: 'correspondence: pauses allowed per game, 0–10 (default 2).' }),
    maxPauseSeconds: t.int({
      required: false,
      description: 'correspondence: total paused seconds per game, 0–5184000 (default 1209600, 14 days).',
    }),
    minutes: t.int({ required: false, description: 'clock: minutes per player.', validate: z.number().int().positive().nullish() }),
  }),
});

export const CreateGameInput = builder.inputType('CreateGameInput', {
  fields: (t) => ({
    ruleSet: t.string({ required: false, description: 'Preset id: NSA_2008 (default), WESPA, FRIENDLY, MATCH_VARIANT, ONLINE_VOID.' }),
    overrides: t.field({
      type: 'JSON',
      required: false,
      description: 'Rule-set overrides, nested like the rule set: {"challenge": {"points": 10}}.',
    }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default).' }),
    timeControl: t.field({ type: TimeControlInput, required: false, description: 'Default: untimed.' }),
    opponent: t.string({ required: false, description: 'The opponent’s handle; leave it out for an open seat anyone may join.' }),
    seat: t.int({ required: false, description: 'Your seat, 0 or 1 (default 0).', validate: seatSchema.nullish() }),
    firstSeat: t.int({ required: false, description: 'The seat that moves first (default 0).', validate: seatSchema.nullish() }),
  }),
});

const PlayActionInput = builder.inputType('PlayActionInput', {
  fields: (t) => ({
    move: t.string({
      description: '`8H WORD` across, `H8 WORD` down; lowercase = blank; `.` or (…) = a tile already on the board.',
      validate: z.string().trim().min(1).max(64),
    }),
  }),
});
const TilesActionInput = builder.inputType('TilesActionInput', {
  fields: (t) => ({
    tiles: t.string({
      description: 'Tiles from your rack: `AEI`, `?` a blank, `[CH]` a digraph.',
      validate: z.string().trim().min(1).max(32),
    }),
  }),
});
const ChallengeActionInput = builder.inputType('ChallengeActionInput', {
  fields: (t) => ({
    words: t.stringList({
      required: false,
      description: 'The words challenged (default: every word the play formed).',
      validate: z.array(z.string().trim().min(1).max(32)).max(16).nullish(),
    }),
  }),
});
const BlankSubstitutionInput = builder.inputType('BlankSubstitutionInput', {
  fields: (t) => ({
    blanks: t.stringList({
      description: 'Squares of the blanks taken, e.g. ["H8"].',
      validate: z.array(z.string().trim().min(2).max(4)).min(1).max(2),
    }),
    move: t.string({ description: 'The play that replays them.', validate: z.string().trim().min(1).max(64) }),
  }),
});

export const TurnActionInput = builder.inputType('TurnActionInput', {
  description:
    'Exactly one action (@oneOf): play, exchange, pass: true, challenge, resign: true, freeTrade, blankSubstitution (the last two under house rules).',
  isOneOf: true,
  fields: (t) => ({
    play: t.field({ type: PlayActionInput, required: false }),
    exchange: t.field({ type: TilesActionInput, required: false }),
    pass: t.boolean({ required: false, description: 'true' }),
    challenge: t.field({
      type: ChallengeActionInput,
      required: false,
      description: 'Challenge the opponent’s last play (under a challenge rule that allows it).',
    }),
    resign: t.boolean({ required: false, description: 'true: you lose the game.' }),
    freeTrade: t.field({ type: TilesActionInput, required: false, description: 'seed-002 Free Trades (FRIENDLY).' }),
    blankSubstitution: t.field({ type: BlankSubstitutionInput, required: false, description: 'seed-002 Blank Substitution (FRIENDLY).' }),
  }),
});

export const SubmitTurnInput = builder.inputType('SubmitTurnInput', {
  fields: (t) => ({
    gameId: t.id(),
    expectedVersion: t.int({
      description: 'The `version` of the game you decided on; if another turn came first you get STALE_VERSION.',
      validate: z.number().int().min(0),
    }),
    idempotencyKey: t.string({
      description:
        'A fresh random string per new request; send the same one when retrying, to get the first answer back instead of a second turn.',
      validate: z.string().trim().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH),
    }),
    action: t.field({ type: TurnActionInput }),
  }),
});

export const ImportGameInput = builder.inputType('ImportGameInput', {
  fields: (t) => ({
    gcg: t.string({ description: 'The GCG record (text).', validate: z.string().min(1).max(200_000) }),
    lexicon: t.string({
      required: false,
      description: 'Lexicon to judge its words (default: the record’s #lexicon if loaded, else the server’s default).',
    }),
    seat: t.int({
      required: false,
      description: 'Your seat in the record (0 = #player1), so it shows in myGames.',
      validate: seatSchema.nullish(),
    }),
  }),
});

type OneOf = (typeof TurnActionInput)['$inferInput'];

/** The one action a TurnActionInput holds (GraphQL @oneOf already guarantees exactly one field). */
export const turnActionOf = (a: OneOf): TurnAction => {
  if (a.play) return { kind: 'play', move: a.play.move };
  if (a.exchange) return { kind: 'exchange', tiles: a.exchange.tiles };
  if (a.challenge) return { kind: 'challenge', words: a.challenge.words ?? null };
  if (a.freeTrade) return { kind: 'free-trade', tiles: a.freeTrade.tiles };
  if (a.blankSubstitution) return { kind: 'blank-substitution', blanks: a.blankSubstitution.blanks, move: a.blankSubstitution.move };
  if (a.pass === true) return { kind: 'pass' };
  if (a.resign === true) return { kind: 'resign' };
  throw new ValidationError([{ field: 'input.action', message: 'pass and resign take the value true.' }]);
};

type TimeControlShape = (typeof TimeControlInput)['$inferInput'];

export const timeControlOf = (tc: TimeControlShape | null | undefined): TimeControl | null => {
  if (!tc) return null;
  switch (tc.kind) {
    case 'untimed':
      return { kind: 'untimed' };
    case 'correspondence':
      if (tc.turnSeconds == null)
        throw new ValidationError([{ field: 'input.timeControl.turnSeconds', message: 'A correspondence game needs turnSeconds.' }]);
      return {
        kind: 'correspondence',
        turnSeconds: tc.turnSeconds,
        bankSeconds: tc.bankSeconds ?? 0,
        ...(tc.maxPauses != null ? { maxPauses: tc.maxPauses } : {}),
        ...(tc.maxPauseSeconds != null ? { maxPauseSeconds: tc.maxPauseSeconds } : {}),
      };
    case 'clock':
      if (!tc.minutes) throw new ValidationError([{ field: 'input.timeControl.minutes', message: 'A clock game needs minutes.' }]);
      return { kind: 'clock', minutes: tc.minutes };
  }
};

export const newGameOf = (input: (typeof CreateGameInput)['$inferInput']): NewGameInput => ({
  ruleSet: input.ruleSet ?? null,
  overrides: input.overrides ?? null,
  lexicon: input.lexicon ?? null,
  timeControl: timeControlOf(input.timeControl),
  opponent: input.opponent ?? null,
  seat: (input.seat ?? null) as 0 | 1 | null,
  firstSeat: (input.firstSeat ?? null) as 0 | 1 | null,
});
