import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPrincipalCache, principalCacheMsFromEnv, type PlayerPrincipal } from '../../graph/auth.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from './harness.js';

const ME = `{ me { __typename ... on Player { id handle } ... on Error { code message } } }`;
const CREATE_KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { __typename ... on NewApiKey { key apiKey { id } } ... on Error { code message } } }`;
const REVOKE = `mutation($id: ID!) { revokeApiKey(id: $id) { __typename ... on ApiKey { revoked } ... on Error { code message } } }`;

const at = (ms: number): Date => new Date(START.getTime() + ms);

describe.each(STORE_TARGETS)('the verified-token cache on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(() => api?.close());

  it('is on by default for 5 s', () => {
    expect(api.app.services.principals.ttlMs).toBe(5_000);
  });

  it('refuses a revoked API key on its very next request (keys are never cached)', async () => {
    api.setNow(START);
    const owner = await api.register('kcache');
    const key = (await api.gql(CREATE_KEY, { input: { name: 'bot', scopes: ['games:read'] } }, owner.token)).body.data!['createApiKey'];
    expect((await api.gql(ME, {}, key.key)).body.data!['me']).toMatchObject({ __typename: 'Player', id: owner.id });
    expect((await api.gql(REVOKE, { id: key.apiKey.id }, owner.token)).body.data!['revokeApiKey']).toEqual({
      __typename: 'ApiKey',
      revoked: true,
    });
    // Same instant: no cache window lets the revoked key through.
    expect((await api.gql(ME, {}, key.key)).body.data!['me']).toMatchObject({
      __typename: 'UnauthenticatedError',
      code: 'UNAUTHENTICATED',
    });
    expect((await api.gql(ME, {}, key.key)).body.data!['me'].message).toMatch(/revoked/);
    // The owner's token (cached by now) still works.
    expect((await api.gql(ME, {}, owner.token)).body.data!['me']).toMatchObject({ __typename: 'Player', id: owner.id });
  });

  it('answers a token from the cache for at most 5 s, and not once the player is forgotten', async () => {
    api.setNow(START);
    const p = await api.register('tcache');
    expect((await api.gql(ME, {}, p.token)).body.data!['me']).toMatchObject({ __typename: 'Player', id: p.id });
    // The player removed behind the API's back (nothing in the API deletes players).
    await api.app.services.db.prisma.player.delete({ where: { id: p.id } });
    api.setNow(at(4_999));
    expect((await api.gql(ME, {}, p.token)).body.data!['me']).toMatchObject({ __typename: 'Player', id: p.id });
    api.setNow(at(5_000));
    expect((await api.gql(ME, {}, p.token)).body.data!['me']).toEqual({
      __typename: 'UnauthenticatedError',
      code: 'UNAUTHENTICATED',
      message: 'The token names a player who no longer exists.',
    });

    // forgetPlayer (what a password change or a deletion must call): refused at once, inside the 5 s.
    const q = await api.register('tcache2');
    api.setNow(at(6_000));
    expect((await api.gql(ME, {}, q.token)).body.data!['me']).toMatchObject({ __typename: 'Player', id: q.id });
    await api.app.services.db.prisma.player.delete({ where: { id: q.id } });
    api.app.services.principals.forgetPlayer(q.id);
    expect((await api.gql(ME, {}, q.token)).body.data!['me']).toMatchObject({ __typename: 'UnauthenticatedError' });
    api.setNow(START);
  });

  it('checks a token once for requests that arrive with it together', async () => {
    api.setNow(START);
    const p = await api.register('scache');
    const verify = vi.spyOn(crypto.subtle, 'verify');
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, () => api.gql(ME, {}, p.token)));
      for (const a of answers) expect(a.body.data!['me']).toMatchObject({ __typename: 'Player', id: p.id });
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      verify.mockRestore();
    }
  });

  it('never answers a token past its expiry', async () => {
    api.setNow(START);
    const p = await api.register('ecache');
    // TEST_JWT tokens live 3600 s: cached 2 s before expiry, the entry ends with the token, not 5 s later.
    api.setNow(at(3_598_000));
    expect((await api.gql(ME, {}, p.token)).body.data!['me']).toMatchObject({ __typename: 'Player', id: p.id });
    api.setNow(at(3_600_000));
    expect((await api.gql(ME, {}, p.token)).body.data!['me']).toEqual({
      __typename: 'UnauthenticatedError',
      code: 'UNAUTHENTICATED',
      message: 'The token has expired: sign in again (login).',
    });
    api.setNow(START);
  });
});

describe('createPrincipalCache', () => {
  const principal = (id: string): PlayerPrincipal =>
    ({ kind: 'player', player: { id }, via: 'jwt', apiKeyId: null, scopes: [] }) as unknown as PlayerPrincipal;

  it('keeps nothing when its time is 0, and no more than its size', () => {
    const off = createPrincipalCache(0);
    off.set('t', principal('a'), 10);
    expect(off.get('t', 0)).toBeNull();

    const small = createPrincipalCache(1_000, 2);
    small.set('t1', principal('a'), 100);
    small.set('t2', principal('b'), 100);
    small.set('t3', principal('a'), 100);
    expect(small.get('t1', 0)).toBeNull(); // the oldest went
    expect(small.get('t2', 0)?.player.id).toBe('b');
    expect(small.get('t3', 99)?.player.id).toBe('a');
    expect(small.get('t3', 100)).toBeNull();
    small.set('t3', principal('a'), 100);
    small.forgetPlayer('a');
    expect(small.get('t3', 0)).toBeNull();
    expect(small.get('t2', 0)?.player.id).toBe('b');
  });

  it('reads ARBITER_AUTH_CACHE_MS', () => {
    expect(principalCacheMsFromEnv({})).toBe(5_000);
    expect(principalCacheMsFromEnv({ ARBITER_AUTH_CACHE_MS: '0' })).toBe(0);
    expect(() => principalCacheMsFromEnv({ ARBITER_AUTH_CACHE_MS: '-1' })).toThrow(/ARBITER_AUTH_CACHE_MS/);
  });
});
