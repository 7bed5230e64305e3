import { body, bodyField, path, type Route } from '../route.js';
import { AUTH } from '../shapes.js';
import { LEAVES } from '../shape.js';

/**
 * Your sign-in sessions and your password (docs/accounts.md). Every route but renewing a token needs a token
 * from signing in with the password: an API key or an app's token is answered 403 FORBIDDEN.
 */

export const SESSION_ROUTES: readonly Route[] = [
  {
    operationId: 'renewToken',
    method: 'POST',
    path: '/sessions/renew',
    tag: 'Accounts',
    summary: 'Renew a session’s token',
    description:
      'Body `{"token": "<a token of the session>"}`, which may have expired: a new token for the same session, without the password, while the session lives (30 days from its last use, not ended). 401 UNAUTHENTICATED (details.reason SESSION_REVOKED, SESSION_EXPIRED, SESSION_NOT_FOUND) once it does not: sign in again.',
    field: 'renewToken',
    args: { token: bodyField('token') },
    reply: { kind: 'object' },
    shape: AUTH,
    auth: 'none',
  },
  {
    operationId: 'listSessions',
    method: 'GET',
    path: '/me/sessions',
    tag: 'Accounts',
    summary: 'Where you are signed in',
    description: 'Your live sessions, the most recently used first, each with its device (User-Agent) and `current` for this request’s.',
    field: 'sessions',
    args: {},
    reply: { kind: 'list', field: 'sessions' },
    shape: LEAVES,
    auth: 'player',
  },
  {
    operationId: 'endSession',
    method: 'DELETE',
    path: '/me/sessions/{id}',
    tag: 'Accounts',
    summary: 'Sign one session out',
    description:
      'Its tokens are refused from then on (within seconds on every server). 404 SESSION_NOT_FOUND for an id that is not one of your live sessions.',
    field: 'endSession',
    args: { id: path('id') },
    reply: { kind: 'empty' },
    shape: {},
    notFound: ['SESSION_NOT_FOUND'],
    auth: 'player',
  },
  {
    operationId: 'signOutEverywhere',
    method: 'POST',
    path: '/me/sessions/sign-out',
    tag: 'Accounts',
    summary: 'Sign out everywhere',
    description:
      'Ends all your sessions, this one included unless the body says `{"keepCurrent": true}`. API keys and apps’ access stay. Answers how many sessions were ended.',
    field: 'signOutEverywhere',
    args: { keepCurrent: bodyField('keepCurrent') },
    reply: { kind: 'object' },
    shape: LEAVES,
    auth: 'player',
  },
  {
    operationId: 'changePassword',
    method: 'POST',
    path: '/me/password',
    tag: 'Accounts',
    summary: 'Change your password',
    description:
      'Body `{"currentPassword": "…", "newPassword": "…"}`. 401 UNAUTHENTICATED (details.reason BAD_CREDENTIALS) for a wrong current password (counted by the login back-off; 429 RATE_LIMITED after repeated failures); 422 PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG or PASSWORD_TOO_COMMON naming `input.newPassword`. Ends every other session and every app’s access (OAuth grants and tokens); this session stays; API keys stay.',
    field: 'changePassword',
    args: { input: body() },
    reply: { kind: 'object' },
    shape: LEAVES,
    auth: 'player',
  },
];
