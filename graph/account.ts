import * as z from 'zod';
import { deleteAccount, type DeletedAccount } from '../service/account-deletion.js';
import { exportAccount, type AccountExport } from '../service/account-export.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { AUTH_ERRORS, INPUT_ERRORS, NotFoundError, RateLimitedError, resultUnion, RuleViolation, unwrap } from './errors.js';
import { deps } from './game.js';

/**
 * The account's end and its data taken away (issue 32; docs/accounts.md): `deleteAccount` and
 * `accountExport`. Both need a password session: an API key or an app's OAuth token (even with
 * games:read) must neither delete nor carry off the whole account.
 */

const DeletedAccountType = builder.objectRef<DeletedAccount>('DeletedAccount').implement({
  description: 'An account just deleted: its personal data is gone; its games stay, under the pseudonym.',
  fields: (t) => ({
    pseudonym: t.exposeString('pseudonym', { description: 'The handle the account’s games now show (deleted-…).' }),
    deletedAt: t.expose('deletedAt', { type: 'DateTime', description: 'When the account was deleted.' }),
    gamesPseudonymized: t.exposeInt('gamesPseudonymized', { description: 'Games whose record now names the pseudonym.' }),
    tournamentEntriesPseudonymized: t.exposeInt('tournamentEntriesPseudonymized', {
      description: 'Tournament entries whose record now names the pseudonym.',
    }),
  }),
});

const AccountExportType = builder.objectRef<AccountExport>('AccountExport').implement({
  description:
    'Your data as one JSON document (docs/accounts.md "Exporting your data"); GET /v1/me/export serves the same document as a download.',
  fields: (t) => ({
    filename: t.exposeString('filename', { description: 'What the download is saved as: arbiter-<handle>-<yyyy-mm-dd>.json.' }),
    document: t.field({
      type: 'JSON',
      description:
        'The document: the account, its settings, keys, webhooks, sessions, apps, grants, ratings and one page of games with their GCG.',
      resolve: (e) => e.document,
    }),
    json: t.string({
      description: 'The same document as JSON text (what the REST download holds).',
      resolve: (e) => `${JSON.stringify(e.document, null, 2)}\n`,
    }),
  }),
});

const DeleteAccountInput = builder.inputType('DeleteAccountInput', {
  description: 'Your password, typed again, and the confirmation sentence.',
  fields: (t) => ({
    password: t.string({ description: 'Your current password: checked under the login back-off.' }),
    confirm: t.string({ description: 'Exactly "DELETE <your handle>", e.g. "DELETE alice".' }),
  }),
  validate: z.object({
    password: z.string().min(1, 'The password is empty.').max(200, 'The password is longer than 200 characters.'),
    confirm: z.string().max(64, 'The confirmation is longer than 64 characters.'),
  }),
});

builder.queryFields((t) => ({
  accountExport: t.field({
    type: AccountExportType,
    description:
      'Everything Arbiter holds about you, as one JSON document: the account, e-mail, notification preferences, API keys, webhooks and push subscriptions (never their secrets), sessions, apps and grants, ratings, tournament entries, and your games with their GCG as you may see them (your own rack only while a game is on). Up to 500 games per document: gamePage picks the next ones. Only with a password session.',
    authScopes: { passwordSession: true },
    errors: {
      types: [...AUTH_ERRORS, RuleViolation, NotFoundError],
      directResult: true,
      union: resultUnion('AccountExportResult', 'AccountExport'),
    },
    args: {
      gamePage: t.arg.int({
        required: false,
        description: 'The page of games, from 1 (default 1); the document’s games.pages says how many.',
      }),
    },
    resolve: async (_root, args, ctx) => unwrap(await exportAccount(deps(ctx), requirePlayer(ctx).player.id, args.gamePage ?? 1)),
  }),
}));

builder.mutationFields((t) => ({
  deleteAccount: t.field({
    type: DeletedAccountType,
    description:
      'Deletes your account for good (docs/accounts.md): personal data erased, keys, webhooks, push subscriptions, e-mail, sessions, apps and grants removed, your handle and name replaced by a pseudonym in every game and tournament record; the moves stay for your opponents. Needs a password session, your password typed again and confirm "DELETE <handle>". Refused with ACCOUNT_HAS_ACTIVE_GAMES (listing them) while you have games in progress: resign or finish them first.',
    authScopes: { passwordSession: true },
    errors: {
      types: [...AUTH_ERRORS, ...INPUT_ERRORS, RuleViolation, RateLimitedError, NotFoundError],
      directResult: true,
      union: resultUnion('DeleteAccountResult', 'DeletedAccount'),
    },
    args: { input: t.arg({ type: DeleteAccountInput, required: true, description: 'Your password and the confirmation.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requirePlayer(ctx);
      const deleted = unwrap(
        await deleteAccount(
          { db: ctx.db, now: ctx.now, limiter: ctx.rateLimits },
          { playerId: me.player.id, password: input.password, confirm: input.confirm, address: ctx.clientAddress },
        ),
      );
      // This process refuses the player's tokens at once; other processes within their cache's life (graph/auth.ts).
      ctx.principals.forgetPlayer(me.player.id);
      return deleted;
    },
  }),
}));
