import type { Notification } from '../generated/prisma/client.js';
import type { Db } from './context.js';
import type { ChannelOutcome, Notice, NotificationChannel, NotificationKind } from './notification-channels.js';
import { notificationPreferences, type NotificationPreferences } from './notification-prefs.js';
import { isWatching } from './presence.js';

/**
 * The notifier's sender (docs/notifications.md#delivery): due notifications → the channels. A player's
 * due digest e-mails go as one message; push and immediate e-mail one by one. Just before sending it
 * looks again: a channel the player has since turned off, a turn that is no longer theirs, a game they
 * are looking at right now ("not while connected"), a channel that cannot reach them — each is skipped
 * with its reason instead of sent. A failed send is retried with back-off; a permanent one is dead.
 */

export interface SendDeps {
  readonly now: () => Date;
  /** The channels that carry notices (service/mail-channel.ts, service/push-channel.ts); a channel absent here reaches nobody. */
  readonly channels: readonly NotificationChannel[];
  /** Whether the player holds a live stream of the game (service/presence.ts); injectable for tests. */
  readonly watching?: (db: Db, playerId: string, gameId: string, now: Date) => Promise<boolean>;
  /** Players whose due notifications one call sends (default 50); the next call goes on. */
  readonly players?: number;
  /** Attempts before a notification is dead (default 6). */
  readonly maxAttempts?: number;
  /** Wait before attempt `attempt + 1` after `attempt` failed (default 1 min × 4^(attempt−1), at most 6 h). */
  readonly backoff?: (attempt: number) => number;
  /** How long a claimed notification is held before another sender may take it (default 5 min). */
  readonly leaseMs?: number;
  readonly log?: (line: string) => void;
}

export interface SendResult {
  readonly sent: number;
  readonly skipped: number;
  readonly retrying: number;
  readonly dead: number;
  /** Messages handed to channels (a digest of several notices is one). */
  readonly messages: number;
}

export const defaultBackoff = (attempt: number): number => Math.min(6 * 3600_000, 60_000 * 4 ** Math.max(0, attempt - 1));

/** Why a notification was not sent. */
export type SkipReason = 'preference' | 'stale' | 'watching' | 'unreachable';

type Counts = { sent: number; skipped: number; retrying: number; dead: number; messages: number };

/** Claims the due notifications of the players waiting longest, pushing their due time out by the lease. */
const claim = async (db: Db, now: Date, players: number, leaseMs: number): Promise<Notification[]> =>
  db.transaction(async (tx) => {
    const { Prisma } = await import('../generated/prisma/client.js');
    const who = await tx.$queryRaw<{ player_id: string }[]>`
      SELECT "player_id"::text AS "player_id" FROM "notifications"
       WHERE "status" = 'pending' AND "due_at" <= ${now}
       GROUP BY "player_id" ORDER BY min("due_at") LIMIT ${players}`;
    if (who.length === 0) return [];
    const ids = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id"::text AS "id" FROM "notifications"
       WHERE "status" = 'pending' AND "due_at" <= ${now} AND "player_id"::text IN (${Prisma.join(who.map((w) => w.player_id))})
       FOR UPDATE SKIP LOCKED`;
    if (ids.length === 0) return [];
    const where = { id: { in: ids.map((r) => r.id) } };
    await tx.notification.updateMany({ where, data: { dueAt: new Date(now.getTime() + leaseMs), updatedAt: now } });
    return tx.notification.findMany({ where, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  });

const noticeOf = (n: Notification): Notice => ({
  id: n.id,
  playerId: n.playerId,
  kind: n.kind as NotificationKind,
  gameId: n.gameId,
  tournamentId: n.tournamentId,
  version: n.version,
  title: n.title,
  body: n.body,
  url: n.url,
  at: n.createdAt,
});

const TURN_KINDS = new Set(['your-turn', 'deadline-near']);

/**
 * The notifications of one player that are no longer news: a your-turn or deadline-near of a game that
 * no longer waits for them, or one a later notice of the same game and kind supersedes.
 */
const staleOf = async (db: Db, playerId: string, rows: readonly Notification[]): Promise<Set<string>> => {
  const turnRows = rows.filter((r) => TURN_KINDS.has(r.kind) && r.gameId !== null);
  const stale = new Set<string>();
  if (turnRows.length === 0) return stale;
  const games = await db.prisma.game.findMany({
    where: { id: { in: [...new Set(turnRows.map((r) => r.gameId!))] } },
    select: { id: true, status: true, turnSeat: true, seats: { select: { seat: true, playerId: true } } },
  });
  for (const r of turnRows) {
    const g = games.find((x) => x.id === r.gameId);
    const toMove = g?.seats.find((s) => s.seat === g.turnSeat)?.playerId;
    const newer = turnRows.some(
      (o) => o !== r && o.channel === r.channel && o.gameId === r.gameId && o.kind === r.kind && (o.version ?? 0) > (r.version ?? 0),
    );
    if (!g || g.status === 'ended' || toMove !== playerId || newer) stale.add(r.id);
  }
  return stale;
};

/** Why each row should not go now (none: it goes). */
const screen = async (
  db: Db,
  deps: SendDeps,
  playerId: string,
  prefs: NotificationPreferences,
  rows: readonly Notification[],
  now: Date,
) => {
  const stale = await staleOf(db, playerId, rows);
  const watched = new Map<string, boolean>();
  const watching = deps.watching ?? isWatching;
  const reasons = new Map<string, SkipReason>();
  for (const r of rows) {
    if (!prefs.channels[r.kind as NotificationKind]?.includes(r.channel as 'push' | 'email')) reasons.set(r.id, 'preference');
    else if (stale.has(r.id)) reasons.set(r.id, 'stale');
    else if (prefs.notWhileConnected && r.gameId !== null) {
      if (!watched.has(r.gameId)) {
        // Presence that cannot be read is taken as "not looking": a notice too many beats a lost one.
        watched.set(r.gameId, await watching(db, playerId, r.gameId, now).catch(() => false));
      }
      if (watched.get(r.gameId)) reasons.set(r.id, 'watching');
    }
  }
  return reasons;
};

/** Messages to send: each push alone, each immediate e-mail alone, all digest e-mails as one. */
const messagesOf = (rows: readonly Notification[]): Notification[][] => {
  const digest = rows.filter((r) => r.channel === 'email' && r.digest);
  const single = rows.filter((r) => !(r.channel === 'email' && r.digest)).map((r) => [r]);
  return digest.length > 0 ? [...single, digest] : single;
};

const finish = async (db: Db, rows: readonly Notification[], data: Record<string, unknown>) => {
  if (rows.length > 0) await db.prisma.notification.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data });
};

/** Records a channel's answer for the rows of one message. */
const record = async (db: Db, deps: SendDeps, rows: readonly Notification[], outcome: ChannelOutcome, now: Date, counts: Counts) => {
  if (outcome.ok) {
    await finish(db, rows, { status: 'sent', sentAt: now, dueAt: now, attempts: { increment: 1 }, lastError: null, updatedAt: now });
    counts.sent += rows.length;
    return;
  }
  const maxAttempts = deps.maxAttempts ?? 6;
  const error = outcome.error.slice(0, 1000);
  for (const r of rows) {
    const attempt = r.attempts + 1;
    const dead = outcome.permanent || attempt >= maxAttempts;
    const dueAt = dead ? r.dueAt : new Date(now.getTime() + (deps.backoff ?? defaultBackoff)(attempt));
    await db.prisma.notification.update({
      where: { id: r.id },
      data: { status: dead ? 'dead' : 'pending', attempts: attempt, lastError: error, dueAt, updatedAt: now },
    });
    counts[dead ? 'dead' : 'retrying'] += 1;
  }
};

/** Sends (or skips) the claimed notifications of one player. */
const deliverPlayer = async (db: Db, deps: SendDeps, playerId: string, rows: readonly Notification[], counts: Counts) => {
  const now = deps.now();
  const prefs = await notificationPreferences(db, playerId);
  const reasons = await screen(db, deps, playerId, prefs, rows, now);
  for (const reason of new Set(reasons.values())) {
    const skipped = rows.filter((r) => reasons.get(r.id) === reason);
    await finish(db, skipped, { status: 'skipped', reason, dueAt: now, updatedAt: now });
    counts.skipped += skipped.length;
  }
  for (const message of messagesOf(rows.filter((r) => !reasons.has(r.id)))) {
    const channel = deps.channels.find((c) => c.name === message[0]!.channel);
    if (!channel || !(await channel.reachable(db, playerId))) {
      await finish(db, message, { status: 'skipped', reason: 'unreachable', dueAt: now, updatedAt: now });
      counts.skipped += message.length;
      continue;
    }
    let outcome: ChannelOutcome;
    try {
      outcome = await channel.send(db, playerId, message.map(noticeOf));
    } catch (e) {
      outcome = { ok: false, permanent: false, error: e instanceof Error ? e.message : String(e) };
    }
    counts.messages += 1;
    await record(db, deps, message, outcome, now, counts);
  }
};

/** Sends what is due now, player by player; a player whose sending throws is left to the lease and the next run. */
export const sendDueNotifications = async (db: Db, deps: SendDeps): Promise<SendResult> => {
  const counts: Counts = { sent: 0, skipped: 0, retrying: 0, dead: 0, messages: 0 };
  const rows = await claim(db, deps.now(), deps.players ?? 50, deps.leaseMs ?? 5 * 60_000);
  const byPlayer = new Map<string, Notification[]>();
  for (const r of rows) byPlayer.set(r.playerId, [...(byPlayer.get(r.playerId) ?? []), r]);
  for (const [playerId, mine] of byPlayer) {
    try {
      await deliverPlayer(db, deps, playerId, mine, counts);
    } catch (e) {
      (deps.log ?? console.warn)(JSON.stringify({ msg: 'notifications.player-failed', playerId, error: String(e) }));
    }
  }
  return counts;
};
