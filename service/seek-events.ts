import type { JsonObject } from '../store/json.js';
import { insertPublicOutbox, type ListedSeek } from '../store/lobby.js';
import type { Db, ServiceDeps, Tx } from './context.js';
import { openOutboxFeed, type MyEventStreamOptions, type OutboxFeed } from './my-events.js';

/**
 * The seek list as a stream (issue 33, docs/lobby.md#the-seek-stream; `GET /v1/seeks/events`, the `seeks`
 * subscription): `seek-opened` when a seek is made, `seek-closed` when it is accepted, withdrawn or expires.
 * Each is an outbox row written in the transaction that opens or closes the seek, so the stream never tells
 * of a seek that was rolled back, and it is read with the player stream's machinery (service/my-events.ts:
 * the settled id, resume after an outbox id). The rows have no addressee (the seek list is public) and the
 * webhook and notification fan-outs skip their kinds. A `seek-opened` carries what the list shows of a seek,
 * as it was when made: the author's handle, name and rating (none when they hide their page), never their id.
 */

export const SEEK_EVENT_KINDS = ['seek-opened', 'seek-closed'] as const;
export type SeekEventKind = (typeof SEEK_EVENT_KINDS)[number];

/** Why a seek closed. */
export type SeekCloseReason = 'accepted' | 'withdrawn' | 'expired';

export interface SeekEvent {
  /** The outbox row's id (a decimal string): the SSE id to resume after. */
  readonly id: string;
  readonly kind: SeekEventKind;
  /** When it was committed (ISO). */
  readonly at: string;
  readonly seekId: string;
  /** seek-opened: the seek as the list shows it; seek-closed: `reason`, and `gameId` once accepted. */
  readonly data: JsonObject;
}

/** What the seek list shows of a seek (graph/lobby.ts `Seek`, the REST seek), as a seek-opened's data. */
export const listedSeekData = (v: ListedSeek): JsonObject => ({
  id: v.seek.id,
  authorHandle: v.authorHandle,
  authorDisplayName: v.authorName,
  authorRating: v.authorRating
    ? {
        rating: Math.round(v.authorRating.rating),
        deviation: Math.round(v.authorRating.deviation),
        provisional: v.authorRating.provisional,
      }
    : null,
  preset: v.seek.ruleSetId,
  overrides: v.seek.ruleOverrides as JsonObject,
  lexicon: v.seek.lexiconName,
  pace: v.seek.pace,
  daysPerMove: v.seek.daysPerMove,
  clockMinutes: v.seek.clockMinutes,
  rated: v.seek.rated,
  category: v.seek.category,
  ratingMin: v.seek.ratingMin,
  ratingMax: v.seek.ratingMax,
  expiresAt: v.seek.expiresAt.toISOString(),
  createdAt: v.seek.createdAt.toISOString(),
});

/** Announces a new seek, in the transaction that writes it. */
export const announceSeekOpened = (tx: Tx, v: ListedSeek): Promise<void> =>
  insertPublicOutbox(tx, [{ kind: 'seek-opened', payload: { ...listedSeekData(v), seekId: v.seek.id } }]);

/** Announces closed seeks, in the transaction that closes them. */
export const announceSeeksClosed = (
  tx: Tx,
  closed: readonly { readonly seekId: string; readonly reason: SeekCloseReason; readonly gameId?: string }[],
): Promise<void> =>
  insertPublicOutbox(
    tx,
    closed.map((c) => ({
      kind: 'seek-closed' as const,
      payload: { seekId: c.seekId, reason: c.reason, ...(c.gameId ? { gameId: c.gameId } : {}) },
    })),
  );

interface Row extends Record<string, unknown> {
  id: bigint;
  kind: SeekEventKind;
  payload: JsonObject;
  created_at: Date;
}

/** The seek stream's events after outbox id `after`, up to `upTo`, in id order, at most `limit`. */
export const readSeekEvents = async (db: Db, after: bigint, upTo: bigint, limit = 200): Promise<SeekEvent[]> => {
  if (upTo <= after) return [];
  // The kinds are literals, so the partial index `outbox_seek_stream_idx` serves the read.
  const rows = await db.prisma.$queryRaw<Row[]>`
    SELECT "id", "kind", "payload", "created_at" FROM "outbox"
     WHERE "kind" IN ('seek-opened', 'seek-closed') AND "id" > ${after} AND "id" <= ${upTo} AND "player_id" IS NULL
     ORDER BY "id"
     LIMIT ${limit}`;
  return rows.map((r) => {
    const { seekId, ...data } = r.payload;
    return { id: BigInt(r.id).toString(), kind: r.kind, at: r.created_at.toISOString(), seekId: String(seekId), data };
  });
};

/**
 * Opens the seek stream (anyone may): every seek-opened and seek-closed after outbox id `after`, once and in
 * order, then each new one. `after` null: from now on — a client reads the list (`seeks`) first, then follows.
 */
export const openSeekEvents = (deps: ServiceDeps, options: MyEventStreamOptions = {}): Promise<OutboxFeed<SeekEvent>> =>
  openOutboxFeed(deps, readSeekEvents, options);

/**
 * Whose open-stream slots (service/streams.ts `takeStreamSlot`) a seek stream takes: the signed-in player's,
 * else its address's (an anonymous reader; in-process calls without one share a single key).
 */
export const seekStreamCaller = (playerId: string | null, address: string | null): string => playerId ?? `address:${address ?? 'unknown'}`;
