/**
 * Reading the live streams of docs/live.md in tests: a stream opened over the test API's fetch, its
 * Server-Sent Events or NDJSON lines parsed as they arrive, read until a condition or a time limit.
 */
import type { TestApi } from '../api/harness.js';
import type { Player } from '../e2e/client.js';

/** One SSE block: its fields, or a comment (a heartbeat, the opening line). */
export interface Frame {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly comment?: string;
}

/** The stream event's JSON (service/streams.ts StreamEvent), as a client reads it. */
export interface StreamEventJson {
  version: number;
  kind: string;
  at: string;
  seat: number | null;
  game: {
    status: string;
    turn: number;
    scores: number[];
    rackSizes: number[];
    bagCount: number;
    rack?: string[];
    historyFrom: number;
    turns: {
      seat: number;
      kind: string;
      move: string;
      score: number;
      cumulative: number;
      event: number;
      tiles?: string[];
      count?: number;
    }[];
    result: { reason: string; winner: number | null } | null;
  } | null;
}

export const eventsPath = (gameId: string, query = ''): string => `/v1/games/${gameId}/events${query}`;

export const openEvents = (api: TestApi, gameId: string, who: Player | null, headers: Record<string, string> = {}, query = '') =>
  api.fetch(eventsPath(gameId, query), { headers: { ...(who ? { authorization: `Bearer ${who.token}` } : {}), ...headers } });

export const parseBlock = (block: string): Frame => {
  const f: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) f['comment'] = line.slice(1).trim();
    else {
      const at = line.indexOf(':');
      if (at > 0) f[line.slice(0, at)] = line.slice(at + 1).replace(/^ /, '');
    }
  }
  return f;
};

/** A stream's reader: the frames (SSE) or lines (NDJSON) so far, more on demand, and cancel. */
export const reader = (res: Response) => {
  const r = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  const more = async (ms: number): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
    const got = await Promise.race([r.read(), timeout]);
    clearTimeout(timer);
    if (got === 'timeout') return false;
    if (got.done) {
      ended = true;
      return false;
    }
    text += decoder.decode(got.value, { stream: true });
    return true;
  };
  const frames = (): Frame[] => text.split('\n\n').slice(0, -1).map(parseBlock);
  const lines = (): string[] => text.split('\n').slice(0, -1);
  return {
    frames,
    lines,
    get ended() {
      return ended;
    },
    /** Reads until `done(frames)` holds or `ms` pass; the frames then. */
    framesUntil: async (done: (f: Frame[]) => boolean, ms = 5000): Promise<Frame[]> => {
      const end = Date.now() + ms;
      while (!done(frames()) && !ended && Date.now() < end) await more(end - Date.now());
      return frames();
    },
    linesUntil: async (done: (l: string[]) => boolean, ms = 5000): Promise<string[]> => {
      const end = Date.now() + ms;
      while (!done(lines()) && !ended && Date.now() < end) await more(end - Date.now());
      return lines();
    },
    cancel: () => r.cancel().catch(() => undefined),
  };
};

export const eventsOf = (frames: readonly Frame[]): StreamEventJson[] =>
  frames.filter((f) => f.id !== undefined && f.data !== undefined).map((f) => JSON.parse(f.data!) as StreamEventJson);

/** Reads a stream from its opening until it has sent version `last`, then closes it; its events. */
export const readAll = async (api: TestApi, gameId: string, who: Player, last: number, headers: Record<string, string> = {}) => {
  const res = await openEvents(api, gameId, who, headers);
  if (res.status !== 200) throw new Error(`stream as ${who.handle}: ${res.status} ${await res.text()}`);
  const r = reader(res);
  const frames = await r.framesUntil((f) => eventsOf(f).some((e) => e.version >= last));
  await r.cancel();
  return { frames, events: eventsOf(frames) };
};
