import { authHeaders } from './api.js';
import { readSse, type SseMessage } from './sse.js';

/**
 * Following the event streams of docs/live.md from the play page: a game's, GET /v1/games/{id}/events, and
 * the player's own, GET /v1/me/events (for the games list).
 * `EventSource` cannot send the Authorization header the stream needs, so this reads Server-Sent Events
 * from `fetch` itself (web/sse.ts: a few lines of parsing, where a package would add more to ship and audit).
 * It resumes after the last id it knows (Last-Event-ID), so a dropped connection neither misses
 * nor repeats an event, and it reconnects with a growing, jittered delay.
 */

/** The first wait before reconnecting, and the longest (ms). */
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 30_000;
/** No byte for this long (the server sends a heartbeat after 20 s of quiet) means a dead connection nobody closed. */
const STALL_MS = 60_000;

/** Statuses that retrying cannot mend: 401, 403, 404, and 501 (a deployment without streams). */
const FINAL = new Set([401, 403, 404, 501]);

export interface Following {
  stop(): void;
}

interface StreamOptions {
  /** The id to resume after (sent as Last-Event-ID), or null: from now on. Asked at each connection. */
  readonly after: () => string | null;
  readonly onMessage: (m: SseMessage) => void;
  /** Each time the stream opens (the first time and after each reconnection). */
  readonly onOpen?: () => void;
  /** The server refused for good (no credential, no such game, streams not served here): no more reconnecting. */
  readonly onRefused: (status: number, detail: string) => void;
}

/** Reads the stream at `url` until `stop()`, reconnecting after every drop. */
const follow = (url: string, o: StreamOptions): Following => {
  let stopped = false;
  let failures = 0;
  let controller: AbortController | null = null;
  let retryTimer: number | undefined;

  const connect = async (): Promise<void> => {
    if (stopped) return;
    controller = new AbortController();
    const aborter = controller;
    let watchdog = window.setTimeout(() => aborter.abort(), STALL_MS);
    const alive = (): void => {
      window.clearTimeout(watchdog);
      watchdog = window.setTimeout(() => aborter.abort(), STALL_MS);
    };
    let retryAfter = 0;
    try {
      const after = o.after();
      const res = await fetch(url, {
        headers: { ...authHeaders(), accept: 'text/event-stream', ...(after === null ? {} : { 'last-event-id': after }) },
        signal: aborter.signal,
        cache: 'no-store',
      });
      if (stopped) return;
      if (FINAL.has(res.status)) {
        const problem = (await res.json().catch(() => ({}))) as { detail?: string };
        stopped = true;
        return o.onRefused(res.status, problem.detail ?? res.statusText);
      }
      retryAfter = Number(res.headers.get('retry-after') ?? 0) * 1000;
      if (res.ok && res.body) {
        failures = 0;
        o.onOpen?.();
        const message = (m: SseMessage): void => {
          // `close` is the server's last word before it ends the stream: the reconnection below resumes.
          if (!stopped && m.event !== 'close') o.onMessage(m);
        };
        await readSse(res.body, message, alive);
      }
    } catch {
      // A network error or the watchdog's abort: reconnect below.
    } finally {
      window.clearTimeout(watchdog);
    }
    schedule(retryAfter);
  };

  const schedule = (atLeast: number): void => {
    if (stopped) return;
    const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** failures++);
    // Jitter, so that the pages a server restart cut off do not all come back in the same instant.
    const wait = Math.max(atLeast, ceiling / 2 + Math.random() * (ceiling / 2));
    retryTimer = window.setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, wait);
  };

  // Back on the network: try now rather than at the end of a long back-off.
  const online = (): void => {
    if (retryTimer === undefined || stopped) return;
    window.clearTimeout(retryTimer);
    retryTimer = undefined;
    void connect();
  };
  window.addEventListener('online', online);
  void connect();
  return {
    stop(): void {
      stopped = true;
      window.clearTimeout(retryTimer);
      window.removeEventListener('online', online);
      controller?.abort();
    },
  };
};

/** What a game's stream event carries that the page reads (service/streams.ts `StreamEvent`). */
export interface GameStreamEvent {
  readonly version: number;
  readonly kind: string;
}

/** Follows `/v1/games/{id}/events` until `stop()`; each event once, in order. */
export const followGame = (
  gameId: string,
  o: {
    /** The version the page shows now: the stream starts (and resumes) after the later of it and the last event seen. */
    readonly version: () => number;
    readonly onEvent: (e: GameStreamEvent) => void;
    readonly onRefused: StreamOptions['onRefused'];
  },
): Following => {
  let lastSeen = 0;
  return follow(`/v1/games/${encodeURIComponent(gameId)}/events`, {
    after: () => String(Math.max(lastSeen, o.version())),
    onMessage: (m) => {
      const e = JSON.parse(m.data) as GameStreamEvent;
      // The log is append-only and the ids are versions: one not past the last is a repeat.
      if (e.version <= lastSeen) return;
      lastSeen = e.version;
      o.onEvent(e);
    },
    onRefused: o.onRefused,
  });
};

/**
 * Follows `/v1/me/events` (your turn, a game started or ended …) until `stop()`. `onChange` runs when the
 * stream opens too: the first time it covers what happened between the caller's read and the stream, and
 * after a reconnection whatever the resume could not (the ids a stream never sent are not known to be missed).
 */
export const followMine = (o: { readonly onChange: () => void; readonly onRefused: StreamOptions['onRefused'] }): Following => {
  let lastId: bigint | null = null;
  return follow('/v1/me/events', {
    after: () => (lastId === null ? null : String(lastId)),
    onOpen: o.onChange,
    onMessage: (m) => {
      if (m.id === null || !/^\d+$/.test(m.id)) return;
      const id = BigInt(m.id);
      if (lastId !== null && id <= lastId) return;
      lastId = id;
      o.onChange();
    },
    onRefused: o.onRefused,
  });
};

/** `fn` run once at a time: calls while it runs make one more run after it, never one each. */
export const coalesced = (fn: () => Promise<void>): (() => void) => {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await fn();
      } while (again);
    } finally {
      running = false;
    }
  };
  return () => void run();
};
