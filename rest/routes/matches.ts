import { DEFAULT_MATCHES_PAGE, MAX_MATCHES_PAGE } from '../../service/matches.js';
import { path, query, resource, type Route } from '../route.js';
import { MATCH, MATCH_SUMMARY } from '../shapes.js';

/** Matches: a series of games between two players, decided on combined points. */

const matches = resource('Matches', '/matches');
const myMatches = resource('Matches', '/me/matches');

export const MATCH_ROUTES: readonly Route[] = [
  matches.create({
    operationId: 'createMatch',
    summary: 'Create a match',
    description:
      'Creates the match and all its games, you in seat 0 of each; game 1 you move first, game 2 your opponent. Against a named opponent the games start at once.',
    shape: MATCH,
    auth: 'scope:games:play',
    replaces: 'POST /rest/create-match',
  }),
  matches.get({
    operationId: 'getMatch',
    summary: 'Read a match',
    description: 'Its games as you see them, combined points and (once over) the result.',
    field: 'match',
    shape: MATCH,
    auth: 'scope:games:read',
    replaces: 'GET /rest/match',
  }),
  matches.action('join', {
    operationId: 'joinMatch',
    summary: 'Take the open place of a match',
    description: 'You sit in seat 1 of every game, and they start at once.',
    args: { matchId: path('id') },
    shape: MATCH,
    auth: 'scope:games:play',
    replaces: 'POST /rest/join-match',
  }),
  myMatches.list({
    operationId: 'listMyMatches',
    summary: 'Your matches',
    description: 'Created or joined, newest first. Pages forward: follow `nextCursor` (or the Link header, rel="next").',
    field: 'myMatches',
    args: {
      first: query('first', `Matches per page (default ${DEFAULT_MATCHES_PAGE}, at most ${MAX_MATCHES_PAGE}).`),
      after: query('after', 'The `nextCursor` of the page before.'),
    },
    reply: { kind: 'page' },
    shape: MATCH_SUMMARY,
    auth: 'scope:games:read',
    replaces: 'GET /rest/my-matches',
  }),
];
