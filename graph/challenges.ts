import type { RuleSetId } from '../engine/rules/ruleset.js';
import {
  acceptChallenge,
  createChallenge,
  declineChallenge,
  getChallenge,
  myChallenges,
  requestRematch,
  withdrawChallenge,
  type ChallengeState,
  type ChallengeView,
} from '../service/challenges.js';
import {
  acceptRobotOffer,
  createPairingRequest,
  myPairingRequests,
  withdrawPairingRequest,
  type PairingState,
  type PairingView,
} from '../service/pairing-requests.js';
import { builder } from './builder.js';
import { requirePlayer, requireScope } from './context.js';
import { RuleSetPresetEnum } from './enums.js';
import { GAME_ERRORS, RateLimitedError, resultUnion } from './errors.js';
import { deps, GameType } from './game.js';
import { TimeControlType } from './game-clock.js';
import { TimeControlInput, timeControlOf } from './game-inputs.js';
import { LOBBY_ERRORS, lobbyValue } from './lobby.js';
import { PlayerType } from './players.js';
import { enforceRateLimit } from './rate-limit.js';

/**
 * Challenges to a named player, rematches and correspondence pairing requests (issue 33, docs/lobby.md). The
 * seeks are in graph/lobby.ts, with the error mapping both use.
 */

const ChallengeStateEnum = builder.enumType('ChallengeState', {
  description: 'Where a challenge stands.',
  values: {
    OPEN: { value: 'open', description: 'Waiting for the challenged player’s answer.' },
    ACCEPTED: { value: 'accepted', description: 'Accepted: its game is on (gameId).' },
    DECLINED: { value: 'declined', description: 'The challenged player declined it.' },
    WITHDRAWN: { value: 'withdrawn', description: 'The challenger withdrew it.' },
    EXPIRED: { value: 'expired', description: 'Its expiry passed unanswered.' },
  } satisfies Record<string, { value: ChallengeState; description: string }>,
});

export const ChallengeType = builder.objectRef<ChallengeView>('Challenge').implement({
  description: 'A game offered to one named player (or a rematch of an ended game), who accepts or declines it.',
  fields: (t) => ({
    id: t.id({ description: 'The challenge’s id (a uuid).', resolve: (c) => c.challenge.id }),
    state: t.field({ type: ChallengeStateEnum, description: 'Where the challenge stands.', resolve: (c) => c.state }),
    challenger: t.field({ type: PlayerType, description: 'Who made it.', resolve: (c) => c.challenger }),
    challenged: t.field({ type: PlayerType, description: 'Who it is made to.', resolve: (c) => c.challenged }),
    preset: t.field({ type: RuleSetPresetEnum, description: 'The rule-set preset.', resolve: (c) => c.challenge.ruleSetId as RuleSetId }),
    overrides: t.field({ type: 'JSON', description: 'Rule-set overrides ({} for none).', resolve: (c) => c.challenge.ruleOverrides }),
    lexicon: t.string({ description: 'The lexicon’s name.', resolve: (c) => c.challenge.lexiconName }),
    timeControl: t.field({
      type: TimeControlType,
      description: 'How the game will be timed.',
      resolve: (c) => ({ tc: c.timeControl, clock: null, readings: null }),
    }),
    rated: t.boolean({ description: 'Rated or casual.', resolve: (c) => c.challenge.rated }),
    challengerSeat: t.int({ description: 'The challenger’s seat in the game, 0 or 1.', resolve: (c) => c.challenge.challengerSeat }),
    firstSeat: t.int({ description: 'The seat that moves first, 0 or 1.', resolve: (c) => c.challenge.firstSeat }),
    rematchOf: t.id({
      nullable: true,
      description: 'The ended game this is a rematch of; null for a plain challenge.',
      resolve: (c) => c.challenge.rematchOf,
    }),
    expiresAt: t.field({ type: 'DateTime', description: 'When it expires unanswered.', resolve: (c) => c.challenge.expiresAt }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was made.', resolve: (c) => c.challenge.createdAt }),
    gameId: t.id({ nullable: true, description: 'The game it led to, once accepted.', resolve: (c) => c.challenge.gameId }),
  }),
});

const CreateChallengeInput = builder.inputType('CreateChallengeInput', {
  description: 'A challenge: the player and the game’s settings.',
  fields: (t) => ({
    opponent: t.string({ required: true, description: 'The challenged player’s handle (not a robot, not yourself).' }),
    preset: t.field({ type: RuleSetPresetEnum, required: false, description: 'The rule-set preset (default NSA_2008).' }),
    overrides: t.field({ type: 'JSON', required: false, description: 'Rule-set overrides, nested like the rule set.' }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default).' }),
    timeControl: t.field({
      type: TimeControlInput,
      required: false,
      description: 'How the game is timed (default: correspondence, 3 days per move).',
    }),
    rated: t.boolean({ required: false, description: 'Rated (default false: casual).' }),
    seat: t.int({ required: false, description: 'Your seat, 0 or 1 (default 0); seat 0 moves first.' }),
    expiresInDays: t.int({ required: false, description: 'Days until the challenge expires unanswered, 1–30 (default 7).' }),
  }),
});

const CHALLENGE_ID = 'The challenge’s id (Challenge.id).';
const CHALLENGE_RESULT = (name: string) => ({ types: LOBBY_ERRORS, directResult: true as const, union: resultUnion(name, 'Challenge') });

const PairingStateEnum = builder.enumType('PairingState', {
  description: 'Where a pairing request stands.',
  values: {
    WAITING: { value: 'waiting', description: 'Waiting for a compatible request.' },
    PAIRED: { value: 'paired', description: 'Paired: its game is on (gameId).' },
    ROBOT_OFFERED: {
      value: 'robot-offered',
      description: 'The wait ended unmatched: acceptRobotOffer starts a casual game against a robot.',
    },
    ROBOT_ACCEPTED: { value: 'robot-accepted', description: 'You took the robot: its game is on (gameId).' },
    WITHDRAWN: { value: 'withdrawn', description: 'You withdrew it.' },
  } satisfies Record<string, { value: PairingState; description: string }>,
});

const PairingRequestType = builder.objectRef<PairingView>('PairingRequest').implement({
  description: '“Pair me with someone within ±ratingRange of my rating before waitUntil” (docs/lobby.md).',
  fields: (t) => ({
    id: t.id({ description: 'The request’s id (a uuid).', resolve: (p) => p.request.id }),
    state: t.field({ type: PairingStateEnum, description: 'Where the request stands.', resolve: (p) => p.state }),
    preset: t.field({ type: RuleSetPresetEnum, description: 'The rule-set preset.', resolve: (p) => p.request.ruleSetId as RuleSetId }),
    lexicon: t.string({ description: 'The lexicon’s name.', resolve: (p) => p.request.lexiconName }),
    daysPerMove: t.int({ description: 'Correspondence: days for each move.', resolve: (p) => p.request.daysPerMove }),
    rated: t.boolean({ description: 'Rated or casual.', resolve: (p) => p.request.rated }),
    category: t.string({ description: 'The rating category.', resolve: (p) => p.request.category }),
    rating: t.int({
      description: 'Your rating in the category when you asked (1500 for a newcomer).',
      resolve: (p) => Math.round(p.request.rating),
    }),
    ratingRange: t.int({ description: '± rating points an opponent may differ by.', resolve: (p) => p.request.ratingRange }),
    waitUntil: t.field({ type: 'DateTime', description: 'When a robot is offered if nobody fits.', resolve: (p) => p.request.waitUntil }),
    gameId: t.id({ nullable: true, description: 'The game it led to.', resolve: (p) => p.request.gameId }),
    createdAt: t.field({ type: 'DateTime', description: 'When you asked.', resolve: (p) => p.request.createdAt }),
  }),
});

const CreatePairingRequestInput = builder.inputType('CreatePairingRequestInput', {
  description: 'What to be paired for: every field is optional.',
  fields: (t) => ({
    preset: t.field({ type: RuleSetPresetEnum, required: false, description: 'The rule-set preset (default NSA_2008).' }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default).' }),
    daysPerMove: t.int({ required: false, description: 'Days per move, 1–14 (default 3).' }),
    rated: t.boolean({ required: false, description: 'Rated (default false). A robot offered at the end is always casual.' }),
    ratingRange: t.int({ required: false, description: '± rating points, 0–1000 (default 200).' }),
    waitHours: t.int({ required: false, description: 'Hours to wait for a player before a robot is offered, 1–168 (default 24).' }),
  }),
});

const PAIRING_ID = 'The pairing request’s id (PairingRequest.id).';
const PAIRING_RESULT = (name: string) => ({ types: LOBBY_ERRORS, directResult: true as const, union: resultUnion(name, 'PairingRequest') });

builder.queryFields((t) => ({
  challenge: t.field({
    type: ChallengeType,
    description: 'A challenge you made or received.',
    authScopes: { scope: 'games:read' },
    errors: CHALLENGE_RESULT('ChallengeResult'),
    args: { id: t.arg.id({ required: true, description: CHALLENGE_ID }) },
    resolve: async (_root, args, ctx) => lobbyValue(await getChallenge(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  myChallenges: t.field({
    type: [ChallengeType],
    description: 'Your challenges, made and received, newest first (the last 100).',
    authScopes: { scope: 'games:read' },
    resolve: async (_root, _args, ctx) => myChallenges(deps(ctx), requireScope(ctx, 'games:read').player.id),
  }),
  myPairingRequests: t.field({
    type: [PairingRequestType],
    description: 'Your pairing requests, newest first (the last 50).',
    authScopes: { scope: 'games:read' },
    resolve: async (_root, _args, ctx) => myPairingRequests(deps(ctx), requirePlayer(ctx).player.id),
  }),
}));

builder.mutationFields((t) => ({
  createChallenge: t.field({
    type: ChallengeType,
    description: 'Challenges a named player to a game with these settings; they accept (the game starts) or decline.',
    authScopes: { scope: 'games:play' },
    errors: { ...CHALLENGE_RESULT('CreateChallengeResult'), types: [...LOBBY_ERRORS, RateLimitedError] },
    args: { input: t.arg({ type: CreateChallengeInput, required: true, description: 'The player and the settings.' }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'createGame');
      return lobbyValue(
        await createChallenge(deps(ctx), requirePlayer(ctx).player.id, {
          opponent: input.opponent,
          ruleSet: input.preset ?? null,
          overrides: input.overrides ?? null,
          lexicon: input.lexicon ?? null,
          timeControl: timeControlOf(input.timeControl),
          rated: input.rated ?? null,
          seat: input.seat ?? null,
          expiresInDays: input.expiresInDays ?? null,
        }),
      );
    },
  }),
  acceptChallenge: t.field({
    type: GameType,
    description: 'Accepts a challenge made to you: its game starts at once, both players seated as it says.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('AcceptChallengeResult', 'Game') },
    args: { id: t.arg.id({ required: true, description: CHALLENGE_ID }) },
    resolve: async (_root, args, ctx) => lobbyValue(await acceptChallenge(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  declineChallenge: t.field({
    type: ChallengeType,
    description: 'Declines a challenge made to you.',
    authScopes: { scope: 'games:play' },
    errors: CHALLENGE_RESULT('DeclineChallengeResult'),
    args: { id: t.arg.id({ required: true, description: CHALLENGE_ID }) },
    resolve: async (_root, args, ctx) => lobbyValue(await declineChallenge(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  withdrawChallenge: t.field({
    type: ChallengeType,
    description: 'Withdraws a challenge you made.',
    authScopes: { scope: 'games:play' },
    errors: CHALLENGE_RESULT('WithdrawChallengeResult'),
    args: { id: t.arg.id({ required: true, description: CHALLENGE_ID }) },
    resolve: async (_root, args, ctx) => lobbyValue(await withdrawChallenge(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  requestRematch: t.field({
    type: ChallengeType,
    description:
      'Asks the other player of an ended game you played for a rematch: a challenge with its settings, the seats swapped so that the player who moved second moves first. One open rematch per game.',
    authScopes: { scope: 'games:play' },
    errors: CHALLENGE_RESULT('RequestRematchResult'),
    args: { gameId: t.arg.id({ required: true, description: 'The ended game (Game.id).' }) },
    resolve: async (_root, args, ctx) => lobbyValue(await requestRematch(deps(ctx), requirePlayer(ctx).player.id, String(args.gameId)), ''),
  }),
}));

builder.mutationFields((t) => ({
  createPairingRequest: t.field({
    type: PairingRequestType,
    description:
      'Asks to be paired with a player within ±ratingRange of your rating; paired at once when one waits (state PAIRED, gameId).',
    authScopes: { scope: 'games:play' },
    errors: { ...PAIRING_RESULT('CreatePairingRequestResult'), types: [...LOBBY_ERRORS, RateLimitedError] },
    args: { input: t.arg({ type: CreatePairingRequestInput, required: true, description: 'What to be paired for.' }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'createGame');
      return lobbyValue(
        await createPairingRequest(deps(ctx), requirePlayer(ctx).player.id, {
          ruleSet: input.preset ?? null,
          lexicon: input.lexicon ?? null,
          daysPerMove: input.daysPerMove ?? null,
          rated: input.rated ?? null,
          ratingRange: input.ratingRange ?? null,
          waitHours: input.waitHours ?? null,
        }),
      );
    },
  }),
  withdrawPairingRequest: t.field({
    type: PairingRequestType,
    description: 'Withdraws your waiting (or robot-offered) pairing request.',
    authScopes: { scope: 'games:play' },
    errors: PAIRING_RESULT('WithdrawPairingRequestResult'),
    args: { id: t.arg.id({ required: true, description: PAIRING_ID }) },
    resolve: async (_root, args, ctx) => lobbyValue(await withdrawPairingRequest(deps(ctx), requirePlayer(ctx).player.id, String(args.id))),
  }),
  acceptRobotOffer: t.field({
    type: GameType,
    description: 'Once your pairing request’s wait has ended unmatched: starts a casual game against a robot (robots are not rated).',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('AcceptRobotOfferResult', 'Game') },
    args: {
      id: t.arg.id({ required: true, description: PAIRING_ID }),
      robot: t.arg.string({ required: false, description: 'robot:equity (default) or robot:greedy.' }),
    },
    resolve: async (_root, args, ctx) =>
      lobbyValue(await acceptRobotOffer(deps(ctx), requirePlayer(ctx).player.id, String(args.id), args.robot ?? null), ''),
  }),
}));
