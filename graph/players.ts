import { z } from 'zod';
import {
  API_SCOPES,
  apiKeyNameSchema,
  apiScopesSchema,
  createApiKey,
  displayNameSchema,
  handleSchema,
  listPlayerApiKeys,
  passwordSchema,
  PASSWORD_MIN_LENGTH,
  registerPlayer,
  revokePlayerApiKey,
  type ApiKeyRow,
  type ApiScope,
  type PlayerRow,
} from '../service/accounts.js';
import { issuePlayerToken, type IssuedToken } from './auth.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { login } from '../service/login.js';
import { AUTH_ERRORS, ConflictError, INPUT_ERRORS, NotFoundError, RateLimitedError, UnauthenticatedError, unwrap } from './errors.js';
import { addressSubjectOf, enforceRateLimit } from './rate-limit.js';

/** Players and API keys: register, login, `me`, and key management for integrations. */

export const PlayerType = builder.prismaObject('Player', {
  description: 'A person or bot who can hold a seat.',
  fields: (t) => ({
    id: t.exposeID('id'),
    handle: t.exposeString('handle', { description: 'Unique, lowercase; what others find you by.' }),
    displayName: t.exposeString('displayName'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const ApiKeyType = builder.prismaObject('ApiKey', {
  description: 'An API key of yours. The key itself is shown once, when created; only its hash is stored.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The key’s visible part: arb_<prefix>_…, to tell keys apart.' }),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Updated at most once a minute.' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    revoked: t.boolean({ resolve: (k) => k.revokedAt !== null }),
  }),
});

const AuthPayloadType = builder.objectRef<IssuedToken & { player: PlayerRow }>('AuthPayload').implement({
  description: 'A bearer token: send `Authorization: Bearer <token>`.',
  fields: (t) => ({
    token: t.exposeString('token'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    player: t.field({ type: PlayerType, resolve: (p) => p.player }),
  }),
});

const NewApiKeyType = builder.objectRef<{ key: string; apiKey: ApiKeyRow }>('NewApiKey').implement({
  description: 'A key just created. `key` is shown this once: store it now.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'arb_<prefix>_<secret>: send `Authorization: Bearer <key>`.' }),
    apiKey: t.field({ type: ApiKeyType, resolve: (k) => k.apiKey }),
  }),
});

// Whole-object schemas, so that every bad field is reported at once (per-field validators stop at the first).
const RegisterPlayerInput = builder.inputType('RegisterPlayerInput', {
  fields: (t) => ({
    handle: t.string({ description: '3–24 characters: lowercase letters, digits, _ or -, starting with a letter.' }),
    displayName: t.string({ description: '1–60 characters.' }),
    password: t.string({ description: `At least ${PASSWORD_MIN_LENGTH} characters.` }),
  }),
  validate: z.object({ handle: handleSchema, displayName: displayNameSchema, password: passwordSchema }),
});

const CreateApiKeyInput = builder.inputType('CreateApiKeyInput', {
  fields: (t) => ({
    name: t.string({ description: 'What the key is for, e.g. "tournament bot".' }),
    scopes: t.stringList({ description: `Any of: ${API_SCOPES.join(', ')}.` }),
  }),
  validate: z.object({ name: apiKeyNameSchema, scopes: apiScopesSchema }),
});

builder.mutationFields((t) => ({
  registerPlayer: t.field({
    type: AuthPayloadType,
    description: 'Creates a player with a password and signs them in.',
    errors: { types: [...INPUT_ERRORS, ConflictError, RateLimitedError], directResult: true, union: { name: 'RegisterPlayerResult' } },
    args: { input: t.arg({ type: RegisterPlayerInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await enforceRateLimit(ctx, 'register', addressSubjectOf(ctx));
      const player = unwrap(await registerPlayer(ctx.db.prisma, input));
      return { ...(await issuePlayerToken(ctx.jwt, player.id, ctx.now())), player };
    },
  }),
  login: t.field({
    type: AuthPayloadType,
    description:
      'Signs in with handle and password; the token lasts ARBITER_JWT_TTL_SECONDS (default 1 hour). After repeated failures for a handle or from an address, RATE_LIMITED with retryAfterSeconds (exponential back-off).',
    errors: { types: [UnauthenticatedError, ...INPUT_ERRORS, RateLimitedError], directResult: true, union: { name: 'LoginResult' } },
    args: {
      handle: t.arg.string({ required: true, validate: z.string().max(64) }),
      password: t.arg.string({ required: true, validate: z.string().max(200) }),
    },
    resolve: async (_root, args, ctx) => {
      const input = { handle: args.handle, password: args.password, address: ctx.clientAddress };
      const player = unwrap(await login(ctx.db.prisma, ctx.rateLimits, input, ctx.now()));
      return { ...(await issuePlayerToken(ctx.jwt, player.id, ctx.now())), player };
    },
  }),
  createApiKey: t.field({
    type: NewApiKeyType,
    description: 'Creates an API key that acts for you with the given scopes. The key is shown once.',
    authScopes: { scope: 'keys:manage' },
    errors: { types: [...AUTH_ERRORS, ...INPUT_ERRORS], directResult: true, union: { name: 'CreateApiKeyResult' } },
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requirePlayer(ctx);
      const created = unwrap(
        await createApiKey(ctx.db.prisma, me.player.id, { name: input.name, scopes: input.scopes as ApiScope[] }, me.scopes),
      );
      return { key: created.key, apiKey: created.row };
    },
  }),
  revokeApiKey: t.field({
    type: ApiKeyType,
    description: 'Revokes one of your API keys at once; requests with it are refused from then on.',
    authScopes: { scope: 'keys:manage' },
    errors: { types: [...AUTH_ERRORS, NotFoundError], directResult: true, union: { name: 'RevokeApiKeyResult' } },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) =>
      unwrap(await revokePlayerApiKey(ctx.db.prisma, requirePlayer(ctx).player.id, String(args.id), ctx.now())),
  }),
}));

builder.queryFields((t) => ({
  me: t.prismaField({
    type: 'Player',
    description: 'The calling player (by token or API key).',
    authScopes: { loggedIn: true },
    errors: { types: [...AUTH_ERRORS], directResult: true, union: { name: 'MeResult' } },
    resolve: (query, _root, _args, ctx) =>
      ctx.db.prisma.player.findUniqueOrThrow({ ...query, where: { id: requirePlayer(ctx).player.id } }),
  }),
  apiKeys: t.field({
    type: [ApiKeyType],
    description: 'Your API keys, newest first, revoked ones included.',
    authScopes: { scope: 'keys:manage' },
    errors: { types: [...AUTH_ERRORS], union: { name: 'ApiKeysResult' }, result: { name: 'ApiKeyList' }, dataField: { name: 'keys' } },
    resolve: (_root, _args, ctx) => listPlayerApiKeys(ctx.db.prisma, requirePlayer(ctx).player.id),
  }),
}));
