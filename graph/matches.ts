import type { RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
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
import { requirePlayer } from './context.js';
import { ForbiddenError, GAME_ERRORS, NotFoundError, RateLimitedError, RuleViolation, UnauthenticatedError } from './errors.js';
import { enforceRateLimit } from './rate-limit.js';
import { connectionOf, requireForward } from './connection.js';
import { deps, GameType, value as gameValue } from './game.js';
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
    firsts: t.exposeInt('firsts'),
    seconds: t.exposeInt('seconds'),
    positions: t.stringList({ description: 'Per game begun, in match order: first, second or neither.', resolve: (f) => [...f.positions] }),
  }),
});

const MatchPlayerType = builder.objectRef<MatchPlayerStanding>('MatchPlayer').implement({
  fields: (t) => ({
    seat: t.exposeInt('seat', { description: 'The player’s seat in every game: 0 = the creator, 1 = the opponent.' }),
    player: t.field({ type: PlayerType, nullable: true, description: 'null: the place is open (joinMatch).', resolve: (p) => p.player }),
    points: t.exposeInt('points', { description: 'Combined points over the games so far (what decides the match, seed-003 scoring 11).' }),
    firstSecond: t.field({ type: FirstSecondType, resolve: (p) => p.firstSecond }),
  }),
});

const MatchGameType = builder.objectRef<MatchGameSnapshot>('MatchGame').implement({
  fields: (t) => ({
    index: t.exposeInt('index', { description: '0 = the first game.' }),
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
      description: 'null for a tie.',
      resolve: ({ outcome, match }) => (outcome.winnerSeat === null ? null : outcome.winnerSeat === 0 ? match.creator : match.opponent),
    }),
    winnerSeat: t.int({ nullable: true, resolve: ({ outcome }) => outcome.winnerSeat }),
    tie: t.boolean({ resolve: ({ outcome }) => outcome.winnerSeat === null }),
    decidedBy: t.string({ description: 'combined-points.', resolve: ({ outcome }) => outcome.decidedBy }),
    gameWinners: t.field({
      type: ['Int'],
      nullable: { list: false, items: true },
      description: 'Each game’s winning seat (null = a tied game).',
      resolve: ({ outcome }) => [...outcome.gameWinners],
    }),
  }),
});

export const MatchType = builder.objectRef<MatchSnapshot>('Match').implement({
  description: 'A match of games between two players, each going first once, decided on combined points (seed-003 rule 1, scoring 11).',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status', {
      description: 'open (waiting for the second player), playing, ended, aborted (a game was aborted: no result).',
    }),
    ruleSetId: t.string({ resolve: (m) => m.rules.id }),
    gameCount: t.int({ description: 'Games in the match (the rule set’s match.games).', resolve: (m) => m.games.length }),
    mySeat: t.int({ nullable: true, description: 'Your seat in every game; null when you are a spectator.', resolve: (m) => m.mySeat }),
    players: t.field({ type: [MatchPlayerType], description: 'By seat.', resolve: (m) => [...m.players] }),
    combinedScores: t.intList({
      description: 'Combined points by seat over the games so far.',
      resolve: (m) => m.players.map((p) => p.points),
    }),
    games: t.field({ type: [MatchGameType], resolve: (m) => [...m.games] }),
    result: t.field({
      type: MatchOutcomeType,
      nullable: true,
      description: 'Set once every game has ended.',
      resolve: (m) => (m.result ? { outcome: m.result, match: m } : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CreateMatchInput = builder.inputType('CreateMatchInput', {
  fields: (t) => ({
    ruleSet: t.string({
      required: false,
      description: `Preset id (default ${DEFAULT_MATCH_RULE_SET}); with overrides, match.games must be set.`,
    }),
    overrides: t.field({
      type: 'JSON',
      required: false,
      description: 'Rule-set overrides, nested like the rule set: {"match": {"games": 2}}.',
    }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default).' }),
    timeControl: t.field({ type: TimeControlInput, required: false, description: 'For every game of the match. Default: untimed.' }),
    opponent: t.string({
      required: false,
      description: 'The opponent’s handle; leave it out for an open place anyone may take (joinMatch).',
    }),
  }),
});

const READ_ERRORS = [UnauthenticatedError, ForbiddenError, NotFoundError, RuleViolation];

builder.queryFields((t) => ({
  match: t.field({
    type: MatchType,
    description: 'A match with its games as you see them, combined points and (once over) the result.',
    authScopes: { scope: 'games:read' },
    errors: { types: READ_ERRORS, directResult: true, union: { name: 'MatchResult' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => value(await getMatch(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  myMatches: t.connection({
    type: MatchType,
    description: 'Your matches (created or joined), newest first. Forward pagination (first, after).',
    authScopes: { scope: 'games:read' },
    resolve: async (_root, args, ctx) => {
      requireForward('myMatches', args);
      return connectionOf(
        value(await myMatches(deps(ctx), requirePlayer(ctx).player.id, { first: args.first ?? null, after: args.after ?? null })),
      );
    },
  }),
}));

builder.mutationFields((t) => ({
  createMatch: t.field({
    type: MatchType,
    description:
      'Creates a match and all its games, you in seat 0 of each; game 1 you move first, game 2 your opponent. Against a named opponent the games start at once.',
    authScopes: { scope: 'games:play' },
    errors: { types: [...GAME_ERRORS, RateLimitedError], directResult: true, union: { name: 'CreateMatchResult' } },
    args: { input: t.arg({ type: CreateMatchInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'createGame');
      return value(
        await createMatch(deps(ctx), requirePlayer(ctx).player.id, {
          ruleSet: input.ruleSet ?? null,
          overrides: input.overrides ?? null,
          lexicon: input.lexicon ?? null,
          timeControl: timeControlOf(input.timeControl),
          opponent: input.opponent ?? null,
        }),
      );
    },
  }),
  joinMatch: t.field({
    type: MatchType,
    description: 'Takes the open place of a match: you sit in seat 1 of every game, and they start at once.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: { name: 'JoinMatchResult' } },
    args: { matchId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => value(await joinMatch(deps(ctx), requirePlayer(ctx).player.id, String(args.matchId))),
  }),
}));
