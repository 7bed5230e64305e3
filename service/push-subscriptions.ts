import { ECDH } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { Db } from './context.js';
import { isUuid } from './ids.js';
import { checkDestination, FORBIDDEN_REASONS, type DestinationPolicy, type ForbiddenReason } from './webhook-destination.js';

/**
 * A player's Web Push subscriptions (issue 31, docs/notifications.md#web-push): the browsers that asked
 * to be told "your move" and "game over". A browser's push service hands it an endpoint URL and two keys;
 * the page posts them here. The sender then POSTs to that URL from inside the deployment, so the endpoint
 * is a server-side request forgery risk exactly like a webhook URL: it must be https and pass the webhook
 * destination policy (service/webhook-destination.ts), at subscription and again at every send.
 */

export const PUSH_ERROR_CODES = [
  /** `endpoint` is not an absolute https URL to a public address (or is too long, or carries credentials); `details.reason` says why. */
  'PUSH_ENDPOINT_REFUSED',
  /** `keys.p256dh` is not a P-256 public key, or `keys.auth` not 16 bytes, in base64url. */
  'PUSH_KEYS_INVALID',
  /** The player has no subscription with that id or endpoint. */
  'PUSH_SUBSCRIPTION_NOT_FOUND',
  /** This server has no VAPID keys (Web Push is off). */
  'PUSH_UNAVAILABLE',
] as const;
export type PushErrorCode = (typeof PUSH_ERROR_CODES)[number];

/** A `RuleError` whose `details.field` names the offending input field. */
export interface PushError extends RuleError {
  readonly code: PushErrorCode;
}

export const pushError = (code: PushErrorCode, field: string, message: string, details: Record<string, unknown> = {}): PushError =>
  ruleError(code, message, { field, ...details }) as PushError;

const MAX_ENDPOINT_LENGTH = 2048;
const MAX_USER_AGENT_LENGTH = 512;
/** Browsers kept per player; a new one beyond this pushes out the oldest (a player does not own 20 browsers, but a test loop might). */
export const MAX_SUBSCRIPTIONS_PER_PLAYER = 10;

export interface PushSubscriptionInput {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly userAgent?: string | null;
}

export interface PushSubscriptionView {
  readonly id: string;
  readonly endpoint: string;
  readonly userAgent: string | null;
  readonly createdAt: Date;
  readonly lastSuccessAt: Date | null;
}

const refused = (reason: string, message: string): PushError =>
  pushError(
    'PUSH_ENDPOINT_REFUSED',
    'endpoint',
    `${message} Push messages go to a browser's push service at a public https address only.`,
    {
      reason,
    },
  );

/** The endpoint's form: absolute https (http only with the development setting), no credentials, not too long. */
const endpointForm = (endpoint: string, allowLocal: boolean): Result<string, PushError> => {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return err(refused('INVALID', 'The endpoint is not an absolute URL.'));
  }
  if (endpoint.length > MAX_ENDPOINT_LENGTH)
    return err(refused('TOO_LONG', `The endpoint is longer than ${MAX_ENDPOINT_LENGTH} characters.`));
  if (url.username !== '' || url.password !== '')
    return err(refused('CREDENTIALS', 'The endpoint must not contain a user name or password.'));
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) {
    return err(refused('NOT_HTTPS', `The endpoint must use https, not ${url.protocol.replace(':', '')}.`));
  }
  return ok(url.toString());
};

/**
 * The endpoint, normalised, when it may be reached: its form, then every address its host resolves to
 * under `policy` (the same check runs again before each send, see push-channel.ts).
 */
export const checkPushEndpoint = async (endpoint: string, policy: DestinationPolicy): Promise<Result<string, PushError>> => {
  const form = endpointForm(endpoint, policy.allowLocal);
  if (!form.ok) return form;
  const destination = await checkDestination(form.value, policy);
  if (destination.ok) return form;
  const reason = String(destination.error.details?.['reason'] ?? 'RESERVED') as ForbiddenReason;
  const host = new URL(form.value).hostname;
  return err(
    refused(
      reason,
      `The endpoint's host "${host}" is or resolves to ${FORBIDDEN_REASONS[reason] ?? 'an address that may not be reached'}.`,
    ),
  );
};

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** base64url (padding tolerated, as some browsers' toJSON add it) → bytes; null when it is not base64url. */
const base64url = (text: string): Buffer | null => {
  const bare = text.replace(/=+$/, '');
  return BASE64URL.test(bare) ? Buffer.from(bare, 'base64url') : null;
};

/** The browser's keys (RFC 8291 §3): p256dh an uncompressed P-256 point (65 bytes) on the curve, auth 16 bytes. Answers them unpadded. */
export const checkPushKeys = (p256dh: string, auth: string): Result<{ p256dh: string; auth: string }, PushError> => {
  const key = base64url(p256dh);
  let onCurve = false;
  if (key?.length === 65 && key[0] === 4) {
    try {
      ECDH.convertKey(key, 'prime256v1');
      onCurve = true;
    } catch {
      onCurve = false;
    }
  }
  if (!onCurve) {
    return err(
      pushError(
        'PUSH_KEYS_INVALID',
        'keys.p256dh',
        'keys.p256dh must be the browser’s P-256 public key: 65 bytes (uncompressed point) in base64url.',
        {
          length: key?.length ?? null,
        },
      ),
    );
  }
  const secret = base64url(auth);
  if (secret?.length !== 16) {
    return err(
      pushError('PUSH_KEYS_INVALID', 'keys.auth', 'keys.auth must be the browser’s 16-byte authentication secret in base64url.', {
        length: secret?.length ?? null,
      }),
    );
  }
  return ok({ p256dh: key!.toString('base64url'), auth: secret.toString('base64url') });
};

type Row = { id: string; endpoint: string; userAgent: string | null; createdAt: Date; lastSuccessAt: Date | null };
const toView = (r: Row): PushSubscriptionView => ({
  id: r.id,
  endpoint: r.endpoint,
  userAgent: r.userAgent,
  createdAt: r.createdAt,
  lastSuccessAt: r.lastSuccessAt,
});

/**
 * Records the browser's subscription for `playerId`, made with the VAPID public key `applicationServerKey`.
 * The same endpoint again (the page re-subscribing, or another player signing in on that browser) replaces
 * the row: one browser tells one player. Nothing is written unless endpoint and keys pass.
 */
export const subscribePush = async (
  db: Db,
  playerId: string,
  input: PushSubscriptionInput,
  context: { readonly destinations: DestinationPolicy; readonly applicationServerKey: string; readonly now: Date },
): Promise<Result<PushSubscriptionView, PushError>> => {
  const endpoint = await checkPushEndpoint(input.endpoint, context.destinations);
  if (!endpoint.ok) return endpoint;
  const keys = checkPushKeys(input.p256dh, input.auth);
  if (!keys.ok) return keys;
  const userAgent = input.userAgent ? input.userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null;
  const data = { playerId, ...keys.value, applicationServerKey: context.applicationServerKey, userAgent, createdAt: context.now };
  const row = await db.prisma.pushSubscription.upsert({
    where: { endpoint: endpoint.value },
    create: { endpoint: endpoint.value, ...data },
    update: { ...data, lastError: null, lastFailureAt: null },
  });
  const surplus = await db.prisma.pushSubscription.findMany({
    where: { playerId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    skip: MAX_SUBSCRIPTIONS_PER_PLAYER,
    select: { id: true },
  });
  if (surplus.length > 0) await db.prisma.pushSubscription.deleteMany({ where: { id: { in: surplus.map((s) => s.id) } } });
  return ok(toView(row));
};

/** The player's subscriptions, oldest first. */
export const listPushSubscriptions = async (db: Db, playerId: string): Promise<PushSubscriptionView[]> => {
  if (!isUuid(playerId)) return [];
  const rows = await db.prisma.pushSubscription.findMany({ where: { playerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toView);
};

/** The endpoint as subscribePush stored it (URL serialisation), so the browser's own spelling finds it. */
const normalised = (endpoint: string): string | null => {
  try {
    return new URL(endpoint).toString();
  } catch {
    return null;
  }
};

/** Removes one of the player's subscriptions, named by its id or by its endpoint (what a browser knows). */
export const unsubscribePush = async (
  db: Db,
  playerId: string,
  which: { readonly id?: string | null; readonly endpoint?: string | null },
): Promise<Result<{ readonly id: string }, PushError>> => {
  const field = which.id ? 'id' : 'endpoint';
  const value = which.id ?? which.endpoint ?? '';
  const endpoint = which.id ? null : normalised(value);
  const notFound = err(
    pushError('PUSH_SUBSCRIPTION_NOT_FOUND', field, `You have no push subscription with that ${field}.`, { [field]: value }),
  );
  if (!isUuid(playerId) || value === '' || (which.id && !isUuid(which.id))) return notFound;
  const row = await db.prisma.pushSubscription.findFirst({
    where: { playerId, ...(which.id ? { id: which.id } : { endpoint: endpoint ?? value }) },
    select: { id: true },
  });
  if (!row) return notFound;
  await db.prisma.pushSubscription.deleteMany({ where: { id: row.id } });
  return ok({ id: row.id });
};
