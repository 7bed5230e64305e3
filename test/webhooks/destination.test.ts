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
import { addPlayer, playTurn, PUBLIC_ADDRESS, setUp, startGame, stubResolver, testClock } from './fixture.js';

/** Names and what the stub DNS answers for them. */
const DNS: Record<string, string[]> = {
  'private.example': ['10.0.0.7'],
  'mixed.example': [PUBLIC_ADDRESS, '127.0.0.1'],
  'mixed6.example': ['2606:2800:220:1::1', 'fd00::1'],
  'meta.example': ['169.254.169.254'],
  'ecs-creds.example': ['169.254.170.2'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'nat64.example': ['64:ff9b::a9fe:a9fe'],
  'cgnat.example': ['100.100.100.100'],
  'empty.example': [],
  'public6.example': ['2606:4700::1111'],
};
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
  it.each([
    // The cloud's metadata and credentials endpoints
    ['https://169.254.169.254/latest/meta-data/', `${F} LINK_LOCAL`],
    ['https://169.254.170.2/v2/credentials', `${F} LINK_LOCAL`],
    ['https://[::ffff:a9fe:a9fe]/', `${F} LINK_LOCAL`],
    ['https://[64:ff9b::a9fe:a9fe]/', `${F} LINK_LOCAL`],
    ['https://[fe80::1]/', `${F} LINK_LOCAL`],
    ['https://[fe80::1%25eth0]/', 'WEBHOOK_URL_INVALID'], // a zone id: not a URL host at all
    // Loopback in every spelling
    ['https://127.0.0.1/', `${F} LOOPBACK`],
    ['https://127.1/', `${F} LOOPBACK`],
    ['https://127.0.1/', `${F} LOOPBACK`],
    ['https://0x7f000001/', `${F} LOOPBACK`],
    ['https://0x7f.1/', `${F} LOOPBACK`],
    ['https://2130706433/', `${F} LOOPBACK`],
    ['https://017700000001/', `${F} LOOPBACK`],
    ['https://0177.0.0.1/', `${F} LOOPBACK`],
    ['https://127.0.0.1./', `${F} LOOPBACK`],
    ['https://127.255.255.254:8443/x', `${F} LOOPBACK`],
    ['https://[::1]/', `${F} LOOPBACK`],
    ['https://[0:0:0:0:0:0:0:1]/', `${F} LOOPBACK`],
    ['https://[::ffff:127.0.0.1]/', `${F} LOOPBACK`],
    ['https://[::7f00:1]/', `${F} LOOPBACK`], // IPv4-compatible
    ['https://[2002:7f00:1::1]/', `${F} LOOPBACK`], // 6to4 of 127.0.0.1
    ['https://localhost/', `${F} LOCAL_NAME`],
    ['https://LOCALHOST./', `${F} LOCAL_NAME`],
    ['https://api.localhost/', `${F} LOCAL_NAME`],
    ['http://127.0.0.1:9001/', 'WEBHOOK_URL_NOT_HTTPS'],
    // Private, CGNAT, unique-local
    ['https://10.0.0.5/', `${F} PRIVATE`],
    ['https://10.255.255.255/', `${F} PRIVATE`],
    ['https://172.16.0.1/', `${F} PRIVATE`],
    ['https://172.31.255.254/', `${F} PRIVATE`],
    ['https://192.168.1.1/', `${F} PRIVATE`],
    ['https://0xc0a80101/', `${F} PRIVATE`],
    ['https://[::ffff:10.0.0.1]/', `${F} PRIVATE`],
    ['https://[2002:c0a8:101::]/', `${F} PRIVATE`], // 6to4 of 192.168.1.1
    ['https://100.64.0.1/', `${F} CGNAT`],
    ['https://100.127.255.255/', `${F} CGNAT`],
    ['https://[fc00::1]/', `${F} UNIQUE_LOCAL`],
    ['https://[fd12:3456::1]/', `${F} UNIQUE_LOCAL`],
    // Unspecified, broadcast, multicast, reserved, benchmarking, documentation
    ['https://0.0.0.0/', `${F} UNSPECIFIED`],
    ['https://0/', `${F} UNSPECIFIED`],
    ['https://[::]/', `${F} UNSPECIFIED`],
    ['https://255.255.255.255/', `${F} BROADCAST`],
    ['https://224.0.0.1/', `${F} MULTICAST`],
    ['https://[ff02::1]/', `${F} MULTICAST`],
    ['https://240.0.0.1/', `${F} RESERVED`],
    ['https://192.0.0.8/', `${F} RESERVED`],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', `${F} RESERVED`], // Teredo
    ['https://[100::1]/', `${F} RESERVED`],
    ['https://198.18.0.1/', `${F} BENCHMARKING`],
    ['https://198.19.255.255/', `${F} BENCHMARKING`],
    ['https://[2001:2::1]/', `${F} BENCHMARKING`],
    ['https://192.0.2.1/', `${F} DOCUMENTATION`],
    ['https://198.51.100.7/', `${F} DOCUMENTATION`],
    ['https://203.0.113.9/', `${F} DOCUMENTATION`],
    ['https://[2001:db8::1]/', `${F} DOCUMENTATION`],
    // Local names, whatever DNS would say
    ['https://metadata.google.internal/', `${F} LOCAL_NAME`],
    ['https://ip-10-0-0-1.ec2.internal/', `${F} LOCAL_NAME`],
    ['https://printer.local/', `${F} LOCAL_NAME`],
    ['https://router.home.arpa/', `${F} LOCAL_NAME`],
    // Names through the stubbed DNS: private, mixed (one bad address is enough), embedded forms, nothing
    ['https://private.example/', `${F} PRIVATE`],
    ['https://private.example./', `${F} PRIVATE`],
    ['https://mixed.example/hook', `${F} LOOPBACK`],
    ['https://mixed6.example/', `${F} UNIQUE_LOCAL`],
    ['https://meta.example/', `${F} LINK_LOCAL`],
    ['https://ecs-creds.example/', `${F} LINK_LOCAL`],
    ['https://mapped.example/', `${F} LOOPBACK`],
    ['https://nat64.example/', `${F} LINK_LOCAL`],
    ['https://cgnat.example/', `${F} CGNAT`],
    ['https://empty.example/', `${F} UNRESOLVABLE`],
    ['https://nowhere.example/', `${F} UNRESOLVABLE`],
  ])('%s → %s', async (url, expected) => {
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
