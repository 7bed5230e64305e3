import type { Plugin } from 'graphql-yoga';
import type { RuleError } from '../engine/errors.js';
import { authenticate } from '../graph/auth.js';
import type { AppServices } from '../graph/context.js';
import { DEFAULT_STREAMS_PER_CALLER, openGameStream, takeStreamSlot, type GameStream, type StreamEvent } from '../service/streams.js';
import { edgeProblem, problemResponse, statusFor } from './problem.js';

/**
 * A game's live event stream (docs/live.md, issue 31), a plain HTTP handler of the REST edge:
 *
 *   GET /v1/games/{id}/events[?after=N]
 *
 * `text/event-stream` (Server-Sent Events: `id:` the version, `event:` the kind, `data:` the event as
 * JSON) by default, `application/x-ndjson` (one JSON object a line) when the Accept header asks for it.
 * `Last-Event-ID` (what EventSource sends when it reconnects) or `?after=` resumes after that version.
 * Who sees what is service/streams.ts's business (the engine's views); the edge adds the credential
 * check of `GET /v1/games/{id}`, heartbeats, the limit of open streams per caller and the bound on
 * what a slow reader may leave unread.
 */

export const EVENTS_ROUTE = /^\/v1\/games\/([^/]+)\/events$/;

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

export interface LiveOptions {
  /**
   * Serve the streams (default true). functions/app.ts turns them off on Lambda: behind API Gateway's
   * buffered integration a stream would hold its function until the timeout, so the route answers 501
   * `STREAMS_UNAVAILABLE` there until the AWS transport exists (docs/live.md).
   */
  readonly enabled?: boolean;
  /** A heartbeat (an SSE comment, an empty NDJSON line) after this long without a write (ms). Default 20 000. */
  readonly heartbeatMs?: number;
  /** Open streams per caller in this process; past it 429. Default 10. */
  readonly streamsPerCaller?: number;
  /** Bytes a reader may leave unread: past it the stream waits for the reader (the events wait in the log). Default 256 KiB. */
  readonly maxBufferedBytes?: number;
  /** How long the stream waits for a reader whose buffer is full before closing it with the reason `slow-consumer` (ms). Default 30 000. */
  readonly slowConsumerMs?: number;
  /** The safety-net re-read of the log when no notification comes (ms). Default 30 000. */
  readonly pollMs?: number;
}

export const LIVE_DEFAULTS = {
  enabled: true,
  heartbeatMs: 20_000,
  streamsPerCaller: DEFAULT_STREAMS_PER_CALLER,
  maxBufferedBytes: 256 * 1024,
  slowConsumerMs: 30_000,
  pollMs: 30_000,
} as const satisfies Required<LiveOptions>;

/** How long a caller at the limit is asked to wait before opening another stream (seconds). */
const RETRY_AFTER_SECONDS = 5;

const VERSION = /^(0|[1-9]\d{0,8})$/;

type Format = 'sse' | 'ndjson';

/** NDJSON when the Accept header names it (and not SSE before it); SSE otherwise. */
export const formatOf = (accept: string | null): Format => {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const nd = types.indexOf('application/x-ndjson');
  const sse = types.indexOf('text/event-stream');
  return nd >= 0 && (sse < 0 || nd < sse) ? 'ndjson' : 'sse';
};

const encoder = new TextEncoder();

/** One event in the stream's format. */
export const frame = (format: Format, e: StreamEvent): string =>
  format === 'ndjson' ? `${JSON.stringify(e)}\n` : `id: ${e.version}\nevent: ${e.kind}\ndata: ${JSON.stringify(e)}\n\n`;

/** The last words of a stream the server ends: an SSE `close` event, or an NDJSON line of kind `close`. */
const closing = (format: Format, reason: string, message: string): string => {
  const body = JSON.stringify({ kind: 'close', reason, message });
  return format === 'ndjson' ? `${body}\n` : `event: close\ndata: ${body}\n\n`;
};

const fromRuleError = (e: RuleError, instance: string): Response =>
  problemResponse(statusFor(e.code), { code: e.code, message: e.message, details: e.details ?? null }, instance);

/** The version to resume after: `Last-Event-ID`, else `?after=`, else 0; a problem when malformed. */
const resumePoint = (request: Request, url: URL, instance: string): number | Response => {
  const lastId = request.headers.get('last-event-id');
  const afterParam = url.searchParams.get('after');
  if (lastId !== null && !VERSION.test(lastId.trim()))
    return edgeProblem(
      'VALIDATION',
      `Last-Event-ID must be a version this stream sent (an integer, 0 or more), not "${lastId}".`,
      instance,
    );
  if (afterParam !== null && !VERSION.test(afterParam))
    return edgeProblem(
      'VALIDATION',
      `after must be a version of the game (an integer, 0 or more), e.g. ?after=12; not "${afterParam}".`,
      instance,
    );
  // EventSource reconnects to the URL it was given with the last id it saw: the header is the newer.
  return lastId !== null ? Number(lastId.trim()) : afterParam !== null ? Number(afterParam) : 0;
};

/** The caller's player id, as `GET /v1/games/{id}` asks for it (a token, or an API key with games:read); a problem otherwise. */
const viewerOf = async (services: AppServices, request: Request, instance: string): Promise<string | Response> => {
  const principal = await authenticate(request.headers.get('authorization'), {
    db: services.db,
    jwt: services.jwt,
    now: services.now(),
    cache: services.principals,
  });
  if (principal.kind === 'anonymous')
    return edgeProblem('UNAUTHENTICATED', principal.problem ?? 'Sign in (Authorization: Bearer …) to follow a game.', instance);
  if (!principal.scopes.includes('games:read')) return edgeProblem('FORBIDDEN', 'This API key lacks the API scope games:read.', instance);
  return principal.player.id;
};

/** The reader made room (a pull): `wait` resolves true then, false after `ms` or when `ended()`. */
const roomSignal = () => {
  let waiting: (() => void) | null = null;
  return {
    signal: (): void => waiting?.(),
    wait: (ms: number, ended: () => boolean): Promise<boolean> =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          waiting = null;
          resolve(false);
        }, ms);
        waiting = () => {
          clearTimeout(timer);
          waiting = null;
          resolve(!ended());
        };
      }),
  };
};

/**
 * The response body of an open stream: `opening` first, then each event as it comes, heartbeats while
 * nothing does. Past `maxBufferedBytes` unread the stream waits for the reader (the events wait in the
 * log); a reader that makes no room within `slowConsumerMs` is sent the reason and the stream closes.
 * `finish` ends everything (the reader left, the request was aborted); `onFinish` runs once then.
 */
const streamBody = (
  stream: GameStream,
  format: Format,
  o: Required<LiveOptions>,
  opening: string | null,
  onFinish: () => void,
): { readonly body: ReadableStream<Uint8Array>; readonly finish: () => void } => {
  let heartbeat: NodeJS.Timeout | null = null;
  const room = roomSignal();
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    if (heartbeat) clearInterval(heartbeat);
    room.signal();
    stream.close();
    onFinish();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let wrote = Date.now();
        const end = (reason: string, message: string): void => {
          if (done) return;
          try {
            controller.enqueue(encoder.encode(closing(format, reason, message)));
            controller.close();
          } catch {
            // the reader is gone already
          }
          finish();
        };
        const full = (): boolean => (controller.desiredSize ?? 1) <= 0;
        const write = (text: string): void => {
          if (done) return;
          controller.enqueue(encoder.encode(text));
          wrote = Date.now();
        };
        if (opening !== null) write(opening);
        heartbeat = setInterval(
          () => {
            // A reader that is behind needs no heartbeat: there is data waiting for it.
            if (!full() && Date.now() - wrote >= o.heartbeatMs - 5) write(format === 'sse' ? ': heartbeat\n\n' : '\n');
          },
          Math.max(10, o.heartbeatMs),
        );
        void (async () => {
          try {
            for await (const e of stream) {
              if (done) return;
              if (full() && !(await room.wait(o.slowConsumerMs, () => done))) {
                end(
                  'slow-consumer',
                  `The reader left ${o.maxBufferedBytes} bytes unread for ${o.slowConsumerMs} ms: reconnect with Last-Event-ID to resume.`,
                );
                return;
              }
              write(frame(format, e));
            }
          } catch (e) {
            end('error', `The stream failed: ${e instanceof Error ? e.message : String(e)}. Reconnect with Last-Event-ID to resume.`);
          }
        })();
      },
      pull() {
        room.signal();
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: o.maxBufferedBytes, size: (chunk) => chunk.byteLength },
  );
  return { body, finish };
};

/** The answer to one stream request (the route already matched). */
export const eventsResponse = async (services: AppServices, options: LiveOptions, request: Request, gameId: string): Promise<Response> => {
  const o = { ...LIVE_DEFAULTS, ...options };
  const url = new URL(request.url);
  const instance = url.pathname;
  if (request.method !== 'GET') return edgeProblem('METHOD_NOT_ALLOWED', 'Use GET.', instance, { allow: 'GET' });
  if (!o.enabled)
    return problemResponse(
      501,
      {
        code: 'STREAMS_UNAVAILABLE',
        message: 'This deployment does not serve event streams yet: poll GET /v1/games/{id}, or use webhooks.',
      },
      instance,
    );
  const after = resumePoint(request, url, instance);
  if (after instanceof Response) return after;
  const viewerId = await viewerOf(services, request, instance);
  if (viewerId instanceof Response) return viewerId;
  const free = takeStreamSlot(viewerId, o.streamsPerCaller);
  if (!free)
    return problemResponse(
      429,
      {
        code: 'RATE_LIMITED',
        message: `You have ${o.streamsPerCaller} event streams open, the most one caller may hold: close one, or retry later.`,
        details: { limit: o.streamsPerCaller, retryAfterSeconds: RETRY_AFTER_SECONDS },
      },
      instance,
    );
  let opened;
  try {
    opened = await openGameStream(services, viewerId, gameId, { after, pollMs: o.pollMs });
  } catch (e) {
    free();
    throw e;
  }
  if (!opened.ok) {
    free();
    if (opened.error.code === 'BAD_INPUT') return edgeProblem('VALIDATION', opened.error.message, instance);
    return fromRuleError(opened.error, instance);
  }
  const format = formatOf(request.headers.get('accept'));
  const opening = format === 'sse' ? `: game ${gameId} from version ${after}\nretry: 3000\n\n` : null;
  const { body, finish } = streamBody(opened.value, format, o, opening, free);
  request.signal?.addEventListener('abort', finish, { once: true });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': format === 'sse' ? SSE_CONTENT_TYPE : NDJSON_CONTENT_TYPE,
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      vary: 'Authorization, Accept',
    },
  });
};

/** Serves the event streams before Yoga looks at the request. */
export const useEventStreams = (services: AppServices, options: LiveOptions = {}): Plugin => ({
  onRequest: async ({ url, request, endResponse }) => {
    const m = EVENTS_ROUTE.exec(url.pathname);
    if (!m) return;
    endResponse(await eventsResponse(services, options, request, decodeURIComponent(m[1]!)));
  },
});
