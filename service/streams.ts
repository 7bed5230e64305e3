import type { RuleError } from '../engine/errors.js';
import { apply } from '../engine/game/apply.js';
import { isGameEventType, type GameEvent, type Seat } from '../engine/game/events.js';
import type { GameResult, GameState, GameStatus, TurnRecord } from '../engine/game/state.js';
import { spectatorView, viewFor } from '../engine/game/view.js';
import { ok, type Result } from '../engine/result.js';
import type { StoredEvent } from '../store/games.js';
import type { Db, ServiceDeps } from './context.js';
import { fail, gameNotFound } from './game-errors.js';
import { engineEvents, engineOffset, fold } from './game-log.js';
import { isSeatView, numberedView, readCurrent, seatOf, type CurrentGame } from './game-reads.js';
import { onGameEvents } from './live-notifier.js';

/**
 * A game's events as a live stream (docs/live.md, issue 31): the log read forward from a version, each
 * event turned into what it changed in the viewer's view of the game. Nothing here decides what a
 * viewer may see: every field is taken from the engine's view after the event (`viewFor` for a seat,
 * `spectatorView` otherwise; engine/game/view.ts), the view the `game` query answers with, so a seat
 * sees its own rack (its draws) and never the other one or the bag, a spectator no rack, and another
 * player's exchanged tiles stay hidden in the score sheet exactly as there.
 *
 * The id of an event is the game's version after it (the log's sequence number), so a client that
 * resumes after the last id it saw gets every later event once, in order. New events are found by
 * re-reading the log past the last one sent, on each wake-up of service/live-notifier.ts and on a slow
 * timer besides: a lost notification delays an event, it never loses it.
 */

/** What one event changed in the viewer's view of the game. */
export interface StreamGameUpdate {
  readonly status: GameStatus;
  /** The seat to move. */
  readonly turn: Seat;
  readonly scores: readonly [number, number];
  readonly rackSizes: readonly [number, number];
  readonly bagCount: number;
  /** The viewer's rack after the event: seated viewers only (a spectator's update has no `rack`). */
  readonly rack?: readonly string[];
  /** The score-sheet lines this event added or changed, from line `historyFrom` (0-based) on: replace the sheet from there. */
  readonly historyFrom: number;
  readonly turns: readonly TurnRecord[];
  /** Set once the game is over (the bag's seed is revealed then). */
  readonly result: GameResult | null;
}

/** One event of a game's stream, as one viewer may see it. */
export interface StreamEvent {
  /** The game's version after this event: the SSE id to resume after. */
  readonly version: number;
  /** The event's kind as the log names it (`play`, `tiles-drawn`, `game-ended` … docs/games.md; `game-proposed` for an open game). */
  readonly kind: string;
  /** When it was committed (ISO). */
  readonly at: string;
  /** The viewer's seat when the event was read; null for a spectator. */
  readonly seat: Seat | null;
  /** Null while the game waits for its second player (no board yet). */
  readonly game: StreamGameUpdate | null;
}

export interface GameStream extends AsyncIterable<StreamEvent> {
  /** The game's version when the stream opened. */
  readonly openedAt: number;
  /** Ends the stream: the iteration ends, the subscription and timers go. Harmless twice. */
  close(): void;
}

export interface GameStreamOptions {
  /** The version after which to start (0: the whole log). Default 0. */
  readonly after?: number;
  /** The safety-net re-read when no notification comes (ms). Default {@link DEFAULT_POLL_MS}. */
  readonly pollMs?: number;
}

export const DEFAULT_POLL_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// Events from a read

/** `state` with one more event; a stored log the fold rejects is a broken invariant (as game-log.ts `fold`). */
const step = (state: GameState | null, e: GameEvent): GameState => {
  const r = apply(state, e);
  if (!r.ok) throw new Error(`stored game log does not replay: ${r.error.code} ${r.error.message}`);
  return r.value;
};

/** The first line of the score sheet that `next` has changed (the fold keeps unchanged lines as the same objects). */
const firstChanged = (prev: readonly TurnRecord[], next: readonly TurnRecord[]): number => {
  let i = 0;
  while (i < prev.length && i < next.length && prev[i] === next[i]) i++;
  return i;
};

/** What `next` (the state at game version `version`) shows `seat` (null: a spectator), against `prev`, the state before it. */
export const updateOf = (
  prev: GameState | null,
  next: GameState,
  seat: Seat | null,
  version: number,
  offset = version - next.eventCount,
): StreamGameUpdate => {
  // Lines numbered by game version, as every view leaving the service is (game-reads.ts numberedView).
  const view = numberedView(seat === null ? spectatorView(next) : viewFor(next, seat), offset);
  const from = firstChanged(prev?.history ?? [], next.history);
  return {
    status: view.status,
    turn: view.turn,
    scores: view.scores,
    rackSizes: view.rackSizes,
    bagCount: view.bagCount,
    ...(isSeatView(view) ? { rack: view.rack } : {}),
    historyFrom: from,
    turns: view.history.slice(from),
    result: view.result,
  };
};

/**
 * The events of `stored` after version `after` as `seat` sees them, with the state at `after` (`state`)
 * and the state after the last one. Service events (`game-proposed`) have no update.
 */
export const streamEventsOf = (
  stored: readonly StoredEvent[],
  after: number,
  state: GameState | null,
  seat: Seat | null,
): { readonly events: StreamEvent[]; readonly state: GameState | null } => {
  const events: StreamEvent[] = [];
  let s = state;
  for (const e of stored) {
    if (e.seq <= after) continue;
    let game: StreamGameUpdate | null = null;
    if (isGameEventType(e.type)) {
      const next = step(s, e.payload as unknown as GameEvent);
      game = updateOf(s, next, seat, e.seq, engineOffset(stored, e.seq - next.eventCount));
      s = next;
    }
    events.push({ version: e.seq, kind: e.type, at: e.createdAt.toISOString(), seat, game });
  }
  return { events, state: s };
};

/**
 * {@link streamEventsOf} made once per read for all the streams of a game at the same version with the
 * same seat: the streams woken together share one read (below), and a thousand spectators of one game at the
 * same version would otherwise fold and view each event a thousand times over (bench/streams.ts). The
 * states at one version of one log are the same, whichever stream folded them.
 */
const made = new WeakMap<CurrentGame, Map<string, ReturnType<typeof streamEventsOf>>>();
const sharedEventsOf = (read: CurrentGame, after: number, state: GameState | null, seat: Seat | null) => {
  let byViewer = made.get(read);
  if (!byViewer) made.set(read, (byViewer = new Map()));
  const key = `${after}:${seat ?? 'spectator'}`;
  let batch = byViewer.get(key);
  if (!batch) byViewer.set(key, (batch = streamEventsOf(read.stored, after, state, seat)));
  return batch;
};

// ---------------------------------------------------------------------------------------------
// Reads shared by the streams of one game

/** Orders wake-ups and reads: a read started after a wake-up sees every commit that caused it (the notification follows the commit). */
let tick = 0;
/** The next tick, for the other streams that share reads the same way (service/my-events.ts). */
export const nextTick = (): number => ++tick;
interface SharedRead {
  readonly started: number;
  readonly read: Promise<CurrentGame | null>;
}
const inflight = new WeakMap<Db, Map<string, SharedRead>>();

/**
 * The game now (service/game-reads.ts `readCurrent`). Streams woken together share one read: a stream
 * joins a read in flight only if it started after the stream's wake-up at tick `since`.
 */
const readShared = (db: Db, gameId: string, since: number): Promise<CurrentGame | null> => {
  let reads = inflight.get(db);
  if (!reads) inflight.set(db, (reads = new Map()));
  const key = gameId.toLowerCase();
  const running = reads.get(key);
  if (running && running.started > since) return running.read;
  const entry: SharedRead = {
    started: ++tick,
    read: readCurrent(db, [gameId])
      .then(([r]) => r ?? null)
      .finally(() => {
        if (reads.get(key) === entry) reads.delete(key);
      }),
  };
  reads.set(key, entry);
  return entry.read;
};

/**
 * Lets the streams that one read woke go on {@link FAN_OUT_BATCH} at a time, one batch per turn of the event
 * loop: a thousand subscribers of a game are a thousand frames written in one go otherwise, and the requests
 * that arrive meanwhile (the next turn among them) would wait for all of them (bench/streams.ts).
 */
const FAN_OUT_BATCH = 64;
const waiting: (() => void)[] = [];
const letThrough = (): void => {
  for (const go of waiting.splice(0, FAN_OUT_BATCH)) go();
  if (waiting.length) setImmediate(letThrough);
};
const turnstile = (): Promise<void> =>
  new Promise<void>((go) => {
    if (waiting.push(go) === 1) setImmediate(letThrough);
  });

// ---------------------------------------------------------------------------------------------
// The stream

/** A stream's wake-ups: notifications (`wake`), the poll timer, and `close`, which ends any wait. */
export const waker = (pollMs: number) => {
  const w = {
    woken: false,
    /** The tick of the last wake-up: a shared read started after it sees the commit that caused it. */
    at: ++tick,
    closed: false,
    release: null as (() => void) | null,
    wake: (): void => {
      w.woken = true;
      w.at = ++tick;
      // Once the callbacks of this I/O are done: the request that committed answers before its streams fan out
      // (PGlite hears its own NOTIFY inside the commit statement; a thousand streams are tens of ms of writes).
      if (w.release) setImmediate(() => w.release?.());
    },
    close: (): void => {
      w.closed = true;
      w.release?.();
    },
    /** Waits for a wake-up, the poll timer or close, whichever comes first. */
    idle: (): Promise<void> =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
        function done(): void {
          clearTimeout(timer);
          w.release = null;
          resolve();
        }
        w.release = done;
        if (w.woken || w.closed) done();
      }),
  };
  return w;
};

/**
 * Opens the stream of game `gameId` for `viewerId` (who may read games: a seated player sees their seat's
 * events, anyone else a spectator's). GAME_NOT_FOUND for no such game; BAD_INPUT (field `after`) for an
 * `after` that is not a version of the log (negative, not an integer, or beyond the game's version now:
 * a client can only have seen committed versions, so it is resuming the wrong game or database).
 */
export async function openGameStream(
  deps: ServiceDeps,
  viewerId: string | null,
  gameId: string,
  options: GameStreamOptions = {},
): Promise<Result<GameStream, RuleError>> {
  const after = options.after ?? 0;
  if (!Number.isSafeInteger(after) || after < 0)
    return fail('BAD_INPUT', `after must be a version of the game (an integer, 0 or more), not ${after}.`, { field: 'after' });
  const w = waker(options.pollMs ?? DEFAULT_POLL_MS);
  // Listening before the first read: a commit between the two still wakes the stream.
  const unsubscribe = await onGameEvents(deps.db, gameId, w.wake);
  const first = await readShared(deps.db, gameId, w.at).catch((e: unknown) => {
    unsubscribe();
    throw e;
  });
  if (!first) {
    unsubscribe();
    return gameNotFound(gameId);
  }
  if (after > first.game.version) {
    unsubscribe();
    return fail(
      'BAD_INPUT',
      `after is ${after}, beyond the game's log (version ${first.game.version}): resume from a version you were sent.`,
      {
        field: 'after',
        version: first.game.version,
      },
    );
  }
  const known = engineEvents(first.stored.filter((e) => e.seq <= after));
  const state = after === first.game.version ? first.state : known.length ? fold(known) : null;
  const iterator = follow(deps.db, gameId, viewerId, w, { first, state }, after, unsubscribe);
  return ok({
    openedAt: first.game.version,
    close: () => {
      if (w.closed) return;
      w.close();
      // A generator that never started runs no finally: end the subscription here as well (unsubscribing twice is harmless).
      unsubscribe();
    },
    [Symbol.asyncIterator]: () => iterator,
  });
}

/** The events after `after`, read on each wake-up from `start.first` on, until the stream is closed. */
async function* follow(
  db: Db,
  gameId: string,
  viewerId: string | null,
  w: ReturnType<typeof waker>,
  start: { first: CurrentGame | null; state: GameState | null },
  after: number,
  unsubscribe: () => void,
): AsyncGenerator<StreamEvent> {
  // Taken out of their box: parameters would hold the opening read (the whole log) and its state for the stream's
  // life, where the streams of a game otherwise share the latest read's (a kilobyte or more per idle subscriber).
  let read: CurrentGame | null = start.first;
  let state = start.state;
  start.first = start.state = null;
  let cursor = after;
  try {
    while (!w.closed) {
      if (!read) {
        // Cleared only when a read starts: a wake-up during the opening read (or this one) reads again.
        w.woken = false;
        read = await readShared(db, gameId, w.at);
        await turnstile();
      }
      if (!read) return;
      // The seat is read again each time: a player who joins an open game sees their rack from then on.
      const batch = sharedEventsOf(read, cursor, state, seatOf(read.seats, viewerId));
      read = null;
      for (const e of batch.events) {
        if (w.closed) return;
        cursor = e.version;
        yield e;
      }
      state = batch.state;
      if (!w.woken && !w.closed) await w.idle();
    }
  } finally {
    unsubscribe();
  }
}

// ---------------------------------------------------------------------------------------------
// Open streams per caller

export const DEFAULT_STREAMS_PER_CALLER = 10;

const open = new Map<string, number>();

/**
 * Takes one of the caller's open-stream slots in this process (`limit` at most); null when they are all
 * taken. The function it gives frees the slot (harmless twice).
 */
export const takeStreamSlot = (callerId: string, limit: number): (() => void) | null => {
  const n = open.get(callerId) ?? 0;
  if (n >= limit) return null;
  open.set(callerId, n + 1);
  let freed = false;
  return () => {
    if (freed) return;
    freed = true;
    const left = (open.get(callerId) ?? 1) - 1;
    if (left <= 0) open.delete(callerId);
    else open.set(callerId, left);
  };
};
