import { body, query, type Route } from '../route.js';
import { LEAVES } from '../shape.js';

/** Your account's end and your data taken away (docs/accounts.md): a password session's token only. */

export const ACCOUNT_DATA_ROUTES: readonly Route[] = [
  {
    operationId: 'exportAccount',
    method: 'GET',
    path: '/me/export',
    tag: 'Accounts',
    summary: 'Download your data',
    description:
      'Everything Arbiter holds about you as one JSON file (Content-Disposition: attachment; filename=arbiter-<handle>-<date>.json): the account, e-mail, notification preferences, keys, webhooks, push subscriptions, sessions, apps and grants (never a secret), ratings, tournament entries and up to 500 games with their GCG as you may see them; `gamePage` for the next 500 (`games.pages` says how many). Only with a token from signing in (403 for an API key or an app).',
    field: 'accountExport',
    args: { gamePage: query('gamePage', 'The page of games, from 1 (default 1).') },
    reply: {
      kind: 'text',
      field: 'json',
      filenameField: 'filename',
      mediaType: 'application/json',
      description: 'The export document (format arbiter-account-export/1).',
    },
    shape: {},
    auth: 'player',
  },
  {
    operationId: 'deleteAccount',
    method: 'POST',
    path: '/me/delete',
    tag: 'Accounts',
    summary: 'Delete your account',
    description:
      'Body `{"password": "…", "confirm": "DELETE <handle>"}`. Erases your personal data and replaces your handle and name by a pseudonym in every game and tournament record (the moves stay for your opponents); your tokens, keys and apps stop working. 409 ACCOUNT_HAS_ACTIVE_GAMES (listing them) while you have games in progress; 422 CONFIRMATION_MISMATCH; 401 BAD_CREDENTIALS for a wrong password (counted by the login back-off). POST, not DELETE /v1/me: the request carries a body, which DELETE has no defined meaning for (RFC 9110 §9.3.5). Only with a token from signing in.',
    field: 'deleteAccount',
    args: { input: body() },
    reply: { kind: 'object' },
    shape: LEAVES,
    auth: 'player',
  },
];
