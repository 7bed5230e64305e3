import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type webpush from 'web-push';
import type { Db } from './context.js';
import type { ChannelOutcome, Notice, NotificationChannel, NotificationKind } from './notification-channels.js';
import { checkDestination, pinnedLookup, type CheckedDestination, type DestinationPolicy } from './webhook-destination.js';

/**
 * The Web Push channel (issue 31, docs/notifications.md#web-push): carries the notifier's notices to every
 * browser a player subscribed (service/push-subscriptions.ts). Each message is encrypted for the browser
 * (RFC 8291) and signed with this server's VAPID key (RFC 8292) by the web-push package; the request it
 * prepares is then sent here, to the address the webhook destination check just approved (the same
 * pinned connection as webhooks: no second DNS answer, no redirect followed), because an endpoint is a URL
 * a stranger chose.
 */

/** The server's VAPID key pair, base64url as web-push makes them. */
export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
}

/** The keys and subject of this deployment (functions/vapid-keys.ts `pushSettingsFromEnv`); the GraphQL context carries them too. */
export interface PushSettings {
  /** The current key pair (a file locally, Secrets Manager on AWS); the public half is the browsers' applicationServerKey. */
  readonly vapidKeys: () => Promise<VapidKeys>;
  /** ARBITER_VAPID_SUBJECT: who runs this server, `mailto:` or `https:`; push services contact it about abuse. */
  readonly subject: string;
}

export interface PushChannelDeps extends PushSettings {
  readonly destinations: DestinationPolicy;
  readonly now?: () => Date;
  /** Per request to the push service; default 10 s. */
  readonly timeoutMs?: number;
}

/** What the service worker (web/push-sw.ts) reads: keep the two in step. */
export interface PushPayload {
  readonly title: string;
  readonly body: string;
  /** The game's play page (or the games list for a summary of several games); the notification's click opens it. */
  readonly url: string;
  /** The notice's kind, or `summary` for several kinds at once. */
  readonly kind: NotificationKind | 'summary';
  readonly gameId: string | null;
  /** The notification's tag: a newer message about the same game replaces the older one on screen. */
  readonly tag: string;
}

/** How long a push service keeps an undelivered message, and how eagerly it wakes a phone for it (RFC 8030 §5.2, §5.3). */
const DELIVERY: Partial<Record<NotificationKind, { readonly ttl: number; readonly urgency: webpush.Urgency }>> = {
  'your-turn': { ttl: 24 * 3600, urgency: 'high' },
  'deadline-near': { ttl: 3600, urgency: 'high' },
  'game-ended': { ttl: 7 * 24 * 3600, urgency: 'normal' },
  'challenge-resolved': { ttl: 24 * 3600, urgency: 'normal' },
};
const DEFAULT_DELIVERY = { ttl: 24 * 3600, urgency: 'low' } as const;
const URGENCY_ORDER: readonly webpush.Urgency[] = ['very-low', 'low', 'normal', 'high'];

/** A payload travels in one record of at most 4096 bytes, encryption included (RFC 8291 §4): 800 characters of body stay below it even at 3 bytes each. */
const MAX_BODY = 800;
const MAX_TITLE = 120;

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The games list of the server the notices link to: where a summary about several games leads. */
const listUrl = (url: string): string => {
  try {
    return new URL('/play#games', url).toString();
  } catch {
    return url;
  }
};

/** One message for one notice, or one that sums up several (the notifier's digest): the newest last. */
export const pushPayload = (notices: readonly Notice[]): PushPayload => {
  const last = notices[notices.length - 1]!;
  const games = new Set(notices.map((n) => n.gameId));
  const gameId = games.size === 1 ? last.gameId : null;
  const tag = gameId ? `game-${gameId}` : `arbiter-${last.id}`;
  if (notices.length === 1) {
    return { title: cut(last.title, MAX_TITLE), body: cut(last.body, MAX_BODY), url: last.url, kind: last.kind, gameId, tag };
  }
  const kinds = new Set(notices.map((n) => n.kind));
  return {
    title: `${notices.length} updates: ${cut(last.title, MAX_TITLE)}`,
    body: cut(notices.map((n) => n.title).join(' · '), MAX_BODY),
    url: gameId ? last.url : listUrl(last.url),
    kind: kinds.size === 1 ? last.kind : 'summary',
    gameId,
    tag,
  };
};

/** TTL and urgency of a message: the most urgent of its notices, and the longest life. */
const deliveryOf = (notices: readonly Notice[]): { ttl: number; urgency: webpush.Urgency } => {
  const each = notices.map((n) => DELIVERY[n.kind] ?? DEFAULT_DELIVERY);
  return {
    ttl: Math.max(...each.map((d) => d.ttl)),
    urgency: each.map((d) => d.urgency).reduce((a, b) => (URGENCY_ORDER.indexOf(b) > URGENCY_ORDER.indexOf(a) ? b : a)),
  };
};

/** POSTs web-push's prepared request to the checked address; answers the status and the start of the body. */
const post = (
  details: webpush.RequestDetails,
  destination: CheckedDestination,
  timeoutMs: number,
): Promise<{ status: number; text: string }> =>
  new Promise((resolve, reject) => {
    const target = new URL(details.endpoint);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, {
      method: 'POST',
      headers: details.headers as Record<string, string | number>,
      lookup: pinnedLookup(destination.address, destination.family),
      signal: AbortSignal.timeout(timeoutMs),
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (text.length < 300) text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: text.slice(0, 300) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(details.body ?? undefined);
  });

interface SubscriptionRow {
  readonly id: string;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly applicationServerKey: string;
}

/** What became of one browser: told, gone for good (the row is deleted), or failed for now. */
type Attempt = 'sent' | 'gone' | { readonly error: string };

const attempt = async (
  row: SubscriptionRow,
  message: { readonly payload: string; readonly ttl: number; readonly urgency: webpush.Urgency; readonly topic?: string },
  keys: VapidKeys,
  deps: PushChannelDeps,
): Promise<Attempt> => {
  // A subscription is bound to the key it was made with: after the keys were replaced the push service would refuse (403).
  if (row.applicationServerKey !== keys.publicKey) return 'gone';
  const destination = await checkDestination(row.endpoint, deps.destinations);
  if (!destination.ok) return 'gone';
  // Loaded on the first send, not with the API: the API Lambda never sends and should not pay for it at its cold start.
  const { default: webpush } = await import('web-push');
  const details = webpush.generateRequestDetails(
    { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
    message.payload,
    {
      vapidDetails: { subject: deps.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: message.ttl,
      urgency: message.urgency,
      ...(message.topic ? { topic: message.topic } : {}),
      contentEncoding: 'aes128gcm',
    },
  );
  try {
    const { status, text } = await post(details, destination.value, deps.timeoutMs ?? 10_000);
    if (status >= 200 && status < 300) return 'sent';
    // RFC 8030 §7.3: 404 and 410 say the subscription is gone for good.
    if (status === 404 || status === 410) return 'gone';
    return { error: `push service answered ${status}${text ? `: ${text}` : ''}` };
  } catch (e) {
    return { error: `push service unreachable: ${(e as Error).message}` };
  }
};

/** Records each browser's outcome: a success's time, a failure's error, and deletes the ones that are gone. */
const record = async (db: Db, rows: readonly SubscriptionRow[], results: readonly Attempt[], at: Date): Promise<void> => {
  const ids = (want: (a: Attempt) => boolean) => rows.filter((_, i) => want(results[i]!)).map((r) => r.id);
  const gone = ids((a) => a === 'gone');
  const sent = ids((a) => a === 'sent');
  if (gone.length) await db.prisma.pushSubscription.deleteMany({ where: { id: { in: gone } } });
  if (sent.length) {
    await db.prisma.pushSubscription.updateMany({ where: { id: { in: sent } }, data: { lastSuccessAt: at, lastError: null } });
  }
  for (const [i, r] of results.entries()) {
    if (typeof r === 'object') {
      await db.prisma.pushSubscription.updateMany({
        where: { id: rows[i]!.id },
        data: { lastFailureAt: at, lastError: r.error.slice(0, 500) },
      });
    }
  }
};

/**
 * The channel: one message per call (several notices are summed up in one), sent to every browser of the
 * player. `ok` when at least one browser was told (retrying would tell it twice); permanent when every
 * subscription turned out gone (404/410, a replaced key, an endpoint no longer public) or there was none;
 * otherwise a failure to retry.
 */
export const pushChannel = (deps: PushChannelDeps): NotificationChannel => ({
  name: 'push',
  reachable: async (db, playerId) => (await db.prisma.pushSubscription.count({ where: { playerId } })) > 0,
  send: async (db, playerId, notices): Promise<ChannelOutcome> => {
    if (notices.length === 0) return { ok: true };
    const rows = await db.prisma.pushSubscription.findMany({
      where: { playerId },
      select: { id: true, endpoint: true, p256dh: true, auth: true, applicationServerKey: true },
      orderBy: { createdAt: 'asc' },
    });
    if (rows.length === 0) return { ok: false, permanent: true, error: 'the player has no push subscription' };
    let keys: VapidKeys;
    try {
      keys = await deps.vapidKeys();
    } catch (e) {
      return { ok: false, permanent: false, error: `the Web Push keys cannot be read: ${(e as Error).message}` };
    }
    const payload = pushPayload(notices);
    const { ttl, urgency } = deliveryOf(notices);
    // A push service keeps one waiting message per topic: a newer word about the same game replaces an undelivered older one.
    const topic = payload.gameId?.replace(/-/g, '');
    const message = { payload: JSON.stringify(payload), ttl, urgency, ...(topic && topic.length <= 32 ? { topic } : {}) };
    const results = await Promise.all(rows.map((row) => attempt(row, message, keys, deps)));
    await record(db, rows, results, (deps.now ?? (() => new Date()))());
    if (results.includes('sent')) return { ok: true };
    const errors = results.filter((r): r is { error: string } => typeof r === 'object').map((r) => r.error);
    if (errors.length === 0) return { ok: false, permanent: true, error: 'every push subscription of the player is gone' };
    return { ok: false, permanent: false, error: errors.join('; ') };
  },
});
