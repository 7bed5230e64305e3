/**
 * Per-client limits and the login back-off (issue 15, deliverables 2 and 3), over HTTP on PGlite and
 * Postgres: the client's address from X-Forwarded-For (trusted proxy), API Gateway's sourceIp and the
 * socket; RATE_LIMITED with retryAfterSeconds on GraphQL, 429 with Retry-After on REST.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../functions/lambda-handler.js';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../../service/rate-limits.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from './harness.js';

const HOUR = 3600;
/** Small numbers, so that every rule shows within a few requests. */
const LIMITS: RateLimitConfig = {
  buckets: {
    ...DEFAULT_RATE_LIMITS.buckets,
    register: { address: { capacity: 3, periodSeconds: HOUR } },
    createGame: { player: { capacity: 2, periodSeconds: HOUR }, apiKey: { capacity: 3, periodSeconds: HOUR } },
    importGame: { player: { capacity: 1, periodSeconds: HOUR } },
    webhookAdmin: { player: { capacity: 1, periodSeconds: HOUR }, apiKey: { capacity: 1, periodSeconds: HOUR } },
  },
  loginBackoff: {
    handle: { freeFailures: 3, firstDelaySeconds: 2, maxDelaySeconds: 60, windowSeconds: HOUR },
    address: { freeFailures: 8, firstDelaySeconds: 1, maxDelaySeconds: 30, windowSeconds: HOUR },
  },
};

const LOGIN = `mutation($handle: String!, $password: String!) {
  login(handle: $handle, password: $password) { __typename ... on Error { code } ... on RateLimitedError { retryAfterSeconds } } }`;
const REGISTER = `mutation($input: RegisterPlayerInput!) {
  registerPlayer(input: $input) { __typename ... on AuthPayload { token } ... on Error { code message details } ... on RateLimitedError { retryAfterSeconds } } }`;
const CREATE_GAME = `mutation { createGame(input: {}) { __typename ... on Error { code } ... on RateLimitedError { retryAfterSeconds } } }`;

describe.each(STORE_TARGETS)('per-client limits on $kind', (target) => {
  let api: TestApi;
  let clock = START;
  const at = (seconds: number) => {
    clock = new Date(START.getTime() + seconds * 1000);
    api.setNow(clock);
  };
  /** GraphQL from `address` (the test server trusts one proxy, which wrote X-Forwarded-For). */
  const gqlFrom = async (address: string, query: string, variables: Record<string, unknown> = {}, bearer?: string) => {
    const res = await api.fetch('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': address,
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: Record<string, any>; errors?: unknown[] };
  };
  const login = async (address: string, handle: string, password: string) => {
    const r = await gqlFrom(address, LOGIN, { handle, password });
    const l = r.data?.['login'];
    return l.__typename === 'AuthPayload' ? 'ok' : l.code === 'RATE_LIMITED' ? `RATE_LIMITED ${l.retryAfterSeconds}` : l.code;
  };

  beforeAll(async () => {
    api = await openTestApi(target, { rateLimits: LIMITS, trustedProxies: 1 });
    for (const h of ['alma', 'bert', 'cleo', 'dora']) await api.register(h, `${h}-password`);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('backs off a handle after its free failures, exponentially, and refuses even the right password meanwhile', async () => {
    at(0);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await login(`198.51.100.${i}`, 'alma', 'wrong-password'));
    // Three free failures; the 4th is a failure too, and locks the handle for 2 s.
    expect(answers).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED', 'UNAUTHENTICATED', 'UNAUTHENTICATED']);
    expect(await login('198.51.100.9', 'alma', 'alma-password')).toBe('RATE_LIMITED 2');
    at(2);
    expect(await login('198.51.100.9', 'alma', 'wrong-password')).toBe('UNAUTHENTICATED'); // 5th: 4 s
    expect(await login('198.51.100.9', 'alma', 'wrong-password')).toBe('RATE_LIMITED 4');
    at(6);
    expect(await login('198.51.100.9', 'alma', 'wrong-password')).toBe('UNAUTHENTICATED'); // 6th: 8 s
    at(7);
    expect(await login('198.51.100.9', 'alma', 'wrong-password')).toBe('RATE_LIMITED 7');
    at(14);
    expect(await login('198.51.100.9', 'alma', 'alma-password')).toBe('ok');
  });

  it('gives an unknown handle exactly the same answers as a known one with a wrong password', async () => {
    at(1000);
    const run = async (handle: string) => {
      const out = [];
      for (let i = 0; i < 6; i++) out.push(await login(`198.51.100.${20 + i}`, handle, 'not-the-password'));
      return out;
    };
    const known = await run('bert');
    const unknown = await run('nobody-here');
    expect(unknown).toEqual(known);
    expect(known).toEqual(['UNAUTHENTICATED', 'UNAUTHENTICATED', 'UNAUTHENTICATED', 'UNAUTHENTICATED', 'RATE_LIMITED 2', 'RATE_LIMITED 2']);
  });

  it('resets the handle on a successful login', async () => {
    at(2000);
    for (let i = 0; i < 3; i++) expect(await login('198.51.100.40', 'cleo', 'wrong-password')).toBe('UNAUTHENTICATED');
    expect(await login('198.51.100.40', 'cleo', 'cleo-password')).toBe('ok');
    // Counting starts again: three more free failures, then the lock.
    for (let i = 0; i < 4; i++) expect(await login('198.51.100.41', 'cleo', 'wrong-password')).toBe('UNAUTHENTICATED');
    expect(await login('198.51.100.41', 'cleo', 'cleo-password')).toBe('RATE_LIMITED 2');
  });

  it('backs off an address that fails across many handles, and no other address', async () => {
    at(3000);
    for (let i = 0; i < 9; i++) expect(await login('192.0.2.50', `guess-${i}`, 'wrong-password')).toBe('UNAUTHENTICATED');
    expect(await login('192.0.2.50', 'dora', 'dora-password')).toBe('RATE_LIMITED 1');
    expect(await login('192.0.2.51', 'dora', 'dora-password')).toBe('ok');
  });

  it('lets at most the free failures + 1 of 30 parallel guesses reach the password check', async () => {
    at(4000);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => login(`198.51.100.${100 + i}`, 'burst-target', 'wrong')));
    expect(answers.filter((a) => a === 'UNAUTHENTICATED')).toHaveLength(4);
    expect(answers.filter((a) => a.startsWith('RATE_LIMITED'))).toHaveLength(26);
  });

  it('limits registrations per address: RATE_LIMITED with retryAfterSeconds on GraphQL, refilled over time', async () => {
    at(5000);
    const register = (handle: string, address = '203.0.113.70') =>
      gqlFrom(address, REGISTER, { input: { handle, displayName: handle, password: 'long-enough' } }).then(
        (r) => r.data!['registerPlayer'],
      );
    for (const h of ['reg-a', 'reg-b', 'reg-c']) expect((await register(h)).__typename).toBe('AuthPayload');
    expect(await register('reg-d')).toMatchObject({
      __typename: 'RateLimitedError',
      code: 'RATE_LIMITED',
      retryAfterSeconds: 1200,
      details: { retryAfterSeconds: 1200, action: 'register', subjectKind: 'address' },
    });
    expect((await register('reg-d', '203.0.113.71')).__typename).toBe('AuthPayload'); // another address
    at(5000 + 1200);
    expect((await register('reg-e')).__typename).toBe('AuthPayload'); // one token back after 3600 s / 3
  });

  it('answers 429 with Retry-After on the REST routes', async () => {
    at(7000);
    const post = (path: string, body: unknown) =>
      api.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.80' },
        body: JSON.stringify(body),
      });
    for (const h of ['rest-a', 'rest-b', 'rest-c']) {
      expect((await post('/rest/register-player', { input: { handle: h, displayName: h, password: 'long-enough' } })).status).toBe(200);
    }
    const limited = await post('/rest/register-player', { input: { handle: 'rest-d', displayName: 'd', password: 'long-enough' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1200');
    expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 1200 } });

    for (let i = 0; i < 4; i++) await post('/rest/login', { handle: 'rest-a', password: 'wrong-password' });
    const locked = await post('/rest/login', { handle: 'rest-a', password: 'long-enough' });
    expect([locked.status, locked.headers.get('retry-after')]).toEqual([429, '2']);
  });

  it('limits game creation per player and per API key, each on its own bucket', async () => {
    at(8000);
    const { token } = await api.register('maker', 'maker-password');
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await gqlFrom('203.0.113.90', CREATE_GAME, {}, token)).data!['createGame']);
    expect(made.map((g) => g.__typename)).toEqual(['Game', 'Game', 'RateLimitedError']);
    expect(made[2]).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1800 });
    const key = (
      await gqlFrom(
        '203.0.113.90',
        `mutation { createApiKey(input: { name: "bot", scopes: ["games:play"] }) { ... on NewApiKey { key } } }`,
        {},
        token,
      )
    ).data!['createApiKey'].key as string;
    const byKey = [];
    for (let i = 0; i < 4; i++) byKey.push((await gqlFrom('203.0.113.90', CREATE_GAME, {}, key)).data!['createGame'].__typename);
    expect(byKey).toEqual(['Game', 'Game', 'Game', 'RateLimitedError']);
  });

  it('limits imports and webhook administration', async () => {
    at(9000);
    const { token } = await api.register('admin', 'admin-password');
    const imp = `mutation { importGame(input: { gcg: "#player1 a A\\n#player2 b B\\n" }) { __typename ... on Error { code } } }`;
    const first = (await gqlFrom('203.0.113.91', imp, {}, token)).data!['importGame'];
    expect(first.code).not.toBe('RATE_LIMITED');
    expect((await gqlFrom('203.0.113.91', imp, {}, token)).data!['importGame'].code).toBe('RATE_LIMITED');
    const del = `mutation { deleteWebhookSubscription(id: "00000000-0000-4000-8000-000000000000") { __typename ... on Error { code } } }`;
    expect((await gqlFrom('203.0.113.91', del, {}, token)).data!['deleteWebhookSubscription'].code).toBe('WEBHOOK_SUBSCRIPTION_NOT_FOUND');
    expect((await gqlFrom('203.0.113.91', del, {}, token)).data!['deleteWebhookSubscription'].code).toBe('RATE_LIMITED');
  });
});

describe('the client address', () => {
  const target = STORE_TARGETS[0]!;
  const TIGHT: RateLimitConfig = { ...DEFAULT_RATE_LIMITS, buckets: { register: { address: { capacity: 1, periodSeconds: HOUR } } } };
  const registerBody = (handle: string) =>
    JSON.stringify({ query: REGISTER, variables: { input: { handle, displayName: handle, password: 'long-enough' } } });
  const typename = (body: string) =>
    (JSON.parse(body) as { data: { registerPlayer: { __typename: string } } }).data.registerPlayer.__typename;

  it('is API Gateway’s sourceIp on Lambda; X-Forwarded-For is ignored without a trusted proxy', async () => {
    const api = await openTestApi(target, { rateLimits: TIGHT });
    try {
      const handler = createHandler(() => Promise.resolve(api.app));
      const event = (handle: string, sourceIp: string, forwarded: string): APIGatewayProxyEventV2 =>
        ({
          version: '2.0',
          routeKey: '$default',
          rawPath: '/graphql',
          rawQueryString: '',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded },
          requestContext: { http: { method: 'POST', sourceIp, path: '/graphql' }, domainName: 'api.example.com', stage: '$default' },
          body: registerBody(handle),
          isBase64Encoded: false,
        }) as unknown as APIGatewayProxyEventV2;
      const ctx = {} as LambdaContext;
      expect(typename((await handler(event('lam-a', '198.51.100.200', '10.9.9.1'), ctx)).body!)).toBe('AuthPayload');
      // Same source, another claimed client: still the same address.
      expect(typename((await handler(event('lam-b', '198.51.100.200', '10.9.9.2'), ctx)).body!)).toBe('RateLimitedError');
      expect(typename((await handler(event('lam-c', '198.51.100.201', '10.9.9.2'), ctx)).body!)).toBe('AuthPayload');
      // An IPv6 client is limited by its /64.
      expect(typename((await handler(event('lam-d', '2001:db8:1:2::1', ''), ctx)).body!)).toBe('AuthPayload');
      expect(typename((await handler(event('lam-e', '2001:db8:1:2:ffff::9', ''), ctx)).body!)).toBe('RateLimitedError');
    } finally {
      await api.close();
    }
  });

  it('is the socket’s peer on the local server', async () => {
    const api = await openTestApi(target, { rateLimits: TIGHT });
    const server: Server = createServer(api.app.yoga);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
      const post = async (handle: string) =>
        typename(
          await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: registerBody(handle) })).text(),
        );
      expect(await post('sock-a')).toBe('AuthPayload');
      expect(await post('sock-b')).toBe('RateLimitedError');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await api.close();
    }
  });
});
