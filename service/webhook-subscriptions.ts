import { randomBytes } from 'node:crypto';
import { err, ok, type Result } from '../engine/result.js';
import type { Db } from './context.js';
import { checkDestination, type DestinationPolicy } from './webhook-destination.js';
import { isWebhookEventKind, WEBHOOK_EVENT_KINDS, type WebhookEventKind } from './webhook-events.js';
import { webhookError, type WebhookError } from './webhook-errors.js';
import { isUuid } from './ids.js';

/**
 * Webhook subscriptions for integrations (issue 5): an owner registers a URL for some event kinds under
 * one of their API keys, lists, pauses, resumes and deletes them. The signing secret is answered once,
 * at creation.
 */

const MAX_URL_LENGTH = 2048;

export interface WebhookSubscriptionView {
  readonly id: string;
  readonly apiKeyId: string;
  readonly ownerId: string;
  readonly url: string;
  readonly kinds: readonly WebhookEventKind[];
  readonly active: boolean;
  readonly createdAt: Date;
}

export interface NewSubscription {
  readonly apiKeyId: string;
  /** The authenticated player; must own the API key. */
  readonly ownerId: string;
  readonly url: string;
  readonly kinds: readonly string[];
}

export interface CreatedSubscription {
  readonly subscription: WebhookSubscriptionView;
  /** The signing secret (`whsec_…`). Show it to the owner now: no read function returns it again. */
  readonly secret: string;
}

/**
 * The URL's form: absolute, `https://` (`http://` only with the development setting `allowLocal`), no
 * credentials. Answers the normalised URL. Where it may point is {@link checkDestination}'s business.
 */
export const validateWebhookUrl = (url: string, allowLocal = false): Result<string, WebhookError> => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return err(webhookError('WEBHOOK_URL_INVALID', 'url', `The url "${url}" is not an absolute URL.`, { url }));
  }
  if (url.length > MAX_URL_LENGTH) {
    return err(webhookError('WEBHOOK_URL_INVALID', 'url', `The url is longer than ${MAX_URL_LENGTH} characters.`, { length: url.length }));
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return err(webhookError('WEBHOOK_URL_INVALID', 'url', 'The url must not contain a user name or password.', {}));
  }
  if (parsed.protocol !== 'https:' && !(allowLocal && parsed.protocol === 'http:')) {
    return err(
      webhookError('WEBHOOK_URL_NOT_HTTPS', 'url', `The url "${url}" must use https.`, {
        url,
        protocol: parsed.protocol,
      }),
    );
  }
  return ok(parsed.toString());
};

/** The requested kinds, de-duplicated, in {@link WEBHOOK_EVENT_KINDS} order. */
export const validateEventKinds = (kinds: readonly string[]): Result<WebhookEventKind[], WebhookError> => {
  const unknown = kinds.filter((k) => !isWebhookEventKind(k));
  if (kinds.length === 0 || unknown.length > 0) {
    const message =
      kinds.length === 0
        ? `The kinds list is empty; choose from ${WEBHOOK_EVENT_KINDS.join(', ')}.`
        : `The kinds list names unknown event kind(s) ${unknown.map((k) => `"${k}"`).join(', ')}; choose from ${WEBHOOK_EVENT_KINDS.join(', ')}.`;
    return err(webhookError('WEBHOOK_KINDS_INVALID', 'kinds', message, { unknown, allowed: [...WEBHOOK_EVENT_KINDS] }));
  }
  return ok(WEBHOOK_EVENT_KINDS.filter((k) => kinds.includes(k)));
};

const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

const toSubscriptionView = (row: {
  id: string;
  apiKeyId: string;
  ownerId: string;
  url: string;
  kinds: string[];
  active: boolean;
  createdAt: Date;
}): WebhookSubscriptionView => ({
  id: row.id,
  apiKeyId: row.apiKeyId,
  ownerId: row.ownerId,
  url: row.url,
  kinds: row.kinds.filter(isWebhookEventKind),
  active: row.active,
  createdAt: row.createdAt,
});

const subscriptionNotFound = (id: string): WebhookError =>
  webhookError('WEBHOOK_SUBSCRIPTION_NOT_FOUND', 'id', `You have no webhook subscription with the id "${id}".`, { id });

/**
 * Registers `url` for `kinds` under an unrevoked API key of `ownerId`; answers the secret once. The URL
 * must point at public addresses under `destinations` (WEBHOOK_URL_FORBIDDEN); it is checked again at
 * every delivery.
 */
export const createSubscription = async (
  db: Db,
  input: NewSubscription,
  destinations: DestinationPolicy,
): Promise<Result<CreatedSubscription, WebhookError>> => {
  const url = validateWebhookUrl(input.url, destinations.allowLocal);
  if (!url.ok) return url;
  const destination = await checkDestination(url.value, destinations);
  if (!destination.ok) return destination;
  const kinds = validateEventKinds(input.kinds);
  if (!kinds.ok) return kinds;
  const key =
    isUuid(input.apiKeyId) && isUuid(input.ownerId)
      ? await db.prisma.apiKey.findFirst({ where: { id: input.apiKeyId, ownerId: input.ownerId, revokedAt: null }, select: { id: true } })
      : null;
  if (key === null) {
    return err(
      webhookError('API_KEY_NOT_FOUND', 'apiKeyId', `You have no active API key with the id "${input.apiKeyId}".`, {
        apiKeyId: input.apiKeyId,
      }),
    );
  }
  const secret = newSecret();
  const row = await db.prisma.webhookSubscription.create({
    data: { apiKeyId: input.apiKeyId, ownerId: input.ownerId, url: url.value, kinds: kinds.value, secret },
  });
  return ok({ subscription: toSubscriptionView(row), secret });
};

/** The owner's subscriptions, oldest first, without secrets. */
export const listSubscriptions = async (db: Db, ownerId: string): Promise<WebhookSubscriptionView[]> => {
  if (!isUuid(ownerId)) return [];
  const rows = await db.prisma.webhookSubscription.findMany({ where: { ownerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toSubscriptionView);
};

/**
 * Removes the subscription with its deliveries and their log (pending deliveries are dropped).
 * `WEBHOOK_SUBSCRIPTION_NOT_FOUND` when it is not the owner's.
 */
export const deleteSubscription = async (
  db: Db,
  ownerId: string,
  subscriptionId: string,
): Promise<Result<{ readonly id: string }, WebhookError>> => {
  if (!isUuid(ownerId) || !isUuid(subscriptionId)) return err(subscriptionNotFound(subscriptionId));
  const deleted = await db.prisma.webhookSubscription.deleteMany({ where: { id: subscriptionId, ownerId } });
  return deleted.count === 1 ? ok({ id: subscriptionId }) : err(subscriptionNotFound(subscriptionId));
};

/**
 * Pauses (`false`) or resumes a subscription. While paused, new events are not fanned out to it and its
 * waiting deliveries are held; they resume on reactivation.
 */
export const setSubscriptionActive = async (
  db: Db,
  ownerId: string,
  subscriptionId: string,
  active: boolean,
): Promise<Result<WebhookSubscriptionView, WebhookError>> => {
  if (!isUuid(ownerId) || !isUuid(subscriptionId)) return err(subscriptionNotFound(subscriptionId));
  const updated = await db.prisma.webhookSubscription.updateMany({ where: { id: subscriptionId, ownerId }, data: { active } });
  if (updated.count === 0) return err(subscriptionNotFound(subscriptionId));
  return ok(toSubscriptionView(await db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: subscriptionId } })));
};
