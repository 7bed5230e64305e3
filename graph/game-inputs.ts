import * as z from 'zod';
import { TIME_CONTROL_KINDS, type TimeControl } from '../engine/game/events.js';
import type { NewGameInput } from '../service/game-create.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH, type TurnAction } from '../service/turns.js';
import { builder } from './builder.js';
import { eitherOf, legacyEnum, RuleSetPresetEnum, TimeControlTypeEnum } from './enums.js';
import { ValidationError } from './errors.js';
import { TileSetIdEnum } from './tile-sets.js';
import { LayoutInput } from './layouts.js';

/** The inputs of the game mutations, and their translation to the service's plain types. */

const seatSchema = z.number().int().min(0, 'A seat is 0 or 1.').max(1, 'A seat is 0 or 1.');

export const TimeControlKindEnum = legacyEnum('TimeControlKind', 'TimeControlType', TIME_CONTROL_KINDS);

export const TimeControlInput = builder.inputType('TimeControlInput', {
  description: 'How a game is timed: type (required), and the settings of that type.',
  fields: (t) => ({
    type: t.field({ type: TimeControlTypeEnum, required: false, description: 'How the game is timed. Required (or the deprecated kind).' }),
    kind: t.field({
      type: TimeControlKindEnum,
      required: false,
      description: 'How the game is timed, in the old lower-case spelling.',
      deprecationReason: 'Use type (the TimeControlType enum).',
    }),
    turnSeconds: t.int({
      required: false,
      description: 'Correspondence (required): seconds for each turn, 3600 (1 hour) to 1209600 (14 days).',
    }),
    bankSeconds: t.int({
      required: false,
      description:
        'Correspondence: each player’s time bank in seconds, drawn on when a turn takes longer than turnSeconds; 0 (default) to 2592000 (30 days).',
    }),
    maxPauses: t.int({ required: false, description: 'Correspondence: pauses allowed per game, 0–10 (default 2).' }),
    maxPauseSeconds: t.int({
      required: false,
      description: 'Correspondence: total paused seconds per game, 0–5184000 (default 1209600, 14 days).',
    }),
    minutes: t.int({
      required: false,
      description: 'Clock (required): minutes per player, at least 1.',
      validate: z.number().int().positive().nullish(),
    }),
  }),
});

export const CreateGameInput = builder.inputType('CreateGameInput', {
  description: 'A new game’s settings: every one is optional.',
  fields: (t) => ({
    preset: t.field({ type: RuleSetPresetEnum, required: false, description: 'The rule-set preset (default NSA_2008).' }),
    ruleSet: t.string({
      required: false,
      description: 'The preset id as a string: NSA_2008, WESPA, FRIENDLY, MATCH_VARIANT, ONLINE_VOID.',
      deprecationReason: 'Use preset (the RuleSetPreset enum).',
    }),
    overrides: t.field({
      type: 'JSON',
      required: false,
      description:
        'Rule-set overrides, nested like the rule set: {"challenge": {"points": 10}} (paths and allowed values: RuleSet.parameters).',
    }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default; see the lexicons query).' }),
    tileSet: t.field({
      type: TileSetIdEnum,
      required: false,
      description:
        'The tile set (default: the rule set’s, English); the same as the override {"board": {"distribution": …}}. Choose a lexicon of the same language (see the tileSets query).',
    }),
    timeControl: t.field({ type: TimeControlInput, required: false, description: 'How the game is timed (default: untimed).' }),
    opponent: t.string({
      required: false,
      description:
        'The opponent’s handle; leave it out for an open seat anyone may join. `robot:greedy` or `robot:equity` seats a robot (docs/movegen.md), which moves by itself after each of your turns.',
    }),
    allowHints: t.boolean({
      required: false,
      description:
        'In a game against a robot, let you analyse your own turns while the game is on (analyzePosition, gameAnalysis). Default false.',
    }),
    seat: t.int({ required: false, description: 'Your seat, 0 or 1 (default 0).', validate: seatSchema.nullish() }),
    firstSeat: t.int({ required: false, description: 'The seat that moves first, 0 or 1 (default 0).', validate: seatSchema.nullish() }),
    layout: t.field({
      type: LayoutInput,
      required: false,
      description: 'A board given as data, in place of the rule set’s board.layout (the named ones: the layouts query).',
    }),
    organization: t.id({
      required: false,
      description:
        'The club or event the game is played under (Organization.id; ORGANIZATION_NOT_FOUND otherwise): its directors may rule on the game’s disputes. Any creator may name one; both players see it on the game, and play under it by playing.',
    }),
    rated: t.boolean({
      required: false,
      description:
        'Rated (default false: casual): the game’s end updates both players’ ratings in its category (rule-set family × correspondence; docs/rated-play.md). Refused against a robot (RATED_ROBOT), with overrides or tileSet (RATED_OVERRIDES) or a layout (RATED_LAYOUT). An open seat may be rated.',
    }),
  }),
});

const PlayActionInput = builder.inputType('PlayActionInput', {
  description: 'A play: tiles placed on the board.',
  fields: (t) => ({
    move: t.string({
      description: '`8H WORD` across, `H8 WORD` down; lowercase = blank; `.` or (…) = a tile already on the board.',
      validate: z.string().trim().min(1).max(64),
    }),
  }),
});
const TilesActionInput = builder.inputType('TilesActionInput', {
  description: 'Tiles from your rack, for an exchange or a free trade.',
  fields: (t) => ({
    tiles: t.string({
      description: 'Tiles from your rack: `AEI`, `?` a blank, `[CH]` a digraph.',
      validate: z.string().trim().min(1).max(32),
    }),
  }),
});
const ChallengeActionInput = builder.inputType('ChallengeActionInput', {
  description: 'A challenge of the opponent’s last play.',
  fields: (t) => ({
    words: t.stringList({
      required: false,
      description: 'The words challenged (default: every word the play formed).',
      validate: z.array(z.string().trim().min(1).max(32)).max(16).nullish(),
    }),
  }),
});
const BlankSubstitutionInput = builder.inputType('BlankSubstitutionInput', {
  description:
    'FRIENDLY blank substitution: blanks taken from the board for the letters they stand for, and the play that follows (seed-002).',
  fields: (t) => ({
    blanks: t.stringList({
      description: 'Squares of the blanks taken, e.g. ["H8"].',
      validate: z.array(z.string().trim().min(2).max(4)).min(1).max(2),
    }),
    move: t.string({ description: 'The play that puts the blanks back, in notation.', validate: z.string().trim().min(1).max(64) }),
  }),
});

export const TurnActionInput = builder.inputType('TurnActionInput', {
  description:
    'Exactly one action (@oneOf): play, exchange, pass: true, challenge, resign: true, freeTrade, blankSubstitution (the last two under house rules).',
  isOneOf: true,
  fields: (t) => ({
    play: t.field({ type: PlayActionInput, required: false, description: 'Place tiles.' }),
    exchange: t.field({
      type: TilesActionInput,
      required: false,
      description: 'Exchange these tiles with the bag (the rule set says how many must be left: exchange.minBag).',
    }),
    pass: t.boolean({ required: false, description: 'true: pass the turn (false is refused).' }),
    challenge: t.field({
      type: ChallengeActionInput,
      required: false,
      description: 'Challenge the opponent’s last play (under a challenge rule that allows it).',
    }),
    resign: t.boolean({ required: false, description: 'true: resign, and lose the game (false is refused).' }),
    freeTrade: t.field({
      type: TilesActionInput,
      required: false,
      description: 'Trade these tiles under the FRIENDLY free-trade rule (seed-002 Free Trades).',
    }),
    blankSubstitution: t.field({
      type: BlankSubstitutionInput,
      required: false,
      description: 'Take blanks from the board and play them back (FRIENDLY, seed-002 Blank Substitution).',
    }),
  }),
});

export const SubmitTurnInput = builder.inputType('SubmitTurnInput', {
  description: 'A turn: the game, the version you decided on, a key that makes retries safe, and one action.',
  fields: (t) => ({
    gameId: t.id({ description: 'The game’s id (Game.id).' }),
    expectedVersion: t.int({
      description: 'The `version` of the game you decided on; if another turn came first you get STALE_VERSION.',
      validate: z.number().int().min(0),
    }),
    idempotencyKey: t.string({
      description:
        'A fresh random string per new request; send the same one when retrying, to get the first answer back instead of a second turn.',
      validate: z.string().trim().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH),
    }),
    action: t.field({ type: TurnActionInput, description: 'What you do: exactly one action.' }),
  }),
});

export const ImportGameInput = builder.inputType('ImportGameInput', {
  description: 'A finished game as a GCG record, to store after replaying it.',
  fields: (t) => ({
    gcg: t.string({
      description: 'The GCG record as text (docs/gcg.md), at most 200 000 characters.',
      validate: z.string().min(1).max(200_000),
    }),
    lexicon: t.string({
      required: false,
      description: 'Lexicon to judge its words (default: the record’s #lexicon if loaded, else the server’s default).',
    }),
    seat: t.int({
      required: false,
      description: 'Your seat in the record (0 = #player1), so it shows in myGames.',
      validate: seatSchema.nullish(),
    }),
    tileSet: t.field({
      type: TileSetIdEnum,
      required: false,
      description: 'The tile set, ahead of what the record names (#letterdistribution, #lexicon) or its tiles imply (docs/languages.md).',
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

export const timeControlOf = (tc: TimeControlShape | null | undefined, field = 'input.timeControl'): TimeControl | null => {
  if (!tc) return null;
  const type = eitherOf({ field: `${field}.type`, value: tc.type }, { field: `${field}.kind`, value: tc.kind }, true)!;
  switch (type) {
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

/**
 * `tileSet` is a short way to write the override `board.distribution`; given both, they must agree
 * (one way to choose a set, never two that contradict).
 */
const overridesWithTileSet = (overrides: unknown, tileSet: string | null | undefined): unknown => {
  if (!tileSet) return overrides ?? null;
  const o = (overrides && typeof overrides === 'object' && !Array.isArray(overrides) ? overrides : {}) as Record<string, unknown>;
  const board = (o.board && typeof o.board === 'object' && !Array.isArray(o.board) ? o.board : {}) as Record<string, unknown>;
  if (board.distribution !== undefined && board.distribution !== tileSet)
    throw new ValidationError([
      {
        field: 'input.tileSet',
        message: `tileSet ${tileSet} contradicts the override board.distribution = ${String(board.distribution)}.`,
      },
    ]);
  return { ...o, board: { ...board, distribution: tileSet } };
};

export const newGameOf = (input: (typeof CreateGameInput)['$inferInput']): NewGameInput => ({
  ruleSet: eitherOf({ field: 'input.preset', value: input.preset }, { field: 'input.ruleSet', value: input.ruleSet }),
  overrides: overridesWithTileSet(input.overrides, input.tileSet),
  lexicon: input.lexicon ?? null,
  timeControl: timeControlOf(input.timeControl),
  opponent: input.opponent ?? null,
  allowHints: input.allowHints ?? null,
  seat: (input.seat ?? null) as 0 | 1 | null,
  firstSeat: (input.firstSeat ?? null) as 0 | 1 | null,
  layout: input.layout ? { rows: input.layout.rows, start: input.layout.start ?? null } : null,
  organization: input.organization === null || input.organization === undefined ? null : String(input.organization),
  rated: input.rated ?? null,
});
