import type { Plugin } from 'graphql-yoga';
import type { RuleError } from '../engine/errors.js';
import { authenticate } from '../graph/auth.js';
import { clientAddress, type ServerContextLike } from '../graph/client-address.js';
import type { AppServices } from '../graph/context.js';
import { DEFAULT_SETTLE_MS, openMyEvents, parseEventId, type MyEvent } from '../service/my-events.js';
import { openSeekEvents, seekStreamCaller, type SeekEvent } from '../service/seek-events.js';
import { enterGame, keepPresence } from '../service/presence.js';
import { DEFAULT_STREAMS_PER_CALLER, openGameStream, takeStreamSlot, type StreamEvent } from '../service/streams.js';
import { edgeProblem, problemResponse, statusFor } from './problem.js';

/**
 * The live event streams (docs/live.md, issue 31), plain HTTP handlers of the REST edge:
 *
 *   GET /v1/games/{id}/events[?after=N]   a game's events (id: the game's version)
 *   GET /v1/me/events[?after=ID]          the caller's own events (id: the outbox row's id)
 *   GET /v1/seeks/events[?after=ID]       the seek list's changes, open to anyone (id: the outbox row's id)
 *
 * `text/event-stream` (Server-Sent Events: `id:` the version, `event:` the kind, `data:` the event as
 * JSON) by default, `application/x-ndjson` (one JSON object a line) when the Accept header asks for it.
 * `Last-Event-ID` (what EventSource sends when it reconnects) or `?after=` resumes after that version.
 * Who sees what is service/streams.ts's business (the engine's views); the edge adds the credential
 * check of `GET /v1/games/{id}`, heartbeats, the limit of open streams per caller and the bound on
 * what a slow reader may leave unread.
 */

export const EVENTS_ROUTE = /^\/v1\/games\/([^/]+)\/events$/;
export const MY_EVENTS_ROUTE = /^\/v1\/me\/events$/;
export const SEEK_EVENTS_ROUTE = /^\/v1\/seeks\/events$/;

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

export interface LiveOptions {
  /**
   * Serve the streams (default true). functions/app.ts turns them off on Lambda: behind API Gateway's
   * buffered integration a stream would hold its function until the timeout, so the route answers 501
   * `STREAMS_UNAVAILABLE` there until the AWS transport exists (docs/live.md).
   */
  readonly enabled?: boolean;
  /** Where this deployment serves the streams instead (the stream function's URL on AWS), named by the 501; '' for none. */
  readonly streamUrl?: string;
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
  /** How long an unfilled outbox id holds back the ids after it on `/v1/me/events` (ms; service/my-events.ts). Default 10 000. */
  readonly outboxSettleMs?: number;
}

export const LIVE_DEFAULTS = {
  enabled: true,
  streamUrl: '',
  heartbeatMs: 20_000,
  streamsPerCaller: DEFAULT_STREAMS_PER_CALLER,
  maxBufferedBytes: 256 * 1024,
  slowConsumerMs: 30_000,
  pollMs: 30_000,
  outboxSettleMs: DEFAULT_SETTLE_MS,
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

/** One event in the stream's format: `id` the SSE id, the event itself the data. */
export const frame = (format: Format, id: string | number, e: { readonly kind: string }): string =>
  format === 'ndjson' ? `${JSON.stringify(e)}\n` : `id: ${id}\nevent: ${e.kind}\ndata: ${JSON.stringify(e)}\n\n`;

/** What the edge needs of a service stream: its events, each with its SSE id, and close. */
interface EdgeStream<E> extends AsyncIterable<E> {
  close(): void;
}

/** The last words of a stream the server ends: an SSE `close` event, or an NDJSON line of kind `close`. */
const closing = (format: Format, reason: string, message: string): string => {
  const body = JSON.stringify({ kind: 'close', reason, message });
  return format === 'ndjson' ? `${body}\n` : `event: close\ndata: ${body}\n\n`;
};

const fromRuleError = (e: RuleError, instance: string): Response =>
  problemResponse(statusFor(e.code), { code: e.code, message: e.message, details: e.details ?? null }, instance);

/** The caller's player id, as `GET /v1/games/{id}` asks for it (a token, or an API key with games:read); a problem otherwise. */
const viewerOf = async (services: AppServices, request: Request, instance: string): Promise<string | Response> => {
  const principal = await principalOf(services, request);
  if (principal.kind === 'anonymous')
    return edgeProblem('UNAUTHENTICATED', principal.problem ?? 'Sign in (Authorization: Bearer …) to follow a game.', instance);
  if (!principal.scopes.includes('games:read')) return edgeProblem('FORBIDDEN', 'This API key lacks the API scope games:read.', instance);
  return principal.player.id;
};

const principalOf = (services: AppServices, request: Request) =>
  authenticate(request.headers.get('authorization'), {
    db: services.db,
    jwt: services.jwt,
    now: services.now(),
    cache: services.principals,
  });

/**
 * Whose stream slots a public stream takes (`GET /v1/seeks/events`): a signed-in caller's (any credential:
 * the seek list is public), else the client's address; a credential that was presented but failed is a 401.
 */
const publicCallerOf = async (
  services: AppServices,
  request: Request,
  address: string | null,
  instance: string,
): Promise<string | Response> => {
  const principal = await principalOf(services, request);
  if (principal.kind === 'anonymous' && principal.problem) return edgeProblem('UNAUTHENTICATED', principal.problem, instance);
  return seekStreamCaller(principal.kind === 'player' ? principal.player.id : null, address);
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
const streamBody = <E extends { readonly kind: string }>(
  stream: EdgeStream<E>,
  idOf: (e: E) => string | number,
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
              write(frame(format, idOf(e), e));
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

const STREAM_HEADERS = (format: Format) => ({
  'content-type': format === 'sse' ? SSE_CONTENT_TYPE : NDJSON_CONTENT_TYPE,
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
  vary: 'Authorization, Accept',
});

/**
 * What every stream request goes through before its stream opens: GET only, streams served here, the
 * resume point (`parse`: a problem when malformed), the caller (games:read) and one of their stream
 * slots. The slot is the caller's to free (with `free`) if the stream does not open.
 */
const admit = async <T>(
  services: AppServices,
  o: Required<LiveOptions>,
  request: Request,
  parse: (resume: { readonly field: 'Last-Event-ID' | 'after'; readonly text: string } | null, instance: string) => T | Response,
  callerOf: (instance: string) => Promise<string | Response> = (instance) => viewerOf(services, request, instance),
): Promise<Response | { readonly after: T; readonly viewerId: string; readonly free: () => void; readonly instance: string }> => {
  const url = new URL(request.url);
  const instance = url.pathname;
  if (request.method !== 'GET') return edgeProblem('METHOD_NOT_ALLOWED', 'Use GET.', instance, { allow: 'GET' });
  if (!o.enabled)
    return problemResponse(
      501,
      o.streamUrl
        ? {
            code: 'STREAMS_UNAVAILABLE',
            message: `This address does not serve event streams: open ${o.streamUrl}${instance} (same path, same credential).`,
            details: { streamUrl: `${o.streamUrl}${instance}` },
          }
        : { code: 'STREAMS_UNAVAILABLE', message: 'This deployment does not serve event streams yet: poll the API, or use webhooks.' },
      instance,
      o.streamUrl ? { link: `<${o.streamUrl}${instance}>; rel="alternate"` } : {},
    );
  // EventSource reconnects to the URL it was given with the last id it saw: the header is the newer.
  const lastId = request.headers.get('last-event-id');
  const afterParam = url.searchParams.get('after');
  const after = parse(
    lastId !== null ? { field: 'Last-Event-ID', text: lastId } : afterParam !== null ? { field: 'after', text: afterParam } : null,
    instance,
  );
  if (after instanceof Response) return after;
  const viewerId = await callerOf(instance);
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
  return { after, viewerId, free, instance };
};

/** A game's version to resume after, as `admit` parses it: 0 when none is given. */
const versionResume = (resume: { readonly field: string; readonly text: string } | null, instance: string): number | Response => {
  if (resume === null) return 0;
  if (VERSION.test(resume.text.trim())) return Number(resume.text.trim());
  return edgeProblem(
    'VALIDATION',
    resume.field === 'after'
      ? `after must be a version of the game (an integer, 0 or more), e.g. ?after=12; not "${resume.text}".`
      : `Last-Event-ID must be a version this stream sent (an integer, 0 or more), not "${resume.text}".`,
    instance,
  );
};

/** The answer to one game stream request (the route already matched). */
export const eventsResponse = async (services: AppServices, options: LiveOptions, request: Request, gameId: string): Promise<Response> => {
  const o = { ...LIVE_DEFAULTS, ...options };
  const admitted = await admit(services, o, request, versionResume);
  if (admitted instanceof Response) return admitted;
  const { after, viewerId, free, instance } = admitted;
  let opened;
  let leave: (() => void) | null = null;
  try {
    opened = await openGameStream(services, viewerId, gameId, { after, pollMs: o.pollMs });
    // A seated player's open stream is their presence at the game (service/presence.ts), refreshed with the heartbeat.
    if (opened.ok) leave = keepPresence(await enterGame(services.db, viewerId, gameId, services.now()), o.heartbeatMs, services.now);
  } catch (e) {
    if (opened?.ok) opened.value.close();
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
  const { body, finish } = streamBody(
    opened.value,
    (e: StreamEvent) => e.version,
    format,
    o,
    opening,
    () => {
      leave?.();
      free();
    },
  );
  request.signal?.addEventListener('abort', finish, { once: true });
  return new Response(body, { status: 200, headers: STREAM_HEADERS(format) });
};

/** An outbox id to resume after, as `admit` parses it: null (from now on) when none is given. */
const outboxResume = (resume: { readonly field: string; readonly text: string } | null, instance: string): bigint | null | Response => {
  if (resume === null) return null;
  const id = parseEventId(resume.text, resume.field);
  return id.ok ? id.value : edgeProblem('VALIDATION', id.error.message, instance);
};

/** The answer to `GET /v1/me/events`: the caller's own events (service/my-events.ts). */
export const myEventsResponse = async (services: AppServices, options: LiveOptions, request: Request): Promise<Response> => {
  const o = { ...LIVE_DEFAULTS, ...options };
  const admitted = await admit(services, o, request, outboxResume);
  if (admitted instanceof Response) return admitted;
  const { after, viewerId, free } = admitted;
  let stream;
  try {
    stream = await openMyEvents(services, viewerId, { after, pollMs: o.pollMs, settleMs: o.outboxSettleMs });
  } catch (e) {
    free();
    throw e;
  }
  const format = formatOf(request.headers.get('accept'));
  const opening = format === 'sse' ? `: your events ${after === null ? 'from now on' : `after ${after}`}\nretry: 3000\n\n` : null;
  const { body, finish } = streamBody(stream, (e: MyEvent) => e.id, format, o, opening, free);
  request.signal?.addEventListener('abort', finish, { once: true });
  return new Response(body, { status: 200, headers: STREAM_HEADERS(format) });
};

/**
 * The answer to `GET /v1/seeks/events`: the seek list's changes (service/seek-events.ts), open to anyone;
 * `address` is the client's (graph/client-address.ts), whose stream slots an anonymous reader takes.
 */
export const seekEventsResponse = async (
  services: AppServices,
  options: LiveOptions,
  request: Request,
  address: string | null,
): Promise<Response> => {
  const o = { ...LIVE_DEFAULTS, ...options };
  const admitted = await admit(services, o, request, outboxResume, (instance) => publicCallerOf(services, request, address, instance));
  if (admitted instanceof Response) return admitted;
  const { after, free } = admitted;
  let stream;
  try {
    stream = await openSeekEvents(services, { after, pollMs: o.pollMs, settleMs: o.outboxSettleMs });
  } catch (e) {
    free();
    throw e;
  }
  const format = formatOf(request.headers.get('accept'));
  const opening =
    format === 'sse' ? `: the seek list's changes ${after === null ? 'from now on' : `after ${after}`}\nretry: 3000\n\n` : null;
  const { body, finish } = streamBody(stream, (e: SeekEvent) => e.id, format, o, opening, free);
  request.signal?.addEventListener('abort', finish, { once: true });
  return new Response(body, { status: 200, headers: STREAM_HEADERS(format) });
};

/** Serves the event streams before Yoga looks at the request. */
export const useEventStreams = (services: AppServices, options: LiveOptions = {}): Plugin => ({
  onRequest: async ({ url, request, serverContext, endResponse }) => {
    if (MY_EVENTS_ROUTE.test(url.pathname)) return endResponse(await myEventsResponse(services, options, request));
    if (SEEK_EVENTS_ROUTE.test(url.pathname)) {
      const address = clientAddress({ ...(serverContext as Partial<ServerContextLike>), request }, services.trustedProxies);
      return endResponse(await seekEventsResponse(services, options, request, address));
    }
    const m = EVENTS_ROUTE.exec(url.pathname);
    if (!m) return;
    endResponse(await eventsResponse(services, options, request, decodeURIComponent(m[1]!)));
  },
});
