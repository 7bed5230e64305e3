import type { Db } from './context.js';
import type { NotificationChannelName, NotificationKind } from './notification-channels.js';
import { noticeDeadlines, type DeadlineNoticeDeps } from './notification-deadlines.js';
import { fanOutNotifications, type NotifyFanOutDeps, type NotifyFanOutResult } from './notification-fan-out.js';
import { sendDueNotifications, type SendDeps, type SendResult } from './notification-send.js';

/**
 * The notifier's run (docs/notifications.md#delivery): outbox → notifications, near deadlines →
 * notifications, then send what is due. The same run serves the in-process worker (npm start,
 * functions/app.ts) and the scheduled Lambda (functions/notifications.ts). Each step claims its rows, so
 * two runs at once split the work; a crash leaves the rest to the next run.
 */

export type NotifierDeps = NotifyFanOutDeps & SendDeps & Omit<DeadlineNoticeDeps, 'limit'>;

export interface NotifierResult extends NotifyFanOutResult, SendResult {
  /** Games whose player to move was warned of a near deadline in this run (new or not). */
  readonly deadlineGames: number;
}

export const runNotifier = async (db: Db, deps: NotifierDeps): Promise<NotifierResult> => {
  const fanOut = await fanOutNotifications(db, deps);
  const deadlines = await noticeDeadlines(db, deps);
  const sent = await sendDueNotifications(db, deps);
  return {
    ...fanOut,
    pending: fanOut.pending + deadlines.pending,
    skipped: fanOut.skipped + deadlines.skipped + sent.skipped,
    deadlineGames: deadlines.games,
    sent: sent.sent,
    retrying: sent.retrying,
    dead: sent.dead,
    messages: sent.messages,
  };
};

export interface NotificationWorker {
  /** One run now (after the one in progress, if any). */
  readonly run: () => Promise<NotifierResult>;
  /** Stops the timer; a run in progress finishes. */
  readonly stop: () => void;
  /** Resolves once no run is in progress. */
  readonly idle: () => Promise<void>;
}

/** The in-process notifier: a run every `sweepMs` (0: only when `run` is called), never two at once. */
export const createNotificationWorker = (db: Db, deps: NotifierDeps, sweepMs: number): NotificationWorker => {
  let running: Promise<NotifierResult> | null = null;
  const log = deps.log ?? ((line: string) => console.warn(line));
  const run = async (): Promise<NotifierResult> => {
    while (running) await running.catch(() => undefined);
    const current = runNotifier(db, deps);
    running = current;
    try {
      return await current;
    } finally {
      running = null;
    }
  };
  const timer =
    sweepMs > 0
      ? setInterval(() => {
          if (running) return;
          run().catch((e: unknown) => log(JSON.stringify({ msg: 'notifications.run-failed', error: String(e) })));
        }, sweepMs)
      : null;
  timer?.unref();
  const idle = async (): Promise<void> => {
    while (running) await running.catch(() => undefined);
  };
  return { run, stop: () => timer && clearInterval(timer), idle };
};

/** One notification as its player sees it in their list. */
export interface NotificationView {
  readonly id: string;
  readonly kind: NotificationKind;
  readonly channel: Exclude<NotificationChannelName, 'webhook'>;
  readonly gameId: string | null;
  readonly tournamentId: string | null;
  readonly title: string;
  readonly body: string;
  readonly url: string;
  /** pending | sent | skipped | dead */
  readonly status: string;
  /** Why skipped: preference | stale | watching | unreachable. */
  readonly reason: string | null;
  readonly digest: boolean;
  readonly dueAt: Date;
  readonly sentAt: Date | null;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: Date;
}

export const MAX_NOTIFICATIONS_PAGE = 100;

/** The player's latest notifications, newest first (at most {@link MAX_NOTIFICATIONS_PAGE}). */
export const recentNotifications = async (db: Db, playerId: string, first: number): Promise<NotificationView[]> => {
  const rows = await db.prisma.notification.findMany({
    where: { playerId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: Math.max(1, Math.min(MAX_NOTIFICATIONS_PAGE, Math.floor(first))),
  });
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as NotificationKind,
    channel: r.channel as 'push' | 'email',
    gameId: r.gameId,
    tournamentId: r.tournamentId,
    title: r.title,
    body: r.body,
    url: r.url,
    status: r.status,
    reason: r.reason,
    digest: r.digest,
    dueAt: r.dueAt,
    sentAt: r.sentAt,
    attempts: r.attempts,
    lastError: r.lastError,
    createdAt: r.createdAt,
  }));
};
