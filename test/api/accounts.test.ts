import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PLAYERS, seedDemoPlayers } from '../../service/accounts.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from './harness.js';

const ME = `{ me { __typename ... on Player { id handle displayName } ... on Error { code message } } }`;
const LOGIN = `mutation($h: String!, $p: String!) { login(handle: $h, password: $p) { __typename ... on AuthPayload { token expiresAt player { handle } } ... on Error { code message } } }`;
const CREATE_KEY = `mutation($input: CreateApiKeyInput!) {
  createApiKey(input: $input) {
    __typename
    ... on NewApiKey { key apiKey { id name prefix scopes revoked } }
    ... on ValidationError { code issues { field message } }
    ... on Error { code message }
  }
}`;
const REVOKE = `mutation($id: ID!) { revokeApiKey(id: $id) { __typename ... on ApiKey { id revoked revokedAt } ... on Error { code message } } }`;
const KEYS = `{ apiKeys { __typename ... on ApiKeyList { keys { name scopes revoked } } ... on Error { code message } } }`;

describe.each(STORE_TARGETS)('accounts over GraphQL on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('registers a player, who can then log in and see themselves with the token', async () => {
    const reg = await api.gql(
      `mutation { registerPlayer(input: { handle: "carol", displayName: "Carol", password: "carol-secret-1" }) { __typename ... on AuthPayload { token expiresAt player { handle displayName } } } }`,
    );
    expect(reg.body.data!['registerPlayer']).toMatchObject({
      __typename: 'AuthPayload',
      player: { handle: 'carol', displayName: 'Carol' },
    });
    // The token lasts the configured hour from the app's clock.
    expect(reg.body.data!['registerPlayer'].expiresAt).toBe('2026-11-21T13:00:00.000Z');

    const login = await api.gql(LOGIN, { h: 'carol', p: 'carol-secret-1' });
    expect(login.body.data!['login']).toMatchObject({ __typename: 'AuthPayload', player: { handle: 'carol' } });
    const me = await api.gql(ME, {}, login.body.data!['login'].token);
    expect(me.body.data!['me']).toMatchObject({ __typename: 'Player', handle: 'carol', displayName: 'Carol' });
  });

  it('refuses a taken handle and a wrong password with typed errors', async () => {
    await api.register('dora');
    const again = await api.gql(
      `mutation { registerPlayer(input: { handle: "dora", displayName: "Dora 2", password: "another-pass" }) { __typename ... on Error { code message } } }`,
    );
    expect(again.body.data!['registerPlayer']).toEqual({
      __typename: 'ConflictError',
      code: 'HANDLE_TAKEN',
      message: 'The handle "dora" is taken; choose another.',
    });
    for (const [h, p] of [
      ['dora', 'wrong-password'],
      ['nobody', 'whatever-1'],
    ]) {
      const r = await api.gql(LOGIN, { h, p });
      expect(r.body.data!['login']).toEqual({
        __typename: 'UnauthenticatedError',
        code: 'UNAUTHENTICATED',
        message: 'The handle or the password is wrong.',
      });
    }
  });

  it('validates registration input, naming each field', async () => {
    const r = await api.gql(
      `mutation { registerPlayer(input: { handle: "X", displayName: " ", password: "short" }) { __typename ... on ValidationError { code issues { field } } } }`,
    );
    const result = r.body.data!['registerPlayer'];
    expect(result.__typename).toBe('ValidationError');
    expect(result.code).toBe('VALIDATION');
    expect(result.issues.map((i: { field: string }) => i.field).sort()).toEqual(['input.displayName', 'input.handle', 'input.password']);
  });

  it('answers me with UNAUTHENTICATED without a credential, and says why a bad one failed', async () => {
    expect((await api.gql(ME)).body.data!['me']).toMatchObject({ __typename: 'UnauthenticatedError', code: 'UNAUTHENTICATED' });
    expect((await api.gql(ME, {}, 'not-a-jwt')).body.data!['me']).toEqual({
      __typename: 'UnauthenticatedError',
      code: 'UNAUTHENTICATED',
      message: 'The token is not valid: sign in again (login).',
    });
  });

  it('refuses an expired token', async () => {
    const { token } = await api.register('eve');
    api.setNow(new Date(START.getTime() + 3601_000));
    try {
      expect((await api.gql(ME, {}, token)).body.data!['me']).toEqual({
        __typename: 'UnauthenticatedError',
        code: 'UNAUTHENTICATED',
        message: 'The token has expired: sign in again (login).',
      });
    } finally {
      api.setNow(START);
    }
  });

  it('creates an API key that acts for its owner, limited to its scopes, until revoked', async () => {
    const owner = await api.register('frank');
    const created = await api.gql(CREATE_KEY, { input: { name: 'bot', scopes: ['games:read', 'games:play'] } }, owner.token);
    const nk = created.body.data!['createApiKey'];
    expect(nk).toMatchObject({ __typename: 'NewApiKey', apiKey: { name: 'bot', scopes: ['games:read', 'games:play'], revoked: false } });
    expect(nk.key).toMatch(/^arb_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(nk.key.slice(4, 16)).toBe(nk.apiKey.prefix);

    // me with the key: the owner.
    expect((await api.gql(ME, {}, nk.key)).body.data!['me']).toMatchObject({ __typename: 'Player', id: owner.id, handle: 'frank' });
    // A scope the key lacks: FORBIDDEN, naming the scope.
    expect((await api.gql(KEYS, {}, nk.key)).body.data!['apiKeys']).toEqual({
      __typename: 'ForbiddenError',
      code: 'FORBIDDEN',
      message: 'This API key is not allowed here: it needs the API scope keys:manage.',
    });
    // The owner (JWT holds every scope) sees it listed.
    expect((await api.gql(KEYS, {}, owner.token)).body.data!['apiKeys']).toEqual({
      __typename: 'ApiKeyList',
      keys: [{ name: 'bot', scopes: ['games:read', 'games:play'], revoked: false }],
    });

    // Revoked: refused from then on.
    const revoked = await api.gql(REVOKE, { id: nk.apiKey.id }, owner.token);
    expect(revoked.body.data!['revokeApiKey']).toEqual({
      __typename: 'ApiKey',
      id: nk.apiKey.id,
      revoked: true,
      revokedAt: START.toISOString(),
    });
    const after = (await api.gql(ME, {}, nk.key)).body.data!['me'];
    expect(after.__typename).toBe('UnauthenticatedError');
    expect(after.message).toBe(`The API key "bot" was revoked on ${START.toISOString()}.`);
  });

  it('lets a keys:manage key create keys only with scopes it holds', async () => {
    const owner = await api.register('gina');
    const manager = (await api.gql(CREATE_KEY, { input: { name: 'manager', scopes: ['keys:manage', 'games:read'] } }, owner.token)).body
      .data!['createApiKey'].key;
    const ok = await api.gql(CREATE_KEY, { input: { name: 'reader', scopes: ['games:read'] } }, manager);
    expect(ok.body.data!['createApiKey']).toMatchObject({ __typename: 'NewApiKey', apiKey: { scopes: ['games:read'] } });
    const escalate = await api.gql(CREATE_KEY, { input: { name: 'player', scopes: ['games:play'] } }, manager);
    expect(escalate.body.data!['createApiKey']).toEqual({
      __typename: 'ForbiddenError',
      code: 'FORBIDDEN',
      message: 'This API key cannot grant games:play: a key can only create keys with scopes it holds itself.',
    });
  });

  it.each([
    [
      { name: 'bot', scopes: ['games:read', 'admin'] },
      'input.scopes.1',
      '"admin" is not a scope; the scopes are games:read, games:play, keys:manage, webhooks:manage, lexicons:manage, disputes:rule, apps:manage.',
    ],
    [{ name: 'bot', scopes: [] }, 'input.scopes', 'Give at least one scope.'],
    [{ name: 'bot', scopes: ['games:read', 'games:read'] }, 'input.scopes', 'A scope is listed twice.'],
    [{ name: '  ', scopes: ['games:read'] }, 'input.name', 'The key name is empty.'],
  ])('validates API key input %j, naming the field', async (input, field, message) => {
    const owner = await api.register(`k${field.length}${input.scopes.length}${input.name.trim().length}`);
    const r = await api.gql(CREATE_KEY, { input }, owner.token);
    expect(r.body.data!['createApiKey']).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION',
      issues: [{ field, message }],
      message: `${field}: ${message}`,
    });
  });

  it('does not let a player revoke another player’s key (NOT_FOUND, no oracle)', async () => {
    const a = await api.register('ivan');
    const b = await api.register('jane');
    const key = (await api.gql(CREATE_KEY, { input: { name: 'ivan-bot', scopes: ['games:read'] } }, a.token)).body.data!['createApiKey'];
    const r = await api.gql(REVOKE, { id: key.apiKey.id }, b.token);
    expect(r.body.data!['revokeApiKey']).toMatchObject({ __typename: 'NotFoundError', code: 'API_KEY_NOT_FOUND' });
    expect((await api.gql(ME, {}, key.key)).body.data!['me']).toMatchObject({ __typename: 'Player', handle: 'ivan' });
  });

  it('seeds the demo players once, with the passwords the README gives', async () => {
    expect(DEMO_PLAYERS.map((p) => [p.handle, p.password])).toEqual([
      ['alice', 'alice-demo-1'],
      ['bob', 'bob-demo-1'],
    ]);
    expect(await seedDemoPlayers(api.app.services.db.prisma)).toEqual(['alice', 'bob']);
    expect(await seedDemoPlayers(api.app.services.db.prisma)).toEqual([]);
    const r = await api.gql(LOGIN, { h: 'bob', p: 'bob-demo-1' });
    expect(r.body.data!['login']).toMatchObject({ __typename: 'AuthPayload', player: { handle: 'bob' } });
  });

  it('needs a signed-in caller to create keys', async () => {
    const r = await api.gql(CREATE_KEY, { input: { name: 'x', scopes: ['games:read'] } });
    expect(r.body.data!['createApiKey']).toMatchObject({ __typename: 'UnauthenticatedError', code: 'UNAUTHENTICATED' });
  });
});
