import { DEFAULT_SEEKS_PAGE, MAX_SEEKS_PAGE } from '../../service/seeks.js';
import { LEAVES } from '../shape.js';
import { path, query, resource, resourceUrl, type Route } from '../route.js';
import { GAME } from '../shapes.js';

/** The lobby (issue 33, docs/lobby.md): seeks, challenges and rematches, correspondence pairing requests. */

const SEEK = LEAVES;
const CHALLENGE = { expand: { challenger: LEAVES, challenged: LEAVES, timeControl: LEAVES } };
const PAIRING_REQUEST = LEAVES;
const PLAY = 'scope:games:play' as const;
const READ = 'scope:games:read' as const;

const seeks = resource('Lobby', '/seeks');
const challenges = resource('Lobby', '/challenges');
const pairingRequests = resource('Lobby', '/pairing-requests');
const endedGames = resource('Lobby', '/games');

/** What an action that starts a game answers: 201, the game with its ETag, its URL. */
const STARTS_GAME = { shape: GAME, status: 201, location: resourceUrl('/games'), etag: true } as const;

const SEEK_ROUTES: readonly Route[] = [
  seeks.list({
    operationId: 'listSeeks',
    summary: 'The open seeks',
    description:
      'Not expired, newest first, each with its author’s handle and rating in its category; open to anyone. Pages forward: follow `nextCursor`. To follow changes, read this, then GET /v1/seeks/events.',
    field: 'seeks',
    args: {
      first: query('first', `Seeks per page (default ${DEFAULT_SEEKS_PAGE}, at most ${MAX_SEEKS_PAGE}).`),
      after: query('after', 'The `nextCursor` of the page before.'),
      'filter.preset': query('preset', 'Only seeks of this rule-set preset (NSA_2008 …).'),
      'filter.lexicon': query('lexicon', 'Only seeks of this lexicon.'),
      'filter.rated': query('rated', 'Only rated (true) or casual (false) seeks.'),
      'filter.daysPerMove': query('daysPerMove', 'Only seeks of this many days per move.'),
      'filter.pace': query('pace', 'Only seeks of this pace: CORRESPONDENCE or RECORDED.'),
      'filter.author': query('author', 'Only the seeks of this handle.'),
    },
    reply: { kind: 'page' },
    shape: SEEK,
    auth: 'none',
  }),
  seeks.create({
    operationId: 'createSeek',
    summary: 'Offer a game anyone may accept',
    description:
      'Rule set, lexicon, pace — correspondence (days per move) or a game at a table recorded here (clockMinutes) —, rated or casual, an optional rating range, an expiry. Announced on GET /v1/seeks/events.',
    shape: SEEK,
    auth: PLAY,
  }),
  seeks.get({
    operationId: 'getSeek',
    summary: 'Read a seek',
    description: 'In any state; open to anyone.',
    field: 'seek',
    shape: SEEK,
    auth: 'none',
  }),
  seeks.action('accept', {
    operationId: 'acceptSeek',
    summary: 'Accept a seek',
    description:
      'Its game starts at once (a recorded seek’s: a recorded game, its author the scorekeeper). Of several players accepting at once exactly one gets the game; the others get 409 SEEK_TAKEN.',
    ...STARTS_GAME,
    auth: PLAY,
  }),
  seeks.remove({
    operationId: 'withdrawSeek',
    summary: 'Withdraw your seek',
    description: 'Answers the seek, state WITHDRAWN.',
    shape: SEEK,
    auth: PLAY,
  }),
];

const CHALLENGE_ROUTES: readonly Route[] = [
  challenges.list({
    operationId: 'listMyChallenges',
    summary: 'Your challenges',
    description: 'Made and received, newest first (the last 100).',
    field: 'myChallenges',
    shape: CHALLENGE,
    auth: READ,
  }),
  challenges.create({
    operationId: 'createChallenge',
    summary: 'Challenge a player',
    description: 'A game with these settings, offered to the player named by `opponent`; they accept or decline.',
    shape: CHALLENGE,
    auth: PLAY,
  }),
  challenges.get({
    operationId: 'getChallenge',
    summary: 'Read a challenge',
    description: 'One you made or received.',
    field: 'challenge',
    shape: CHALLENGE,
    auth: READ,
  }),
  challenges.action('accept', {
    operationId: 'acceptChallenge',
    summary: 'Accept a challenge',
    description: 'Its game starts at once, both players seated as the challenge says.',
    ...STARTS_GAME,
    auth: PLAY,
  }),
  challenges.action('decline', { operationId: 'declineChallenge', summary: 'Decline a challenge', shape: CHALLENGE, auth: PLAY }),
  challenges.remove({ operationId: 'withdrawChallenge', summary: 'Withdraw your challenge', shape: CHALLENGE, auth: PLAY }),
  endedGames.action('rematch', {
    operationId: 'requestRematch',
    summary: 'Ask for a rematch',
    description:
      'A challenge to the other player of this ended game: its settings, the seats swapped so the player who moved second moves first.',
    args: { gameId: path('id') },
    shape: CHALLENGE,
    status: 201,
    location: challenges.url,
    auth: PLAY,
  }),
];

const PAIRING_ROUTES: readonly Route[] = [
  pairingRequests.list({
    operationId: 'listMyPairingRequests',
    summary: 'Your pairing requests',
    description: 'Newest first (the last 50).',
    field: 'myPairingRequests',
    shape: PAIRING_REQUEST,
    auth: READ,
  }),
  pairingRequests.create({
    operationId: 'createPairingRequest',
    summary: 'Ask to be paired',
    description:
      'With a player within ±ratingRange of your rating; paired at once when one waits, else a robot is offered when the wait ends.',
    shape: PAIRING_REQUEST,
    auth: PLAY,
  }),
  pairingRequests.remove({
    operationId: 'withdrawPairingRequest',
    summary: 'Withdraw your pairing request',
    shape: PAIRING_REQUEST,
    auth: PLAY,
  }),
  pairingRequests.action('robot', {
    operationId: 'acceptRobotOffer',
    summary: 'Play the robot offered',
    description: 'Once the wait has ended unmatched: a casual game against a robot (robots are not rated).',
    ...STARTS_GAME,
    auth: PLAY,
  }),
];

export const LOBBY_ROUTES: readonly Route[] = [...SEEK_ROUTES, ...CHALLENGE_ROUTES, ...PAIRING_ROUTES];
