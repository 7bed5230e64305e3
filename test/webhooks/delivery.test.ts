import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler, publicBaseUrlFromEnv } from '../../functions/webhooks.js';
import { createDb, type Db } from '../../store/db.js';
import { deliverDue, type FetchLike, type WebhookBody } from '../../service/webhook-delivery.js';
import { drain } from '../../service/webhook-drain.js';
import { fanOutOutbox } from '../../service/webhook-fan-out.js';
import { verifySignature } from '../../service/webhook-signature.js';
import { createSubscription } from '../../service/webhook-subscriptions.js';
import { openTestDb, STORE_TARGETS, type StoreTarget } from '../store/targets.js';
import { pinnedFetch } from '../../service/webhook-destination.js';
import { addPlayer, expectedBackoff, LOCAL_DESTINATIONS, playTurn, setUp, startGame, T0, TEST_DESTINATIONS, testClock } from './fixture.js';

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A receiver on 127.0.0.1 that answers the n-th request with `script[n]`: a status, or 'hang'. */
const startReceiver = async (script: readonly (number | 'hang')[]): Promise<{ url: string; received: Received[]; server: Server }> => {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const step = script[received.length] ?? 200;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (step === 'hang') return; // never answers; the sender's timeout gives up
      res.writeHead(step, { 'content-type': 'text/plain' }).end(step >= 300 ? 'receiver is down' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/arbiter`, received, server };
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const freshDb = async (target: StoreTarget) => {
  const t = await openTestDb(target);
  cleanups.push(t.drop);
  await setUp(t.db);
  return t;
};

/** A stub receiver: answers `status` (default 200) and records what it got. */
const stubFetch = (respond: (n: number) => Promise<Response> | Response = () => new Response('ok', { status: 200 })) => {
  const calls: { url: string; headers: Record<string, string>; body: string }[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, headers: init.headers, body: init.body });
    return respond(calls.length);
  };
  return { fetch, calls };
};

/** Alice (seat 0) and Bob (seat 1) in a game; Bob subscribes to your-turn; Alice's turn announces Bob's. The receivers on 127.0.0.1 need the development setting. */
const bobsTurn = async (db: Db, url: string) => {
  const alice = await addPlayer(db, 'alice');
  const bob = await addPlayer(db, 'bob');
  const gameId = await startGame(db, [alice.id, bob.id]);
  const created = await createSubscription(db, { apiKeyId: bob.apiKeyId, ownerId: bob.id, url, kinds: ['your-turn'] }, LOCAL_DESTINATIONS);
  if (!created.ok) throw new Error(created.error.message);
  const version = await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id });
  return { alice, bob, gameId, version, subscription: created.value.subscription, secret: created.value.secret };
};

describe('ARBITER_PUBLIC_URL', () => {
  it.each([
    [undefined, null],
    ['https://arbiter.example.org/', 'https://arbiter.example.org'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
    ['https://x.example/api?k=1', null],
    ['ftp://x.example', null],
    ['not a url', null],
  ])('%s → %s', (value, expected) => {
    const warnings: string[] = [];
    expect(publicBaseUrlFromEnv({ ARBITER_PUBLIC_URL: value }, (w) => warnings.push(w))).toBe(expected);
    expect(warnings).toHaveLength(value && expected === null ? 1 : 0);
  });
});

describe.each(STORE_TARGETS)('webhook delivery on $kind', (target) => {
  if (target.kind === 'postgres') {
    it('reaches the Postgres server', () => {
      expect(target.unreachable, `Postgres at ${target.url}`).toBeUndefined();
    });
  }

  it('retries a receiver that fails twice (500, then a timeout) and logs three attempts, the third succeeding', async () => {
    const { db } = await freshDb(target);
    const receiver = await startReceiver([500, 'hang', 200]);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          receiver.server.closeAllConnections();
          receiver.server.close(() => resolve());
        }),
    );
    const { bob, gameId, version, subscription, secret } = await bobsTurn(db, receiver.url);
    const clock = testClock();
    const deps = { now: clock.now, fetch: pinnedFetch, destinations: LOCAL_DESTINATIONS, timeoutMs: 300 };

    // T0: fan-out + first attempt → 500.
    expect(await drain(db, deps)).toEqual({
      outboxRows: 1,
      invalidRows: 0,
      deliveriesCreated: 1,
      attempted: 1,
      succeeded: 0,
      retrying: 1,
      dead: 0,
    });
    const [delivery] = await db.prisma.webhookDelivery.findMany();
    const id = delivery!.id;
    const t1 = new Date(T0.getTime() + expectedBackoff(1, id));
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatusCode: 500,
      nextAttemptAt: t1,
      subscriptionId: subscription.id,
    });
    expect(delivery!.lastError).toBe('HTTP 500: receiver is down');
    const outbox = await db.prisma.outboxMessage.findFirstOrThrow({ where: { gameId } });
    expect(outbox).toMatchObject({ deliveredAt: T0, attempts: 1, kind: 'your-turn', lastError: null });

    // Not due yet one second before t1: nothing is sent.
    clock.set(new Date(t1.getTime() - 1000));
    expect(await drain(db, deps)).toMatchObject({ outboxRows: 0, attempted: 0 });

    // t1: the receiver hangs; the 300 ms timeout counts as a failure.
    clock.set(t1);
    expect(await drain(db, deps)).toMatchObject({ attempted: 1, retrying: 1 });
    const t2 = new Date(t1.getTime() + expectedBackoff(2, id));
    expect(await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastStatusCode: null,
      lastError: 'timeout after 300 ms',
      nextAttemptAt: t2,
    });

    // t2: 200.
    clock.set(t2);
    expect(await drain(db, deps)).toMatchObject({ attempted: 1, succeeded: 1, retrying: 0, dead: 0 });
    const done = await db.prisma.webhookDelivery.findMany();
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ id, status: 'succeeded', attempts: 3, lastStatusCode: 200, lastError: null });
    const log = await db.prisma.webhookAttempt.findMany({ where: { deliveryId: id }, orderBy: { attempt: 'asc' } });
    expect(log.map((a) => [a.attempt, a.attemptedAt, a.statusCode, a.error])).toEqual([
      [1, T0, 500, 'HTTP 500: receiver is down'],
      [2, t1, null, 'timeout after 300 ms'],
      [3, t2, 200, null],
    ]);
    // Nothing more to do afterwards.
    clock.advance(86_400_000);
    expect(await drain(db, deps)).toMatchObject({ outboxRows: 0, attempted: 0 });

    // What the receiver got: the same event three times, signed at each attempt's time.
    expect(receiver.received).toHaveLength(3);
    const bodies = new Set(receiver.received.map((r) => r.body));
    expect(bodies.size).toBe(1);
    const body = JSON.parse(receiver.received[0]!.body) as WebhookBody;
    expect(body).toEqual({
      id,
      kind: 'your-turn',
      createdAt: outbox.createdAt.toISOString(),
      data: { kind: 'your-turn', gameId, version, seat: 1, playerId: bob.id },
    });
    const sentAt = [T0, t1, t2];
    receiver.received.forEach((r, i) => {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['arbiter-event-id']).toBe(id);
      expect(r.headers['arbiter-event-kind']).toBe('your-turn');
      expect(r.headers['arbiter-delivery-attempt']).toBe(String(i + 1));
      const header = String(r.headers['arbiter-signature']);
      expect(header).toMatch(new RegExp(`^t=${Math.floor(sentAt[i]!.getTime() / 1000)},v1=[0-9a-f]{64}$`));
      expect(verifySignature(secret, header, r.body, sentAt[i]!)).toMatchObject({ ok: true });
    });
    // A captured request replayed later than the tolerance is refused, as is a forged body.
    const first = receiver.received[0]!;
    const replay = verifySignature(secret, String(first.headers['arbiter-signature']), first.body, new Date(T0.getTime() + 301_000));
    expect(replay.ok ? null : replay.error.code).toBe('SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE');
    const forged = verifySignature(secret, String(first.headers['arbiter-signature']), first.body.replace('"seat":1', '"seat":0'), T0);
    expect(forged.ok ? null : forged.error.code).toBe('SIGNATURE_MISMATCH');
  });

  it('records a refused connection and gives up after maxAttempts (dead)', async () => {
    const { db } = await freshDb(target);
    // A port that was just let go: nothing listens, the connection is refused.
    const probe = await startReceiver([]);
    await new Promise<void>((resolve) => probe.server.close(() => resolve()));
    await bobsTurn(db, probe.url);
    const clock = testClock();
    const deps = { now: clock.now, fetch: pinnedFetch, destinations: LOCAL_DESTINATIONS, maxAttempts: 3, backoff: () => 60_000 };
    expect(await drain(db, deps)).toMatchObject({ attempted: 1, retrying: 1 });
    clock.advance(60_000);
    expect(await drain(db, deps)).toMatchObject({ attempted: 1, retrying: 1 });
    clock.advance(60_000);
    expect(await drain(db, deps)).toMatchObject({ attempted: 1, retrying: 0, dead: 1 });
    clock.advance(86_400_000);
    expect(await drain(db, deps)).toMatchObject({ attempted: 0 });
    const [d] = await db.prisma.webhookDelivery.findMany({ include: { attemptLog: { orderBy: { attempt: 'asc' } } } });
    expect(d).toMatchObject({ status: 'dead', attempts: 3, lastStatusCode: null });
    expect(d!.attemptLog.map((a) => [a.attempt, a.attemptedAt.getTime() - T0.getTime(), a.statusCode])).toEqual([
      [1, 0, null],
      [2, 60_000, null],
      [3, 120_000, null],
    ]);
    expect(d!.lastError).toMatch(/ECONNREFUSED/);
  });

  it.each([
    ['a redirect', () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/' } }), 302, 'HTTP 302'],
    ['a 404', () => new Response('no such hook', { status: 404 }), 404, 'HTTP 404: no such hook'],
    [
      'a thrown network error',
      () => {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }) });
      },
      null,
      'TypeError: fetch failed — ENOTFOUND',
    ],
  ])('treats %s as a failure to retry, without throwing', async (_, respond, statusCode, error) => {
    const { db } = await freshDb(target);
    await bobsTurn(db, 'https://hooks.example.com/arbiter');
    const stub = stubFetch(respond);
    const result = await drain(db, { now: testClock().now, fetch: stub.fetch, destinations: TEST_DESTINATIONS });
    expect(result).toMatchObject({ attempted: 1, retrying: 1, succeeded: 0 });
    expect(stub.calls.map((c) => c.url)).toEqual(['https://hooks.example.com/arbiter']);
    expect(await db.prisma.webhookAttempt.findFirstOrThrow()).toMatchObject({ attempt: 1, statusCode, error });
  });

  it('loses nothing when the process dies between fan-out and delivery, or in the middle of a request', async () => {
    // A database a second process can open: a Postgres schema, or a PGlite directory.
    let reopen: () => Promise<Db>;
    let first: Db;
    if (target.kind === 'postgres') {
      const t = await freshDb(target);
      first = t.db;
      reopen = () => t.reopen();
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'arbiter-webhooks-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      first = await createDb({ dataDir: dir });
      await setUp(first);
      reopen = async () => {
        const db = await createDb({ dataDir: dir });
        cleanups.push(() => db.close());
        return db;
      };
    }
    const { gameId } = await bobsTurn(first, 'https://hooks.example.com/arbiter');
    const clock = testClock();
    expect(await fanOutOutbox(first, { now: clock.now })).toEqual({ outboxRows: 1, invalidRows: 0, deliveriesCreated: 1 });
    await first.close(); // "crash": nothing was sent

    // Second process: the delivery is still there and due; its request hangs and the process dies again.
    const second = await reopen();
    let called!: () => void;
    const requestStarted = new Promise<void>((resolve) => (called = resolve));
    const hanging: FetchLike = () => {
      called();
      return new Promise<Response>(() => undefined); // never settles, ignores the abort: the process is gone
    };
    void deliverDue(second, { now: clock.now, fetch: hanging, destinations: TEST_DESTINATIONS, timeoutMs: 1000, leaseMs: 120_000 });
    await requestStarted;
    await second.close();

    // Third process: within the lease the delivery is held; after it, it is retried and succeeds.
    const third = await reopen();
    const stub = stubFetch();
    clock.advance(119_000);
    expect(await drain(third, { now: clock.now, fetch: stub.fetch, destinations: TEST_DESTINATIONS })).toMatchObject({ attempted: 0 });
    clock.advance(1_000);
    expect(await drain(third, { now: clock.now, fetch: stub.fetch, destinations: TEST_DESTINATIONS })).toMatchObject({
      attempted: 1,
      succeeded: 1,
    });
    const [d] = await third.prisma.webhookDelivery.findMany({ include: { attemptLog: true } });
    expect(d).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(d!.attemptLog.map((a) => [a.attempt, a.attemptedAt.getTime() - T0.getTime(), a.statusCode])).toEqual([[1, 120_000, 200]]);
    expect(JSON.parse(stub.calls[0]!.body)).toMatchObject({ id: d!.id, data: { gameId } });
    if (target.kind === 'pglite') await third.close();
  });

  it('does not double-deliver when two senders drain at once', async () => {
    const t = await freshDb(target);
    const db = t.db;
    // On Postgres the second sender has its own pool (another Lambda, in effect); PGlite has one connection.
    const other = target.kind === 'postgres' ? await t.reopen() : db;
    const alice = await addPlayer(db, 'alice');
    const bob = await addPlayer(db, 'bob');
    const created = await createSubscription(
      db,
      { apiKeyId: bob.apiKeyId, ownerId: bob.id, url: 'https://hooks.example.com/a', kinds: ['game-ended'] },
      TEST_DESTINATIONS,
    );
    expect(created.ok).toBe(true);
    for (let i = 0; i < 6; i += 1) {
      const gameId = await startGame(db, [alice.id, bob.id]);
      await playTurn(db, gameId, 'game-ended', { winnerSeat: 1 });
    }
    const seen: string[] = [];
    const slow: FetchLike = async (_url, init) => {
      seen.push(init.headers['arbiter-event-id']!);
      await new Promise((r) => setTimeout(r, 20));
      return new Response('ok', { status: 200 });
    };
    const now = testClock().now;
    const results = await Promise.all([
      drain(db, { now, fetch: slow, destinations: TEST_DESTINATIONS, batchSize: 2, concurrency: 2 }),
      drain(other, { now, fetch: slow, destinations: TEST_DESTINATIONS, batchSize: 2, concurrency: 2 }),
      drain(db, { now, fetch: slow, destinations: TEST_DESTINATIONS, batchSize: 2, concurrency: 2 }),
    ]);
    // Batches of 2 run until the outbox is empty, so the three senders split the 6 rows.
    expect(results.reduce((n, r) => n + r.outboxRows, 0)).toBe(6);
    expect(results.reduce((n, r) => n + r.deliveriesCreated, 0)).toBe(6);
    // Deliveries created by one sender may be sent by any; each exactly once. A final run sends what is left.
    await drain(db, { now, fetch: slow, destinations: TEST_DESTINATIONS });
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    expect(await db.prisma.webhookDelivery.count({ where: { status: 'succeeded', attempts: 1 } })).toBe(6);
    expect(await db.prisma.webhookAttempt.count()).toBe(6);
    expect(await db.prisma.outboxMessage.count({ where: { deliveredAt: null } })).toBe(0);
  });

  it('links the game’s pictures at the event’s version when the public address is known', async () => {
    const { db } = await freshDb(target);
    const { gameId, version, secret } = await bobsTurn(db, 'https://hooks.example.com/arbiter');
    const stub = stubFetch();
    await drain(db, {
      now: testClock().now,
      fetch: stub.fetch,
      destinations: TEST_DESTINATIONS,
      publicBaseUrl: 'https://arbiter.example.org',
    });
    const body = JSON.parse(stub.calls[0]!.body) as WebhookBody & { data: { links: Record<string, string> } };
    expect(body.data.links).toEqual({
      board: `https://arbiter.example.org/v1/games/${gameId}/board.png?version=${version}`,
      boardSvg: `https://arbiter.example.org/v1/games/${gameId}/board.svg?version=${version}`,
    });
    // The links are inside the signed body.
    expect(verifySignature(secret, stub.calls[0]!.headers['arbiter-signature']!, stub.calls[0]!.body, T0).ok).toBe(true);
  });

  it('runs as the Lambda handler and logs the counts as one JSON line', async () => {
    const { db } = await freshDb(target);
    await bobsTurn(db, 'https://hooks.example.com/arbiter');
    const lines: string[] = [];
    const stub = stubFetch();
    const handler = createWebhookHandler({
      getDb: async () => db,
      now: testClock().now,
      fetch: stub.fetch,
      destinations: TEST_DESTINATIONS,
      log: (l) => lines.push(l),
    });
    expect(await handler()).toEqual({
      outboxRows: 1,
      invalidRows: 0,
      deliveriesCreated: 1,
      attempted: 1,
      succeeded: 1,
      retrying: 0,
      dead: 0,
    });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'webhooks.drain', outboxRows: 1, deliveriesCreated: 1, succeeded: 1 });
  });
});
