/**
 * The gameEvents subscription (issue 31, docs/live.md) over Server-Sent Events on /graphql: a whole game
 * read through both players' subscriptions and a spectator's, each compared with that viewer's `game`
 * view and with the REST stream of the same viewer (one service stream feeds both); resuming with
 * `after`; a live turn; the errors (GAME_NOT_FOUND and nothing else, UNAUTHENTICATED, VALIDATION); the
 * per-caller limit shared with the REST streams; 501 STREAMS_UNAVAILABLE where streams are off (Lambda).
 * And SOFA's subscription webhooks (`/rest/webhook…`), which a Subscription type would arm, refused with 404
 * without ever fetching anything.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { splitTiles } from '../../engine/tiles.js';
import { isSofaWebhookPath } from '../../graph/sofa-webhooks.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { act, readGame, type GameView, type Player } from '../e2e/client.js';
import { closeSuite, createGameAs, openSuite, registerPlayers } from '../e2e/fixture.js';
import { playThenResign, sheetOfView } from './played-game.js';
import { readAll, reader, type Frame, type StreamEventJson } from './stream-client.js';

const LIVE = { heartbeatMs: 10_000, streamsPerCaller: 3, pollMs: 60_000 };

const GAME_EVENTS = `subscription GameEvents($gameId: ID!, $after: Int) {
  gameEvents(gameId: $gameId, after: $after) {
    version kind at seat
    game {
      state turn scores rackSizes bagCount rack historyFrom
      turns { seat kind notation score cumulative event tiles count }
      result { reason winner }
    }
  }
}`;

interface GameEventGql {
  version: number;
  kind: string;
  at: string;
  seat: number | null;
  game: {
    state: string;
    turn: number;
    scores: number[];
    rackSizes: number[];
    bagCount: number;
    rack: string | null;
    historyFrom: number;
    turns: {
      seat: number;
      kind: string;
      notation: string;
      score: number;
      cumulative: number;
      event: number;
      tiles: string | null;
      count: number | null;
    }[];
    result: { reason: string; winner: number | null } | null;
  } | null;
}
type Payload = { data?: { gameEvents: GameEventGql } | null; errors?: { message: string; extensions?: { code?: string } }[] };

/** Opens the subscription over SSE (graphql-sse, distinct connections): POST /graphql with Accept: text/event-stream. */
const subscribe = (api: TestApi, who: Player | null, variables: Record<string, unknown>, accept = 'text/event-stream') =>
  api.fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, ...(who ? { authorization: `Bearer ${who.token}` } : {}) },
    body: JSON.stringify({ query: GAME_EVENTS, variables }),
  });

const payloadsOf = (frames: readonly Frame[]): Payload[] =>
  frames.filter((f) => f.event === 'next' && f.data !== undefined).map((f) => JSON.parse(f.data!) as Payload);
const eventsOf = (frames: readonly Frame[]): GameEventGql[] =>
  payloadsOf(frames).flatMap((p) => (p.data?.gameEvents ? [p.data.gameEvents] : []));

/** Reads a subscription from its opening until it has sent version `last`, then ends it; its events. */
const readSubscription = async (api: TestApi, gameId: string, who: Player, last: number, after?: number) => {
  const res = await subscribe(api, who, { gameId, ...(after === undefined ? {} : { after }) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const r = reader(res);
  const frames = await r.framesUntil((f) => eventsOf(f).some((e) => e.version >= last));
  await r.cancel();
  expect(payloadsOf(frames).every((p) => !p.errors)).toBe(true);
  return eventsOf(frames);
};

/** The REST stream's event in the subscription's shape (racks and exchanged tiles as the game view writes them). */
const asGql = (e: StreamEventJson): GameEventGql => ({
  version: e.version,
  kind: e.kind,
  at: e.at,
  seat: e.seat,
  game: e.game && {
    state: e.game.status.toUpperCase().replace(/-/g, '_'),
    turn: e.game.turn,
    scores: e.game.scores,
    rackSizes: e.game.rackSizes,
    bagCount: e.game.bagCount,
    rack: e.game.rack ? e.game.rack.join('') : null,
    historyFrom: e.game.historyFrom,
    turns: e.game.turns.map((t) => ({
      seat: t.seat,
      kind: t.kind,
      notation: t.move,
      score: t.score,
      cumulative: t.cumulative,
      event: t.event,
      tiles: t.tiles ? t.tiles.join('') : null,
      count: t.count ?? null,
    })),
    result: e.game.result && { reason: e.game.result.reason, winner: e.game.result.winner },
  },
});

/** The score sheet a client keeps from the subscription: each update replaces the lines from `historyFrom` on. */
const sheetOf = (events: readonly GameEventGql[]) => {
  let sheet: NonNullable<GameEventGql['game']>['turns'] = [];
  for (const e of events) if (e.game) sheet = [...sheet.slice(0, e.game.historyFrom), ...e.game.turns];
  return sheet.map(({ seat, notation, score, cumulative, tiles, count }) => ({ seat, notation, score, cumulative, tiles, count }));
};

describe.each(STORE_TARGETS)('the gameEvents subscription on $kind', (target) => {
  let api: TestApi;
  let ann: Player;
  let ben: Player;
  let cat: Player;
  let dan: Player;
  /** A game ann and ben play while the subscriptions are open: an exchange early on, ended by a resignation. */
  let done: GameView;
  /** What each viewer's subscription, opened before the first turn, received while the game was played. */
  const live = new Map<string, GameEventGql[]>();

  beforeAll(async () => {
    api = await openSuite(target, 'live-subscription', { app: { live: LIVE } });
    [ann, ben, cat, dan] = await registerPlayers(api, 'ann', 'ben', 'cat', 'dan');
    const g = await createGameAs(api, ann, { opponent: ben.handle });
    const open = new Map<Player, ReturnType<typeof reader>>();
    for (const who of [ann, ben, cat]) {
      const res = await subscribe(api, who, { gameId: g.id });
      expect(res.status).toBe(200);
      const r = reader(res);
      await r.framesUntil((f) => eventsOf(f).some((e) => e.version >= g.version));
      open.set(who, r);
    }
    done = await playThenResign(api, g, ann, ben, 8);
    expect(done.status).toBe('ended');
    for (const [who, r] of open) {
      const frames = await r.framesUntil((f) => eventsOf(f).some((e) => e.version >= done.version));
      await r.cancel();
      live.set(who.handle, eventsOf(frames));
    }
  }, 120_000);
  afterAll(async () => {
    await closeSuite(api);
  });

  it('sends each player and a spectator every event as they happen, as their game view and their REST stream show it', async () => {
    for (const who of [ann, ben, cat]) {
      const view = await readGame(api, who, done.id);
      const events = live.get(who.handle)!;
      // Every version once, in order, from the opening through the turns made while it was open.
      expect(events.map((e) => e.version)).toEqual(Array.from({ length: view.version }, (_, i) => i + 1));
      expect(events[0]!.kind).toBe('game-created');
      expect(events.at(-1)!.kind).toBe('game-ended');
      // The same service stream as GET /v1/games/{id}/events: the same events, field for field.
      const rest = (await readAll(api, done.id, who, view.version)).events;
      expect(events).toEqual(rest.map(asGql));
      // The score sheet, the scores, the bag and the result as the game view has them.
      expect(sheetOf(events), who.handle).toEqual(sheetOfView(view.history));
      const last = events.at(-1)!.game!;
      expect(last.scores).toEqual(view.scores);
      expect(last.bagCount).toBe(view.bagCount);
      expect(last.state).toBe('ENDED');
      expect(last.result?.winner).toBe(view.result!.winner);
      expect(last.rackSizes).toEqual([0, 1].map((s) => view.seats.find((x) => x.seat === s)!.rackSize));
      for (const e of events) expect(e.seat).toBe(view.mySeat);
      if (view.mySeat === null) {
        // A spectator: no rack in any event.
        for (const e of events) if (e.game) expect(e.game.rack).toBeNull();
      } else {
        expect(last.rack).toBe(view.myRack);
        for (const e of events) if (e.game) expect(splitTiles(e.game.rack!)!.length).toBe(e.game.rackSizes[view.mySeat]);
      }
    }
    // The exchange's tiles: shown to the exchanger only.
    const exchangeOf = (events: GameEventGql[]) => events.flatMap((e) => e.game?.turns ?? []).find((t) => t.kind === 'exchange')!;
    const exchanger = exchangeOf(live.get(ann.handle)!).seat;
    const [mine, theirs] = exchanger === done.mySeat ? [ann, ben] : [ben, ann];
    expect(splitTiles(exchangeOf(live.get(mine.handle)!).tiles!)).toHaveLength(2);
    expect(exchangeOf(live.get(theirs.handle)!)).toMatchObject({ tiles: null, count: 2 });
    expect(exchangeOf(live.get(cat.handle)!)).toMatchObject({ tiles: null, count: 2 });
    // The other seat's rack never shows: each player's racks are their own (as their REST stream's).
    expect(live.get(ann.handle)!.at(-1)!.game!.rack).not.toBe(live.get(ben.handle)!.at(-1)!.game!.rack);
  });

  it('resumes after a version with every later event once, in order', async () => {
    const all = live.get(ben.handle)!;
    for (const k of [0, 7, done.version - 1]) expect(await readSubscription(api, done.id, ben, done.version, k)).toEqual(all.slice(k));
    // As EventSource subscribes: a GET with the query and the variables in the URL.
    const query = new URLSearchParams({ query: GAME_EVENTS, variables: JSON.stringify({ gameId: done.id, after: 5 }) });
    const res = await api.fetch(`/graphql?${query}`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${ben.token}` } });
    expect(res.status).toBe(200);
    const r = reader(res);
    const viaGet = eventsOf(await r.framesUntil((f) => eventsOf(f).some((e) => e.version >= done.version)));
    await r.cancel();
    expect(viaGet).toEqual(all.slice(5));
  });

  it('delivers a turn made by another request as soon as it is committed', async () => {
    const g = await createGameAs(api, ann, { opponent: ben.handle });
    const r = reader(await subscribe(api, cat, { gameId: g.id, after: g.version }));
    const mover = g.whoseTurn === g.mySeat ? ann : ben;
    const started = Date.now();
    await act(api, mover, g.id, { pass: true });
    const seen = eventsOf(await r.framesUntil((f) => eventsOf(f).length > 0));
    await r.cancel();
    expect(seen.map((e) => [e.version, e.kind])).toEqual([[g.version + 1, 'pass']]);
    expect(seen[0]!.game!.turns).toMatchObject([{ kind: 'pass', notation: '-' }]);
    expect(Date.now() - started).toBeLessThan(LIVE.pollMs / 10);
  });

  it('answers a game the caller may not see with GAME_NOT_FOUND and nothing else, and refuses bad input', async () => {
    /** The whole answer of a subscription that is refused: its frames until the server completes it. */
    const refusal = async (who: Player | null, variables: Record<string, unknown>) => {
      const res = await subscribe(api, who, variables);
      const r = reader(res);
      const frames = await r.framesUntil((f) => f.some((x) => x.event === 'complete'), 3000);
      await r.cancel();
      expect(frames.some((x) => x.event === 'complete')).toBe(true);
      return { status: res.status, payloads: payloadsOf(frames) };
    };
    for (const gameId of ['00000000-0000-4000-8000-000000000000', 'not-a-game']) {
      const { status, payloads } = await refusal(ann, { gameId });
      expect(status).toBe(200);
      expect(payloads).toHaveLength(1);
      expect(Object.keys(payloads[0]!)).toEqual(['errors']);
      expect(payloads[0]!.errors!.map((e) => e.extensions?.code)).toEqual(['GAME_NOT_FOUND']);
      // The same answer as the game query's for an unknown game: nothing tells it apart.
      expect(JSON.stringify(payloads[0])).not.toMatch(/ann|ben|seat|version/i);
    }
    const anonymous = await refusal(null, { gameId: done.id });
    expect(anonymous.payloads.map((p) => p.errors?.map((e) => e.extensions?.code))).toEqual([['UNAUTHENTICATED']]);
    const beyond = await refusal(ann, { gameId: done.id, after: done.version + 1 });
    expect(beyond.payloads.map((p) => p.errors?.map((e) => e.extensions?.code))).toEqual([['VALIDATION']]);
    const negative = await refusal(ann, { gameId: done.id, after: -1 });
    expect(negative.payloads.map((p) => p.errors?.map((e) => e.extensions?.code))).toEqual([['VALIDATION']]);
  });

  it('counts subscriptions and REST streams together against the per-caller limit, and frees a slot when one ends', async () => {
    const open: ReturnType<typeof reader>[] = [];
    for (let i = 0; i < LIVE.streamsPerCaller; i++) {
      const res =
        i % 2
          ? await api.fetch(`/v1/games/${done.id}/events?after=${done.version}`, { headers: { authorization: `Bearer ${dan.token}` } })
          : await subscribe(api, dan, { gameId: done.id, after: done.version });
      expect(res.status).toBe(200);
      const r = reader(res);
      await r.framesUntil((f) => f.length > 0, 300);
      open.push(r);
    }
    const over = reader(await subscribe(api, dan, { gameId: done.id, after: done.version }));
    const refused = payloadsOf(await over.framesUntil((f) => f.some((x) => x.event === 'complete'), 3000));
    await over.cancel();
    expect(refused.map((p) => p.errors?.map((e) => e.extensions?.code))).toEqual([['RATE_LIMITED']]);
    await open.shift()!.cancel();
    // The slot is freed as the ended subscription's source is closed.
    await vi.waitFor(
      async () => {
        const again = await subscribe(api, dan, { gameId: done.id, after: done.version });
        const r = reader(again);
        const frames = await r.framesUntil((f) => f.length > 0 && !f.some((x) => x.event === 'complete'), 300);
        const ok = !payloadsOf(frames).some((p) => p.errors);
        if (ok) open.push(r);
        else await r.cancel();
        expect(ok).toBe(true);
      },
      { timeout: 3000, interval: 100 },
    );
    for (const r of open) await r.cancel();
  });

  it('over a real HTTP server, a client that goes away ends its subscription and frees its slot', async () => {
    const server = createServer(api.app.yoga);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (let round = 0; round < 2; round++) {
        const aborts: AbortController[] = [];
        for (let i = 0; i < LIVE.streamsPerCaller; i++) {
          const abort = new AbortController();
          const res = await fetch(`${base}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${dan.token}` },
            body: JSON.stringify({ query: GAME_EVENTS, variables: { gameId: done.id, after: done.version - 1 } }),
            signal: abort.signal,
          });
          const r = reader(res);
          // Each one open: it sends the last event (a refusal would send errors and complete).
          const events = eventsOf(await r.framesUntil((f) => eventsOf(f).length > 0 || f.some((x) => x.event === 'complete')));
          expect(
            events.map((e) => e.version),
            `round ${round}, stream ${i}`,
          ).toEqual([done.version]);
          aborts.push(abort);
        }
        for (const a of aborts) a.abort();
        // The server sees the sockets close and ends the subscriptions: the next round gets every slot again.
        await vi.waitFor(
          async () => {
            const probe = reader(await subscribe(api, dan, { gameId: done.id, after: done.version }));
            const frames = await probe.framesUntil((f) => f.some((x) => x.event === 'complete'), 200);
            await probe.cancel();
            expect(payloadsOf(frames)).toEqual([]);
          },
          { timeout: 5000, interval: 100 },
        );
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('keeps the query limits and the request armor for subscriptions', async () => {
    /** The codes of the one refusal a subscription document gets instead of a stream. */
    const codesOf = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await api.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${ann.token}` },
        body: JSON.stringify({ query, variables }),
      });
      const r = reader(res);
      const frames = await r.framesUntil((f) => f.some((x) => x.event === 'complete'), 3000);
      await r.cancel();
      const payloads = payloadsOf(frames);
      expect(payloads.every((p) => !p.data)).toBe(true);
      return payloads.flatMap((p) => (p.errors ?? []).map((e) => e.extensions?.code));
    };
    const aliases = Array.from({ length: 300 }, (_, i) => `a${i}: version`).join(' ');
    expect(await codesOf(`subscription { gameEvents(gameId: "${done.id}") { ${aliases} } }`)).toEqual(['QUERY_TOO_MANY_ALIASES']);
    const costly = Array.from({ length: 20 }, (_, i) => `g${i}: game { turns { words { letters { square letter value premium } } } }`).join(
      ' ',
    );
    expect(await codesOf(`subscription { gameEvents(gameId: "${done.id}") { ${costly} } }`)).toEqual(['QUERY_TOO_COSTLY']);
    // Variables nested past the limit are refused before the subscription opens (graph/yoga.ts useVariableNestingGuard).
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(await codesOf(GAME_EVENTS, { gameId: done.id, extra: deep })).toEqual(['VALIDATION']);
  });
});

describe('the gameEvents subscription where streams are not served (Lambda)', () => {
  it('answers 501 STREAMS_UNAVAILABLE, as GET /v1/games/{id}/events does', async () => {
    const api = await openTestApi({ kind: 'pglite' }, { app: { live: { enabled: false } } });
    try {
      const [ann, ben] = await registerPlayers(api, 'ann', 'ben');
      const g = await createGameAs(api, ann, { opponent: ben.handle });
      for (const accept of ['text/event-stream', 'application/graphql-response+json']) {
        const res = await subscribe(api, ann, { gameId: g.id }, accept);
        expect(res.status, accept).toBe(501);
        const body = (await res.json()) as Payload;
        expect(body.errors!.map((e) => e.extensions?.code)).toEqual(['STREAMS_UNAVAILABLE']);
      }
      expect((await api.fetch(`/v1/games/${g.id}/events`, { headers: { authorization: `Bearer ${ann.token}` } })).status).toBe(501);
    } finally {
      await api.close();
    }
  });
});

describe('the seeks subscription where streams are not served (Lambda)', () => {
  it('answers 501 STREAMS_UNAVAILABLE, anonymous or signed in, as GET /v1/seeks/events does', async () => {
    const api = await openTestApi({ kind: 'pglite' }, { app: { live: { enabled: false } } });
    try {
      const [ann] = await registerPlayers(api, 'ann');
      // The seek list is open to anyone, so the refusal must not hide behind a missing credential.
      for (const who of [null, ann]) {
        for (const accept of ['text/event-stream', 'application/graphql-response+json']) {
          const res = await api.fetch('/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept, ...(who ? { authorization: `Bearer ${who.token}` } : {}) },
            body: JSON.stringify({ query: 'subscription { seeks { id kind seekId } }' }),
          });
          expect(res.status, `${who ? 'signed in' : 'anonymous'}, ${accept}`).toBe(501);
          const body = (await res.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
          expect(body.errors!.map((e) => e.extensions?.code)).toEqual(['STREAMS_UNAVAILABLE']);
          expect(body.data).toBeUndefined();
        }
      }
      const rest = await api.fetch('/v1/seeks/events');
      expect(rest.status).toBe(501);
      expect(((await rest.json()) as { code: string }).code).toBe('STREAMS_UNAVAILABLE');
    } finally {
      await api.close();
    }
  });
});

describe("SOFA's subscription webhooks", () => {
  it('are refused with 404 before SOFA sees them, with the subscription in the schema, and never fetch anything', async () => {
    const api = await openTestApi({ kind: 'pglite' });
    // Where an attacker would have the server POST the subscription's events: it must never hear from it.
    const hits: string[] = [];
    const target = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/steal`;
    try {
      expect((await api.gql('{ __schema { subscriptionType { fields { name } } } }')).body.data).toEqual({
        __schema: { subscriptionType: { fields: [{ name: 'gameEvents' }, { name: 'myEvents' }, { name: 'seeks' }] } },
      });
      const [ann, ben] = await registerPlayers(api, 'ann', 'ben');
      const g = await createGameAs(api, ann, { opponent: ben.handle });
      const body = JSON.stringify({ subscription: 'gameEvents', variables: { gameId: g.id }, url });
      const attempts: [string, string][] = [
        ['POST', '/rest/webhook'],
        ['POST', '/rest/webhook/'],
        ['POST', '/rest//webhook'],
        ['POST', '/rest/Webhook'],
        ['POST', '/rest/web%68ook'],
        ['POST', '/rest/webhook/x'],
        ['DELETE', '/rest/webhook/x'],
        ['GET', '/rest/webhook'],
      ];
      for (const [method, path] of attempts) {
        const res = await api.fetch(path, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${ann.token}` },
          ...(method === 'GET' ? {} : { body }),
        });
        expect([404, 405], `${method} ${path}`).toContain(res.status);
        expect(await res.text(), `${method} ${path}`).not.toMatch(/"id"|gameEvents"/);
      }
      // The other /rest routes still answer, the webhook-subscriptions list among them.
      expect((await api.fetch('/rest/rule-sets')).status).toBe(200);
      expect((await api.fetch('/rest/webhook-subscriptions', { headers: { authorization: `Bearer ${ann.token}` } })).status).toBe(200);
      // The deprecated document lists no webhook route.
      const doc = (await (await api.fetch('/rest/openapi.json')).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths).filter((p) => /webhook(\/|$)/i.test(p))).toEqual([]);
      // Nothing was fetched by the server: no POST to the attacker's URL, now or after a turn.
      await act(api, g.whoseTurn === g.mySeat ? ann : ben, g.id, { pass: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(hits).toEqual([]);
    } finally {
      await new Promise((resolve) => target.close(resolve));
      await api.close();
    }
  });

  it('matches every spelling of the webhook paths and nothing else', () => {
    for (const p of [
      '/rest/webhook',
      '/rest/webhook/',
      '/rest/webhook/abc',
      '/REST/WEBHOOK',
      '//rest//webhook',
      '/rest/web%68ook',
      '/rest/webhook;x',
    ])
      expect(isSofaWebhookPath(p), p).toBe(true);
    for (const p of ['/rest/webhook-subscriptions', '/rest/webhook-deliveries', '/v1/webhooks', '/rest/rule-sets', '/graphql'])
      expect(isSofaWebhookPath(p), p).toBe(false);
  });
});
