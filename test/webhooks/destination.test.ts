/**
 * Webhook destinations (issue 15, deliverable 1): every address kind a sender inside a VPC must not
 * reach, in every spelling, by literal and through a stubbed DNS (private, mixed and changing answers);
 * the pinned connection; no redirect followed; re-checked at every delivery (DNS rebinding).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDestination,
  classifyAddress,
  destinationPolicyFromEnv,
  pinnedFetch,
  type DestinationPolicy,
} from '../../service/webhook-destination.js';
import { deliverDue, type FetchLike } from '../../service/webhook-delivery.js';
import { fanOutOutbox } from '../../service/webhook-fan-out.js';
import { createSubscription, validateWebhookUrl } from '../../service/webhook-subscriptions.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';
import { DNS, HOSTILE_DESTINATIONS } from './destinations.js';
import { addPlayer, playTurn, PUBLIC_ADDRESS, setUp, startGame, stubResolver, testClock } from './fixture.js';

const strict: DestinationPolicy = { allowLocal: false, resolve: stubResolver(DNS) };
const local: DestinationPolicy = { allowLocal: true, resolve: stubResolver(DNS) };

/** What creation answers for `url`: 'ok', or the code and, for WEBHOOK_URL_FORBIDDEN, the reason. */
const verdict = async (url: string, policy: DestinationPolicy = strict): Promise<string> => {
  const form = validateWebhookUrl(url, policy.allowLocal);
  if (!form.ok) return form.error.code;
  const checked = await checkDestination(form.value, policy);
  if (checked.ok) return 'ok';
  const { message, details } = checked.error;
  // Never the resolved address in the answer.
  for (const address of Object.values(DNS).flat()) expect(message).not.toContain(address);
  return `${checked.error.code} ${String(details?.['reason'])}`;
};

const F = 'WEBHOOK_URL_FORBIDDEN';

describe('webhook destinations refused at creation (strict policy, stubbed DNS)', () => {
  it.each(HOSTILE_DESTINATIONS)('%s → %s', async (url, expected) => {
    expect(await verdict(url)).toBe(expected);
  });

  it.each([
    ['https://hooks.example.com/arbiter'],
    [`https://${PUBLIC_ADDRESS}/`],
    ['https://[2606:2800:220:1:248:1893:25c8:1946]/'],
    [`https://[::ffff:${PUBLIC_ADDRESS}]/`],
    ['https://public6.example/'],
    ['https://8.8.8.8:8443/hook'],
  ])('accepts %s, a public address', async (url) => {
    expect(await verdict(url)).toBe('ok');
  });

  it('pins the address it checked', async () => {
    expect(await checkDestination('https://hooks.example.com/x', strict)).toEqual({
      ok: true,
      value: { url: 'https://hooks.example.com/x', address: PUBLIC_ADDRESS, family: 4 },
    });
    expect(await checkDestination('https://public6.example/', strict)).toMatchObject({ ok: true, value: { family: 6 } });
  });

  it('classifies the address kinds the issue names, as ipaddr.js parses them', () => {
    expect(classifyAddress('8.8.8.8')).toBeNull();
    expect(classifyAddress('2606:4700::1111')).toBeNull();
    expect(classifyAddress('fe80::1%eth0')).toBe('LINK_LOCAL');
    expect(classifyAddress('::ffff:169.254.169.254')).toBe('LINK_LOCAL');
    expect(classifyAddress('2002:a9fe:a9fe::1')).toBe('LINK_LOCAL');
    expect(classifyAddress('4000::1')).toBe('RESERVED'); // outside global unicast 2000::/3
    expect(classifyAddress('not an address')).toBe('RESERVED');
  });
});

describe('the development setting (ARBITER_WEBHOOK_ALLOW_LOCAL)', () => {
  it.each([
    ['http://127.0.0.1:9001/', 'ok'],
    ['https://localhost/', 'ok'],
    ['http://192.168.1.20:8080/hook', 'ok'],
    ['https://private.example/', 'ok'],
    ['https://169.254.169.254/latest/meta-data/', `${F} LINK_LOCAL`],
    ['https://meta.example/', `${F} LINK_LOCAL`],
    ['https://224.0.0.1/', `${F} MULTICAST`],
    ['https://0.0.0.0/', `${F} UNSPECIFIED`],
  ])('%s → %s (metadata, multicast and the like stay refused)', async (url, expected) => {
    expect(await verdict(url, local)).toBe(expected);
  });

  it('stops the API Lambda at cold start, before it opens anything', async () => {
    const { buildRuntimeApp } = await import('../../functions/runtime.js');
    await expect(buildRuntimeApp({ ARBITER_WEBHOOK_ALLOW_LOCAL: '1', AWS_LAMBDA_FUNCTION_NAME: 'arbiter-graphql' })).rejects.toThrow(
      /refused on Lambda/,
    );
  });

  it('is read from the environment and refused on Lambda', () => {
    expect(destinationPolicyFromEnv({}).allowLocal).toBe(false);
    expect(destinationPolicyFromEnv({ ARBITER_WEBHOOK_ALLOW_LOCAL: '1' }).allowLocal).toBe(true);
    expect(() => destinationPolicyFromEnv({ ARBITER_WEBHOOK_ALLOW_LOCAL: '1', AWS_LAMBDA_FUNCTION_NAME: 'arbiter-webhooks' })).toThrow(
      /refused on Lambda/,
    );
  });
});

describe('pinnedFetch', () => {
  let server: Server;
  let port: number;
  const received: IncomingMessage[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(req);
      req.resume();
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://127.0.0.1/elsewhere' }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = (url: string, address = '127.0.0.1') =>
    pinnedFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(5000),
      destination: { url, address, family: 4 },
    });

  it('connects to the checked address, never resolving the name again, and sends the name as Host', async () => {
    // No DNS knows this name: only the pinned lookup can have reached the server.
    const res = await post(`http://receiver.never-resolves.test:${port}/hook`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
    expect(received.at(-1)!.headers.host).toBe(`receiver.never-resolves.test:${port}`);
  });

  it('answers a redirect as it is, without following it', async () => {
    const before = received.length;
    const res = await post(`http://127.0.0.1:${port}/redirect`);
    expect(res.status).toBe(302);
    expect(received.length - before).toBe(1);
  });
});

describe.each(STORE_TARGETS)('at every delivery on $kind', (target) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(target);
    await setUp(t.db);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('refuses a name that now resolves inside (DNS rebinding), without sending, then sends once it is public again', async () => {
    const db = t.db;
    const answers: Record<string, string[]> = { 'rebind.example': [PUBLIC_ADDRESS] };
    const policy: DestinationPolicy = { allowLocal: false, resolve: async (h) => answers[h] ?? [] };
    const [alice, bob] = [await addPlayer(db, 'alice'), await addPlayer(db, 'bob')];
    const created = await createSubscription(
      db,
      { apiKeyId: bob.apiKeyId, ownerId: bob.id, url: 'https://rebind.example/hook', kinds: ['your-turn'] },
      policy,
    );
    expect(created.ok).toBe(true);
    const gameId = await startGame(db, [alice.id, bob.id]);
    await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id });
    const clock = testClock();
    await fanOutOutbox(db, { now: clock.now });

    const sent: { url: string; address: string }[] = [];
    const fetch: FetchLike = async (url, init) => {
      sent.push({ url, address: init.destination.address });
      return new Response('ok', { status: 200 });
    };
    answers['rebind.example'] = ['169.254.169.254'];
    expect(await deliverDue(db, { now: clock.now, fetch, destinations: policy, backoff: () => 1000 })).toMatchObject({
      attempted: 1,
      retrying: 1,
    });
    expect(sent).toEqual([]);
    const failed = await db.prisma.webhookAttempt.findFirstOrThrow({
      where: { delivery: { subscriptionId: created.ok ? created.value.subscription.id : '' } },
    });
    expect(failed.error).toMatch(/^refused: .*link-local/);
    expect(failed.error).not.toContain('169.254');

    answers['rebind.example'] = [PUBLIC_ADDRESS, '10.1.2.3'];
    clock.advance(1000);
    expect(await deliverDue(db, { now: clock.now, fetch, destinations: policy, backoff: () => 1000 })).toMatchObject({ retrying: 1 });
    expect(sent).toEqual([]);

    answers['rebind.example'] = ['8.8.4.4'];
    clock.advance(1000);
    expect(await deliverDue(db, { now: clock.now, fetch, destinations: policy })).toMatchObject({ succeeded: 1 });
    expect(sent).toEqual([{ url: 'https://rebind.example/hook', address: '8.8.4.4' }]);
  });
});
