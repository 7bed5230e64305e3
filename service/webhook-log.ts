import { err, ok, type Result } from '../engine/result.js';
import type { Db } from './context.js';
import type { WebhookEventKind } from './webhook-events.js';
import { webhookError, type WebhookError } from './webhook-errors.js';
import { isUuid } from './ids.js';

/**
 * The webhook delivery log: each delivery's status and every attempt, as the owner reads it (their
 * deliveries only), newest first with cursor pagination; and what a delivery's status means.
 */

/** pending: not tried yet; failed: the last attempt failed and a retry is due at `nextAttemptAt`; succeeded / dead: final. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'dead'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const DUE_STATUSES: readonly WebhookDeliveryStatus[] = ['pending', 'failed'];

export const MAX_PAGE_SIZE = 100;
/** Longest `last_error` / attempt `error` stored. */
export const MAX_ERROR_LENGTH = 500;

/** An error text cut to {@link MAX_ERROR_LENGTH} for the log. */
export const truncateError = (s: string): string => (s.length <= MAX_ERROR_LENGTH ? s : `${s.slice(0, MAX_ERROR_LENGTH - 1)}…`);

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
  /** The game whose event it announces; null for a tournament's event. */
  readonly gameId: string | null;
  /** The tournament whose event it announces (issue 30); null for a game's event. */
  readonly tournamentId: string | null;
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
    if (Number.isNaN(createdAt.getTime()) || !isUuid(value[1])) return null;
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
  if (!isUuid(ownerId)) return ok(empty);
  if (query.subscriptionId !== undefined && !isUuid(query.subscriptionId)) return ok(empty);
  const rows = await db.prisma.webhookDelivery.findMany({
    where: {
      subscription: { ownerId },
      ...(query.subscriptionId === undefined ? {} : { subscriptionId: query.subscriptionId }),
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(after === null ? {} : { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: first + 1,
    include: { attemptLog: { orderBy: { attempt: 'asc' } }, outbox: { select: { gameId: true, tournamentId: true } } },
  });
  const page = rows.slice(0, first);
  const last = page[page.length - 1];
  return ok({
    items: page.map((r) => ({
      id: r.id,
      subscriptionId: r.subscriptionId,
      outboxId: r.outboxId.toString(),
      gameId: r.outbox.gameId,
      tournamentId: r.outbox.tournamentId,
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

/**
 * Seconds since the oldest delivery still due was created (0 when none): the sender's backlog, which
 * the stack alarms on. Deliveries of paused subscriptions or revoked keys wait by design and are left out.
 */
export const oldestDueDeliveryAgeSeconds = async (db: Db, now: Date): Promise<number> => {
  const oldest = await db.prisma.webhookDelivery.findFirst({
    where: { status: { in: [...DUE_STATUSES] }, subscription: { active: true, apiKey: { revokedAt: null } } },
    orderBy: { createdAt: 'asc' },
    select: { createdAt: true },
  });
  return oldest ? Math.max(0, Math.round((now.getTime() - oldest.createdAt.getTime()) / 1000)) : 0;
};
