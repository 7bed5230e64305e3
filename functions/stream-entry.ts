/**
 * The event-stream Lambda (issue 31; docs/deploying.md, "Live streams and notifications on AWS"): behind a
 * function URL in RESPONSE_STREAM mode it serves the live streams of docs/live.md, `GET /v1/games/{id}/events`
 * and `GET /v1/me/events`, through the same Yoga instance and the same route code (rest/events.ts) as
 * `npm start`. This file is only the transport: the function URL's event becomes a Fetch request, the
 * response's status and headers go out first (`awslambda.HttpResponseStream.from`), then the body as it comes.
 *
 * A Lambda invocation lives 15 minutes at most, so a stream ends a margin before the deadline with a last
 * `close` event of reason `time-limit` carrying an SSE `retry:`: EventSource reconnects with `Last-Event-ID`
 * and the next invocation resumes after it (event ids are versions, so nothing is missed or repeated).
 * Anything but a stream route is a 404 here: the rest of the API stays behind API Gateway and its throttling.
 *
 * The GraphQL subscriptions (gameEvents, myEvents: graph/live.ts) are streams too: `POST` (or `GET`)
 * `/graphql` with `Accept: text/event-stream` whose operation is a subscription goes to the same Yoga, whose
 * graphql-sse body is piped like a REST stream's. Queries and mutations are 404 here, as other paths are.
 * At the time limit a subscription ends without graphql-sse's `complete` (and without `retry:`, which the
 * graphql-sse client refuses): its client takes the cut for a dropped connection and subscribes again; there
 * is no Last-Event-ID, so the client resumes with the `after` argument (the last version or id it saw).
 */
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { App } from './app.js';
import { EVENTS_ROUTE, MY_EVENTS_ROUTE, NDJSON_CONTENT_TYPE, SEEK_EVENTS_ROUTE, SSE_CONTENT_TYPE } from '../rest/events.js';
import { DEFAULT_REQUEST_LIMITS } from '../graph/armor.js';
import { getOperationAST, parse } from '../graph/graphql.js';
import { GRAPHQL_PATH } from '../graph/yoga.js';
import { edgeProblem } from '../rest/problem.js';
import { lexiconRegistry } from '../service/lexicons.js';
import { eventToRequestInit, eventUrl } from './lambda-handler.js';
import { flushEmf } from './observability/metrics.js';
import { observeRequest } from './observability/request-log.js';
import { buildRuntimeApp } from './runtime.js';
import { STREAM_POLL_ENV } from './stream-env.js';

/** The REST routes the function URL serves: the game's stream, the caller's own and the seek list's (besides, subscriptions on /graphql). */
export const STREAM_ROUTES: readonly RegExp[] = [EVENTS_ROUTE, MY_EVENTS_ROUTE, SEEK_EVENTS_ROUTE];

/** The status line and headers of a streamed response, as `awslambda.HttpResponseStream.from` takes them. */
export interface StreamMetadata {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly cookies?: string[];
}

/** Lambda's `awslambda` global: present only inside the Node.js runtime. */
interface AwsLambdaGlobal {
  streamifyResponse(handler: StreamHandler): StreamHandler;
  readonly HttpResponseStream: { from(stream: Writable, metadata: StreamMetadata): Writable };
}

export type StreamHandler = (event: APIGatewayProxyEventV2, responseStream: Writable, context: LambdaContext) => Promise<void>;

export interface StreamHandlerOptions {
  readonly getApp: () => Promise<App>;
  /** Puts the status and headers in front of the body: `awslambda.HttpResponseStream.from` on Lambda, a recorder in tests. */
  readonly withMetadata: (stream: Writable, metadata: StreamMetadata) => Writable;
  /** How long before the invocation's deadline a stream is ended, so that its last event is delivered (ms). Default 10 000. */
  readonly marginMs?: number;
  /** The reconnection delay the last event asks of EventSource (ms). Default 1 000. */
  readonly retryMs?: number;
}

export const STREAM_MARGIN_MS = 10_000;
export const STREAM_RETRY_MS = 1_000;

const encoder = new TextEncoder();

const isStreamBody = (response: Response): boolean => {
  const type = response.headers.get('content-type') ?? '';
  return response.ok && response.body !== null && (type === SSE_CONTENT_TYPE || type === NDJSON_CONTENT_TYPE);
};

/**
 * The last words of a subscription that reached the invocation's time limit: an SSE comment, which the
 * graphql-sse client skips (an event it would deliver; `retry:` it throws on). The stream then ends without
 * `complete`, which the client retries as a dropped connection.
 */
export const SUBSCRIPTION_TIME_LIMIT_FRAME =
  ': time-limit: this stream reached its time limit; subscribe again with after = the last version (gameEvents) or id (myEvents) you got\n\n';

/** The last words of a stream that reached the invocation's time limit, in the stream's own format. */
export const timeLimitFrame = (contentType: string, retryMs: number): string => {
  const body = JSON.stringify({
    kind: 'close',
    reason: 'time-limit',
    message: 'This stream reached its time limit: reconnect with Last-Event-ID (or ?after=) to resume after the last event.',
  });
  return contentType === NDJSON_CONTENT_TYPE ? `${body}\n` : `event: close\nretry: ${retryMs}\ndata: ${body}\n\n`;
};

const metadataOf = (response: Response): StreamMetadata => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name.toLowerCase() !== 'set-cookie') headers[name.toLowerCase()] = value;
  });
  const cookies = response.headers.getSetCookie();
  return { statusCode: response.status, headers, ...(cookies.length ? { cookies } : {}) };
};

/** Writes `chunk`, waiting for the client to take it when the stream's buffer is full; false once the client is gone. */
const writeOut = async (out: Writable, chunk: Uint8Array | string, gone: Promise<void>): Promise<boolean> => {
  if (out.destroyed || out.writableEnded) return false;
  if (out.write(chunk)) return true;
  const drained = await Promise.race([once(out, 'drain').then(() => true), gone.then(() => false)]);
  return drained && !out.destroyed;
};

/**
 * Copies the open stream's body to the response stream until the body ends (the server closed it: a slow
 * reader, an error), the client leaves, or the deadline comes; then the time-limit frame.
 */
const pipeUntil = async (body: ReadableStream<Uint8Array>, out: Writable, deadline: number, lastFrame: string): Promise<void> => {
  const reader = body.getReader();
  const gone = new Promise<void>((resolve) => {
    out.once('close', resolve);
    out.once('error', () => resolve());
  });
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<'time-up'>((resolve) => {
    timer = setTimeout(() => resolve('time-up'), Math.max(0, deadline - Date.now()));
  });
  const left = gone.then(() => 'gone' as const);
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeUp, left]);
      if (next === 'gone') return;
      if (next === 'time-up') {
        await writeOut(out, encoder.encode(lastFrame), gone);
        return;
      }
      if (next.done) return;
      if (!(await writeOut(out, next.value, gone))) return;
    }
  } finally {
    clearTimeout(timer);
    // Frees the caller's stream slot and the game's subscription (rest/events.ts `finish`).
    await reader.cancel().catch(() => undefined);
    if (!out.writableEnded && !out.destroyed) out.end();
  }
};

const headerOf = (event: APIGatewayProxyEventV2, name: string): string =>
  Object.entries(event.headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1] ?? '';

/** The GraphQL request's document and operation name, from the query string (GET) or the JSON body (POST); null when there is none. */
const graphqlParams = (event: APIGatewayProxyEventV2, url: URL): { query: string; operationName: string | undefined } | null => {
  const method = (event.requestContext?.http?.method ?? 'GET').toUpperCase();
  let params: { query?: unknown; operationName?: unknown } = {};
  if (method === 'GET') params = { query: url.searchParams.get('query'), operationName: url.searchParams.get('operationName') };
  else if (method === 'POST' && event.body) {
    try {
      const parsed: unknown = JSON.parse(event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) params = parsed;
    } catch {
      return null;
    }
  }
  if (typeof params.query !== 'string') return null;
  return {
    query: params.query,
    operationName: typeof params.operationName === 'string' && params.operationName ? params.operationName : undefined,
  };
};

/**
 * What a `/graphql` request is here: `subscription` (served), `other` (a query, a mutation, no document, not
 * graphql-sse: 404), or `unparsed` — a document that does not parse within the API's token limit, handed to Yoga
 * so that the client gets the API's own refusal (a syntax error, QUERY_TOO_MANY_TOKENS), never a stream.
 */
export const graphqlRequestKind = (event: APIGatewayProxyEventV2, url: URL): 'subscription' | 'other' | 'unparsed' => {
  const accepts = headerOf(event, 'accept')
    .split(',')
    .some((type) => type.split(';')[0]!.trim().toLowerCase() === 'text/event-stream');
  const params = accepts ? graphqlParams(event, url) : null;
  if (!params) return 'other';
  let document;
  try {
    // Bounded as the API bounds it (graph/armor.ts), since this parse runs before Yoga's armor.
    document = parse(params.query, { maxTokens: DEFAULT_REQUEST_LIMITS.maxTokens, noLocation: true });
  } catch {
    return 'unparsed';
  }
  return getOperationAST(document, params.operationName)?.operation === 'subscription' ? 'subscription' : 'other';
};

/** The request the stream routes and subscriptions get (`graphql` says which), or the 404 everything else gets on this URL. */
const answer = async (
  app: App,
  event: APIGatewayProxyEventV2,
  lambdaContext: LambdaContext,
  signal: AbortSignal,
): Promise<{ response: Response; graphql: boolean }> => {
  const url = eventUrl(event);
  const parsed = new URL(url);
  const graphql = parsed.pathname === GRAPHQL_PATH;
  const served = graphql ? graphqlRequestKind(event, parsed) !== 'other' : STREAM_ROUTES.some((route) => route.test(parsed.pathname));
  if (!served)
    return {
      response: edgeProblem(
        'ROUTE_NOT_FOUND',
        graphql
          ? 'This address serves only GraphQL subscriptions over Server-Sent Events (Accept: text/event-stream); queries and mutations go to the API at its own URL.'
          : 'This address serves only the event streams (GET /v1/games/{id}/events, GET /v1/me/events, GET /v1/seeks/events, GraphQL subscriptions on /graphql); the API is at its own URL.',
        parsed.pathname,
      ),
      graphql,
    };
  return { response: await app.yoga.fetch(url, { ...eventToRequestInit(event), signal }, { event, lambdaContext }), graphql };
};

/** The frame that ends an open stream at the time limit; null when the response is not an open stream (a refusal, a 404). */
const lastFrameOf = (response: Response, graphql: boolean, retryMs: number): string | null => {
  if (graphql) {
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    return response.ok && response.body !== null && type === 'text/event-stream' ? SUBSCRIPTION_TIME_LIMIT_FRAME : null;
  }
  return isStreamBody(response) ? timeLimitFrame(response.headers.get('content-type') ?? '', retryMs) : null;
};

/**
 * The streaming handler over the app `getApp` gives (built once per container). Each invocation is one
 * observed request (functions/observability/): its log line is written when the stream ends.
 */
export const createStreamHandler =
  (options: StreamHandlerOptions): StreamHandler =>
  async (event, responseStream, lambdaContext) => {
    const deadline = Date.now() + lambdaContext.getRemainingTimeInMillis() - (options.marginMs ?? STREAM_MARGIN_MS);
    const info = {
      requestId: event.requestContext?.requestId ?? lambdaContext.awsRequestId,
      method: event.requestContext?.http?.method ?? 'GET',
      path: new URL(eventUrl(event)).pathname,
      runtime: 'stream',
    };
    const aborted = new AbortController();
    responseStream.once('close', () => aborted.abort());
    try {
      await observeRequest(
        info,
        async () => {
          const { response, graphql } = await answer(await options.getApp(), event, lambdaContext, aborted.signal);
          const out = options.withMetadata(responseStream, metadataOf(response));
          const frame = lastFrameOf(response, graphql, options.retryMs ?? STREAM_RETRY_MS);
          if (frame !== null) {
            await pipeUntil(response.body!, out, deadline, frame);
          } else {
            out.end(Buffer.from(await response.arrayBuffer()));
          }
          return response.status;
        },
        (status) => status,
      );
    } finally {
      aborted.abort();
      flushEmf();
    }
  };

/** How often a stream re-reads its game when no notification wakes it (ms): ARBITER_STREAM_POLL_MS, default 2 000. */
export const streamPollMs = (env: Readonly<Record<string, string | undefined>>): number => {
  const n = Number(env[STREAM_POLL_ENV] ?? '');
  return Number.isFinite(n) && n >= 100 ? n : 2_000;
};

let shared: Promise<App> | undefined;

/**
 * The container's app, built as the API's (secrets, database through RDS Proxy) but serving streams, with
 * no lexicons (a stream judges no word) and a short poll: LISTEN through RDS Proxy pins a session and a
 * notification may still not arrive, so the poll is what bounds an event's delay here.
 */
const sharedStreamApp = (): Promise<App> => {
  shared ??= buildRuntimeApp(process.env, {
    lexicons: lexiconRegistry([]),
    // Its warning about the empty registry is for the API; everything else is said as usual.
    warn: (message) => {
      if (!message.startsWith('no lexicons loaded')) console.warn(message);
    },
    live: { enabled: true, pollMs: streamPollMs(process.env) },
  }).catch((e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
};

// Read off globalThis, not as the global @types/aws-lambda declares: it is absent outside Lambda.
const awslambda = (globalThis as unknown as { awslambda?: AwsLambdaGlobal }).awslambda;

/**
 * The Lambda entry (functions/lambda-entry.ts re-exports it as `lambda.handler`). Outside Lambda there is
 * no `awslambda` global and the plain handler is exported (tests build their own with createStreamHandler).
 */
export const handler: StreamHandler = awslambda
  ? awslambda.streamifyResponse(
      createStreamHandler({
        getApp: sharedStreamApp,
        withMetadata: (stream, metadata) => awslambda.HttpResponseStream.from(stream, metadata),
      }),
    )
  : createStreamHandler({ getApp: sharedStreamApp, withMetadata: (stream) => stream });

if (awslambda) sharedStreamApp().catch((e: unknown) => console.error('arbiter: stream app build failed at cold start', e));
