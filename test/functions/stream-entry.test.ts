/**
 * The event-stream Lambda (functions/stream-entry.ts) with a stand-in for Lambda's response stream, on
 * PGlite: a function URL event for a game's stream gets the status and headers first, then the events; a
 * turn made meanwhile arrives live; the stream ends before the invocation's deadline with a `close` event
 * of reason `time-limit` and an SSE `retry:`; resuming with Last-Event-ID sends only what came after; any
 * other path is a 404 without touching the API; a client that leaves ends the invocation. The GraphQL
 * subscriptions ride the same function (POST /graphql, Accept: text/event-stream): a turn's event arrives,
 * the stream ends at the deadline without `complete`; a query there is a 404; the buffered API's 501 names
 * the function's /graphql.
 */
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStreamHandler, SUBSCRIPTION_TIME_LIMIT_FRAME, timeLimitFrame, type StreamMetadata } from '../../functions/stream-entry.js';
import { eventsResponse, NDJSON_CONTENT_TYPE, SSE_CONTENT_TYPE } from '../../rest/events.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { act, readGame, type GameView, type Player } from '../e2e/client.js';
import { closeSuite, createGameAs, openSuite, registerPlayers } from '../e2e/fixture.js';

/** Lambda's response stream as the handler sees it: what was written, the metadata put in front, whether it ended. */
class StandIn extends Writable {
  text = '';
  metadata: StreamMetadata | null = null;
  ended = false;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
  override _final(done: (error?: Error | null) => void): void {
    this.ended = true;
    done();
  }
}

/** A function URL's event (payload format 2.0, as API Gateway's HTTP API sends). */
const urlEvent = (path: string, headers: Record<string, string> = {}, query = ''): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    isBase64Encoded: false,
    headers: { host: 'abc.lambda-url.eu-west-1.on.aws', ...headers },
    requestContext: {
      domainName: 'abc.lambda-url.eu-west-1.on.aws',
      requestId: 'req-1',
      stage: '$default',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
    },
  }) as unknown as APIGatewayProxyEventV2;

/** A graphql-sse request on the function URL: POST /graphql with the operation as JSON. */
const graphqlEvent = (token: string, query: string, variables: Record<string, unknown>, accept = 'text/event-stream') => {
  const event = urlEvent('/graphql', { authorization: `Bearer ${token}`, accept, 'content-type': 'application/json' });
  return {
    ...event,
    body: JSON.stringify({ query, variables }),
    requestContext: { ...event.requestContext, http: { ...event.requestContext.http, method: 'POST' } },
  };
};

const GAME_EVENTS = 'subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, after: $after) { version kind game { state } } }';

/** The versions of the gameEvents items in a graphql-sse stream. */
const subscriptionVersions = (sse: string): number[] =>
  [...sse.matchAll(/^event: next\ndata: (.*)$/gm)].map(
    (m) => (JSON.parse(m[1]!) as { data: { gameEvents: { version: number } } }).data.gameEvents.version,
  );

/** An invocation with `ms` left before Lambda's deadline. */
const contextWith = (ms: number): LambdaContext => {
  const until = Date.now() + ms;
  return { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => until - Date.now() } as unknown as LambdaContext;
};

const until = async (check: () => boolean, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const ids = (sse: string): number[] => [...sse.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

describe('the event-stream Lambda', () => {
  let api: TestApi;
  let ann: Player;
  let ben: Player;
  let game: GameView;
  const pglite = STORE_TARGETS.find((t) => t.kind === 'pglite')!;

  beforeAll(async () => {
    api = await openSuite(pglite, 'stream-entry', { app: { live: { pollMs: 60_000, heartbeatMs: 60_000 } } });
    [ann, ben] = await registerPlayers(api, 'ann', 'ben');
    game = await createGameAs(api, ann, { opponent: ben.handle });
  }, 60_000);
  afterAll(async () => {
    await closeSuite(api);
  });

  const handlerWith = (marginMs: number) =>
    createStreamHandler({
      getApp: () => Promise.resolve(api.app),
      withMetadata: (stream, metadata) => {
        (stream as StandIn).metadata = metadata;
        return stream;
      },
      marginMs,
      retryMs: 1500,
    });

  it('streams the log, a turn made meanwhile, and ends before the deadline with a retry hint', async () => {
    const out = new StandIn();
    const started = Date.now();
    const run = handlerWith(1_000)(
      urlEvent(`/v1/games/${game.id}/events`, { authorization: `Bearer ${ann.token}` }),
      out,
      contextWith(3_500),
    );
    await until(() => ids(out.text).length >= game.version, 10_000);
    expect(out.metadata).toMatchObject({ statusCode: 200, headers: { 'content-type': SSE_CONTENT_TYPE, 'cache-control': 'no-store' } });
    const mover = game.whoseTurn === game.mySeat ? ann : ben;
    const after = await act(api, mover, game.id, { pass: true });
    await until(() => ids(out.text).includes(after.version), 2_000);
    await run;
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(2_300);
    expect(took).toBeLessThan(3_500);
    expect(ids(out.text)).toEqual(Array.from({ length: after.version }, (_, i) => i + 1));
    expect(out.text).toContain('event: pass\n');
    expect(out.text.endsWith(timeLimitFrame(SSE_CONTENT_TYPE, 1500))).toBe(true);
    expect(out.text).toMatch(/event: close\nretry: 1500\ndata: \{"kind":"close","reason":"time-limit"/);
    expect(out.ended).toBe(true);
    game = after;
  }, 20_000);

  it('resumes after Last-Event-ID, and ends an NDJSON stream with a close line', async () => {
    const sse = new StandIn();
    await handlerWith(500)(
      urlEvent(`/v1/games/${game.id}/events`, { authorization: `Bearer ${ben.token}`, 'last-event-id': String(game.version - 1) }),
      sse,
      contextWith(1_200),
    );
    expect(ids(sse.text)).toEqual([game.version]);
    const nd = new StandIn();
    await handlerWith(500)(
      urlEvent(
        `/v1/games/${game.id}/events`,
        { authorization: `Bearer ${ben.token}`, accept: 'application/x-ndjson' },
        `after=${game.version}`,
      ),
      nd,
      contextWith(1_200),
    );
    expect(nd.metadata?.headers['content-type']).toBe(NDJSON_CONTENT_TYPE);
    expect(JSON.parse(nd.text.trim())).toMatchObject({ kind: 'close', reason: 'time-limit' });
  }, 20_000);

  it('serves the caller’s own stream (GET /v1/me/events) through the same route code', async () => {
    const out = new StandIn();
    await handlerWith(500)(urlEvent('/v1/me/events', { authorization: `Bearer ${ann.token}` }), out, contextWith(1_200));
    expect(out.metadata).toMatchObject({ statusCode: 200, headers: { 'content-type': SSE_CONTENT_TYPE } });
    expect(out.text.endsWith(timeLimitFrame(SSE_CONTENT_TYPE, 1500))).toBe(true);
    expect(out.ended).toBe(true);
  });

  it('serves the seek list’s stream (GET /v1/seeks/events) to an anonymous reader through the same route code', async () => {
    const out = new StandIn();
    await handlerWith(500)(urlEvent('/v1/seeks/events'), out, contextWith(1_200));
    expect(out.metadata).toMatchObject({ statusCode: 200, headers: { 'content-type': SSE_CONTENT_TYPE } });
    expect(out.text.endsWith(timeLimitFrame(SSE_CONTENT_TYPE, 1500))).toBe(true);
    expect(out.ended).toBe(true);
  });

  it('answers a refusal whole: no credential is a 401 problem, and the invocation ends at once', async () => {
    const out = new StandIn();
    await handlerWith(500)(urlEvent(`/v1/games/${game.id}/events`), out, contextWith(60_000));
    expect(out.metadata?.statusCode).toBe(401);
    expect(out.metadata?.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(out.text)).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(out.ended).toBe(true);
  });

  it('serves nothing but the streams: the API stays behind API Gateway', async () => {
    for (const path of ['/graphql', `/v1/games/${game.id}`, '/v1/openapi.json', '/play']) {
      const out = new StandIn();
      await handlerWith(500)(urlEvent(path, { authorization: `Bearer ${ann.token}` }), out, contextWith(60_000));
      expect(out.metadata?.statusCode, path).toBe(404);
      expect(JSON.parse(out.text), path).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('the buffered API’s 501 names the stream URL when the stack gives one', async () => {
    const request = (path: string) => new Request(`https://api.example.test${path}`, { headers: { authorization: `Bearer ${ann.token}` } });
    const pointed = await eventsResponse(
      api.app.services,
      { enabled: false, streamUrl: 'https://abc.lambda-url.eu-west-1.on.aws' },
      request(`/v1/games/${game.id}/events`),
      game.id,
    );
    expect(pointed.status).toBe(501);
    const url = `https://abc.lambda-url.eu-west-1.on.aws/v1/games/${game.id}/events`;
    expect(await pointed.json()).toMatchObject({ code: 'STREAMS_UNAVAILABLE', details: { streamUrl: url } });
    expect(pointed.headers.get('link')).toBe(`<${url}>; rel="alternate"`);
    const plain = await eventsResponse(api.app.services, { enabled: false }, request(`/v1/games/${game.id}/events`), game.id);
    expect(plain.status).toBe(501);
    expect(plain.headers.get('link')).toBeNull();
  });

  it('serves a gameEvents subscription through the same Yoga: a turn’s event arrives, and the stream ends before the deadline without complete', async () => {
    const out = new StandIn();
    const run = handlerWith(1_000)(graphqlEvent(ben.token, GAME_EVENTS, { id: game.id, after: game.version }), out, contextWith(3_500));
    await until(() => out.metadata !== null, 10_000);
    expect(out.metadata).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/event-stream' } });
    const view = await readGame(api, ann, game.id);
    const after = await act(api, view.isMyTurn ? ann : ben, game.id, { pass: true });
    await until(() => subscriptionVersions(out.text).includes(after.version), 5_000);
    await run;
    expect(subscriptionVersions(out.text)).toEqual([after.version]);
    expect(out.text).toContain('"kind":"pass"');
    // graphql-sse clients retry a stream cut without `complete`, and refuse `retry:`.
    expect(out.text).not.toContain('event: complete');
    expect(out.text).not.toMatch(/^retry:/m);
    expect(out.text.endsWith(SUBSCRIPTION_TIME_LIMIT_FRAME)).toBe(true);
    expect(out.ended).toBe(true);
    game = after;
  }, 20_000);

  it('serves no query or mutation on /graphql, nor a subscription asked for without SSE', async () => {
    const cases = [
      graphqlEvent(ann.token, 'query { ruleSets { id } }', {}),
      graphqlEvent(ann.token, 'mutation { submitTurn(input: {}) { __typename } }', {}),
      graphqlEvent(ann.token, GAME_EVENTS, { id: game.id }, 'application/json'),
      { ...urlEvent('/graphql', { accept: 'text/event-stream' }, `query=${encodeURIComponent('{ ruleSets { id } }')}`) },
    ];
    for (const event of cases) {
      const out = new StandIn();
      await handlerWith(500)(event, out, contextWith(60_000));
      expect(out.metadata?.statusCode, event.body ?? event.rawQueryString).toBe(404);
      expect(JSON.parse(out.text)).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    }
    // A GET subscription (EventSource's way) is served: here refused by its resolver, as an SSE error event.
    const get = new StandIn();
    const query = `query=${encodeURIComponent(GAME_EVENTS)}&variables=${encodeURIComponent(JSON.stringify({ id: 'no-such-game' }))}`;
    await handlerWith(500)(
      urlEvent('/graphql', { accept: 'text/event-stream', authorization: `Bearer ${ann.token}` }, query),
      get,
      contextWith(60_000),
    );
    expect(get.metadata?.statusCode).toBe(200);
    expect(get.text).toContain('GAME_NOT_FOUND');
    expect(get.text).toContain('event: complete');
  }, 20_000);

  it('the buffered API answers a subscription 501, naming the stream function’s /graphql', async () => {
    const streamUrl = 'https://abc.lambda-url.eu-west-1.on.aws';
    const buffered = await openTestApi(pglite, { app: { live: { enabled: false, streamUrl } } });
    try {
      const res = await buffered.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: GAME_EVENTS, variables: { id: 'any' } }),
      });
      expect(res.status).toBe(501);
      expect(res.headers.get('link')).toBe(`<${streamUrl}/graphql>; rel="alternate"`);
      const body = (await res.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.extensions).toMatchObject({ code: 'STREAMS_UNAVAILABLE', details: { streamUrl: `${streamUrl}/graphql` } });
      expect(body.errors[0]!.message).toContain(`${streamUrl}/graphql`);
    } finally {
      await buffered.close();
    }
  }, 30_000);

  it('ends the invocation when the client leaves, long before the deadline', async () => {
    const out = new StandIn();
    const started = Date.now();
    const run = handlerWith(500)(
      urlEvent(`/v1/games/${game.id}/events`, { authorization: `Bearer ${ann.token}` }),
      out,
      contextWith(60_000),
    );
    await until(() => ids(out.text).length >= game.version, 10_000);
    out.destroy();
    await run;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(out.text).not.toContain('time-limit');
  }, 20_000);
});
