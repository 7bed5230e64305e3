import * as z from 'zod';
import type { Result } from '../engine/result.js';
import {
  deleteApp,
  listMyApps,
  listMyGrants,
  MAX_APPS_PER_PLAYER,
  MAX_REDIRECT_URIS,
  registerApp,
  revokeGrant,
  rotateAppSecret,
  updateApp,
  type AppError,
  type GrantView,
  type OAuthAppCredentials,
  type OAuthAppView,
} from '../service/oauth-apps.js';
import { builder } from './builder.js';
import { forbiddenFor, requirePlayer, type Context } from './context.js';
import { ApiScopeEnum, OAuthClientTypeEnum } from './enums.js';
import {
  AUTH_ERRORS,
  ConflictError,
  FieldInputError,
  fieldInputErrorType,
  ForbiddenError,
  INPUT_ERRORS,
  NotFoundError,
  RateLimitedError,
  resultUnion,
  valueOrFieldError,
} from './errors.js';
import { enforceRateLimit } from './rate-limit.js';
import type { PlayerPrincipal } from './auth.js';

/**
 * Third-party apps and the grants a player gave them (issue 32, docs/apps.md), over
 * service/oauth-apps.ts. Managing apps takes a password session or an API key with `apps:manage` (a
 * developer's deploy script); the grants are the player's own business: a password session only, so that
 * neither a key nor an app's OAuth token can see or undo what the player authorized. No app's OAuth token
 * manages apps, whatever scopes it was granted.
 */

/** An app or grant input the service refused: APP_NAME_INVALID, APP_REDIRECT_URI_INVALID …; `field` names the argument. */
export class AppInputError extends FieldInputError {}

fieldInputErrorType(
  AppInputError,
  'AppInputError',
  'An app input the service refused: APP_NAME_INVALID, APP_REDIRECT_URI_INVALID (`details.reason` says why: NOT_HTTPS, FRAGMENT, WILDCARD, SCHEME_NOT_PRIVATE_USE …), APP_ICON_URL_INVALID, APP_CLIENT_TYPE_INVALID or APP_NOT_CONFIDENTIAL; `field` names the argument.',
  'input.redirectUris.1, input.iconUrl',
);

/** The value, or the typed error: not-found codes → NotFoundError, the app limit → ConflictError (no field is at fault), the rest → AppInputError. */
const value = <T>(r: Result<T, AppError>, prefix = ''): T => {
  if (!r.ok && r.error.code === 'APP_LIMIT_REACHED') throw new ConflictError(r.error.code, r.error.message, r.error.details ?? null);
  return valueOrFieldError(r, AppInputError, ['APP_NOT_FOUND', 'GRANT_NOT_FOUND'], prefix);
};

/** A password session or an API key (with apps:manage, which the field's authScopes checks): never an app's own OAuth token. */
const appManager = (ctx: Context): PlayerPrincipal => {
  const me = requirePlayer(ctx);
  if (me.via !== 'jwt' && me.via !== 'api-key')
    throw forbiddenFor(me, 'a player token or an API key: an app’s OAuth token does not manage apps');
  return me;
};

/** A password session only: the list of authorized apps and their revocation are the player's own. */
const grantOwner = (ctx: Context): PlayerPrincipal => {
  const me = requirePlayer(ctx);
  if (me.via !== 'jwt') {
    throw new ForbiddenError(
      'The apps you authorized are listed and revoked with your own sign-in (a player token), not an API key or an app’s token.',
      { needs: 'a player token' },
    );
  }
  return me;
};

export const OAuthAppType = builder.objectRef<OAuthAppView>('OAuthApp').implement({
  description: 'A third-party app you registered (docs/apps.md). Its client secret, if any, was shown once: at registration or rotation.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The app’s OAuth client_id (app_…): public, put it in the app.' }),
    name: t.exposeString('name', { description: 'The name players see on the consent page.' }),
    redirectUris: t.exposeStringList('redirectUris', {
      description: 'Where an authorization may send the player back, matched exactly (a native app’s loopback URI on any port).',
    }),
    iconUrl: t.string({
      nullable: true,
      description: 'The icon shown on the consent page (https); null for none.',
      resolve: (a) => a.iconUrl,
    }),
    clientType: t.field({ type: OAuthClientTypeEnum, description: 'Public (no secret) or confidential.', resolve: (a) => a.clientType }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the app was registered.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the app last changed (a field or its secret).' }),
  }),
});

const OAuthAppCredentialsType = builder.objectRef<OAuthAppCredentials>('OAuthAppCredentials').implement({
  description: 'An app just registered, or its secret just rotated. `clientSecret` is shown this once: store it now.',
  fields: (t) => ({
    app: t.field({ type: OAuthAppType, description: 'The app.', resolve: (c) => c.app }),
    clientSecret: t.string({
      nullable: true,
      description: 'The client_secret (appsec_…) of a confidential app, shown only now; null for a public app.',
      resolve: (c) => c.clientSecret,
    }),
  }),
});

const DeletedOAuthAppType = builder.objectRef<{ id: string }>('DeletedOAuthApp').implement({
  description: 'The app deleted, with every grant and token it held.',
  fields: (t) => ({ id: t.exposeID('id', { description: 'The id of the app deleted (OAuthApp.id).' }) }),
});

const AuthorizedAppType = builder.objectRef<GrantView['app']>('AuthorizedApp').implement({
  description: 'The app a grant was given to, as its consent page showed it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its client_id.' }),
    name: t.exposeString('name', { description: 'Its name.' }),
    iconUrl: t.string({ nullable: true, description: 'Its icon (https); null for none.', resolve: (a) => a.iconUrl }),
  }),
});

export const OAuthGrantType = builder.objectRef<GrantView>('OAuthGrant').implement({
  description: 'An app you authorized to act for you, with what it may do.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The grant’s id: revokeGrant takes it.' }),
    app: t.field({ type: AuthorizedAppType, description: 'The app.', resolve: (g) => g.app }),
    scopes: t.field({ type: [ApiScopeEnum], description: 'What you allowed it.', resolve: (g) => [...g.scopes] }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When you first authorized it.' }),
    lastUsedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the app last used a token of this grant; null if it never has.',
      resolve: (g) => g.lastUsedAt,
    }),
    expiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the grant lapses unless renewed; null for never.',
      resolve: (g) => g.expiresAt,
    }),
  }),
});

const REDIRECT_URIS = `Where an authorization may send the player back: 1 to ${MAX_REDIRECT_URIS} absolute URIs, each https, or http on a loopback host (localhost, 127.0.0.1, [::1]) for a native app, or a private-use scheme such as com.example.app:/callback; no fragment, no wildcard. Stored and matched exactly.`;
const urisSchema = z.array(z.string().max(2048)).max(64);

const RegisterAppInput = builder.inputType('RegisterAppInput', {
  description: 'A third-party app to register.',
  fields: (t) => ({
    name: t.string({ description: 'The name players see on the consent page: 1–80 characters.', validate: z.string().max(200) }),
    redirectUris: t.stringList({ description: REDIRECT_URIS, validate: urisSchema }),
    iconUrl: t.string({
      required: false,
      description: 'An https URL of its icon, shown on the consent page.',
      validate: z.string().max(4096).nullish(),
    }),
    clientType: t.field({
      type: OAuthClientTypeEnum,
      description: 'PUBLIC for a browser or mobile app (no secret), CONFIDENTIAL for a server (a secret is answered once).',
    }),
  }),
});

const UpdateAppInput = builder.inputType('UpdateAppInput', {
  description: 'What to change of an app; a field left out stays as it is.',
  fields: (t) => ({
    name: t.string({ required: false, description: 'A new name: 1–80 characters.', validate: z.string().max(200).nullish() }),
    redirectUris: t.stringList({
      required: false,
      description: `The new list, replacing the old. ${REDIRECT_URIS}`,
      validate: urisSchema.nullish(),
    }),
    iconUrl: t.string({
      required: false,
      description: 'A new https icon URL; null removes the icon.',
      validate: z.string().max(4096).nullish(),
    }),
  }),
});

const APP_ID = 'The app’s id (OAuthApp.id, its client_id).';
const MANAGE = { scope: 'apps:manage' } as const;
const ERRORS = [...AUTH_ERRORS, NotFoundError, AppInputError, RateLimitedError];

builder.queryFields((t) => ({
  myApps: t.field({
    type: [OAuthAppType],
    description: 'The third-party apps you registered, oldest first; never their secrets. A player token or the API scope apps:manage.',
    authScopes: MANAGE,
    errors: {
      types: [...AUTH_ERRORS],
      union: resultUnion('MyAppsResult', 'OAuthAppList'),
      result: { name: 'OAuthAppList', description: 'Your apps.' },
      dataField: { name: 'apps', description: 'Your apps, oldest first.' },
    },
    resolve: (_root, _args, ctx) => listMyApps(ctx.db, appManager(ctx).player.id),
  }),
  myGrants: t.field({
    type: [OAuthGrantType],
    description: 'The apps you authorized to act for you, newest first, with their scopes and last use. Your player token only.',
    authScopes: { loggedIn: true },
    errors: {
      types: [...AUTH_ERRORS],
      union: resultUnion('MyGrantsResult', 'OAuthGrantList'),
      result: { name: 'OAuthGrantList', description: 'The apps you authorized.' },
      dataField: { name: 'grants', description: 'Your grants, newest first.' },
    },
    resolve: (_root, _args, ctx) => listMyGrants(ctx.db, grantOwner(ctx).player.id, ctx.now()),
  }),
}));

builder.mutationFields((t) => ({
  registerApp: t.field({
    type: OAuthAppCredentialsType,
    description: `Registers a third-party app (at most ${MAX_APPS_PER_PLAYER} per player). A confidential app’s secret is answered this once.`,
    authScopes: MANAGE,
    errors: {
      types: [...ERRORS, ConflictError, ...INPUT_ERRORS],
      directResult: true,
      union: resultUnion('RegisterAppResult', 'OAuthAppCredentials'),
    },
    args: { input: t.arg({ type: RegisterAppInput, required: true, description: 'The app.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = appManager(ctx);
      await enforceRateLimit(ctx, 'webhookAdmin');
      const app = { name: input.name, redirectUris: input.redirectUris, iconUrl: input.iconUrl ?? null, clientType: input.clientType };
      return value(await registerApp(ctx.db, me.player.id, app, ctx.now()), 'input.');
    },
  }),
  updateApp: t.field({
    type: OAuthAppType,
    description: 'Changes one of your apps’ name, redirect URIs or icon. Its grants and tokens stay valid.',
    authScopes: MANAGE,
    errors: { types: [...ERRORS, ...INPUT_ERRORS], directResult: true, union: resultUnion('UpdateAppResult', 'OAuthApp') },
    args: {
      id: t.arg.id({ required: true, description: APP_ID }),
      input: t.arg({ type: UpdateAppInput, required: true, description: 'What to change.' }),
    },
    resolve: async (_root, { id, input }, ctx) => {
      const me = appManager(ctx);
      await enforceRateLimit(ctx, 'webhookAdmin');
      const update = {
        ...(input.name == null ? {} : { name: input.name }),
        ...(input.redirectUris == null ? {} : { redirectUris: input.redirectUris }),
        ...(input.iconUrl === undefined ? {} : { iconUrl: input.iconUrl }),
      };
      return value(await updateApp(ctx.db, me.player.id, String(id), update, ctx.now()), 'input.');
    },
  }),
  rotateAppSecret: t.field({
    type: OAuthAppCredentialsType,
    description:
      'A new client secret for one of your confidential apps, answered this once; the old one stops working now (tokens already issued stay valid).',
    authScopes: MANAGE,
    errors: { types: ERRORS, directResult: true, union: resultUnion('RotateAppSecretResult', 'OAuthAppCredentials') },
    args: { id: t.arg.id({ required: true, description: APP_ID }) },
    resolve: async (_root, { id }, ctx) => {
      const me = appManager(ctx);
      await enforceRateLimit(ctx, 'webhookAdmin');
      return value(await rotateAppSecret(ctx.db, me.player.id, String(id), ctx.now()));
    },
  }),
  deleteApp: t.field({
    type: DeletedOAuthAppType,
    description: 'Deletes one of your apps, and with it every grant players gave it and every token it holds.',
    authScopes: MANAGE,
    errors: { types: ERRORS, directResult: true, union: resultUnion('DeleteAppResult', 'DeletedOAuthApp') },
    args: { id: t.arg.id({ required: true, description: APP_ID }) },
    resolve: async (_root, { id }, ctx) => {
      const me = appManager(ctx);
      await enforceRateLimit(ctx, 'webhookAdmin');
      return value(await deleteApp(ctx.db, me.player.id, String(id), ctx.now()));
    },
  }),
  revokeGrant: t.field({
    type: builder.objectRef<{ id: string }>('RevokedGrant').implement({
      description: 'The grant revoked: the app’s tokens under it no longer work.',
      fields: (f) => ({ id: f.exposeID('id', { description: 'The id of the grant revoked (OAuthGrant.id).' }) }),
    }),
    description: 'Revokes an app’s access to your account: the grant and every token issued under it. Your player token only.',
    authScopes: { loggedIn: true },
    errors: { types: ERRORS, directResult: true, union: resultUnion('RevokeGrantResult', 'RevokedGrant') },
    args: { id: t.arg.id({ required: true, description: 'The grant’s id (OAuthGrant.id).' }) },
    resolve: async (_root, { id }, ctx) => value(await revokeGrant(ctx.db, grantOwner(ctx).player.id, String(id))),
  }),
}));
