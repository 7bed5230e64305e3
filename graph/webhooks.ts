import * as z from 'zod';
import type { Result } from '../engine/result.js';
import type { WebhookError } from '../service/webhook-errors.js';
import { WEBHOOK_EVENT_KINDS } from '../service/webhook-events.js';
import {
  deliveryCursor,
  listDeliveries,
  MAX_PAGE_SIZE,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookAttemptView,
  type WebhookDeliveryView,
} from '../service/webhook-log.js';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  setSubscriptionActive,
  type WebhookSubscriptionView,
} from '../service/webhook-subscriptions.js';
import { builder } from './builder.js';
import { requireForward } from './connection.js';
import { requirePlayer, requireScope, type Context } from './context.js';
import { eitherOf, legacyEnum, WebhookDeliveryStateEnum, WebhookEventTypeEnum } from './enums.js';
import {
  AUTH_ERRORS,
  FieldInputError,
  fieldInputErrorType,
  ForbiddenError,
  INPUT_ERRORS,
  NotFoundError,
  RateLimitedError,
  resultUnion,
  ValidationError,
  valueOrFieldError,
} from './errors.js';
import { enforceRateLimit } from './rate-limit.js';

/**
 * Webhook subscriptions and their delivery log (issue 5, "Notifications for integrations"), over
 * service/webhook-subscriptions.ts and service/webhook-log.ts. A subscription belongs to an API key:
 * called with a key, it is that key's; with a player token, the caller names one of their own keys.
 * Every field needs the API scope `webhooks:manage` (a player token holds every scope) and shows only
 * the caller's own subscriptions and deliveries. The signing secret is answered once, by
 * createWebhookSubscription; no query returns it.
 */

/** A webhook input the service refused: `code` is the service's (WEBHOOK_URL_NOT_HTTPS …), `field` the argument. */
export class WebhookInputError extends FieldInputError {}

fieldInputErrorType(
  WebhookInputError,
  'WebhookInputError',
  'A webhook input the service refused: WEBHOOK_URL_INVALID, WEBHOOK_URL_NOT_HTTPS, WEBHOOK_URL_FORBIDDEN (`details.reason`: the host is or resolves to a non-public address), WEBHOOK_KINDS_INVALID, PAGE_SIZE_INVALID or CURSOR_INVALID; `field` names the argument.',
  'input.url, first, after',
);

/** The value of a service result, or the typed error: not-found codes → NotFoundError, the rest → WebhookInputError. `prefix` leads the field name (`input.`). */
const value = <T>(r: Result<T, WebhookError>, prefix = ''): T =>
  valueOrFieldError(r, WebhookInputError, ['WEBHOOK_SUBSCRIPTION_NOT_FOUND', 'API_KEY_NOT_FOUND'], prefix);

/** The caller's subscription `id` (webhooks:manage), for node(id:); null when it is not theirs or not there. */
const readSubscription = async (ctx: Context, id: string): Promise<WebhookSubscriptionView | null> =>
  (await listSubscriptions(ctx.db, requireScope(ctx, 'webhooks:manage').player.id)).find((s) => s.id === id) ?? null;

export const WebhookSubscriptionType = builder.node(builder.objectRef<WebhookSubscriptionView>('WebhookSubscription'), {
  description:
    'A webhook endpoint of yours. Its signing secret was shown once, at creation. A Node: node(id:) answers it to its owner only (webhooks:manage).',
  id: { resolve: (s) => s.id },
  loadOne: (id, ctx) => readSubscription(ctx, id),
  fields: (t) => ({
    apiKeyId: t.exposeID('apiKeyId', { description: 'The API key it belongs to (ApiKey.id); revoking the key stops its deliveries.' }),
    url: t.exposeString('url', { description: 'Where deliveries are POSTed: https (http only for localhost and 127.0.0.1).' }),
    kinds: t.stringList({
      description: `Events delivered, in the old spelling: ${WEBHOOK_EVENT_KINDS.join(', ')}.`,
      deprecationReason: 'Use eventTypes (the WebhookEventType enum).',
      resolve: (s) => [...s.kinds],
    }),
    eventTypes: t.field({ type: [WebhookEventTypeEnum], description: 'The events delivered to it.', resolve: (s) => [...s.kinds] }),
    active: t.exposeBoolean('active', {
      description: 'True: deliveries are sent. False: paused (no new deliveries; waiting ones are held).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the subscription was registered.' }),
  }),
});

const NewWebhookSubscriptionType = builder
  .objectRef<{ secret: string; subscription: WebhookSubscriptionView }>('NewWebhookSubscription')
  .implement({
    description: 'A subscription just created. `secret` is shown this once: store it to verify the Arbiter-Signature header.',
    fields: (t) => ({
      secret: t.exposeString('secret', { description: 'The signing secret, whsec_…: the HMAC-SHA256 key of every delivery’s signature.' }),
      subscription: t.field({ type: WebhookSubscriptionType, description: 'The subscription registered.', resolve: (n) => n.subscription }),
    }),
  });

const DeletedWebhookSubscriptionType = builder.objectRef<{ id: string }>('DeletedWebhookSubscription').implement({
  description: 'The subscription removed, with its deliveries and their log.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The id of the subscription removed (WebhookSubscription.id), for a client cache to drop it.' }),
  }),
});

const WebhookAttemptType = builder.objectRef<WebhookAttemptView>('WebhookAttempt').implement({
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: 'Which attempt: 1, 2, …' }),
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime', description: 'When the attempt was made.' }),
    statusCode: t.int({
      nullable: true,
      description: 'The receiver’s HTTP status; null when there was no HTTP response (timeout, refused connection, DNS).',
      resolve: (a) => a.statusCode,
    }),
    durationMs: t.exposeInt('durationMs', { description: 'How long the attempt took, in milliseconds.' }),
    error: t.string({
      nullable: true,
      description: 'Why the attempt failed (the start of the response body, or the network error); null when it succeeded.',
      resolve: (a) => a.error,
    }),
  }),
});

export const WebhookDeliveryStatusEnum = legacyEnum('WebhookDeliveryStatus', 'WebhookDeliveryState', WEBHOOK_DELIVERY_STATUSES);

const WebhookDeliveryType = builder.objectRef<WebhookDeliveryView>('WebhookDelivery').implement({
  description: 'One event sent to one subscription, with every attempt.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'The event id (a uuid): also the Arbiter-Event-Id header and the body’s id, the same on every retry.',
    }),
    subscriptionId: t.exposeID('subscriptionId', { description: 'The subscription’s id (WebhookSubscription.id).' }),
    gameId: t.exposeID('gameId', {
      nullable: true,
      description: 'The game’s id (Game.id), as in the body; null for a tournament’s event.',
    }),
    tournamentId: t.exposeID('tournamentId', {
      nullable: true,
      description: 'The tournament’s id (Tournament.id), as in the body, for a tournament’s event (round-paired …); null for a game’s.',
    }),
    kind: t.exposeString('kind', {
      description: `The event, in the old spelling: ${WEBHOOK_EVENT_KINDS.join(', ')}.`,
      deprecationReason: 'Use eventType (the WebhookEventType enum).',
    }),
    eventType: t.field({ type: WebhookEventTypeEnum, description: 'The event delivered.', resolve: (d) => d.kind }),
    status: t.field({
      type: WebhookDeliveryStatusEnum,
      description: 'Where the delivery stands, in the old lower-case spelling.',
      deprecationReason: 'Use state (the WebhookDeliveryState enum).',
      resolve: (d) => d.status,
    }),
    state: t.field({ type: WebhookDeliveryStateEnum, description: 'Where the delivery stands.', resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due; null once succeeded or dead.',
      resolve: (d) => d.nextAttemptAt,
    }),
    lastStatusCode: t.int({
      nullable: true,
      description: 'The HTTP status of the last attempt; null before the first and when it had no response.',
      resolve: (d) => d.lastStatusCode,
    }),
    lastError: t.string({
      nullable: true,
      description: 'Why the last attempt failed; null before the first attempt and when the last one succeeded.',
      resolve: (d) => d.lastError,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the event was queued for this subscription.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the delivery last changed (an attempt, a state).' }),
    log: t.field({ type: [WebhookAttemptType], description: 'Every attempt, in order.', resolve: (d) => [...d.log] }),
  }),
});

const CreateWebhookSubscriptionInput = builder.inputType('CreateWebhookSubscriptionInput', {
  description: 'A webhook endpoint to register: its URL, the events it wants, and the API key it belongs to.',
  fields: (t) => ({
    url: t.string({
      description:
        'Where deliveries are POSTed: https://… to a public address (http and local addresses only on a development server), at most 4096 characters.',
      validate: z.string().max(4096),
    }),
    eventTypes: t.field({
      type: [WebhookEventTypeEnum],
      required: false,
      description: 'The events to deliver: at least one, each once. Required (or the deprecated kinds).',
      validate: z.array(z.string()).max(16).nullish(),
    }),
    kinds: t.stringList({
      required: false,
      description: `The events to deliver, in the old spelling: any of ${WEBHOOK_EVENT_KINDS.join(', ')}.`,
      deprecationReason: 'Use eventTypes (the WebhookEventType enum).',
      validate: z.array(z.string().max(64)).max(16).nullish(),
    }),
    apiKeyId: t.id({
      required: false,
      description:
        'The API key the subscription belongs to. Leave it out when calling with an API key (the subscription is that key’s); required with a player token.',
    }),
  }),
});

const MANAGE = { scope: 'webhooks:manage' } as const;
const SUBSCRIPTION_ID = 'The subscription’s id (WebhookSubscription.id).';
const MANAGE_ERRORS = [...AUTH_ERRORS, NotFoundError, WebhookInputError, RateLimitedError];

builder.mutationFields((t) => ({
  createWebhookSubscription: t.field({
    type: NewWebhookSubscriptionType,
    description:
      'Registers a webhook endpoint for the given event kinds under one of your API keys. The signing secret is answered this once.',
    authScopes: MANAGE,
    errors: {
      types: [...MANAGE_ERRORS, ...INPUT_ERRORS],
      directResult: true,
      union: resultUnion('CreateWebhookSubscriptionResult', 'NewWebhookSubscription'),
    },
    args: { input: t.arg({ type: CreateWebhookSubscriptionInput, required: true, description: 'The endpoint and its events.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requirePlayer(ctx);
      await enforceRateLimit(ctx, 'webhookAdmin');
      const named = input.apiKeyId == null ? null : String(input.apiKeyId);
      let apiKeyId: string;
      if (me.via === 'api-key') {
        if (named !== null && named !== me.apiKeyId) {
          throw new ForbiddenError(
            'An API key registers webhooks for itself only: leave apiKeyId out, or use a player token to name another of your keys.',
            { field: 'input.apiKeyId' },
          );
        }
        apiKeyId = me.apiKeyId!;
      } else {
        if (named === null)
          throw new ValidationError([
            {
              field: 'input.apiKeyId',
              message: 'With a player token, name the API key the subscription belongs to (apiKeys lists yours).',
            },
          ]);
        apiKeyId = named;
      }
      const kinds = eitherOf({ field: 'input.eventTypes', value: input.eventTypes }, { field: 'input.kinds', value: input.kinds }, true)!;
      return value(
        await createSubscription(ctx.db, { apiKeyId, ownerId: me.player.id, url: input.url, kinds }, ctx.webhookDestinations),
        'input.',
      );
    },
  }),
  setWebhookSubscriptionActive: t.field({
    type: WebhookSubscriptionType,
    description:
      'Pauses (active: false) or resumes one of your subscriptions. Paused, it gets no new deliveries and its waiting ones are held.',
    authScopes: MANAGE,
    errors: { types: MANAGE_ERRORS, directResult: true, union: resultUnion('SetWebhookSubscriptionActiveResult', 'WebhookSubscription') },
    args: {
      id: t.arg.id({ required: true, description: SUBSCRIPTION_ID }),
      active: t.arg.boolean({ required: true, description: 'False pauses the subscription; true resumes it.' }),
    },
    resolve: async (_root, args, ctx) => {
      await enforceRateLimit(ctx, 'webhookAdmin');
      return value(await setSubscriptionActive(ctx.db, requirePlayer(ctx).player.id, String(args.id), args.active));
    },
  }),
  deleteWebhookSubscription: t.field({
    type: DeletedWebhookSubscriptionType,
    description: 'Removes one of your subscriptions with its deliveries and their log (waiting deliveries are dropped).',
    authScopes: MANAGE,
    errors: {
      types: MANAGE_ERRORS,
      directResult: true,
      union: resultUnion('DeleteWebhookSubscriptionResult', 'DeletedWebhookSubscription'),
    },
    args: { id: t.arg.id({ required: true, description: SUBSCRIPTION_ID }) },
    resolve: async (_root, args, ctx) => {
      await enforceRateLimit(ctx, 'webhookAdmin');
      return value(await deleteSubscription(ctx.db, requirePlayer(ctx).player.id, String(args.id)));
    },
  }),
}));

builder.queryFields((t) => ({
  webhookSubscriptions: t.field({
    type: [WebhookSubscriptionType],
    description: 'Your webhook subscriptions (under any of your keys), oldest first. Never the secrets.',
    authScopes: MANAGE,
    errors: {
      types: [...AUTH_ERRORS],
      union: resultUnion('WebhookSubscriptionsResult', 'WebhookSubscriptionList'),
      result: { name: 'WebhookSubscriptionList', description: 'Your webhook subscriptions.' },
      dataField: { name: 'subscriptions', description: 'Your subscriptions, oldest first.' },
    },
    resolve: (_root, _args, ctx) => listSubscriptions(ctx.db, requirePlayer(ctx).player.id),
  }),
  webhookDeliveries: t.connection(
    {
      type: WebhookDeliveryType,
      description: `Your delivery log, newest first, each delivery with its attempts; optionally of one subscription or one state. Forward pagination (first ≤ ${MAX_PAGE_SIZE}, after).`,
      authScopes: MANAGE,
      args: {
        subscriptionId: t.arg.id({
          required: false,
          description: 'Only this subscription’s deliveries (WebhookSubscription.id).',
        }),
        state: t.arg({ type: WebhookDeliveryStateEnum, required: false, description: 'Only deliveries in this state.' }),
        status: t.arg({
          type: WebhookDeliveryStatusEnum,
          required: false,
          description: 'Only deliveries in this state, in the old lower-case spelling.',
          deprecationReason: 'Use state (the WebhookDeliveryState enum).',
        }),
      },
      resolve: async (_root, args, ctx) => {
        requireForward('webhookDeliveries', args);
        const status = eitherOf({ field: 'state', value: args.state }, { field: 'status', value: args.status });
        const page = value(
          await listDeliveries(ctx.db, requirePlayer(ctx).player.id, {
            ...(args.subscriptionId == null ? {} : { subscriptionId: String(args.subscriptionId) }),
            ...(status === null ? {} : { status }),
            ...(args.first == null ? {} : { first: args.first }),
            after: args.after ?? null,
          }),
        );
        const edges = page.items.map((node) => ({ cursor: deliveryCursor(node), node }));
        return {
          edges,
          pageInfo: {
            hasNextPage: page.hasNextPage,
            hasPreviousPage: args.after != null,
            startCursor: edges[0]?.cursor ?? null,
            endCursor: page.endCursor,
          },
        };
      },
    },
    { description: 'A page of your webhook deliveries (webhookDeliveries).' },
    { description: 'One delivery, with its cursor.' },
  ),
}));
