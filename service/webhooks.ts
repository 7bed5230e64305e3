import { createHash, randomBytes } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../store/db.js';
import type { JsonValue } from '../store/json.js';
import { isWebhookEventKind, parseWebhookOutboxPayload, WEBHOOK_EVENT_KINDS, type WebhookEventKind } from './webhook-events.js';
import { signPayload, SIGNATURE_HEADER } from './webhook-signature.js';

/**
 * Webhooks for integrations: subscriptions per API key, the owner's delivery log, and the sender that
 * drains the outbox (fan-out: one outbox row → one delivery per interested subscription; delivery: signed
 * POST with retries). Time and HTTP are injected (`now`, `fetch`) so tests drive the clock.
 *
 * Guarantee: at least once. An outbox row is written in the turn's transaction; fan-out marks it processed
 * in the transaction that creates its deliveries; a delivery is final only after a 2xx is recorded.
 * A crash anywhere in between leaves work that the next run picks up; receivers de-duplicate on
 * `Arbiter-Event-Id` (= the delivery id, the same on every retry).
 */

export { WEBHOOK_EVENT_KINDS, isWebhookEventKind, parseWebhookOutboxPayload, webhookOutboxItem } from './webhook-events.js';
export type { WebhookEventKind, WebhookOutboxPayload } from './webhook-events.js';
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  SIGNATURE_ERROR_CODES,
  SIGNATURE_HEADER,
  signPayload,
  verifySignature,
} from './webhook-signature.js';
export type { SignatureError, SignatureErrorCode } from './webhook-signature.js';

export const EVENT_ID_HEADER = 'Arbiter-Event-Id';
export const EVENT_KIND_HEADER = 'Arbiter-Event-Kind';
export const ATTEMPT_HEADER = 'Arbiter-Delivery-Attempt';

/** pending: not tried yet; failed: the last attempt failed and a retry is due at `nextAttemptAt`; succeeded / dead: final. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'dead'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
const DUE_STATUSES: readonly WebhookDeliveryStatus[] = ['pending', 'failed'];

export const WEBHOOK_ERROR_CODES = [
  /** `url` is not an absolute URL, has credentials in it, or is too long. */
  'WEBHOOK_URL_INVALID',
  /** `url` is not https (plain http is allowed for 127.0.0.1 and localhost only). */
  'WEBHOOK_URL_NOT_HTTPS',
  /** `kinds` is empty or names an unknown event kind. */
  'WEBHOOK_KINDS_INVALID',
  /** `apiKeyId` names no unrevoked API key of this owner. */
  'API_KEY_NOT_FOUND',
  /** No subscription of this owner has that id. */
  'WEBHOOK_SUBSCRIPTION_NOT_FOUND',
  /** `first` is not an integer from 1 to {@link MAX_PAGE_SIZE}. */
  'PAGE_SIZE_INVALID',
  /** `after` is not a cursor this service handed out. */
  'CURSOR_INVALID',
] as const;
export type WebhookErrorCode = (typeof WEBHOOK_ERROR_CODES)[number];

/** A `RuleError` whose `details.field` names the offending input field. */
export interface WebhookError extends RuleError {
  readonly code: WebhookErrorCode;
}

const webhookError = (code: WebhookErrorCode, field: string, message: string, details: Record<string, unknown> = {}): WebhookError =>
  ruleError(code, message, { field, ...details }) as WebhookError;

export const isWebhookError = (e: unknown): e is WebhookError =>
  typeof e === 'object' && e !== null && (WEBHOOK_ERROR_CODES as readonly unknown[]).includes((e as { code?: unknown }).code);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_URL_LENGTH = 2048;
const DEV_HOSTS = new Set(['127.0.0.1', 'localhost']);
export const MAX_PAGE_SIZE = 100;
/** Longest `last_error` / attempt `error` stored. */
export const MAX_ERROR_LENGTH = 500;

// ---------------------------------------------------------------------------------------------------
// Subscriptions

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

/** `https://…`, or `http://` to 127.0.0.1 / localhost (development). Answers the normalised URL. */
export const validateWebhookUrl = (url: string): Result<string, WebhookError> => {
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
  const devHttp = parsed.protocol === 'http:' && DEV_HOSTS.has(parsed.hostname);
  if (parsed.protocol !== 'https:' && !devHttp) {
    return err(
      webhookError('WEBHOOK_URL_NOT_HTTPS', 'url', `The url "${url}" must use https (http is allowed only for 127.0.0.1 and localhost).`, {
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

/** Registers `url` for `kinds` under an unrevoked API key of `ownerId`; answers the secret once. */
export const createSubscription = async (db: Db, input: NewSubscription): Promise<Result<CreatedSubscription, WebhookError>> => {
  const url = validateWebhookUrl(input.url);
  if (!url.ok) return url;
  const kinds = validateEventKinds(input.kinds);
  if (!kinds.ok) return kinds;
  const key =
    UUID.test(input.apiKeyId) && UUID.test(input.ownerId)
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
  if (!UUID.test(ownerId)) return [];
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
  if (!UUID.test(ownerId) || !UUID.test(subscriptionId)) return err(subscriptionNotFound(subscriptionId));
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
  if (!UUID.test(ownerId) || !UUID.test(subscriptionId)) return err(subscriptionNotFound(subscriptionId));
  const updated = await db.prisma.webhookSubscription.updateMany({ where: { id: subscriptionId, ownerId }, data: { active } });
  if (updated.count === 0) return err(subscriptionNotFound(subscriptionId));
  return ok(toSubscriptionView(await db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: subscriptionId } })));
};

// ---------------------------------------------------------------------------------------------------
// The delivery log

export interface WebhookAttemptView {
  /** 1, 2, … */
  readonly attempt: number;
  readonly attemptedAt: Date;
  /** Null when no HTTP response came (timeout, refused connection, DNS). */
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: string | null;
}

export interface WebhookDeliveryView {
  /** Also the `Arbiter-Event-Id` and the body's `id`. */
  readonly id: string;
  readonly subscriptionId: string;
  /** The outbox row (a bigint, as a decimal string). */
  readonly outboxId: string;
  readonly gameId: string;
  readonly kind: WebhookEventKind;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  /** When the next attempt is due; null once succeeded or dead. */
  readonly nextAttemptAt: Date | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Every attempt, in order. */
  readonly log: readonly WebhookAttemptView[];
}

export interface WebhookDeliveryPage {
  /** Newest first. */
  readonly items: readonly WebhookDeliveryView[];
  /** Pass as `after` for the next page; null when `items` is empty. */
  readonly endCursor: string | null;
  readonly hasNextPage: boolean;
}

export interface DeliveryQuery {
  readonly subscriptionId?: string;
  readonly status?: WebhookDeliveryStatus;
  /** Page size, 1 … {@link MAX_PAGE_SIZE}; default 20. */
  readonly first?: number;
  readonly after?: string | null;
}

const encodeCursor = (createdAt: Date, id: string): string =>
  Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');

/** The cursor of one delivery of a page (to pass as `after`: the page then starts right after it). */
export const deliveryCursor = (d: Pick<WebhookDeliveryView, 'createdAt' | 'id'>): string => encodeCursor(d.createdAt, d.id);

const decodeCursor = (cursor: string): { createdAt: Date; id: string } | null => {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || typeof value[1] !== 'string') return null;
    const createdAt = new Date(value[0]);
    if (Number.isNaN(createdAt.getTime()) || !UUID.test(value[1])) return null;
    return { createdAt, id: value[1] };
  } catch {
    return null;
  }
};

/** The owner's deliveries (only theirs), newest first, each with its attempt log; cursor pagination. */
export const listDeliveries = async (
  db: Db,
  ownerId: string,
  query: DeliveryQuery = {},
): Promise<Result<WebhookDeliveryPage, WebhookError>> => {
  const first = query.first ?? 20;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    return err(
      webhookError('PAGE_SIZE_INVALID', 'first', `The page size first=${first} must be an integer from 1 to ${MAX_PAGE_SIZE}.`, { first }),
    );
  }
  const after = query.after ? decodeCursor(query.after) : null;
  if (query.after && after === null) {
    return err(
      webhookError('CURSOR_INVALID', 'after', `The cursor after="${query.after}" was not handed out by this service.`, {
        after: query.after,
      }),
    );
  }
  const empty: WebhookDeliveryPage = { items: [], endCursor: null, hasNextPage: false };
  if (!UUID.test(ownerId)) return ok(empty);
  if (query.subscriptionId !== undefined && !UUID.test(query.subscriptionId)) return ok(empty);
  const rows = await db.prisma.webhookDelivery.findMany({
    where: {
      subscription: { ownerId },
      ...(query.subscriptionId === undefined ? {} : { subscriptionId: query.subscriptionId }),
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(after === null ? {} : { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: first + 1,
    include: { attemptLog: { orderBy: { attempt: 'asc' } }, outbox: { select: { gameId: true } } },
  });
  const page = rows.slice(0, first);
  const last = page[page.length - 1];
  return ok({
    items: page.map((r) => ({
      id: r.id,
      subscriptionId: r.subscriptionId,
      outboxId: r.outboxId.toString(),
      gameId: r.outbox.gameId,
      kind: r.kind as WebhookEventKind,
      status: r.status as WebhookDeliveryStatus,
      attempts: r.attempts,
      nextAttemptAt: (DUE_STATUSES as readonly string[]).includes(r.status) ? r.nextAttemptAt : null,
      lastStatusCode: r.lastStatusCode,
      lastError: r.lastError,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      log: r.attemptLog.map((a) => ({
        attempt: a.attempt,
        attemptedAt: a.attemptedAt,
        statusCode: a.statusCode,
        durationMs: a.durationMs,
        error: a.error,
      })),
    })),
    endCursor: last ? encodeCursor(last.createdAt, last.id) : null,
    hasNextPage: rows.length > first,
  });
};

// ---------------------------------------------------------------------------------------------------
// Fan-out: outbox rows → deliveries

export interface FanOutDeps {
  readonly now: () => Date;
  /** Outbox rows per transaction (default 100). */
  readonly batchSize?: number;
  /** Stop after this many rows in one call (default 1000); the next call goes on. */
  readonly maxRows?: number;
}

export interface FanOutResult {
  /** Outbox rows marked processed. */
  readonly outboxRows: number;
  /** Of those, rows set aside because their payload breaks the contract (reason in `outbox.last_error`). */
  readonly invalidRows: number;
  readonly deliveriesCreated: number;
}

interface OutboxCandidate extends Record<string, unknown> {
  id: bigint;
  game_id: string;
  kind: string;
  payload: unknown;
}

/**
 * Turns unprocessed outbox rows of webhook kinds into one `pending` delivery per active subscription
 * (unrevoked key) that lists the kind and whose owner holds a seat in the game — for `your-turn`, only the
 * player to move — and marks the rows processed (`delivered_at`), all in one transaction per batch.
 * Rows are claimed with `FOR UPDATE SKIP LOCKED`, so concurrent senders split the work; the unique
 * (subscription, outbox row) pair makes a repeat harmless. Outbox rows of other kinds are left alone.
 */
export const fanOutOutbox = async (db: Db, deps: FanOutDeps): Promise<FanOutResult> => {
  const batchSize = deps.batchSize ?? 100;
  const maxRows = deps.maxRows ?? 1000;
  const total = { outboxRows: 0, invalidRows: 0, deliveriesCreated: 0 };
  while (total.outboxRows < maxRows) {
    const batch = await db.transaction(async (tx) => {
      const now = deps.now();
      const rows = await tx.$queryRaw<OutboxCandidate[]>`
        SELECT "id", "game_id"::text AS "game_id", "kind", "payload" FROM "outbox"
         WHERE "delivered_at" IS NULL AND "kind" IN (${Prisma.join([...WEBHOOK_EVENT_KINDS])})
         ORDER BY "id"
         LIMIT ${Math.min(batchSize, maxRows - total.outboxRows)}
         FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return null;
      const parsed = rows.map((r) => ({
        row: r,
        payload: parseWebhookOutboxPayload({ kind: r.kind, gameId: r.game_id, payload: r.payload }),
      }));
      const valid = parsed.flatMap((p) => (p.payload.ok ? [{ row: p.row, payload: p.payload.value }] : []));
      const gameIds = [...new Set(valid.map((v) => v.row.game_id))];
      const seats = gameIds.length === 0 ? [] : await tx.seat.findMany({ where: { gameId: { in: gameIds }, playerId: { not: null } } });
      const players = [...new Set(seats.map((s) => s.playerId!))];
      const subscriptions =
        players.length === 0
          ? []
          : await tx.webhookSubscription.findMany({
              where: { ownerId: { in: players }, active: true, apiKey: { revokedAt: null } },
              select: { id: true, ownerId: true, kinds: true },
            });
      const deliveries = valid.flatMap(({ row, payload }) => {
        const seated = seats.filter((s) => s.gameId === row.game_id);
        const recipients =
          payload.kind === 'your-turn'
            ? seated.filter((s) => (payload.playerId === undefined ? s.seat === payload.seat : s.playerId === payload.playerId))
            : seated;
        const owners = new Set(recipients.map((s) => s.playerId));
        return subscriptions
          .filter((s) => owners.has(s.ownerId) && s.kinds.includes(payload.kind))
          .map((s) => ({ subscriptionId: s.id, outboxId: row.id, kind: payload.kind, nextAttemptAt: now, createdAt: now, updatedAt: now }));
      });
      const created =
        deliveries.length === 0 ? { count: 0 } : await tx.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });
      const validIds = valid.map((v) => v.row.id);
      if (validIds.length > 0) {
        await tx.outboxMessage.updateMany({ where: { id: { in: validIds } }, data: { deliveredAt: now, attempts: { increment: 1 } } });
      }
      const invalid = parsed.flatMap((p) => (p.payload.ok ? [] : [{ id: p.row.id, error: p.payload.error }]));
      for (const bad of invalid) {
        await tx.outboxMessage.update({
          where: { id: bad.id },
          data: { deliveredAt: now, attempts: { increment: 1 }, lastError: truncate(`invalid webhook payload: ${bad.error}`) },
        });
      }
      return { rows: rows.length, invalid: invalid.length, created: created.count };
    });
    if (batch === null) break;
    total.outboxRows += batch.rows;
    total.invalidRows += batch.invalid;
    total.deliveriesCreated += batch.created;
    if (batch.rows < batchSize) break;
  }
  return total;
};

// ---------------------------------------------------------------------------------------------------
// Delivery: signed POSTs with retries

/** Delay (ms) before the retry that follows failed attempt number `failedAttempts` (1, 2, …). */
export type Backoff = (failedAttempts: number, deliveryId: string) => number;

/** Base delays after failed attempt 1, 2, …, 7 (30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h); later ones reuse the last. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000] as const;

/**
 * The default back-off: base delay from {@link RETRY_DELAYS_MS} plus a jitter below 10 % of it, derived
 * from the delivery id so it is reproducible: `first 4 bytes of sha256("<deliveryId>:<failedAttempts>")`
 * (big-endian unsigned) modulo `base / 10`. Spreads retries of many deliveries that failed together.
 */
export const defaultBackoff: Backoff = (failedAttempts, deliveryId) => {
  const base = RETRY_DELAYS_MS[Math.min(Math.max(failedAttempts, 1), RETRY_DELAYS_MS.length) - 1]!;
  const h = createHash('sha256').update(`${deliveryId}:${failedAttempts}`, 'utf8').digest().readUInt32BE(0);
  return base + (h % (base / 10));
};

/** The part of `fetch` the sender uses (the global `fetch` fits; tests pass a stub). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; redirect: 'manual'; signal: AbortSignal },
) => Promise<Response>;

export interface DeliverDeps {
  readonly now: () => Date;
  readonly fetch: FetchLike;
  /** Attempts before a delivery is `dead` (default 8). */
  readonly maxAttempts?: number;
  readonly backoff?: Backoff;
  /** Per request, in real milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /** Deliveries taken per call (default 100). */
  readonly batchSize?: number;
  /** Requests in flight at once (default 8). */
  readonly concurrency?: number;
  /**
   * How long a claimed delivery is hidden from other senders (default `timeoutMs` + 60 s). If this
   * process dies mid-request, the delivery is due again after the lease.
   */
  readonly leaseMs?: number;
}

export interface DeliverResult {
  /** HTTP attempts made (and logged). */
  readonly attempted: number;
  readonly succeeded: number;
  /** Failed, retry scheduled. */
  readonly retrying: number;
  /** Failed for the last allowed time. */
  readonly dead: number;
}

const truncate = (s: string): string => (s.length <= MAX_ERROR_LENGTH ? s : `${s.slice(0, MAX_ERROR_LENGTH - 1)}…`);

const describeFetchError = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  const causeMessage = cause instanceof Error ? cause.message : undefined;
  return [`${e.name}: ${e.message}`, typeof code === 'string' ? code : causeMessage].filter(Boolean).join(' — ');
};

/** Reads at most `limit` bytes of a response body (for the log), then lets the rest go. */
const readSnippet = async (res: Response, limit: number): Promise<string> => {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // The body is for the log only; a broken one must not change the outcome.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8').trim();
};

interface AttemptOutcome {
  readonly statusCode: number | null;
  readonly error: string | null;
}

const post = async (
  fetchFn: FetchLike,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<AttemptOutcome> => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetchFn(url, { method: 'POST', headers, body, redirect: 'manual', signal: controller.signal });
    const snippet = await readSnippet(res, 200);
    if (res.status >= 200 && res.status < 300) return { statusCode: res.status, error: null };
    return { statusCode: res.status, error: truncate(`HTTP ${res.status}${snippet ? `: ${snippet}` : ''}`) };
  } catch (e) {
    return { statusCode: null, error: truncate(controller.signal.aborted ? `timeout after ${timeoutMs} ms` : describeFetchError(e)) };
  } finally {
    clearTimeout(timer);
  }
};

/** The JSON body POSTed to the receiver (signed as-is). */
export interface WebhookBody {
  /** The delivery id, as in `Arbiter-Event-Id`: the same on every retry. */
  readonly id: string;
  readonly kind: WebhookEventKind;
  /** When the event was recorded (the outbox row), ISO 8601. */
  readonly createdAt: string;
  /** The outbox payload: `{kind, gameId, version, seat?, playerId?, …}`. */
  readonly data: JsonValue;
}

const runPool = async <T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
};

/**
 * POSTs every due delivery (status pending/failed, `next_attempt_at` ≤ now, subscription active, key
 * unrevoked) and records each attempt. 2xx → succeeded; anything else (status, timeout, refused
 * connection, redirect) → failed with the next attempt at attempt time + `backoff`, or dead after
 * `maxAttempts`. Each delivery is claimed by a conditional update that pushes `next_attempt_at` out by
 * the lease, so two senders never send the same attempt, and a crash mid-request leaves it due again
 * after the lease. A bad receiver never makes this throw; database failures do.
 */
export const deliverDue = async (db: Db, deps: DeliverDeps): Promise<DeliverResult> => {
  const maxAttempts = deps.maxAttempts ?? 8;
  const backoff = deps.backoff ?? defaultBackoff;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const leaseMs = deps.leaseMs ?? timeoutMs + 60_000;
  const counts = { attempted: 0, succeeded: 0, retrying: 0, dead: 0 };
  const now = deps.now();
  const due = await db.prisma.webhookDelivery.findMany({
    where: {
      status: { in: [...DUE_STATUSES] },
      nextAttemptAt: { lte: now },
      subscription: { active: true, apiKey: { revokedAt: null } },
    },
    orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
    take: deps.batchSize ?? 100,
    select: { id: true, attempts: true, nextAttemptAt: true },
  });

  await runPool(due, deps.concurrency ?? 8, async (candidate) => {
    const claimedAt = deps.now();
    const claimed = await db.prisma.webhookDelivery.updateMany({
      where: { id: candidate.id, attempts: candidate.attempts, status: { in: [...DUE_STATUSES] }, nextAttemptAt: { lte: claimedAt } },
      data: { nextAttemptAt: new Date(claimedAt.getTime() + leaseMs), updatedAt: claimedAt },
    });
    if (claimed.count === 0) return; // another sender has it
    const d = await db.prisma.webhookDelivery.findUnique({
      where: { id: candidate.id },
      include: { subscription: { select: { url: true, secret: true } }, outbox: { select: { payload: true, createdAt: true } } },
    });
    if (d === null) return; // the subscription was deleted meanwhile

    const attempt = candidate.attempts + 1;
    const body: WebhookBody = {
      id: d.id,
      kind: d.kind as WebhookEventKind,
      createdAt: d.outbox.createdAt.toISOString(),
      data: d.outbox.payload as JsonValue,
    };
    const text = JSON.stringify(body);
    const attemptedAt = deps.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Arbiter-Webhooks/1',
      [SIGNATURE_HEADER.toLowerCase()]: signPayload(d.subscription.secret, attemptedAt, text),
      [EVENT_ID_HEADER.toLowerCase()]: d.id,
      [EVENT_KIND_HEADER.toLowerCase()]: d.kind,
      [ATTEMPT_HEADER.toLowerCase()]: String(attempt),
    };
    const outcome = await post(deps.fetch, d.subscription.url, headers, text, timeoutMs);
    const finishedAt = deps.now();
    const status: WebhookDeliveryStatus = outcome.error === null ? 'succeeded' : attempt >= maxAttempts ? 'dead' : 'failed';
    const nextAttemptAt = status === 'failed' ? new Date(attemptedAt.getTime() + backoff(attempt, d.id)) : attemptedAt;

    const recorded = await db.transaction(async (tx) => {
      const updated = await tx.webhookDelivery.updateMany({
        where: { id: d.id, attempts: candidate.attempts },
        data: {
          attempts: attempt,
          status,
          nextAttemptAt,
          lastStatusCode: outcome.statusCode,
          lastError: outcome.error,
          updatedAt: finishedAt,
        },
      });
      if (updated.count === 0) return false; // deleted, or the lease ran out and another sender recorded first
      await tx.webhookAttempt.create({
        data: {
          deliveryId: d.id,
          attempt,
          attemptedAt,
          statusCode: outcome.statusCode,
          durationMs: Math.max(0, finishedAt.getTime() - attemptedAt.getTime()),
          error: outcome.error,
        },
      });
      return true;
    });
    counts.attempted += 1;
    if (!recorded) return;
    if (status === 'succeeded') counts.succeeded += 1;
    else if (status === 'dead') counts.dead += 1;
    else counts.retrying += 1;
  });
  return counts;
};

export type DrainDeps = FanOutDeps & DeliverDeps;
export type DrainResult = FanOutResult & DeliverResult;

/** One sender run: {@link fanOutOutbox}, then {@link deliverDue}. */
export const drain = async (db: Db, deps: DrainDeps): Promise<DrainResult> => {
  const fanOut = await fanOutOutbox(db, deps);
  const delivered = await deliverDue(db, deps);
  return { ...fanOut, ...delivered };
};
