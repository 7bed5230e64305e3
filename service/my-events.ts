import type { RuleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import type { JsonObject } from '../store/json.js';
import type { Db, ServiceDeps } from './context.js';
import { fail } from './game-errors.js';
import { isUuid } from './ids.js';
import { NOTIFICATION_KINDS, type NotificationKind } from './notification-channels.js';
import { onOutbox } from './outbox-notifier.js';
import { DEFAULT_POLL_MS, nextTick, waker } from './streams.js';

/**
 * A player's own event stream (`myEvents`, `GET /v1/me/events`; docs/live.md, issue 31): the outbox rows
 * that concern them — your move, a game of theirs started or ended, a challenge decided, a dispute filed
 * or ruled, a deadline near, their tournaments' events. The outbox is the source because each row is
 * written in the transaction of the event it announces, so a stream never tells of an event that was
 * rolled back. Who hears a row is decided as the webhook fan-out decides it (service/webhook-fan-out.ts):
 * a game's seated players, `your-turn` (and any row naming a `playerId`) only that player, a tournament's
 * directors and the players of the row's division (narrowed by `entrants`), a lobby row (a challenge
 * received or answered, a seek accepted, a pairing found) its one addressee. Payloads are the webhook
 * payloads (service/webhook-events.ts): scores, seats, words of a decided challenge — never a rack or
 * the bag.
 *
 * The event id is the outbox row's id. Ids are taken from a sequence when a row is inserted, not when it
 * commits, so two transactions can commit out of order: a reader that saw 11 could later see 10. Streams
 * therefore only read up to the outbox's *settled* id ({@link settledId}): the highest id below which
 * every id is either visible or a gap older than the settle time (a rolled-back insert). That keeps the
 * order of ids the order of delivery, so resuming after an id is exact.
 *
 * The following itself ({@link openOutboxFeed}) takes the read as a parameter: the public seek stream
 * (service/seek-events.ts) is the same machinery over other rows.
 */

export interface MyEvent {
  /** The outbox row's id (a decimal string: a bigint): the SSE id to resume after. */
  readonly id: string;
  readonly kind: NotificationKind;
  /** When the event was committed (ISO). */
  readonly at: string;
  readonly gameId: string | null;
  readonly tournamentId: string | null;
  /** The game's (or tournament's) version after the event. */
  readonly version: number | null;
  /** The rest of the payload (service/webhook-events.ts): `seat`, `deadlineAt`, `scores`, `words` … */
  readonly data: JsonObject;
}

export interface MyEventStream extends AsyncIterable<MyEvent> {
  close(): void;
}

export interface MyEventStreamOptions {
  /** The outbox id after which to start; null: only events from now on. */
  readonly after?: bigint | null;
  /** The safety-net re-read when no notification comes (ms). Default 30 000. */
  readonly pollMs?: number;
  /** How long an unfilled id holds back the ids after it (ms). Default {@link DEFAULT_SETTLE_MS}. */
  readonly settleMs?: number;
}

/**
 * Longer than any transaction that writes outbox rows lives (a turn is one statement): an id not visible
 * after this long is taken for a rolled-back insert and skipped.
 */
export const DEFAULT_SETTLE_MS = 10_000;

const BATCH = 200;
/** At a process's first look, ids this far below the newest are taken as settled (no transaction holds one that long). */
const START_MARGIN = 1000n;
const MAX_ID = 9_223_372_036_854_775_807n;
const ID = /^(0|[1-9]\d{0,18})$/;

/** The outbox id a client resumes after (`Last-Event-ID`, `after`), or a BAD_INPUT naming `field`. */
export const parseEventId = (text: string, field: string): Result<bigint, RuleError> => {
  const t = text.trim();
  if (ID.test(t) && BigInt(t) <= MAX_ID) return ok(BigInt(t));
  return fail('BAD_INPUT', `${field} must be an event id this stream sent (a whole number, 0 or more), not "${text}".`, { field });
};

// ---------------------------------------------------------------------------------------------
// The settled id, shared by the streams of one process

interface Tail {
  settled: bigint | null;
  /** Unfilled ids seen (the first of each run) and when first seen (ms). */
  readonly gaps: Map<bigint, number>;
  running: { readonly started: number; readonly read: Promise<bigint> } | null;
}

const tails = new WeakMap<Db, Tail>();

const advance = async (db: Db, tail: Tail, settleMs: number): Promise<bigint> => {
  if (tail.settled === null) {
    const [top] = await db.prisma.$queryRaw<{ top: bigint }[]>`SELECT COALESCE(MAX("id"), 0)::bigint AS "top" FROM "outbox"`;
    const newest = BigInt(top?.top ?? 0n);
    tail.settled = newest > START_MARGIN ? newest - START_MARGIN : 0n;
  }
  const from = tail.settled;
  const rows = await db.prisma.$queryRaw<{ id: bigint }[]>`
    SELECT "id" FROM "outbox" WHERE "id" > ${from} ORDER BY "id" LIMIT 5000`;
  const now = Date.now();
  let high = from;
  for (const { id } of rows) {
    const n = BigInt(id);
    if (n > high + 1n) {
      const first = tail.gaps.get(high + 1n) ?? now;
      tail.gaps.set(high + 1n, first);
      if (now - first < settleMs) break;
    }
    high = n;
  }
  for (const g of tail.gaps.keys()) if (g <= high) tail.gaps.delete(g);
  if (high > (tail.settled ?? 0n)) tail.settled = high;
  return tail.settled;
};

/**
 * The outbox's settled id: every id up to it is visible now or never will be. Streams woken together
 * share one read: a stream joins a read in flight only if it started after the stream's wake-up `since`.
 */
export const settledId = (db: Db, since: number, settleMs = DEFAULT_SETTLE_MS): Promise<bigint> => {
  let tail = tails.get(db);
  if (!tail) tails.set(db, (tail = { settled: null, gaps: new Map(), running: null }));
  const t = tail;
  if (t.running && t.running.started > since) return t.running.read;
  const entry = {
    started: nextTick(),
    read: advance(db, t, settleMs).finally(() => {
      if (t.running === entry) t.running = null;
    }),
  };
  t.running = entry;
  return entry.read;
};

/** Whether an unfilled id holds the settled id back (then a stream looks again after the settle time). */
const heldBack = (db: Db): boolean => (tails.get(db)?.gaps.size ?? 0) > 0;

// ---------------------------------------------------------------------------------------------
// One player's rows

interface Row extends Record<string, unknown> {
  id: bigint;
  kind: string;
  payload: JsonObject;
  created_at: Date;
  game_id: string | null;
  tournament_id: string | null;
  player_id: string | null;
}

/**
 * The outbox rows after `after` (up to `upTo`) that `playerId` hears, in id order, at most `limit`: the
 * recipients of service/webhook-fan-out.ts `recipientsOf`, in one query.
 */
export const readMyEvents = async (db: Db, playerId: string, after: bigint, upTo: bigint, limit = BATCH): Promise<MyEvent[]> => {
  if (!isUuid(playerId) || upTo <= after) return [];
  const { Prisma } = await import('../generated/prisma/client.js');
  const rows = await db.prisma.$queryRaw<Row[]>`
    SELECT o."id", o."kind", o."payload", o."created_at", o."game_id"::text AS "game_id", o."tournament_id"::text AS "tournament_id",
           o."player_id"::text AS "player_id"
      FROM "outbox" o
     WHERE o."id" > ${after} AND o."id" <= ${upTo} AND o."kind" IN (${Prisma.join([...NOTIFICATION_KINDS])})
       AND CASE WHEN o."player_id" IS NOT NULL THEN o."player_id" = ${playerId}::uuid
                WHEN o."tournament_id" IS NOT NULL THEN
             EXISTS (SELECT 1 FROM "tournament_players" tp
                      WHERE tp."tournament_id" = o."tournament_id" AND tp."player_id" = ${playerId}::uuid
                        AND tp."division" = o."payload"->>'division'
                        AND (o."payload"->'entrants' IS NULL OR o."payload"->'entrants' @> to_jsonb(tp."entrant")))
             OR EXISTS (SELECT 1 FROM "tournaments" t JOIN "organization_directors" d ON d."organization_id" = t."organization_id"
                         WHERE t."id" = o."tournament_id" AND d."player_id" = ${playerId}::uuid)
           ELSE
             EXISTS (SELECT 1 FROM "seats" s
                      WHERE s."game_id" = o."game_id" AND s."player_id" = ${playerId}::uuid
                        AND CASE WHEN o."payload"->>'playerId' IS NOT NULL THEN o."payload"->>'playerId' = ${playerId}
                                 WHEN o."kind" = 'your-turn' THEN o."payload"->>'seat' = s."seat"::text
                                 ELSE TRUE END)
           END
     ORDER BY o."id"
     LIMIT ${limit}`;
  return rows.map(toMyEvent);
};

const toMyEvent = (r: Row): MyEvent => {
  const { kind: _kind, gameId, tournamentId: _tournament, version, ...data } = r.payload;
  return {
    id: BigInt(r.id).toString(),
    kind: r.kind as NotificationKind,
    at: r.created_at.toISOString(),
    // A lobby row names the game an accepted offer started in its payload (it belongs to no game's log).
    gameId: r.game_id ?? (r.player_id !== null && typeof gameId === 'string' ? gameId : null),
    tournamentId: r.tournament_id,
    version: typeof version === 'number' ? version : null,
    data,
  };
};

// ---------------------------------------------------------------------------------------------
// The stream

/**
 * Opens `playerId`'s stream: every event after outbox id `after` that concerns them, once and in id
 * order, then each new one. An `after` beyond the newest id is accepted: nothing comes until events with
 * higher ids do (ids are per database, so the server cannot tell an id of the future from one of another
 * database). `after` null: from now on.
 */
export const openMyEvents = (deps: ServiceDeps, playerId: string, options: MyEventStreamOptions = {}): Promise<MyEventStream> =>
  openOutboxFeed(deps, (db, after, upTo, limit) => readMyEvents(db, playerId, after, upTo, limit), options);

/** A stream of outbox rows of one reader's choosing: its events, each with the row's id, and close. */
export interface OutboxFeed<E extends { readonly id: string }> extends AsyncIterable<E> {
  close(): void;
}

/** Reads the events after `after` up to `upTo` (outbox ids), in id order, at most `limit`. */
export type OutboxRead<E> = (db: Db, after: bigint, upTo: bigint, limit: number) => Promise<E[]>;

/**
 * Follows the outbox with `read` (the player's own rows here, the public seek rows in service/seek-events.ts):
 * every event after `after`, up to the settled id, once and in id order, then each new one as commits wake it.
 */
export async function openOutboxFeed<E extends { readonly id: string }>(
  deps: ServiceDeps,
  read: OutboxRead<E>,
  options: MyEventStreamOptions = {},
): Promise<OutboxFeed<E>> {
  const settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  const w = waker(options.pollMs ?? DEFAULT_POLL_MS);
  // Listening before the first read: a commit between the two still wakes the stream.
  const unsubscribe = await onOutbox(deps.db, w.wake);
  let cursor: bigint;
  try {
    cursor = options.after ?? (await settledId(deps.db, w.at, settleMs));
  } catch (e) {
    unsubscribe();
    throw e;
  }
  const iterator = followOutbox(deps.db, read, cursor, w, settleMs, unsubscribe);
  return {
    close: () => {
      if (w.closed) return;
      w.close();
      unsubscribe();
    },
    [Symbol.asyncIterator]: () => iterator,
  };
}

async function* followOutbox<E extends { readonly id: string }>(
  db: Db,
  read: OutboxRead<E>,
  after: bigint,
  w: ReturnType<typeof waker>,
  settleMs: number,
  unsubscribe: () => void,
): AsyncGenerator<E> {
  let cursor = after;
  try {
    while (!w.closed) {
      w.woken = false;
      const upTo = await settledId(db, w.at, settleMs);
      const batch = upTo > cursor ? await read(db, cursor, upTo, BATCH) : [];
      for (const e of batch) {
        if (w.closed) return;
        cursor = BigInt(e.id);
        yield e;
      }
      // Nothing more for this reader up to the settled id: the next read starts there.
      if (batch.length < BATCH && upTo > cursor) cursor = upTo;
      if (batch.length === BATCH || w.woken || w.closed) continue;
      if (heldBack(db)) {
        // An unfilled id holds the settled id back: look again when it may be taken for a rollback.
        const retry = setTimeout(w.wake, Math.max(50, Math.floor(settleMs / 4)));
        await w.idle();
        clearTimeout(retry);
      } else await w.idle();
    }
  } finally {
    unsubscribe();
  }
}
