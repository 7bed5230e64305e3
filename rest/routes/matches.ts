import { DEFAULT_MATCHES_PAGE, MAX_MATCHES_PAGE } from '../../service/matches.js';
import { body, path, query, type Route } from '../route.js';
import { MATCH, MATCH_SUMMARY } from '../shapes.js';

/** Matches: a series of games between two players, decided on combined points. */

const matchUrl = (m: Record<string, unknown>) => `/v1/matches/${encodeURIComponent(String(m['id']))}`;

export const MATCH_ROUTES: readonly Route[] = [
  {
    operationId: 'createMatch',
    method: 'POST',
    path: '/matches',
    tag: 'Matches',
    summary: 'Create a match',
    description:
      'Creates the match and all its games, you in seat 0 of each; game 1 you move first, game 2 your opponent. Against a named opponent the games start at once.',
    field: 'createMatch',
    args: { input: body() },
    reply: { kind: 'object' },
    shape: MATCH,
    status: 201,
    location: matchUrl,
    auth: 'scope:games:play',
    replaces: 'POST /rest/create-match',
  },
  {
    operationId: 'getMatch',
    method: 'GET',
    path: '/matches/{id}',
    tag: 'Matches',
    summary: 'Read a match',
    description: 'Its games as you see them, combined points and (once over) the result.',
    field: 'match',
    args: { id: path('id') },
    reply: { kind: 'object' },
    shape: MATCH,
    auth: 'scope:games:read',
    replaces: 'GET /rest/match',
  },
  {
    operationId: 'joinMatch',
    method: 'POST',
    path: '/matches/{id}/join',
    tag: 'Matches',
    summary: 'Take the open place of a match',
    description: 'You sit in seat 1 of every game, and they start at once.',
    field: 'joinMatch',
    args: { matchId: path('id') },
    reply: { kind: 'object' },
    shape: MATCH,
    auth: 'scope:games:play',
    replaces: 'POST /rest/join-match',
  },
  {
    operationId: 'listMyMatches',
    method: 'GET',
    path: '/me/matches',
    tag: 'Matches',
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
  },
];
