import * as z from 'zod';
import { findPlayerById } from '../service/accounts.js';
import { changePassword, type PasswordChanged } from '../service/password-change.js';
import { endSession, endSessions, listSessions, renewSession, type SessionRow } from '../service/sessions.js';
import { issuePlayerToken, verifyTokenForRenewal } from './auth.js';
import { builder } from './builder.js';
import { requirePlayer, type Context } from './context.js';
import { AUTH_ERRORS, INPUT_ERRORS, NotFoundError, RateLimitedError, resultUnion, UnauthenticatedError } from './errors.js';
import { PasswordInputError, unwrapPassword } from './password-errors.js';
import { AuthPayloadType } from './players.js';

/**
 * Sign-in sessions and the password (issue 32; docs/accounts.md): a player's sessions, ending one or all,
 * renewing a session's token, changing the password. Account actions need a password session
 * (`authScopes: { passwordSession: true }`): an API key or an app's OAuth token is FORBIDDEN here whatever
 * its scopes, since whoever holds one must not lock the owner out nor see where they sign in.
 * Each revocation forgets this process's cached tokens at once; other processes refuse them within their
 * cache's life (graph/auth.ts PrincipalCache).
 */

const currentSessionOf = (ctx: Context): string | null => (ctx.principal.kind === 'player' ? ctx.principal.sessionId : null);

const SignInSessionType = builder.objectRef<SessionRow>('SignInSession').implement({
  description: 'A sign-in of yours (a password login) and its tokens: where you are signed in.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The session’s id (a uuid): endSession takes it; its tokens carry it as `sid`.' }),
    userAgent: t.exposeString('userAgent', {
      nullable: true,
      description: 'The device: the User-Agent of the client that signed in (at most 512 characters); null when it sent none.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When you signed in.' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      description: 'When one of its tokens was last used (recorded at most once a minute).',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      description: 'When it ends unless used again: 30 days after its last use.',
    }),
    endedAt: t.expose('revokedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was ended (signed out, or the password changed); null while it lives.',
    }),
    current: t.boolean({
      description: 'It is the session of the token making this request.',
      resolve: (s, _args, ctx) => s.id === currentSessionOf(ctx),
    }),
  }),
});

const SignedOutType = builder.objectRef<{ endedSessions: number }>('SignedOut').implement({
  description: 'Sessions ended by signOutEverywhere.',
  fields: (t) => ({
    endedSessions: t.exposeInt('endedSessions', { description: 'How many sessions were ended (their tokens are refused).' }),
  }),
});

const PasswordChangedType = builder.objectRef<PasswordChanged>('PasswordChanged').implement({
  description: 'The password is changed: every other session ended, every app’s access revoked; your API keys stay.',
  fields: (t) => ({
    endedSessions: t.exposeInt('endedSessions', { description: 'Your other sessions ended (this one stays signed in).' }),
    revokedAppRecords: t.exposeInt('revokedOAuthRecords', {
      description: 'Apps’ grants, codes and tokens (OAuth) of yours deleted: each app must ask for your consent again.',
    }),
  }),
});

const ChangePasswordInput = builder.inputType('ChangePasswordInput', {
  description: 'Your current password and the new one.',
  fields: (t) => ({
    currentPassword: t.string({ description: 'Your password now: checked under the login back-off (BAD_CREDENTIALS, RATE_LIMITED).' }),
    newPassword: t.string({
      description:
        'At least 8 and at most 200 characters, not one of the most common passwords (PasswordInputError names input.newPassword).',
    }),
  }),
  validate: z.object({
    currentPassword: z.string().max(200, 'The current password is longer than 200 characters.'),
    newPassword: z.string().max(4096, 'The new password is longer than 4096 characters.'),
  }),
});

/** The caller's session (passwordSession guarantees one). */
const sessionOf = (ctx: Context) => {
  const me = requirePlayer(ctx);
  return { playerId: me.player.id, sessionId: me.sessionId! };
};

builder.queryFields((t) => ({
  sessions: t.field({
    type: [SignInSessionType],
    description: 'Where you are signed in: your live sessions, the most recently used first. Only with a password session.',
    authScopes: { passwordSession: true },
    errors: {
      types: [...AUTH_ERRORS],
      union: resultUnion('SessionsResult', 'SignInSessionList'),
      result: { name: 'SignInSessionList', description: 'Your live sessions.' },
      dataField: { name: 'sessions', description: 'Your live sessions, the most recently used first.' },
    },
    resolve: (_root, _args, ctx) => listSessions(ctx.db.prisma, requirePlayer(ctx).player.id, ctx.now()),
  }),
}));

builder.mutationFields((t) => ({
  endSession: t.field({
    type: SignInSessionType,
    description:
      'Ends one of your sessions (signs that device out): its tokens are refused at once here, within seconds everywhere. Your own current one too, if you name it. SESSION_NOT_FOUND for an id that is not one of your live sessions.',
    authScopes: { passwordSession: true },
    errors: { types: [...AUTH_ERRORS, NotFoundError], directResult: true, union: resultUnion('EndSessionResult', 'SignInSession') },
    args: { id: t.arg.id({ required: true, description: 'The session’s id (SignInSession.id).' }) },
    resolve: async (_root, args, ctx) => {
      const { playerId } = sessionOf(ctx);
      const r = await endSession(ctx.db.prisma, playerId, String(args.id), ctx.now());
      if (!r.ok) throw new NotFoundError(r.error.message, { ...r.error.details }, r.error.code);
      ctx.principals.forgetSession(r.value.id);
      return r.value;
    },
  }),
  signOutEverywhere: t.field({
    type: SignedOutType,
    description:
      'Ends all your sessions, this one included unless keepCurrent: every token of them is refused (at once here, within seconds everywhere). API keys and apps’ access are not touched (revokeApiKey; changePassword ends apps’ access).',
    authScopes: { passwordSession: true },
    errors: { types: [...AUTH_ERRORS], directResult: true, union: resultUnion('SignOutEverywhereResult', 'SignedOut') },
    args: {
      keepCurrent: t.arg.boolean({
        required: false,
        defaultValue: false,
        description: 'Keep the session making this request signed in (default false: sign out here too).',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const { playerId, sessionId } = sessionOf(ctx);
      const endedSessions = await endSessions(ctx.db.prisma, playerId, ctx.now(), args.keepCurrent ? sessionId : null);
      ctx.principals.forgetPlayer(playerId);
      return { endedSessions };
    },
  }),
}));

builder.mutationFields((t) => ({
  renewToken: t.field({
    type: AuthPayloadType,
    description:
      'A new token for the session of `token`, without the password, while the session lives (30 days from its last use, not ended): renew before or after the token’s hour runs out. UNAUTHENTICATED (details.reason SESSION_REVOKED, SESSION_EXPIRED, SESSION_NOT_FOUND) once it does not: sign in again.',
    errors: { types: [UnauthenticatedError, ...INPUT_ERRORS], directResult: true, union: resultUnion('RenewTokenResult', 'AuthPayload') },
    args: {
      token: t.arg.string({
        required: true,
        description: 'A token of the session (the last one you were given; it may have expired).',
        validate: z.string().max(4096),
      }),
    },
    resolve: async (_root, args, ctx) => {
      const now = ctx.now();
      const verified = await verifyTokenForRenewal(ctx.jwt, args.token, now);
      if ('problem' in verified) throw new UnauthenticatedError(verified.problem);
      const renewed = await renewSession(ctx.db.prisma, verified.playerId, verified.sessionId, now);
      if (!renewed.ok) throw new UnauthenticatedError(renewed.error.message, { reason: renewed.error.code });
      const player = await findPlayerById(ctx.db.prisma, verified.playerId);
      if (!player || player.deletedAt) throw new UnauthenticatedError('The token names a player who no longer exists.');
      return { ...(await issuePlayerToken(ctx.jwt, player.id, now, verified.sessionId)), player };
    },
  }),
  changePassword: t.field({
    type: PasswordChangedType,
    description:
      'Changes your password: needs the current one (BAD_CREDENTIALS, under the login back-off: RATE_LIMITED), the new one must pass the policy (PasswordInputError). Ends every other session of yours and every app’s access (OAuth grants and tokens); this session stays signed in; API keys stay. Only with a password session.',
    authScopes: { passwordSession: true },
    errors: {
      types: [...AUTH_ERRORS, ...INPUT_ERRORS, RateLimitedError, PasswordInputError],
      directResult: true,
      union: resultUnion('ChangePasswordResult', 'PasswordChanged'),
    },
    args: { input: t.arg({ type: ChangePasswordInput, required: true, description: 'The current and the new password.' }) },
    resolve: async (_root, { input }, ctx) => {
      const { playerId, sessionId } = sessionOf(ctx);
      const changed = unwrapPassword(
        await changePassword(
          ctx.db,
          ctx.rateLimits,
          { playerId, sessionId, currentPassword: input.currentPassword, newPassword: input.newPassword, address: ctx.clientAddress },
          ctx.now(),
        ),
      );
      ctx.principals.forgetPlayer(playerId);
      return changed;
    },
  }),
}));
