import type { Db } from './context.js';
import { isUuid } from './ids.js';

/**
 * Who is looking at a game right now: a player holding a live stream of it (docs/live.md). The notifier
 * asks before it pushes or mails about a game ("not while I am connected"). Recorded in the database, not
 * in process memory, so the answer is the same from every worker and from the notifier's Lambda.
 *
 * A row of `stream_presence` per open stream of a seated player: inserted when a game stream opens
 * (REST or GraphQL), `seen_at` refreshed at each heartbeat, deleted at close. A process that dies
 * deletes nothing: its rows stop being refreshed and go stale after two heartbeats, so a crash never
 * leaves a player "watching" for long.
 */

/** The heartbeat the streams use by default (rest/events.ts LIVE_DEFAULTS.heartbeatMs). */
export const PRESENCE_HEARTBEAT_MS = 20_000;

/** One stream's row: refresh it at each heartbeat, end it at close (both harmless after the end). */
export interface Presence {
  refresh(now: Date): Promise<void>;
  end(): Promise<void>;
}

/** How long a stale row is kept before the player's next stream removes it (ms). */
const STALE_ROWS_KEPT_MS = 60 * 60 * 1000;

const NOBODY: Presence = { refresh: () => Promise.resolve(), end: () => Promise.resolve() };

/**
 * Records that `playerId` opened a stream of game `gameId` at `now` — only when they hold a seat in it
 * (a spectator's stream is nobody's presence).
 */
export const enterGame = async (db: Db, playerId: string, gameId: string, now: Date): Promise<Presence> => {
  if (!isUuid(playerId) || !isUuid(gameId)) return NOBODY;
  const seated = await db.prisma.seat.count({ where: { gameId, playerId } });
  if (seated === 0) return NOBODY;
  // A crashed process's rows of this player count for nothing once stale; this keeps them from piling up.
  await db.prisma.streamPresence.deleteMany({ where: { playerId, seenAt: { lt: new Date(now.getTime() - STALE_ROWS_KEPT_MS) } } });
  const row = await db.prisma.streamPresence.create({ data: { playerId, gameId, openedAt: now, seenAt: now }, select: { id: true } });
  let ended = false;
  return {
    refresh: async (at) => {
      if (ended) return;
      await db.prisma.streamPresence.updateMany({ where: { id: row.id }, data: { seenAt: at } });
    },
    end: async () => {
      if (ended) return;
      ended = true;
      await db.prisma.streamPresence.deleteMany({ where: { id: row.id } });
    },
  };
};

/**
 * Whether `playerId` holds a live stream of game `gameId` as of `now`: a row whose last heartbeat is at
 * most two heartbeats old (`heartbeatMs`, the streams' heartbeat; the default is theirs).
 */
export const isWatching = async (
  db: Db,
  playerId: string,
  gameId: string,
  now: Date,
  heartbeatMs: number = PRESENCE_HEARTBEAT_MS,
): Promise<boolean> => {
  if (!isUuid(playerId) || !isUuid(gameId)) return false;
  const since = new Date(now.getTime() - 2 * heartbeatMs);
  const n = await db.prisma.streamPresence.count({ where: { playerId, gameId, seenAt: { gte: since } } });
  return n > 0;
};

/** Keeps `presence` fresh every `heartbeatMs` until the function it gives is called (which ends it). */
export const keepPresence = (presence: Presence, heartbeatMs: number, now: () => Date): (() => void) => {
  if (presence === NOBODY) return () => undefined;
  const timer = setInterval(
    () => {
      presence
        .refresh(now())
        .catch((e: unknown) => console.warn(JSON.stringify({ msg: 'live.presence-refresh-failed', error: String(e) })));
    },
    Math.max(10, heartbeatMs),
  );
  return () => {
    clearInterval(timer);
    presence.end().catch((e: unknown) => console.warn(JSON.stringify({ msg: 'live.presence-end-failed', error: String(e) })));
  };
};
