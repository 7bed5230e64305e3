import type { RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
import type { RuleSetId } from '../engine/rules/ruleset.js';
import {
  DEFAULT_SEEKS_PAGE,
  getSeek,
  listSeeks,
  MAX_SEEKS_PAGE,
  type SeekState,
  type SeekView,
  acceptSeek,
  createSeek,
  withdrawSeek,
} from '../service/seeks.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { RuleSetPresetEnum } from './enums.js';
import {
  ConflictError,
  ForbiddenError,
  GAME_ERRORS,
  NotFoundError,
  RateLimitedError,
  resultUnion,
  RuleViolation,
  UnauthenticatedError,
  ValidationError,
} from './errors.js';
import { connectionOf, requireForward } from './connection.js';
import { deps, GameType } from './game.js';
import { enforceRateLimit } from './rate-limit.js';
import { unwrap } from './error-classes.js';

/**
 * The lobby's seeks (issue 33, docs/lobby.md): `seeks` (open to anyone), `seek`, `createSeek`, `acceptSeek`,
 * `withdrawSeek`. Challenges and rematches are in graph/challenges.ts, pairing requests in graph/pairing.ts.
 */

/** Codes of a state that forbids the request now (409 under /v1). */
const CONFLICT_CODES = new Set([
  'SEEK_TAKEN',
  'SEEK_WITHDRAWN',
  'SEEK_EXPIRED',
  'CHALLENGE_CLOSED',
  'REMATCH_EXISTS',
  'PAIRING_EXISTS',
  'PAIRING_CLOSED',
]);

/**
 * A lobby service result's value, or its typed error: *_NOT_FOUND a NotFoundError, a closed offer a
 * ConflictError, BAD_INPUT a ValidationError naming `input.<field>`, the rest
 * (SEEK_OWN, RATED_ROBOT, RATING_OUT_OF_RANGE, NOT_SEEK_AUTHOR …: 403 under /v1) a RuleViolation.
 */
export const lobbyValue = <T>(r: Result<T, RuleError>, prefix = 'input.'): T => {
  if (r.ok) return r.value;
  const { code, message, details } = r.error;
  if (code.endsWith('_NOT_FOUND')) throw new NotFoundError(message, details ? { ...details } : undefined, code);
  if (CONFLICT_CODES.has(code)) throw new ConflictError(code, message, details ?? null);
  if (code === 'BAD_INPUT') throw new ValidationError([{ field: `${prefix}${String(details?.['field'] ?? '')}`, message }]);
  return unwrap(r);
};

export const LOBBY_ERRORS = [RuleViolation, UnauthenticatedError, ForbiddenError, ValidationError, NotFoundError, ConflictError];

const SeekStateEnum = builder.enumType('SeekState', {
  description: 'Where a seek stands.',
  values: {
    OPEN: { value: 'open', description: 'Waiting for a player to accept it.' },
    ACCEPTED: { value: 'accepted', description: 'A player accepted it: its game is on.' },
    WITHDRAWN: { value: 'withdrawn', description: 'Its author withdrew it.' },
    EXPIRED: { value: 'expired', description: 'Its expiry passed before anyone accepted it.' },
  } satisfies Record<string, { value: SeekState; description: string }>,
});

const SeekPaceEnum = builder.enumType('SeekPace', {
  description: 'How a seek’s game is played; it decides the rating category (family/pace).',
  values: {
    CORRESPONDENCE: { value: 'correspondence', description: 'Played here, days per move (daysPerMove).' },
    RECORDED: {
      value: 'recorded',
      description:
        'Played over the board at a table, with a clock (clockMinutes), and recorded here by the seek’s author (docs/recorded.md).',
    },
  } as const,
});

const AuthorRatingType = builder.objectRef<NonNullable<SeekView['authorRating']>>('SeekAuthorRating').implement({
  description: 'The author’s rating in the seek’s category, as their public page shows it.',
  fields: (t) => ({
    rating: t.int({ description: 'The rating, rounded.', resolve: (r) => Math.round(r.rating) }),
    deviation: t.int({ description: 'The rating deviation (RD), rounded.', resolve: (r) => Math.round(r.deviation) }),
    provisional: t.exposeBoolean('provisional', { description: 'Still provisional (RD at or above 110): shown with a “?”.' }),
  }),
});

export const SeekType = builder.objectRef<SeekView>('Seek').implement({
  description:
    'An open offer of a game that any other player may accept (acceptSeek): a correspondence game played here, or a game at a table recorded here.',
  fields: (t) => ({
    id: t.id({ description: 'The seek’s id (a uuid).', resolve: (s) => s.seek.id }),
    state: t.field({ type: SeekStateEnum, description: 'Where the seek stands.', resolve: (s) => s.state }),
    authorHandle: t.string({ description: 'Its author’s handle.', resolve: (s) => s.authorHandle }),
    authorDisplayName: t.string({ description: 'Its author’s display name.', resolve: (s) => s.authorName }),
    authorRating: t.field({
      type: AuthorRatingType,
      nullable: true,
      description:
        'The author’s rating in the seek’s category; null before their first rated game there (a newcomer’s 1500), or when they hide their page.',
      resolve: (s) => s.authorRating,
    }),
    preset: t.field({ type: RuleSetPresetEnum, description: 'The rule-set preset.', resolve: (s) => s.seek.ruleSetId as RuleSetId }),
    overrides: t.field({
      type: 'JSON',
      description: 'Rule-set overrides, nested like the rule set ({} for none).',
      resolve: (s) => s.seek.ruleOverrides,
    }),
    lexicon: t.string({ description: 'The lexicon’s name.', resolve: (s) => s.seek.lexiconName }),
    pace: t.field({
      type: SeekPaceEnum,
      description: 'Correspondence (days per move) or recorded at a table (a clock).',
      resolve: (s) => s.seek.pace as 'correspondence' | 'recorded',
    }),
    daysPerMove: t.int({
      nullable: true,
      description: 'Correspondence: days for each move; null for a recorded game.',
      resolve: (s) => s.seek.daysPerMove,
    }),
    clockMinutes: t.int({
      nullable: true,
      description: 'Recorded: minutes on each player’s clock at the table; null for correspondence, or a recorded game without a clock.',
      resolve: (s) => s.seek.clockMinutes,
    }),
    rated: t.boolean({ description: 'Rated (the game’s end updates both ratings) or casual.', resolve: (s) => s.seek.rated }),
    category: t.string({ description: 'The rating category, family/pace (docs/rated-play.md).', resolve: (s) => s.seek.category }),
    ratingMin: t.int({
      nullable: true,
      description: 'The lowest rating that may accept; null = no bound.',
      resolve: (s) => s.seek.ratingMin,
    }),
    ratingMax: t.int({
      nullable: true,
      description: 'The highest rating that may accept; null = no bound.',
      resolve: (s) => s.seek.ratingMax,
    }),
    expiresAt: t.field({ type: 'DateTime', description: 'When the seek stops being acceptable.', resolve: (s) => s.seek.expiresAt }),
    createdAt: t.field({ type: 'DateTime', description: 'When the seek was made.', resolve: (s) => s.seek.createdAt }),
    gameId: t.id({ nullable: true, description: 'The game it led to, once accepted (Game.id).', resolve: (s) => s.seek.gameId }),
  }),
});

const SeekFilterInput = builder.inputType('SeekFilter', {
  description: 'Which open seeks to list; every field is optional.',
  fields: (t) => ({
    preset: t.field({ type: RuleSetPresetEnum, required: false, description: 'Only seeks of this rule-set preset.' }),
    lexicon: t.string({ required: false, description: 'Only seeks of this lexicon.' }),
    rated: t.boolean({ required: false, description: 'Only rated (true) or only casual (false) seeks.' }),
    daysPerMove: t.int({ required: false, description: 'Only seeks of this many days per move.' }),
    pace: t.field({ type: SeekPaceEnum, required: false, description: 'Only seeks of this pace.' }),
    author: t.string({ required: false, description: 'Only the seeks of the player with this handle (yours: your handle).' }),
  }),
});

const CreateSeekInput = builder.inputType('CreateSeekInput', {
  description: 'A new seek: every field is optional.',
  fields: (t) => ({
    preset: t.field({ type: RuleSetPresetEnum, required: false, description: 'The rule-set preset (default NSA_2008).' }),
    overrides: t.field({ type: 'JSON', required: false, description: 'Rule-set overrides, nested like the rule set.' }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default).' }),
    pace: t.field({
      type: SeekPaceEnum,
      required: false,
      description: 'CORRESPONDENCE (default) or RECORDED (the default when only clockMinutes is given).',
    }),
    daysPerMove: t.int({
      required: false,
      description: 'Correspondence: days for each move, 1–14 (default 3). Not with clockMinutes or pace RECORDED.',
    }),
    clockMinutes: t.int({
      required: false,
      description:
        'Recorded: minutes on each player’s clock at the table, 1–1440, as createRecordedGame takes it; omitted: no clock. Not with daysPerMove.',
    }),
    rated: t.boolean({ required: false, description: 'Rated (default false: casual).' }),
    ratingMin: t.int({ required: false, description: 'The acceptor’s rating in the category must be at least this (0–4000).' }),
    ratingMax: t.int({
      required: false,
      description: 'The acceptor’s rating in the category must be at most this (0–4000, not below ratingMin).',
    }),
    expiresInDays: t.int({ required: false, description: 'Days until the seek expires, 1–30 (default 7).' }),
  }),
});

const SEEK_ID = 'The seek’s id (Seek.id).';

builder.queryFields((t) => ({
  seeks: t.connection(
    {
      type: SeekType,
      description: `The open seeks (not expired), newest first; open to anyone. Forward pagination (first: default ${DEFAULT_SEEKS_PAGE}, at most ${MAX_SEEKS_PAGE}; after).`,
      args: { filter: t.arg({ type: SeekFilterInput, required: false, description: 'Which seeks to list.' }) },
      resolve: async (_root, args, ctx) => {
        requireForward('seeks', args);
        return connectionOf(
          lobbyValue(
            await listSeeks(
              deps(ctx),
              { first: args.first ?? null, after: args.after ?? null },
              {
                ruleSetId: args.filter?.preset ?? null,
                lexiconName: args.filter?.lexicon ?? null,
                rated: args.filter?.rated ?? null,
                daysPerMove: args.filter?.daysPerMove ?? null,
                pace: args.filter?.pace ?? null,
                authorHandle: args.filter?.author ?? null,
              },
            ),
            '',
          ),
        );
      },
    },
    { description: 'A page of open seeks.' },
    { description: 'An open seek, with its cursor.' },
  ),
  seek: t.field({
    type: SeekType,
    description: 'A seek by id, in any state; open to anyone.',
    errors: { types: [NotFoundError], directResult: true, union: resultUnion('SeekResult', 'Seek') },
    args: { id: t.arg.id({ required: true, description: SEEK_ID }) },
    resolve: async (_root, args, ctx) => lobbyValue(await getSeek(deps(ctx), String(args.id))),
  }),
}));

builder.mutationFields((t) => ({
  createSeek: t.field({
    type: SeekType,
    description:
      'Offers a game anyone may accept until it expires (docs/lobby.md): correspondence (daysPerMove), or at a table with a clock, recorded here (clockMinutes). Announced on the seeks subscription.',
    authScopes: { scope: 'games:play' },
    errors: { types: [...LOBBY_ERRORS, RateLimitedError], directResult: true, union: resultUnion('CreateSeekResult', 'Seek') },
    args: { input: t.arg({ type: CreateSeekInput, required: true, description: 'The seek’s settings.' }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'createGame');
      return lobbyValue(
        await createSeek(deps(ctx), requirePlayer(ctx).player.id, {
          ruleSet: input.preset ?? null,
          overrides: input.overrides ?? null,
          lexicon: input.lexicon ?? null,
          pace: input.pace ?? null,
          daysPerMove: input.daysPerMove ?? null,
          clockMinutes: input.clockMinutes ?? null,
          rated: input.rated ?? null,
          ratingMin: input.ratingMin ?? null,
          ratingMax: input.ratingMax ?? null,
          expiresInDays: input.expiresInDays ?? null,
        }),
      );
    },
  }),
  acceptSeek: t.field({
    type: GameType,
    description:
      'Accepts an open seek: its game starts at once between its author and you, seats drawn at random (a recorded seek’s game is a recorded game, its author the scorekeeper). Of several players accepting at once exactly one gets the game; the others get SEEK_TAKEN.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('AcceptSeekResult', 'Game') },
    args: { id: t.arg.id({ required: true, description: SEEK_ID }) },
    resolve: async (_root, args, ctx) => lobbyValue(await acceptSeek(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  withdrawSeek: t.field({
    type: SeekType,
    description: 'Withdraws your open seek.',
    authScopes: { scope: 'games:play' },
    errors: { types: LOBBY_ERRORS, directResult: true, union: resultUnion('WithdrawSeekResult', 'Seek') },
    args: { id: t.arg.id({ required: true, description: SEEK_ID }) },
    resolve: async (_root, args, ctx) => lobbyValue(await withdrawSeek(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
}));
