/**
 * Web Push end to end against a real push-service stand-in (test/push/stand-in.ts): a player subscribes a
 * browser through the API (GraphQL and REST), the channel sends "your move" and "game over", and the
 * stand-in — which checks the VAPID signature and decrypts like a real push service — shows the payload
 * with the game's link; a 410 removes the subscription; endpoints the webhook rules forbid and malformed
 * keys are refused with typed errors and write nothing. On PGlite and on Postgres.
 */
import { randomUUID } from 'node:crypto';
import webpush from 'web-push';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../functions/app.js';
import { pushChannel, type PushSettings } from '../../service/push-channel.js';
import type { Notice, NotificationKind } from '../../service/notification-channels.js';
import type { DestinationPolicy } from '../../service/webhook-destination.js';
import { clientOver, LEXICONS, START, TEST_JWT } from '../api/harness.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';
import { LOCAL_DESTINATIONS, stubResolver, TEST_DESTINATIONS } from '../webhooks/fixture.js';
import { startPushStandIn, type PushStandIn } from './stand-in.js';

const keysFor = (pair: { publicKey: string; privateKey: string }): PushSettings => ({
  subject: 'mailto:operator@arbiter.example',
  vapidKeys: () => Promise.resolve(pair),
});

const BASE = 'https://arbiter.example.com';

const notice = (playerId: string, kind: NotificationKind, gameId: string, title: string): Notice => ({
  id: randomUUID(),
  playerId,
  kind,
  gameId,
  tournamentId: null,
  version: 7,
  title,
  body: `${title}. Open the game to see the board.`,
  url: `${BASE}/play#game=${gameId}`,
  at: START,
});

describe.each(STORE_TARGETS)('Web Push on $kind', (target) => {
  let testDb: TestDb;
  let app: App;
  let standIn: PushStandIn;
  let push: PushSettings;
  let api: ReturnType<typeof clientOver>;
  let clock = START;

  const open = async (destinations: DestinationPolicy) => {
    app = await createApp({
      db: testDb.db,
      lexicons: LEXICONS,
      jwt: TEST_JWT,
      now: () => clock,
      webhookDestinations: destinations,
      push,
      robots: 'off',
      logError: () => undefined,
    });
    api = clientOver((path, init = {}) => Promise.resolve(app.yoga.fetch(`http://arbiter.test${path}`, init)));
  };

  beforeEach(async () => {
    clock = START;
    testDb = await openTestDb(target);
    standIn = await startPushStandIn();
    push = keysFor(webpush.generateVAPIDKeys());
    // The stand-in is a plain-http server on localhost: the development setting lets it through, as it does webhooks.
    await open(LOCAL_DESTINATIONS);
  });
  afterEach(async () => {
    await app.close();
    await standIn.stop();
    await testDb.drop();
  });

  const SUBSCRIBE = `mutation($input: SubscribePushInput!) { subscribePush(input: $input) {
    __typename ... on PushSubscription { id endpoint userAgent } ... on PushInputError { code message field details } ... on Error { code message } } }`;

  /** A browser of `token`'s player subscribed at the stand-in and through the GraphQL API. */
  const subscribeBrowser = async (token: string) => {
    const key = await api.gql('{ pushPublicKey { ... on PushPublicKey { applicationServerKey } } }');
    const applicationServerKey = key.body.data!['pushPublicKey'].applicationServerKey as string;
    expect(applicationServerKey).toBe((await push.vapidKeys()).publicKey);
    const browser = await standIn.subscribe(applicationServerKey);
    const r = await api.gql(SUBSCRIBE, { input: { endpoint: browser.endpoint, keys: browser.keys, userAgent: 'Chromium test' } }, token);
    expect(r.body.data!['subscribePush']).toMatchObject({
      __typename: 'PushSubscription',
      endpoint: browser.endpoint,
      userAgent: 'Chromium test',
    });
    return browser;
  };

  it('sends "your move" and "game over" with the game’s link; the stand-in checks VAPID and decrypts', async () => {
    const bob = await api.register('bob');
    const browser = await subscribeBrowser(bob.token);
    const channel = pushChannel({ ...push, destinations: LOCAL_DESTINATIONS, now: () => START });
    expect(await channel.reachable(testDb.db, bob.id)).toBe(true);
    const gameId = randomUUID();

    expect(await channel.send(testDb.db, bob.id, [notice(bob.id, 'your-turn', gameId, 'Your move against Alice')])).toEqual({ ok: true });
    expect(await channel.send(testDb.db, bob.id, [notice(bob.id, 'game-ended', gameId, 'Alice won 402–377')])).toEqual({ ok: true });

    const received = (await standIn.messages(browser.clientHash)).map((m) => JSON.parse(m) as Record<string, unknown>);
    expect(received).toEqual([
      {
        title: 'Your move against Alice',
        body: 'Your move against Alice. Open the game to see the board.',
        url: `${BASE}/play#game=${gameId}`,
        kind: 'your-turn',
        gameId,
        tag: `game-${gameId}`,
      },
      expect.objectContaining({ title: 'Alice won 402–377', kind: 'game-ended', url: `${BASE}/play#game=${gameId}`, gameId }),
    ]);
    const row = await testDb.db.prisma.pushSubscription.findUniqueOrThrow({ where: { endpoint: browser.endpoint } });
    expect(row.lastSuccessAt).toEqual(START);
  });

  it('sums several notices up in one push; about two games it links the games list', async () => {
    const bob = await api.register('bob');
    const browser = await subscribeBrowser(bob.token);
    const channel = pushChannel({ ...push, destinations: LOCAL_DESTINATIONS });
    const [g1, g2] = [randomUUID(), randomUUID()];
    const outcome = await channel.send(testDb.db, bob.id, [
      notice(bob.id, 'your-turn', g1, 'Your move against Alice'),
      notice(bob.id, 'game-ended', g2, 'Carol won'),
    ]);
    expect(outcome).toEqual({ ok: true });
    const [only, ...more] = (await standIn.messages(browser.clientHash)).map((m) => JSON.parse(m) as Record<string, unknown>);
    expect(more).toEqual([]);
    expect(only).toMatchObject({
      title: '2 updates: Carol won',
      body: 'Your move against Alice · Carol won',
      kind: 'summary',
      gameId: null,
    });
    expect(only!['url']).toBe(`${BASE}/play#games`);
  });

  it('a 410 from the push service deletes the subscription: a permanent failure', async () => {
    const bob = await api.register('bob');
    const browser = await subscribeBrowser(bob.token);
    await standIn.expire(browser.clientHash);
    const channel = pushChannel({ ...push, destinations: LOCAL_DESTINATIONS });
    const outcome = await channel.send(testDb.db, bob.id, [notice(bob.id, 'your-turn', randomUUID(), 'Your move')]);
    expect(outcome).toMatchObject({ ok: false, permanent: true });
    expect(await testDb.db.prisma.pushSubscription.count({ where: { playerId: bob.id } })).toBe(0);
    expect(await channel.reachable(testDb.db, bob.id)).toBe(false);
  });

  it('a push service that is down is a failure to retry; the subscription stays with its error', async () => {
    const bob = await api.register('bob');
    const browser = await subscribeBrowser(bob.token);
    await standIn.stop();
    const channel = pushChannel({ ...push, destinations: LOCAL_DESTINATIONS, now: () => START, timeoutMs: 2000 });
    const outcome = await channel.send(testDb.db, bob.id, [notice(bob.id, 'your-turn', randomUUID(), 'Your move')]);
    expect(outcome).toMatchObject({ ok: false, permanent: false });
    const row = await testDb.db.prisma.pushSubscription.findUniqueOrThrow({ where: { endpoint: browser.endpoint } });
    expect(row.lastFailureAt).toEqual(START);
    expect(row.lastError).toMatch(/push service unreachable/);
    standIn = await startPushStandIn(); // afterEach stops it again
  });

  it('after the keys are replaced, a subscription made with the old key is dropped, not sent a message the service would refuse', async () => {
    const bob = await api.register('bob');
    const browser = await subscribeBrowser(bob.token);
    const replaced = keysFor(webpush.generateVAPIDKeys());
    const channel = pushChannel({ ...replaced, destinations: LOCAL_DESTINATIONS });
    const outcome = await channel.send(testDb.db, bob.id, [notice(bob.id, 'your-turn', randomUUID(), 'Your move')]);
    expect(outcome).toMatchObject({ ok: false, permanent: true });
    expect(await standIn.messages(browser.clientHash)).toEqual([]);
    expect(await testDb.db.prisma.pushSubscription.count()).toBe(0);
  });

  it('REST: the public key, subscribe (201 + Location), list, unsubscribe by endpoint and by id; 404 after', async () => {
    const bob = await api.register('bob');
    const auth = { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' };
    const key = (await (await api.fetch('/v1/push/public-key')).json()) as { applicationServerKey: string };
    const { clientHash: _, ...subscription } = await standIn.subscribe(key.applicationServerKey);
    const browser = { ...subscription, expirationTime: null }; // PushSubscription.toJSON()
    const made = await api.fetch('/v1/push/subscriptions', { method: 'POST', headers: auth, body: JSON.stringify(browser) });
    expect(made.status, await made.clone().text()).toBe(201);
    const sub = (await made.json()) as { id: string; endpoint: string };
    expect(made.headers.get('location')).toBe(`/v1/push/subscriptions/${sub.id}`);
    const list = (await (await api.fetch('/v1/push/subscriptions', { headers: auth })).json()) as { items: { id: string }[] };
    expect(list.items.map((s) => s.id)).toEqual([sub.id]);

    const byEndpoint = () =>
      api.fetch('/v1/push/unsubscribe', { method: 'POST', headers: auth, body: JSON.stringify({ endpoint: browser.endpoint }) });
    expect((await byEndpoint()).status).toBe(204);
    const again = await byEndpoint();
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ code: 'PUSH_SUBSCRIPTION_NOT_FOUND' });

    const second = (await (
      await api.fetch('/v1/push/subscriptions', { method: 'POST', headers: auth, body: JSON.stringify(browser) })
    ).json()) as {
      id: string;
    };
    expect((await api.fetch(`/v1/push/subscriptions/${second.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect(await testDb.db.prisma.pushSubscription.count()).toBe(0);
  });

  it('the same browser signing in as someone else moves the subscription to them: one browser tells one player', async () => {
    const bob = await api.register('bob');
    const carol = await api.register('carol');
    const browser = await subscribeBrowser(bob.token);
    await api.gql(SUBSCRIBE, { input: { endpoint: browser.endpoint, keys: browser.keys } }, carol.token);
    const rows = await testDb.db.prisma.pushSubscription.findMany();
    expect(rows.map((r) => r.playerId)).toEqual([carol.id]);
  });

  it('an API key may not subscribe a browser (FORBIDDEN), and nobody signed out may', async () => {
    const bob = await api.register('bob');
    const key = await api.gql(
      'mutation { createApiKey(input: { name: "bot", scopes: ["games:read"] }) { ... on NewApiKey { key } ... on Error { code message } } }',
      {},
      bob.token,
    );
    const apiKey = key.body.data!['createApiKey'].key as string;
    const browser = await standIn.subscribe((await push.vapidKeys()).publicKey);
    const input = { endpoint: browser.endpoint, keys: browser.keys };
    expect((await api.gql(SUBSCRIBE, { input }, apiKey)).body.data!['subscribePush']).toMatchObject({ code: 'FORBIDDEN' });
    expect((await api.gql(SUBSCRIBE, { input })).body.data!['subscribePush']).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await testDb.db.prisma.pushSubscription.count()).toBe(0);
  });

  describe('refused input (the production policy: https, public addresses only)', () => {
    beforeEach(async () => {
      await app.close();
      await open({
        ...TEST_DESTINATIONS,
        resolve: stubResolver({ 'push.intranet.example.org': ['10.1.2.3'], 'fcm.googleapis.com': ['142.250.74.10'] }),
      });
    });

    const GOOD_KEYS = {
      p256dh: 'BB4YUy_UdUwC8wQdnHXOszuD_9gax85P6ILMscmLxYlupGwxHE4v9A3ZajZT5uRURdMt_khuztdcepDGoYiBwKM',
      auth: 'AwMDAwMDAwMDAwMDAwMDAw',
    };

    it.each([
      ['http://fcm.googleapis.com/fcm/send/x', 'NOT_HTTPS'],
      ['https://127.0.0.1/push', 'LOOPBACK'],
      ['https://169.254.169.254/latest/meta-data', 'LINK_LOCAL'],
      ['https://[fd00::1]/push', 'UNIQUE_LOCAL'],
      ['https://push.intranet.example.org/x', 'PRIVATE'],
      ['https://localhost:8090/notify/abc', 'LOCAL_NAME'],
      ['https://user:pw@fcm.googleapis.com/x', 'CREDENTIALS'],
      ['not a url', 'INVALID'],
    ])('the endpoint %s is refused (%s), naming input.endpoint', async (endpoint, reason) => {
      const bob = await api.register('bob');
      const r = await api.gql(SUBSCRIBE, { input: { endpoint, keys: GOOD_KEYS } }, bob.token);
      expect(r.body.data!['subscribePush']).toMatchObject({
        __typename: 'PushInputError',
        code: 'PUSH_ENDPOINT_REFUSED',
        field: 'input.endpoint',
        details: expect.objectContaining({ reason }),
      });
      expect(await testDb.db.prisma.pushSubscription.count()).toBe(0);
    });

    it.each([
      ['keys.p256dh', { ...GOOD_KEYS, p256dh: 'AAAA' }],
      ['keys.p256dh', { ...GOOD_KEYS, p256dh: `BA${'A'.repeat(85)}` }], // 65 bytes, not a point on the curve
      ['keys.p256dh', { ...GOOD_KEYS, p256dh: 'not base64url!' }],
      ['keys.auth', { ...GOOD_KEYS, auth: 'AwMDAwMDAwMDAwMD' }], // 12 bytes
      ['keys.auth', { ...GOOD_KEYS, auth: '%%%' }],
    ])('bad %s is refused with PUSH_KEYS_INVALID', async (field, keys) => {
      const bob = await api.register('bob');
      const r = await api.gql(SUBSCRIBE, { input: { endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys } }, bob.token);
      expect(r.body.data!['subscribePush']).toMatchObject({ code: 'PUSH_KEYS_INVALID', field: `input.${field}` });
      expect(await testDb.db.prisma.pushSubscription.count()).toBe(0);
    });

    it('REST answers a refused endpoint as 422 problem+json naming the field', async () => {
      const bob = await api.register('bob');
      const res = await api.fetch('/v1/push/subscriptions', {
        method: 'POST',
        headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ endpoint: 'https://10.0.0.8/push', keys: GOOD_KEYS }),
      });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect(await res.json()).toMatchObject({ code: 'PUSH_ENDPOINT_REFUSED', field: '/endpoint' }); // REST names the body's member as a JSON pointer
    });

    it('a public endpoint with good keys is kept (the https form of a real push service)', async () => {
      const bob = await api.register('bob');
      const r = await api.gql(
        SUBSCRIBE,
        { input: { endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { ...GOOD_KEYS, auth: `${GOOD_KEYS.auth}==` } } },
        bob.token,
      );
      expect(r.body.data!['subscribePush']).toMatchObject({ __typename: 'PushSubscription' });
    });

    it('a player keeps at most 10 browsers: an eleventh pushes out the oldest', async () => {
      const bob = await api.register('bob');
      const endpoints = Array.from({ length: 11 }, (_, i) => `https://fcm.googleapis.com/fcm/send/browser-${i}`);
      for (const endpoint of endpoints) {
        const r = await api.gql(SUBSCRIBE, { input: { endpoint, keys: GOOD_KEYS } }, bob.token);
        expect(r.body.data!['subscribePush']).toMatchObject({ __typename: 'PushSubscription' });
        clock = new Date(clock.getTime() + 1000);
      }
      clock = START;
      const left = await testDb.db.prisma.pushSubscription.findMany({ where: { playerId: bob.id }, orderBy: { createdAt: 'asc' } });
      expect(left.map((r) => r.endpoint)).toEqual(endpoints.slice(1));
    });

    it('the channel checks the endpoint again at send: a name that now resolves inside is dropped, never contacted', async () => {
      const bob = await api.register('bob');
      await testDb.db.prisma.pushSubscription.create({
        data: {
          playerId: bob.id,
          endpoint: 'https://push.intranet.example.org/x',
          ...GOOD_KEYS,
          applicationServerKey: (await push.vapidKeys()).publicKey,
        },
      });
      const channel = pushChannel({
        ...push,
        destinations: { ...TEST_DESTINATIONS, resolve: stubResolver({ 'push.intranet.example.org': ['10.1.2.3'] }) },
      });
      expect(await channel.send(testDb.db, bob.id, [notice(bob.id, 'your-turn', randomUUID(), 'Your move')])).toMatchObject({
        ok: false,
        permanent: true,
      });
      expect(await testDb.db.prisma.pushSubscription.count()).toBe(0);
    });
  });

  it('without keys the server says PUSH_UNAVAILABLE, and subscribing writes nothing', async () => {
    await app.close();
    push = null as unknown as PushSettings;
    app = await createApp({
      db: testDb.db,
      lexicons: LEXICONS,
      jwt: TEST_JWT,
      now: () => START,
      webhookDestinations: LOCAL_DESTINATIONS,
      push: null,
      robots: 'off',
    });
    api = clientOver((path, init = {}) => Promise.resolve(app.yoga.fetch(`http://arbiter.test${path}`, init)));
    const r = await api.gql('{ pushPublicKey { __typename ... on Error { code } } }');
    expect(r.body.data!['pushPublicKey']).toEqual({ __typename: 'PushInputError', code: 'PUSH_UNAVAILABLE' });
    const res = await api.fetch('/v1/push/public-key');
    expect(await res.json()).toMatchObject({ code: 'PUSH_UNAVAILABLE' });

    // Keys that cannot be read (an AWS secret not filled in yet): the same typed answer, and the channel asks to be retried.
    await app.close();
    const broken: PushSettings = {
      subject: 'mailto:x@arbiter.example',
      vapidKeys: () => Promise.reject(new Error('secret x is not JSON')),
    };
    app = await createApp({
      db: testDb.db,
      lexicons: LEXICONS,
      jwt: TEST_JWT,
      now: () => START,
      webhookDestinations: LOCAL_DESTINATIONS,
      push: broken,
      robots: 'off',
    });
    api = clientOver((path, init = {}) => Promise.resolve(app.yoga.fetch(`http://arbiter.test${path}`, init)));
    expect((await api.gql('{ pushPublicKey { ... on Error { code message } } }')).body.data!['pushPublicKey']).toMatchObject({
      code: 'PUSH_UNAVAILABLE',
      message: expect.stringContaining('cannot be read'),
    });
    const bob = await api.register('bob');
    await testDb.db.prisma.pushSubscription.create({
      data: { playerId: bob.id, endpoint: 'https://fcm.googleapis.com/x', p256dh: 'k', auth: 'a', applicationServerKey: 'old' },
    });
    const outcome = await pushChannel({ ...broken, destinations: LOCAL_DESTINATIONS }).send(testDb.db, bob.id, [
      notice(bob.id, 'your-turn', randomUUID(), 'Your move'),
    ]);
    expect(outcome).toMatchObject({ ok: false, permanent: false, error: expect.stringContaining('cannot be read') });
  });
});
