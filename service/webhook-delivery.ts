import { createHash } from 'node:crypto';
import type { JsonValue } from '../store/json.js';
import type { Db } from './context.js';
import { checkDestination, type CheckedDestination, type DestinationPolicy } from './webhook-destination.js';
import { isLobbyPayload, isTournamentPayload, pictureLinks, type AnyWebhookPayload, type WebhookEventKind } from './webhook-events.js';
import { DUE_STATUSES, truncateError, type WebhookDeliveryStatus } from './webhook-log.js';
import { signPayload, SIGNATURE_HEADER } from './webhook-signature.js';

/**
 * Webhook delivery: signed POSTs of due deliveries, with retries and back-off. Time and HTTP are injected
 * (`now`, `fetch`) so tests drive the clock. A delivery is final only after a 2xx is recorded; receivers
 * de-duplicate on `Arbiter-Event-Id` (= the delivery id, the same on every retry).
 */

export const EVENT_ID_HEADER = 'Arbiter-Event-Id';
export const EVENT_KIND_HEADER = 'Arbiter-Event-Kind';
export const ATTEMPT_HEADER = 'Arbiter-Delivery-Attempt';

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

/**
 * How the sender POSTs: `pinnedFetch` (service/webhook-destination.ts) in production, which connects to
 * `init.destination.address`, the address that was just checked; tests pass a stub.
 */
export type FetchLike = (
  url: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body: string;
    redirect: 'manual';
    signal: AbortSignal;
    destination: CheckedDestination;
  },
) => Promise<Response>;

export interface DeliverDeps {
  readonly now: () => Date;
  readonly fetch: FetchLike;
  /** Where deliveries may go: every attempt re-checks the URL and pins the address it checked. */
  readonly destinations: DestinationPolicy;
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
  /** The server's public address (`https://api.example.org`): each delivery's data then links the game's pictures (`pictureLinks`). */
  readonly publicBaseUrl?: string | null;
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
  deps: Pick<DeliverDeps, 'fetch' | 'destinations'>,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<AttemptOutcome> => {
  // Checked again at every attempt: a name may resolve elsewhere now than when the subscription was made.
  const destination = await checkDestination(url, deps.destinations);
  if (!destination.ok) return { statusCode: null, error: truncateError(`refused: ${destination.error.message}`) };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await deps.fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: controller.signal,
      destination: destination.value,
    });
    const snippet = await readSnippet(res, 200);
    if (res.status >= 200 && res.status < 300) return { statusCode: res.status, error: null };
    return { statusCode: res.status, error: truncateError(`HTTP ${res.status}${snippet ? `: ${snippet}` : ''}`) };
  } catch (e) {
    return { statusCode: null, error: truncateError(controller.signal.aborted ? `timeout after ${timeoutMs} ms` : describeFetchError(e)) };
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

/** The sender's settings, with their defaults filled in. */
interface DeliverySettings {
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  readonly timeoutMs: number;
  readonly leaseMs: number;
}

const settingsOf = (deps: DeliverDeps): DeliverySettings => {
  const timeoutMs = deps.timeoutMs ?? 10_000;
  return {
    maxAttempts: deps.maxAttempts ?? 8,
    backoff: deps.backoff ?? defaultBackoff,
    timeoutMs,
    leaseMs: deps.leaseMs ?? timeoutMs + 60_000,
  };
};

/** A due delivery as listed: its id and the attempts made when it was read. */
interface Candidate {
  readonly id: string;
  readonly attempts: number;
}

/**
 * Claims `candidate` by a conditional update that pushes `next_attempt_at` out by the lease, then loads
 * what sending needs. Null when another sender has it or its subscription was deleted meanwhile.
 */
const claimDelivery = async (db: Db, candidate: Candidate, claimedAt: Date, leaseMs: number) => {
  const claimed = await db.prisma.webhookDelivery.updateMany({
    where: { id: candidate.id, attempts: candidate.attempts, status: { in: [...DUE_STATUSES] }, nextAttemptAt: { lte: claimedAt } },
    data: { nextAttemptAt: new Date(claimedAt.getTime() + leaseMs), updatedAt: claimedAt },
  });
  if (claimed.count === 0) return null; // another sender has it
  return db.prisma.webhookDelivery.findUnique({
    where: { id: candidate.id },
    include: { subscription: { select: { url: true, secret: true } }, outbox: { select: { payload: true, createdAt: true } } },
  });
};

type ClaimedDelivery = NonNullable<Awaited<ReturnType<typeof claimDelivery>>>;

/** The body and signed headers of attempt number `attempt`, signed at `attemptedAt`. */
const signedRequest = (
  d: ClaimedDelivery,
  attempt: number,
  attemptedAt: Date,
  publicBaseUrl: string | null,
): { headers: Record<string, string>; text: string } => {
  const payload = d.outbox.payload as AnyWebhookPayload;
  const body: WebhookBody = {
    id: d.id,
    kind: d.kind as WebhookEventKind,
    createdAt: d.outbox.createdAt.toISOString(),
    // A game's pictures; a tournament's events (issue 30) and the lobby's (issue 33) link none.
    data:
      publicBaseUrl && !isTournamentPayload(payload) && !isLobbyPayload(payload)
        ? { ...payload, links: pictureLinks(payload, publicBaseUrl) }
        : payload,
  };
  const text = JSON.stringify(body);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Arbiter-Webhooks/1',
    [SIGNATURE_HEADER.toLowerCase()]: signPayload(d.subscription.secret, attemptedAt, text),
    [EVENT_ID_HEADER.toLowerCase()]: d.id,
    [EVENT_KIND_HEADER.toLowerCase()]: d.kind,
    [ATTEMPT_HEADER.toLowerCase()]: String(attempt),
  };
  return { headers, text };
};

interface AttemptRecord {
  readonly deliveryId: string;
  /** Attempts made when the delivery was claimed: the record is written only if no other sender recorded since. */
  readonly previousAttempts: number;
  readonly attempt: number;
  readonly status: WebhookDeliveryStatus;
  readonly nextAttemptAt: Date;
  readonly outcome: AttemptOutcome;
  readonly attemptedAt: Date;
  readonly finishedAt: Date;
}

/** Writes the attempt's outcome and its log line in one transaction; false when the delivery is gone or was recorded by another sender. */
const recordAttempt = (db: Db, r: AttemptRecord): Promise<boolean> =>
  db.transaction(async (tx) => {
    const updated = await tx.webhookDelivery.updateMany({
      where: { id: r.deliveryId, attempts: r.previousAttempts },
      data: {
        attempts: r.attempt,
        status: r.status,
        nextAttemptAt: r.nextAttemptAt,
        lastStatusCode: r.outcome.statusCode,
        lastError: r.outcome.error,
        updatedAt: r.finishedAt,
      },
    });
    if (updated.count === 0) return false; // deleted, or the lease ran out and another sender recorded first
    await tx.webhookAttempt.create({
      data: {
        deliveryId: r.deliveryId,
        attempt: r.attempt,
        attemptedAt: r.attemptedAt,
        statusCode: r.outcome.statusCode,
        durationMs: Math.max(0, r.finishedAt.getTime() - r.attemptedAt.getTime()),
        error: r.outcome.error,
      },
    });
    return true;
  });

/** One attempt at `candidate`: claim, POST, record. Null when it was not attempted (claimed elsewhere, or deleted). */
const attemptDelivery = async (
  db: Db,
  deps: DeliverDeps,
  s: DeliverySettings,
  candidate: Candidate,
): Promise<{ readonly recorded: boolean; readonly status: WebhookDeliveryStatus } | null> => {
  const d = await claimDelivery(db, candidate, deps.now(), s.leaseMs);
  if (d === null) return null;
  const attempt = candidate.attempts + 1;
  const attemptedAt = deps.now();
  const { headers, text } = signedRequest(d, attempt, attemptedAt, deps.publicBaseUrl ?? null);
  const outcome = await post(deps, d.subscription.url, headers, text, s.timeoutMs);
  const finishedAt = deps.now();
  const status: WebhookDeliveryStatus = outcome.error === null ? 'succeeded' : attempt >= s.maxAttempts ? 'dead' : 'failed';
  const nextAttemptAt = status === 'failed' ? new Date(attemptedAt.getTime() + s.backoff(attempt, d.id)) : attemptedAt;
  const recorded = await recordAttempt(db, {
    deliveryId: d.id,
    previousAttempts: candidate.attempts,
    attempt,
    status,
    nextAttemptAt,
    outcome,
    attemptedAt,
    finishedAt,
  });
  return { recorded, status };
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
  const settings = settingsOf(deps);
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
    const r = await attemptDelivery(db, deps, settings, candidate);
    if (r === null) return;
    counts.attempted += 1;
    if (!r.recorded) return;
    if (r.status === 'succeeded') counts.succeeded += 1;
    else if (r.status === 'dead') counts.dead += 1;
    else counts.retrying += 1;
  });
  return counts;
};
