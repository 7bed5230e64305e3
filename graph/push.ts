import * as z from 'zod';
import type { Result } from '../engine/result.js';
import {
  listPushSubscriptions,
  pushError,
  subscribePush,
  unsubscribePush,
  type PushError,
  type PushSubscriptionView,
} from '../service/push-subscriptions.js';
import { builder } from './builder.js';
import { requirePlayer, type Context } from './context.js';
import {
  AUTH_ERRORS,
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

/**
 * Web Push for the play page (issue 31, docs/notifications.md#web-push), over
 * service/push-subscriptions.ts: the server's public VAPID key (the browser's applicationServerKey) and a
 * signed-in player's browsers. Subscribing is for a player's own token: a push subscription is a browser,
 * and an integration's API key has no browser to register.
 */

/** A push input the service refused: PUSH_ENDPOINT_REFUSED, PUSH_KEYS_INVALID, PUSH_UNAVAILABLE; `field` names the argument. */
export class PushInputError extends FieldInputError {}

fieldInputErrorType(
  PushInputError,
  'PushInputError',
  'A push input the service refused: PUSH_ENDPOINT_REFUSED (not https, or `details.reason`: the host is or resolves to a non-public address), PUSH_KEYS_INVALID, or PUSH_UNAVAILABLE (this server has no Web Push keys); `field` names the argument.',
  'input.endpoint, input.keys.p256dh',
);

const value = <T>(r: Result<T, PushError>, prefix = ''): T => valueOrFieldError(r, PushInputError, ['PUSH_SUBSCRIPTION_NOT_FOUND'], prefix);

const unavailable = (why = 'it has no Web Push (VAPID) keys'): PushInputError =>
  new PushInputError(
    pushError('PUSH_UNAVAILABLE', 'applicationServerKey', `This server sends no push messages: ${why}.`),
    'applicationServerKey',
  );

/** The current public key, or PUSH_UNAVAILABLE when the deployment has no keys. */
const publicKey = async (ctx: Context): Promise<string> => {
  if (!ctx.push) throw unavailable();
  try {
    return (await ctx.push.vapidKeys()).publicKey;
  } catch {
    // A secret not filled in yet (AWS makes one with a random string) or unreadable: the operator's to fix, not a 500.
    throw unavailable('its Web Push keys cannot be read now');
  }
};

/** The caller when it is a player's own token. */
const browserPlayer = (ctx: Context) => {
  const me = requirePlayer(ctx);
  if (me.via === 'api-key') {
    throw new ForbiddenError('Push subscriptions are a browser’s: subscribe with your player token (sign in), not an API key.', {
      needs: 'a player token',
    });
  }
  return me;
};

const PushPublicKeyType = builder.objectRef<{ applicationServerKey: string }>('PushPublicKey').implement({
  description: 'The server’s Web Push identity.',
  fields: (t) => ({
    applicationServerKey: t.exposeString('applicationServerKey', {
      description:
        'The VAPID public key (P-256, base64url): pass it as applicationServerKey to PushManager.subscribe. If it differs from the one a browser subscribed with, the keys were replaced: subscribe again.',
    }),
  }),
});

export const PushSubscriptionType = builder.objectRef<PushSubscriptionView>('PushSubscription').implement({
  description: 'A browser of yours that gets push messages (your move, game over …). Its keys are never answered.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The subscription’s id.' }),
    endpoint: t.exposeString('endpoint', { description: 'The browser’s address at its push service, as it gave it.' }),
    userAgent: t.string({ nullable: true, description: 'The browser, as it named itself when subscribing.', resolve: (s) => s.userAgent }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the browser subscribed (or last re-subscribed).' }),
    lastSuccessAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When a push service last accepted a message for it; null before the first.',
      resolve: (s) => s.lastSuccessAt,
    }),
  }),
});

const PushKeysInput = builder.inputType('PushKeysInput', {
  description: 'The browser’s keys, as PushSubscription.toJSON() gives them (RFC 8291).',
  fields: (t) => ({
    p256dh: t.string({ description: 'Its P-256 public key, base64url (65 bytes).', validate: z.string().max(200) }),
    auth: t.string({ description: 'Its authentication secret, base64url (16 bytes).', validate: z.string().max(100) }),
  }),
});

const SubscribePushInput = builder.inputType('SubscribePushInput', {
  description: 'A browser’s push subscription: PushSubscription.toJSON() of the page, with the browser’s name if you like.',
  fields: (t) => ({
    endpoint: t.string({
      description: 'The push service URL of the browser: https to a public address (the webhook destination rules apply).',
      validate: z.string().max(4096),
    }),
    keys: t.field({ type: PushKeysInput, required: true, description: 'The browser’s keys.' }),
    expirationTime: t.float({
      required: false,
      description:
        'When the browser says the subscription ends (ms since 1970), as toJSON() gives it; not kept: the push service answers 410 once it has.',
    }),
    userAgent: t.string({ required: false, description: 'The browser’s name, shown in your list (at most 512 characters kept).' }),
  }),
});

const DeletedPushSubscriptionType = builder.objectRef<{ id: string }>('DeletedPushSubscription').implement({
  description: 'The push subscription removed.',
  fields: (t) => ({ id: t.exposeID('id', { description: 'The id of the subscription removed (PushSubscription.id).' }) }),
});

const ERRORS = [...AUTH_ERRORS, NotFoundError, PushInputError, RateLimitedError];

builder.queryFields((t) => ({
  pushPublicKey: t.field({
    type: PushPublicKeyType,
    description:
      'The VAPID public key browsers subscribe with (applicationServerKey). Open to anyone; PUSH_UNAVAILABLE when the server has none.',
    errors: { types: [PushInputError], directResult: true, union: resultUnion('PushPublicKeyResult', 'PushPublicKey') },
    resolve: async (_root, _args, ctx) => ({ applicationServerKey: await publicKey(ctx) }),
  }),
  pushSubscriptions: t.field({
    type: [PushSubscriptionType],
    description: 'Your browsers that get push messages, oldest first.',
    authScopes: { loggedIn: true },
    errors: {
      types: [...AUTH_ERRORS],
      union: resultUnion('PushSubscriptionsResult', 'PushSubscriptionList'),
      result: { name: 'PushSubscriptionList', description: 'Your push subscriptions.' },
      dataField: { name: 'subscriptions', description: 'Your subscriptions, oldest first.' },
    },
    resolve: (_root, _args, ctx) => listPushSubscriptions(ctx.db, browserPlayer(ctx).player.id),
  }),
}));

builder.mutationFields((t) => ({
  subscribePush: t.field({
    type: PushSubscriptionType,
    description:
      'Registers this browser for push messages (your move, game over …), or refreshes it: the same endpoint again replaces its keys and owner. Player tokens only.',
    authScopes: { loggedIn: true },
    errors: { types: [...ERRORS, ...INPUT_ERRORS], directResult: true, union: resultUnion('SubscribePushResult', 'PushSubscription') },
    args: { input: t.arg({ type: SubscribePushInput, required: true, description: 'The browser’s subscription.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = browserPlayer(ctx);
      await enforceRateLimit(ctx, 'webhookAdmin');
      const applicationServerKey = await publicKey(ctx);
      const subscription = {
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        userAgent: input.userAgent ?? null,
      };
      return value(
        await subscribePush(ctx.db, me.player.id, subscription, {
          destinations: ctx.webhookDestinations,
          applicationServerKey,
          now: ctx.now(),
        }),
        'input.',
      );
    },
  }),
  unsubscribePush: t.field({
    type: DeletedPushSubscriptionType,
    description: 'Stops push messages to one of your browsers, named by its subscription id or by its endpoint (what the browser knows).',
    authScopes: { loggedIn: true },
    errors: {
      types: [...ERRORS, ...INPUT_ERRORS],
      directResult: true,
      union: resultUnion('UnsubscribePushResult', 'DeletedPushSubscription'),
    },
    args: {
      id: t.arg.id({ required: false, description: 'The subscription’s id (PushSubscription.id).' }),
      endpoint: t.arg.string({ required: false, description: 'Or the browser’s endpoint.', validate: z.string().max(4096).nullish() }),
    },
    resolve: async (_root, args, ctx) => {
      const me = browserPlayer(ctx);
      await enforceRateLimit(ctx, 'webhookAdmin');
      return value(
        await unsubscribePush(ctx.db, me.player.id, { id: args.id == null ? null : String(args.id), endpoint: args.endpoint ?? null }),
      );
    },
  }),
}));
