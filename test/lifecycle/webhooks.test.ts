/**
 * Webhook deliveries of correspondence games, on PGlite and on Postgres: players subscribe
 * (`createSubscription`) to `your-turn` / `game-ended`; one game is ended by the deadline sweeper, one
 * by a timeout the opponent claims; a receiver on 127.0.0.1 fails every delivery twice, then accepts it.
 * The injected clock drives `drain` through the back-off (30 s, then 2 min, each plus < 10 % jitter);
 * each delivery's log shows 503, 503, 200 and the outbox rows are marked processed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimTimeout, sweepDeadlines } from '../../service/lifecycle.js';
import type { WebhookBody } from '../../service/webhook-delivery.js';
import { pinnedFetch } from '../../service/webhook-destination.js';
import { drain } from '../../service/webhook-drain.js';
import { createSubscription } from '../../service/webhook-subscriptions.js';
import { verifySignature } from '../../service/webhook-signature.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { asGame, CREATE_GAME, graphql, type GameOrError } from '../e2e/client.js';
import { LOCAL_DESTINATIONS } from '../webhooks/fixture.js';
import { botPlayer, type BotPlayer } from './fixture.js';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const at = (ms: number): Date => new Date(START.getTime() + ms);

interface Received {
  readonly id: string;
  readonly attempt: string;
  readonly signature: string;
  readonly body: string;
}

/** Answers 503 to the first two requests of each delivery (by Arbiter-Event-Id), 200 after. */
const flakyReceiver = async (): Promise<{ url: string; received: Received[]; server: Server }> => {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['arbiter-event-id']);
      received.push({
        id,
        attempt: String(req.headers['arbiter-delivery-attempt']),
        signature: String(req.headers['arbiter-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const seen = received.filter((r) => r.id === id).length;
      res.writeHead(seen <= 2 ? 503 : 200, { 'content-type': 'text/plain' }).end(seen <= 2 ? 'down for maintenance' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server };
};

describe.each(STORE_TARGETS)('webhooks of correspondence games on $kind', (target) => {
  let api: TestApi;
  let a: BotPlayer;
  let b: BotPlayer;
  let receiver: Awaited<ReturnType<typeof flakyReceiver>>;
  beforeAll(async () => {
    api = await openTestApi(target);
    receiver = await flakyReceiver();
    [a, b] = [await botPlayer(api, 'hook-amy'), await botPlayer(api, 'hook-bob')];
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver?.server.close(() => resolve()));
    await api?.close();
  });

  it('your-turn and game-ended from a swept and a claimed game: failed twice, then delivered', async () => {
    const db = api.app.services.db;
    // The receiver is on 127.0.0.1: the development setting, given explicitly.
    const subA = await createSubscription(
      db,
      { apiKeyId: a.apiKeyId, ownerId: a.id, url: receiver.url, kinds: ['your-turn', 'game-ended'] },
      LOCAL_DESTINATIONS,
    );
    const subB = await createSubscription(
      db,
      { apiKeyId: b.apiKeyId, ownerId: b.id, url: receiver.url, kinds: ['game-ended'] },
      LOCAL_DESTINATIONS,
    );
    if (!subA.ok || !subB.ok) throw new Error('subscriptions');

    api.setNow(at(0));
    const input = { opponent: b.handle, timeControl: { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0 } };
    const swept = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input }, a.token));
    const claimed = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input }, a.token));
    // 13:00: the sweeper ends one game; Bob claims the other.
    api.setNow(at(HOUR));
    expect(await sweepDeadlines({ db, now: () => at(HOUR) }, { limit: 1 })).toMatchObject({ scanned: 1, timedOut: 1 });
    const services = { db, lexicons: api.app.services.lexicons, now: () => at(HOUR) };
    const remaining = [swept.id, claimed.id];
    const endedBySweep = (await db.prisma.game.findMany({ where: { id: { in: remaining }, status: 'ended' } }))[0]!.id;
    const toClaim = remaining.find((id) => id !== endedBySweep)!;
    expect((await claimTimeout(services, b.id, toClaim)).ok).toBe(true);

    // Amy: your-turn + game-ended of each game; Bob: the two game-ended (each game's game-started is nobody's subscription).
    const run = (ms: number) => drain(db, { now: () => at(ms), fetch: pinnedFetch, destinations: LOCAL_DESTINATIONS });
    expect(await run(HOUR)).toMatchObject({ outboxRows: 6, deliveriesCreated: 6, attempted: 6, succeeded: 0, retrying: 6 });
    expect(await run(HOUR + 10 * SEC)).toMatchObject({ attempted: 0 });
    expect(await run(HOUR + 40 * SEC)).toMatchObject({ attempted: 6, retrying: 6 });
    expect(await run(HOUR + 40 * SEC + 2 * MIN)).toMatchObject({ attempted: 0 });
    expect(await run(HOUR + 40 * SEC + 3 * MIN)).toMatchObject({ attempted: 6, succeeded: 6, retrying: 0, dead: 0 });
    expect(await run(HOUR + 2 * HOUR)).toMatchObject({ outboxRows: 0, attempted: 0 });

    // The delivery log: every delivery succeeded on its third attempt, after two 503s.
    const deliveries = await db.prisma.webhookDelivery.findMany({
      include: { attemptLog: { orderBy: { attempt: 'asc' } }, outbox: true },
      orderBy: { id: 'asc' },
    });
    expect(deliveries).toHaveLength(6);
    for (const d of deliveries) {
      expect(d).toMatchObject({ status: 'succeeded', attempts: 3, lastStatusCode: 200, lastError: null });
      expect(d.attemptLog.map((x) => [x.attempt, x.statusCode, x.attemptedAt])).toEqual([
        [1, 503, at(HOUR)],
        [2, 503, at(HOUR + 40 * SEC)],
        [3, 200, at(HOUR + 40 * SEC + 3 * MIN)],
      ]);
      expect(d.attemptLog[0]!.error).toMatch(/HTTP 503: down for maintenance/);
      expect(d.outbox.deliveredAt).toEqual(at(HOUR));
    }
    const bySub = (id: string) => deliveries.filter((d) => d.subscriptionId === id).map((d) => [d.outbox.gameId, d.kind]);
    expect(bySub(subA.value.subscription.id).sort()).toEqual(
      [
        [swept.id, 'your-turn'],
        [claimed.id, 'your-turn'],
        [swept.id, 'game-ended'],
        [claimed.id, 'game-ended'],
      ].sort(),
    );
    expect(bySub(subB.value.subscription.id).sort()).toEqual(
      [
        [swept.id, 'game-ended'],
        [claimed.id, 'game-ended'],
      ].sort(),
    );

    // What the receiver got: three signed copies of each event, attempts 1, 2, 3, the same body each time.
    expect(receiver.received).toHaveLength(18);
    for (const d of deliveries) {
      const copies = receiver.received.filter((r) => r.id === d.id);
      expect(copies.map((r) => r.attempt)).toEqual(['1', '2', '3']);
      expect(new Set(copies.map((r) => r.body)).size).toBe(1);
      const secret = d.subscriptionId === subA.value.subscription.id ? subA.value.secret : subB.value.secret;
      expect(verifySignature(secret, copies[2]!.signature, copies[2]!.body, at(HOUR + 40 * SEC + 3 * MIN)).ok).toBe(true);
      const body = JSON.parse(copies[0]!.body) as WebhookBody;
      expect(body).toMatchObject({ id: d.id, kind: d.kind, data: d.outbox.payload });
    }
    const ends = receiver.received.map((r) => JSON.parse(r.body) as WebhookBody).filter((x) => x.kind === 'game-ended');
    expect(new Set(ends.map((x) => JSON.stringify(x.data)))).toEqual(
      new Set(
        [swept.id, claimed.id].map((gameId) =>
          JSON.stringify(deliveries.find((d) => d.outbox.gameId === gameId && d.kind === 'game-ended')!.outbox.payload as object),
        ),
      ),
    );
    for (const x of ends) expect(x.data).toMatchObject({ reason: 'timed-out', winnerSeat: 1, loserSeat: 0 });
    const turns = receiver.received.map((r) => JSON.parse(r.body) as WebhookBody).filter((x) => x.kind === 'your-turn');
    for (const x of turns) expect(x.data).toMatchObject({ seat: 0, playerId: a.id, deadlineAt: at(HOUR).toISOString() });
  });
});
