import * as z from 'zod';
import {
  API_SCOPES,
  apiKeyNameSchema,
  apiScopesSchema,
  createApiKey,
  displayNameSchema,
  handleSchema,
  listPlayerApiKeys,
  passwordSchema,
  findPlayerById,
  isApiScope,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  registerPlayer,
  revokePlayerApiKey,
  type ApiKeyRow,
  type ApiScope,
  type PlayerRow,
} from '../service/accounts.js';
import { startSessionToken, type IssuedToken } from './auth.js';
import { PasswordInputError, unwrapPassword } from './password-errors.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { ApiScopeEnum, eitherOf } from './enums.js';
import { login } from '../service/login.js';
import {
  AUTH_ERRORS,
  ConflictError,
  INPUT_ERRORS,
  NotFoundError,
  RateLimitedError,
  resultUnion,
  UnauthenticatedError,
  unwrap,
} from './errors.js';
import { addressSubjectOf, enforceRateLimit } from './rate-limit.js';

/** Players and API keys: register, login, `me`, and key management for integrations. */

export const PlayerType = builder.node(builder.objectRef<PlayerRow>('Player'), {
  description: 'A person or bot who can hold a seat. A Node: node(id:) answers it to any signed-in caller.',
  id: { resolve: (p) => p.id },
  // Any signed-in caller may see a player (seats show them to spectators too); anonymous callers may not.
  loadOne: (id, ctx) => {
    requirePlayer(ctx);
    return findPlayerById(ctx.db.prisma, id);
  },
  fields: (t) => ({
    handle: t.exposeString('handle', { description: 'Unique, lowercase, 3–24 characters; what others find you by (createGame opponent).' }),
    displayName: t.exposeString('displayName', { description: 'The name to show, 1–60 characters.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the player registered.' }),
  }),
});

export const ApiKeyType = builder.prismaObject('ApiKey', {
  description: 'An API key of yours. The key itself is shown once, when created; only its hash is stored.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The key’s database id (a uuid): revokeApiKey and webhook subscriptions name it.' }),
    name: t.exposeString('name', { description: 'What the key is for, as given at creation.' }),
    prefix: t.exposeString('prefix', { description: 'The key’s visible part: arb_<prefix>_…, to tell keys apart.' }),
    scopes: t.exposeStringList('scopes', {
      description: `What the key may do, in the old spelling: ${API_SCOPES.join(', ')}.`,
      deprecationReason: 'Use apiScopes (the ApiScope enum).',
    }),
    apiScopes: t.field({
      type: [ApiScopeEnum],
      description: 'What the key may do.',
      resolve: (k) => k.scopes.filter(isApiScope),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the key was created.' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the key was last used (updated at most once a minute); null if never.',
    }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When the key was revoked; null while it works.' }),
    revoked: t.boolean({ description: 'The key is revoked: requests with it are refused.', resolve: (k) => k.revokedAt !== null }),
  }),
});

export const AuthPayloadType = builder.objectRef<IssuedToken & { player: PlayerRow }>('AuthPayload').implement({
  description:
    'A bearer token of a sign-in session: send `Authorization: Bearer <token>`; renewToken gives a new one while the session lives.',
  fields: (t) => ({
    token: t.exposeString('token', {
      description: 'The player token (a JWT): send `Authorization: Bearer <token>`. It holds every scope.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      description: 'When the token stops working: renew it before (renewToken), or sign in again (login).',
    }),
    player: t.field({ type: PlayerType, description: 'The player signed in.', resolve: (p) => p.player }),
  }),
});

const NewApiKeyType = builder.objectRef<{ key: string; apiKey: ApiKeyRow }>('NewApiKey').implement({
  description: 'A key just created. `key` is shown this once: store it now.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The key itself, arb_<prefix>_<secret>: send `Authorization: Bearer <key>`.' }),
    apiKey: t.field({ type: ApiKeyType, description: 'The key as apiKeys lists it (without the secret).', resolve: (k) => k.apiKey }),
  }),
});

// Whole-object schemas, so that every bad field is reported at once (per-field validators stop at the first).
const RegisterPlayerInput = builder.inputType('RegisterPlayerInput', {
  description: 'A new player: handle, display name and password.',
  fields: (t) => ({
    handle: t.string({ description: '3–24 characters: lowercase letters, digits, _ or -, starting with a letter.' }),
    displayName: t.string({ description: 'The name to show: 1–60 characters (trimmed).' }),
    password: t.string({
      description: `At least ${PASSWORD_MIN_LENGTH} and at most ${PASSWORD_MAX_LENGTH} characters, not one of the most common passwords (PASSWORD_TOO_COMMON).`,
    }),
  }),
  validate: z.object({ handle: handleSchema, displayName: displayNameSchema, password: passwordSchema }),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  description: 'A new API key: its name and what it may do (only scopes the caller holds).',
  fields: (t) => ({
    name: t.string({ description: 'What the key is for, e.g. "tournament bot": 1–80 characters.' }),
    apiScopes: t.field({
      type: [ApiScopeEnum],
      required: false,
      description: 'What the key may do: at least one scope, each once. Required (or the deprecated scopes).',
    }),
    scopes: t.stringList({
      required: false,
      description: `What the key may do, in the old spelling: any of ${API_SCOPES.join(', ')}.`,
      deprecationReason: 'Use apiScopes (the ApiScope enum).',
    }),
  }),
  validate: z.object({ name: apiKeyNameSchema, apiScopes: apiScopesSchema.nullish(), scopes: apiScopesSchema.nullish() }),
});

builder.mutationFields((t) => ({
  registerPlayer: t.field({
    type: AuthPayloadType,
    description: 'Creates a player with a password and signs them in (a new session, as login opens).',
    errors: {
      types: [...INPUT_ERRORS, ConflictError, RateLimitedError, PasswordInputError],
      directResult: true,
      union: resultUnion('RegisterPlayerResult', 'AuthPayload'),
    },
    args: { input: t.arg({ type: RegisterPlayerInput, required: true, description: 'The new player’s handle, name and password.' }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'register', addressSubjectOf(ctx));
      const player = unwrapPassword(await registerPlayer(ctx.db.prisma, input));
      return { ...(await startSessionToken({ db: ctx.db, jwt: ctx.jwt, now: ctx.now() }, player.id, ctx.userAgent)), player };
    },
  }),
  login: t.field({
    type: AuthPayloadType,
    description:
      'Signs in with handle and password: opens a session (sessions lists it, with this client’s User-Agent as its device) and answers its token, which lasts ARBITER_JWT_TTL_SECONDS (default 1 hour) and is renewed without the password by renewToken while the session lives (30 days from its last use). After repeated failures for a handle or from an address, RATE_LIMITED with retryAfterSeconds (exponential back-off).',
    errors: {
      types: [UnauthenticatedError, ...INPUT_ERRORS, RateLimitedError],
      directResult: true,
      union: resultUnion('LoginResult', 'AuthPayload'),
    },
    args: {
      handle: t.arg.string({ required: true, description: 'Your handle.', validate: z.string().max(64) }),
      password: t.arg.string({ required: true, description: 'Your password.', validate: z.string().max(200) }),
    },
    resolve: async (_root, args, ctx) => {
      const input = { handle: args.handle, password: args.password, address: ctx.clientAddress };
      const player = unwrap(await login(ctx.db.prisma, ctx.rateLimits, input, ctx.now()));
      return { ...(await startSessionToken({ db: ctx.db, jwt: ctx.jwt, now: ctx.now() }, player.id, ctx.userAgent)), player };
    },
  }),
  createApiKey: t.field({
    type: NewApiKeyType,
    description: 'Creates an API key that acts for you with the given scopes. The key is shown once.',
    authScopes: { scope: 'keys:manage' },
    errors: { types: [...AUTH_ERRORS, ...INPUT_ERRORS], directResult: true, union: resultUnion('CreateApiKeyResult', 'NewApiKey') },
    args: { input: t.arg({ type: CreateApiKeyInput, required: true, description: 'The key’s name and scopes.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requirePlayer(ctx);
      const created = unwrap(
        await createApiKey(
          ctx.db.prisma,
          me.player.id,
          {
            name: input.name,
            scopes: eitherOf(
              { field: 'input.apiScopes', value: input.apiScopes },
              { field: 'input.scopes', value: input.scopes as ApiScope[] },
              true,
            )!,
          },
          me.scopes,
        ),
      );
      return { key: created.key, apiKey: created.row };
    },
  }),
  revokeApiKey: t.field({
    type: ApiKeyType,
    description: 'Revokes one of your API keys at once; requests with it are refused from then on.',
    authScopes: { scope: 'keys:manage' },
    errors: { types: [...AUTH_ERRORS, NotFoundError], directResult: true, union: resultUnion('RevokeApiKeyResult', 'ApiKey') },
    args: { id: t.arg.id({ required: true, description: 'The key’s id (ApiKey.id).' }) },
    resolve: async (_root, args, ctx) =>
      unwrap(await revokePlayerApiKey(ctx.db.prisma, requirePlayer(ctx).player.id, String(args.id), ctx.now())),
  }),
}));

builder.queryFields((t) => ({
  me: t.field({
    type: PlayerType,
    description: 'The calling player (by token or API key, whatever its scopes).',
    authScopes: { loggedIn: true },
    errors: { types: [...AUTH_ERRORS], directResult: true, union: resultUnion('MeResult', 'Player') },
    resolve: (_root, _args, ctx) => requirePlayer(ctx).player,
  }),
  apiKeys: t.field({
    type: [ApiKeyType],
    description: 'Your API keys, newest first, revoked ones included.',
    authScopes: { scope: 'keys:manage' },
    errors: {
      types: [...AUTH_ERRORS],
      union: resultUnion('ApiKeysResult', 'ApiKeyList'),
      result: { name: 'ApiKeyList', description: 'Your API keys.' },
      dataField: { name: 'keys', description: 'Your API keys, newest first, revoked ones included.' },
    },
    resolve: (_root, _args, ctx) => listPlayerApiKeys(ctx.db.prisma, requirePlayer(ctx).player.id),
  }),
}));
