import type { RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
import type { RuleSetId } from '../engine/rules/ruleset.js';
import {
  createMatch,
  DEFAULT_MATCH_RULE_SET,
  getMatch,
  joinMatch,
  myMatches,
  type MatchGameSnapshot,
  type MatchOutcome,
  type MatchPlayerStanding,
  type MatchSnapshot,
} from '../service/matches.js';
import { builder } from './builder.js';
import { requirePlayer, requireScope, type Context } from './context.js';
import { eitherOf, FirstSecondPositionEnum, MatchDeciderEnum, MatchStateEnum, RuleSetPresetEnum } from './enums.js';
import {
  ForbiddenError,
  GAME_ERRORS,
  NotFoundError,
  RateLimitedError,
  resultUnion,
  RuleViolation,
  UnauthenticatedError,
} from './errors.js';
import { enforceRateLimit } from './rate-limit.js';
import { connectionOf, requireForward } from './connection.js';
import { deps, GameType, value as gameValue, valueOrNull } from './game.js';
import { TimeControlInput, timeControlOf } from './game-inputs.js';
import { PlayerType } from './players.js';

/**
 * Matches (issue 5; seed-003 rule 1, scoring 11): `createMatch`, `joinMatch`, `match`, `myMatches`.
 * A match's games are ordinary `Game`s (play them with submitTurn); the match adds combined points,
 * firsts and seconds, and the result, all computed by the engine from the games (service/matches.ts).
 */

/** The value of a service result: MATCH_NOT_FOUND becomes a NotFoundError, the rest as for games (BAD_INPUT a ValidationError). */
const value = <T>(r: Result<T, RuleError>): T => {
  if (!r.ok && r.error.code === 'MATCH_NOT_FOUND')
    throw new NotFoundError(r.error.message, r.error.details ? { ...r.error.details } : undefined, r.error.code);
  return gameValue(r);
};

const FirstSecondType = builder.objectRef<MatchPlayerStanding['firstSecond']>('FirstSecondTally').implement({
  description:
    'Firsts and seconds over the games begun; games forfeited before they began count by seed-001 §4 where the rule set has that rule.',
  fields: (t) => ({
    firsts: t.exposeInt('firsts', { description: 'Games won (or counted as a first).' }),
    seconds: t.exposeInt('seconds', { description: 'Games lost (or counted as a second).' }),
    positions: t.stringList({
      description: 'Per game begun, in match order, in the old spelling: first, second or neither.',
      deprecationReason: 'Use placings (the FirstSecondPosition enum).',
      resolve: (f) => [...f.positions],
    }),
    placings: t.field({
      type: [FirstSecondPositionEnum],
      description: 'Per game begun, in match order: where the player finished it.',
      resolve: (f) => [...f.positions],
    }),
  }),
});

const MatchPlayerType = builder.objectRef<MatchPlayerStanding>('MatchPlayer').implement({
  description: 'One of the two players of a match, with their standing.',
  fields: (t) => ({
    seat: t.exposeInt('seat', { description: 'The player’s seat in every game: 0 = the creator, 1 = the opponent.' }),
    player: t.field({
      type: PlayerType,
      nullable: true,
      description: 'The player in the place; null while it is open (joinMatch).',
      resolve: (p) => p.player,
    }),
    points: t.exposeInt('points', { description: 'Combined points over the games so far (what decides the match, seed-003 scoring 11).' }),
    firstSecond: t.field({ type: FirstSecondType, description: 'The player’s firsts and seconds so far.', resolve: (p) => p.firstSecond }),
  }),
});

const MatchGameType = builder.objectRef<MatchGameSnapshot>('MatchGame').implement({
  description: 'One game of a match.',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'The game’s place in the match, 0-based (0 = the first game).' }),
    firstSeat: t.exposeInt('firstSeat', {
      description: 'The seat that moves first (seed-003 rule 1: seat 0 in game 1, seat 1 in game 2).',
    }),
    game: t.field({ type: GameType, description: 'The game as you see it: play it with submitTurn.', resolve: (g) => g.game }),
    scores: t.intList({
      description: 'By seat: the current scores, or once ended the scores the match counts.',
      resolve: (g) => [...(g.recordedScores ?? g.game.view?.scores ?? [0, 0])],
    }),
  }),
});

const MatchOutcomeType = builder.objectRef<{ outcome: MatchOutcome; match: MatchSnapshot }>('MatchOutcome').implement({
  description: 'The result of a finished match: the higher combined points wins; equal points are a tie (seed-003 scoring 11).',
  fields: (t) => ({
    winner: t.field({
      type: PlayerType,
      nullable: true,
      description: 'The player who won the match; null for a tie.',
      resolve: ({ outcome, match }) => (outcome.winnerSeat === null ? null : outcome.winnerSeat === 0 ? match.creator : match.opponent),
    }),
    winnerSeat: t.int({
      nullable: true,
      description: 'The winner’s seat (0 or 1, the same in every game); null for a tie.',
      resolve: ({ outcome }) => outcome.winnerSeat,
    }),
    tie: t.boolean({ description: 'The match is tied: equal combined points.', resolve: ({ outcome }) => outcome.winnerSeat === null }),
    decidedBy: t.string({
      description: 'What decided the match, in the old spelling: combined-points.',
      deprecationReason: 'Use decider (the MatchDecider enum).',
      resolve: ({ outcome }) => outcome.decidedBy,
    }),
    decider: t.field({ type: MatchDeciderEnum, description: 'What decided the match.', resolve: ({ outcome }) => outcome.decidedBy }),
    gameWinners: t.field({
      type: ['Int'],
      nullable: { list: false, items: true },
      description: 'Each game’s winning seat, in match order (null = a tied game).',
      resolve: ({ outcome }) => [...outcome.gameWinners],
    }),
  }),
});

/** The match `id` as the caller sees it (games:read): what match(id:) answers and node(id:) loads. */
const readMatch = async (ctx: Context, id: string): Promise<Result<MatchSnapshot, RuleError>> =>
  getMatch(deps(ctx), requireScope(ctx, 'games:read').player.id, id);

export const MatchType = builder.node(builder.objectRef<MatchSnapshot>('Match'), {
  description:
    'A match of games between two players, each going first once, decided on combined points (seed-003 rule 1, scoring 11). A Node: node(id:) answers the same view as match(id:).',
  id: { resolve: (m) => m.id },
  loadOne: async (id, ctx) => valueOrNull(await readMatch(ctx, id), value),
  fields: (t) => ({
    status: t.exposeString('status', {
      description: 'Where the match stands, in the old spelling: open, playing, ended, aborted.',
      deprecationReason: 'Use state (the MatchState enum).',
    }),
    state: t.field({ type: MatchStateEnum, description: 'Where the match stands.', resolve: (m) => m.status }),
    ruleSetId: t.string({
      description: 'The rule-set preset id as a string.',
      deprecationReason: 'Use preset (the RuleSetPreset enum).',
      resolve: (m) => m.rules.id,
    }),
    preset: t.field({
      type: RuleSetPresetEnum,
      description: 'The rule-set preset every game of the match is played under.',
      resolve: (m) => m.rules.id as RuleSetId,
    }),
    gameCount: t.int({ description: 'Games in the match (the rule set’s match.games).', resolve: (m) => m.games.length }),
    mySeat: t.int({
      nullable: true,
      description: 'Your seat in every game, 0 or 1; null when you are a spectator.',
      resolve: (m) => m.mySeat,
    }),
    players: t.field({ type: [MatchPlayerType], description: 'The two players, by seat.', resolve: (m) => [...m.players] }),
    combinedScores: t.intList({
      description: 'Combined points by seat over the games so far.',
      resolve: (m) => m.players.map((p) => p.points),
    }),
    games: t.field({ type: [MatchGameType], description: 'The match’s games, in order.', resolve: (m) => [...m.games] }),
    result: t.field({
      type: MatchOutcomeType,
      nullable: true,
      description: 'The result, once every game has ended; null before, and for an aborted match.',
      resolve: (m) => (m.result ? { outcome: m.result, match: m } : null),
    }),
    rated: t.exposeBoolean('rated', {
      description: 'Its games are rated, each as its own game (Game.ratingCategory, GameSeat.ratingChange); false for a casual match.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the match was created.' }),
  }),
});

const CreateMatchInput = builder.inputType('CreateMatchInput', {
  description: 'A new match’s settings: every one is optional.',
  fields: (t) => ({
    preset: t.field({
      type: RuleSetPresetEnum,
      required: false,
      description: `The rule-set preset (default ${DEFAULT_MATCH_RULE_SET}); its match.games must be set (by the preset or in overrides).`,
    }),
    ruleSet: t.string({
      required: false,
      description: 'The preset id as a string.',
      deprecationReason: 'Use preset (the RuleSetPreset enum).',
    }),
    overrides: t.field({
      type: 'JSON',
      required: false,
      description: 'Rule-set overrides, nested like the rule set: {"match": {"games": 2}}.',
    }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default; see the lexicons query).' }),
    timeControl: t.field({
      type: TimeControlInput,
      required: false,
      description: 'How every game of the match is timed (default: untimed).',
    }),
    opponent: t.string({
      required: false,
      description: 'The opponent’s handle; leave it out for an open place anyone may take (joinMatch).',
    }),
    rated: t.boolean({
      required: false,
      description:
        'Rated (default false: casual): each game of the match is rated as its own game when it ends, in the rule set’s category (docs/matches.md, Rated matches). Refused against a robot (RATED_ROBOT) and with overrides (RATED_OVERRIDES).',
    }),
  }),
});

const READ_ERRORS = [UnauthenticatedError, ForbiddenError, NotFoundError, RuleViolation];
const MATCH_ID = 'The match’s id (Match.id).';

builder.queryFields((t) => ({
  match: t.field({
    type: MatchType,
    description: 'A match with its games as you see them, combined points and (once over) the result.',
    authScopes: { scope: 'games:read' },
    errors: { types: READ_ERRORS, directResult: true, union: resultUnion('MatchResult', 'Match') },
    args: { id: t.arg.id({ required: true, description: MATCH_ID }) },
    resolve: async (_root, args, ctx) => value(await readMatch(ctx, String(args.id))),
  }),
  myMatches: t.connection(
    {
      type: MatchType,
      description: 'Your matches (created or joined), newest first. Forward pagination (first, after).',
      authScopes: { scope: 'games:read' },
      resolve: async (_root, args, ctx) => {
        requireForward('myMatches', args);
        return connectionOf(
          value(await myMatches(deps(ctx), requirePlayer(ctx).player.id, { first: args.first ?? null, after: args.after ?? null })),
        );
      },
    },
    { description: 'A page of your matches (myMatches).' },
    { description: 'One of your matches, with its cursor.' },
  ),
}));

builder.mutationFields((t) => ({
  createMatch: t.field({
    type: MatchType,
    description:
      'Creates a match and all its games, you in seat 0 of each; game 1 you move first, game 2 your opponent. Against a named opponent the games start at once.',
    authScopes: { scope: 'games:play' },
    errors: { types: [...GAME_ERRORS, RateLimitedError], directResult: true, union: resultUnion('CreateMatchResult', 'Match') },
    args: { input: t.arg({ type: CreateMatchInput, required: true, description: 'The match’s settings.' }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'createGame');
      return value(
        await createMatch(deps(ctx), requirePlayer(ctx).player.id, {
          ruleSet: eitherOf({ field: 'input.preset', value: input.preset }, { field: 'input.ruleSet', value: input.ruleSet }),
          overrides: input.overrides ?? null,
          lexicon: input.lexicon ?? null,
          timeControl: timeControlOf(input.timeControl),
          opponent: input.opponent ?? null,
          rated: input.rated ?? null,
        }),
      );
    },
  }),
  joinMatch: t.field({
    type: MatchType,
    description: 'Takes the open place of a match: you sit in seat 1 of every game, and they start at once.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('JoinMatchResult', 'Match') },
    args: { matchId: t.arg.id({ required: true, description: MATCH_ID }) },
    resolve: async (_root, args, ctx) => value(await joinMatch(deps(ctx), requirePlayer(ctx).player.id, String(args.matchId))),
  }),
}));
