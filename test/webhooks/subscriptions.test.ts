import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../store/db.js';
import { deliverDue, type FetchLike } from '../../service/webhook-delivery.js';
import { fanOutOutbox } from '../../service/webhook-fan-out.js';
import { listDeliveries } from '../../service/webhook-log.js';
import {
  createSubscription,
  deleteSubscription,
  listSubscriptions,
  setSubscriptionActive,
  type NewSubscription,
} from '../../service/webhook-subscriptions.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';
import { addPlayer, LOCAL_DESTINATIONS, playTurn, setUp, startGame, TEST_DESTINATIONS, testClock, type Player } from './fixture.js';

const URL_OK = 'https://hooks.example.com/arbiter';
const ok200: FetchLike = async () => new Response('ok', { status: 200 });
const fail500: FetchLike = async () => new Response('down', { status: 500 });

describe.each(STORE_TARGETS)('webhook subscriptions and routing on $kind', (target) => {
  if (target.kind === 'postgres') {
    it('reaches the Postgres server', () => {
      expect(target.unreachable, `Postgres at ${target.url}`).toBeUndefined();
    });
  }

  let t: TestDb;
  let db: Db;
  let alice: Player;
  let bob: Player;
  let carol: Player;
  const clock = testClock();
  beforeAll(async () => {
    t = await openTestDb(target);
    db = t.db;
    await setUp(db);
    alice = await addPlayer(db, 'alice');
    bob = await addPlayer(db, 'bob');
    carol = await addPlayer(db, 'carol');
  });
  afterAll(async () => {
    await t?.drop();
  });

  const subscribe = async (p: Player, kinds: string[], url = URL_OK) => {
    const r = await createSubscription(db, { apiKeyId: p.apiKeyId, ownerId: p.id, url, kinds }, TEST_DESTINATIONS);
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  /** Deliveries created for each subscription by one fan-out. */
  const fanOutFor = async (subscriptionIds: readonly string[]) => {
    await fanOutOutbox(db, { now: clock.now });
    const rows = await db.prisma.webhookDelivery.findMany({ where: { subscriptionId: { in: [...subscriptionIds] } } });
    return subscriptionIds.map((id) => rows.filter((r) => r.subscriptionId === id).length);
  };
  const clearDeliveries = () => deliverDue(db, { now: clock.now, fetch: ok200, destinations: TEST_DESTINATIONS });

  it('creates a subscription, shows the secret once, lists it without the secret', async () => {
    const dave = await addPlayer(db, 'dave');
    // A receiver on the developer's machine: only with the development setting.
    const created = await createSubscription(
      db,
      { apiKeyId: dave.apiKeyId, ownerId: dave.id, url: 'http://localhost:8080/hook', kinds: ['game-ended', 'your-turn'] },
      LOCAL_DESTINATIONS,
    );
    if (!created.ok) throw new Error(created.error.message);
    expect(created.value.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.value.subscription).toMatchObject({
      ownerId: dave.id,
      apiKeyId: dave.apiKeyId,
      url: 'http://localhost:8080/hook',
      kinds: ['your-turn', 'game-ended'],
      active: true,
    });
    const listed = await listSubscriptions(db, dave.id);
    expect(listed).toEqual([created.value.subscription]);
    expect(JSON.stringify(listed)).not.toContain(created.value.secret);
    expect(await listSubscriptions(db, alice.id)).not.toContainEqual(created.value.subscription);
  });

  it.each<[string, (p: Player, other: Player) => NewSubscription, string, string]>([
    [
      'a plain-http url',
      (p) => ({ apiKeyId: p.apiKeyId, ownerId: p.id, url: 'http://hooks.example.com/', kinds: ['your-turn'] }),
      'WEBHOOK_URL_NOT_HTTPS',
      'url',
    ],
    ['a relative url', (p) => ({ apiKeyId: p.apiKeyId, ownerId: p.id, url: '/hook', kinds: ['your-turn'] }), 'WEBHOOK_URL_INVALID', 'url'],
    ['no kinds', (p) => ({ apiKeyId: p.apiKeyId, ownerId: p.id, url: URL_OK, kinds: [] }), 'WEBHOOK_KINDS_INVALID', 'kinds'],
    [
      'an unknown kind',
      (p) => ({ apiKeyId: p.apiKeyId, ownerId: p.id, url: URL_OK, kinds: ['tile-drawn'] }),
      'WEBHOOK_KINDS_INVALID',
      'kinds',
    ],
    [
      "another player's API key",
      (p, other) => ({ apiKeyId: other.apiKeyId, ownerId: p.id, url: URL_OK, kinds: ['your-turn'] }),
      'API_KEY_NOT_FOUND',
      'apiKeyId',
    ],
    [
      'a malformed API key id',
      (p) => ({ apiKeyId: 'key-1', ownerId: p.id, url: URL_OK, kinds: ['your-turn'] }),
      'API_KEY_NOT_FOUND',
      'apiKeyId',
    ],
  ])('refuses %s, naming the field, and stores nothing', async (_, input, code, field) => {
    const before = await db.prisma.webhookSubscription.count();
    const result = await createSubscription(db, input(alice, bob), TEST_DESTINATIONS);
    expect(result.ok ? null : [result.error.code, result.error.details?.['field']]).toEqual([code, field]);
    expect(await db.prisma.webhookSubscription.count()).toBe(before);
  });

  it('refuses a revoked API key', async () => {
    const erin = await addPlayer(db, 'erin');
    await db.prisma.apiKey.update({ where: { id: erin.apiKeyId }, data: { revokedAt: new Date() } });
    const result = await createSubscription(
      db,
      { apiKeyId: erin.apiKeyId, ownerId: erin.id, url: URL_OK, kinds: ['your-turn'] },
      TEST_DESTINATIONS,
    );
    expect(result.ok ? null : result.error.code).toBe('API_KEY_NOT_FOUND');
  });

  it('sends your-turn only to the player to move, and game-ended to both seated players', async () => {
    const a = await subscribe(alice, ['your-turn', 'game-ended']);
    const b = await subscribe(bob, ['your-turn', 'game-ended']);
    const gameId = await startGame(db, [alice.id, bob.id]);
    await playTurn(db, gameId, 'your-turn', { seat: 1 }); // no playerId: the player in seat 1 (Bob)
    expect(await fanOutFor([a.subscription.id, b.subscription.id])).toEqual([0, 1]);
    await playTurn(db, gameId, 'your-turn', { seat: 0, playerId: alice.id });
    expect(await fanOutFor([a.subscription.id, b.subscription.id])).toEqual([1, 1]);
    await playTurn(db, gameId, 'game-ended', { scores: [300, 280], winnerSeat: 0 });
    expect(await fanOutFor([a.subscription.id, b.subscription.id])).toEqual([2, 2]);
    await clearDeliveries();
    await deleteSubscription(db, alice.id, a.subscription.id);
    await deleteSubscription(db, bob.id, b.subscription.id);
  });

  it('gives nothing to a subscriber who holds no seat in the game, nor to one who did not ask for the kind', async () => {
    const c = await subscribe(carol, ['your-turn', 'game-ended', 'challenge-resolved']);
    const b = await subscribe(bob, ['your-turn']);
    const gameId = await startGame(db, [alice.id, bob.id]);
    await playTurn(db, gameId, 'challenge-resolved', { challengedSeat: 0, valid: true });
    await playTurn(db, gameId, 'game-ended', { winnerSeat: 1 });
    expect(await fanOutFor([c.subscription.id, b.subscription.id])).toEqual([0, 0]);
    // The rows are processed all the same: they do not wait for a subscriber.
    expect(await db.prisma.outboxMessage.count({ where: { gameId, deliveredAt: null } })).toBe(0);
    await deleteSubscription(db, carol.id, c.subscription.id);
    await deleteSubscription(db, bob.id, b.subscription.id);
  });

  it('skips paused subscriptions and revoked keys; a seat left open notifies nobody', async () => {
    const frank = await addPlayer(db, 'frank');
    const grace = await addPlayer(db, 'grace');
    const f = await subscribe(frank, ['game-ended', 'your-turn']);
    const g = await subscribe(grace, ['game-ended']);
    expect(await setSubscriptionActive(db, frank.id, f.subscription.id, false)).toMatchObject({ ok: true, value: { active: false } });
    await db.prisma.apiKey.update({ where: { id: grace.apiKeyId }, data: { revokedAt: clock.now() } });
    const gameId = await startGame(db, [frank.id, grace.id]);
    await playTurn(db, gameId, 'game-ended', {});
    expect(await fanOutFor([f.subscription.id, g.subscription.id])).toEqual([0, 0]);
    await setSubscriptionActive(db, frank.id, f.subscription.id, true);
    const openGame = await startGame(db, [frank.id, null]);
    await playTurn(db, openGame, 'your-turn', { seat: 1 });
    expect(await fanOutFor([f.subscription.id])).toEqual([0]);
    expect(await setSubscriptionActive(db, grace.id, f.subscription.id, false)).toMatchObject({
      ok: false,
      error: { code: 'WEBHOOK_SUBSCRIPTION_NOT_FOUND' },
    });
  });

  it('sets aside an outbox row that breaks the payload contract, and leaves other kinds alone', async () => {
    const gameId = await startGame(db, [alice.id, bob.id]);
    const game = await db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    await db.prisma.outboxMessage.createMany({
      data: [
        { gameId, eventSeq: game.version, kind: 'your-turn', payload: { kind: 'your-turn', gameId, version: 1 } },
        { gameId, eventSeq: game.version, kind: 'turn-played', payload: { word: 'CAT' } },
      ],
    });
    expect(await fanOutOutbox(db, { now: clock.now })).toEqual({ outboxRows: 1, invalidRows: 1, deliveriesCreated: 0 });
    const rows = await db.prisma.outboxMessage.findMany({ where: { gameId }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.kind, r.deliveredAt !== null, r.lastError])).toEqual([
      ['your-turn', true, 'invalid webhook payload: payload.seat is required for your-turn'],
      ['turn-played', false, null],
    ]);
  });

  it('shows each owner only their own deliveries, newest first, filtered and paged', async () => {
    const a = await subscribe(alice, ['game-ended']);
    const b = await subscribe(bob, ['game-ended']);
    const games = [
      await startGame(db, [alice.id, bob.id]),
      await startGame(db, [alice.id, bob.id]),
      await startGame(db, [alice.id, bob.id]),
    ];
    for (const g of games) {
      await playTurn(db, g, 'game-ended', { winnerSeat: 0 });
      clock.advance(1000);
      await fanOutOutbox(db, { now: clock.now }); // one per second: distinct creation times
    }
    // Alice's receiver fails, Bob's succeeds.
    await deliverDue(db, {
      now: clock.now,
      destinations: TEST_DESTINATIONS,
      fetch: async (url, init) =>
        init.headers['arbiter-event-id'] && (await isAlice(init.headers['arbiter-event-id'])) ? fail500(url, init) : ok200(url, init),
    });

    const mine = await listDeliveries(db, alice.id, { subscriptionId: a.subscription.id });
    if (!mine.ok) throw new Error(mine.error.message);
    expect(mine.value.items.map((d) => d.gameId)).toEqual([...games].reverse());
    expect(mine.value.items.every((d) => d.subscriptionId === a.subscription.id && d.status === 'failed' && d.attempts === 1)).toBe(true);
    expect(mine.value.items[0]!.log).toEqual([
      { attempt: 1, attemptedAt: clock.now(), statusCode: 500, durationMs: 0, error: 'HTTP 500: down' },
    ]);
    expect(mine.value.items[0]!.nextAttemptAt!.getTime()).toBeGreaterThan(clock.now().getTime());

    // Bob cannot read Alice's log, not even by naming her subscription; Carol sees nothing.
    const bobs = await listDeliveries(db, bob.id, { subscriptionId: a.subscription.id });
    expect(bobs).toEqual({ ok: true, value: { items: [], endCursor: null, hasNextPage: false } });
    const bobAll = await listDeliveries(db, bob.id, { status: 'succeeded' });
    expect(bobAll.ok && bobAll.value.items.map((d) => [d.subscriptionId, d.status, d.nextAttemptAt])).toEqual(
      games.map(() => [b.subscription.id, 'succeeded', null]),
    );
    expect(await listDeliveries(db, carol.id)).toEqual({ ok: true, value: { items: [], endCursor: null, hasNextPage: false } });

    // Paging: two, then the last one.
    const page1 = await listDeliveries(db, alice.id, { subscriptionId: a.subscription.id, first: 2 });
    if (!page1.ok) throw new Error(page1.error.message);
    expect(page1.value.items.map((d) => d.gameId)).toEqual([games[2], games[1]]);
    expect(page1.value.hasNextPage).toBe(true);
    const page2 = await listDeliveries(db, alice.id, { subscriptionId: a.subscription.id, first: 2, after: page1.value.endCursor });
    expect(page2.ok && [page2.value.items.map((d) => d.gameId), page2.value.hasNextPage]).toEqual([[games[0]], false]);

    expect(await listDeliveries(db, alice.id, { first: 0 })).toMatchObject({
      ok: false,
      error: { code: 'PAGE_SIZE_INVALID', details: { field: 'first' } },
    });
    expect(await listDeliveries(db, alice.id, { first: 101 })).toMatchObject({ ok: false, error: { code: 'PAGE_SIZE_INVALID' } });
    expect(await listDeliveries(db, alice.id, { after: 'bogus' })).toMatchObject({
      ok: false,
      error: { code: 'CURSOR_INVALID', details: { field: 'after' } },
    });

    // Deleting is owner-only and takes the subscription's log with it.
    expect(await deleteSubscription(db, bob.id, a.subscription.id)).toMatchObject({
      ok: false,
      error: { code: 'WEBHOOK_SUBSCRIPTION_NOT_FOUND', details: { field: 'id' } },
    });
    expect(await deleteSubscription(db, alice.id, a.subscription.id)).toEqual({ ok: true, value: { id: a.subscription.id } });
    expect(await db.prisma.webhookDelivery.count({ where: { subscriptionId: a.subscription.id } })).toBe(0);
    const after = await listDeliveries(db, alice.id);
    expect(after.ok && after.value.items.filter((d) => d.subscriptionId === a.subscription.id)).toEqual([]);

    async function isAlice(deliveryId: string): Promise<boolean> {
      const d = await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      return d.subscriptionId === a.subscription.id;
    }
  });
});
