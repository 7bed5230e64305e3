import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, START, STORE_TARGETS, type TestApi } from './harness.js';

/**
 * changePassword (issue 32, docs/accounts.md "Changing your password"): the current password under the login
 * back-off, the policy for the new one, and what a change ends: every other session, every app's grant and
 * tokens, never the session making it (nor API keys).
 */

const CHANGE = `mutation($input: ChangePasswordInput!) { changePassword(input: $input) {
  __typename
  ... on PasswordChanged { endedSessions revokedAppRecords }
  ... on PasswordInputError { code message field }
  ... on RateLimitedError { code retryAfterSeconds }
  ... on Error { code message details } } }`;
const LOGIN = `mutation($h: String!, $p: String!) { login(handle: $h, password: $p) { __typename ... on AuthPayload { token } ... on Error { code message } } }`;
const ME = `{ me { __typename ... on Player { id } ... on Error { code message } } }`;
const REGISTER = `mutation($input: RegisterPlayerInput!) { registerPlayer(input: $input) { __typename ... on PasswordInputError { code field message } ... on Error { code } } }`;
const CREATE_KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { __typename ... on NewApiKey { key } ... on Error { code message } } }`;

describe.each(STORE_TARGETS)('changePassword on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(() => api?.close());

  const login = async (h: string, p: string) => (await api.gql(LOGIN, { h, p })).body.data!['login'];
  const me = async (token: string) => (await api.gql(ME, {}, token)).body.data!['me'];
  const change = async (token: string, currentPassword: string, newPassword: string) =>
    (await api.gql(CHANGE, { input: { currentPassword, newPassword } }, token)).body.data!['changePassword'];

  /** An app of `ownerId` with a live grant and access token acting for `playerId`, as the authorization server stores them. */
  const grantAppAccess = async (ownerId: string, playerId: string): Promise<string> => {
    const prisma = api.app.services.db.prisma;
    const clientId = `app-${randomBytes(6).toString('hex')}`;
    const grantId = `grant-${randomBytes(6).toString('hex')}`;
    const token = randomBytes(32).toString('base64url');
    const later = new Date(Date.now() + 3600_000);
    await prisma.oAuthApp.create({
      data: { id: clientId, ownerId, name: 'Scorekeeper', redirectUris: ['https://app.example.com/cb'], clientType: 'public' },
    });
    await prisma.oAuthRecord.create({
      data: { model: 'Grant', id: grantId, payload: { accountId: playerId }, grantId, accountId: playerId, clientId, expiresAt: later },
    });
    await prisma.oAuthRecord.create({
      data: {
        model: 'AccessToken',
        id: token,
        payload: { scope: 'games:read', accountId: playerId, clientId, grantId },
        grantId,
        accountId: playerId,
        clientId,
        expiresAt: later,
      },
    });
    return token;
  };

  it('refuses a wrong current password (BAD_CREDENTIALS), changing nothing', async () => {
    api.setNow(START);
    const p = await api.register('pwc1');
    expect(await change(p.token, 'not-my-password', 'a fresh long passphrase')).toMatchObject({
      __typename: 'UnauthenticatedError',
      code: 'UNAUTHENTICATED',
      message: 'The current password is wrong.',
      details: { reason: 'BAD_CREDENTIALS' },
    });
    expect((await login('pwc1', 'pwc1-password')).__typename).toBe('AuthPayload');
    expect((await login('pwc1', 'a fresh long passphrase')).__typename).toBe('UnauthenticatedError');
  });

  it('counts wrong current passwords in the login back-off: guessing through a session is no faster than logging in', async () => {
    api.setNow(START);
    const p = await api.register('pwc2');
    const answers: string[] = [];
    for (let i = 0; i < 8; i++) answers.push((await change(p.token, `guess-${i}-wrong`, 'a fresh long passphrase')).__typename);
    expect(answers.slice(0, 6)).toEqual(Array(6).fill('UnauthenticatedError')); // 5 free failures, the 6th starts the delay
    expect(answers.slice(6)).toEqual(['RateLimitedError', 'RateLimitedError']);
    // The handle is locked for login too, even with the right password: one back-off.
    expect((await login('pwc2', 'pwc2-password')).code).toBe('RATE_LIMITED');
    // And the right current password waits as well while it lasts.
    expect((await change(p.token, 'pwc2-password', 'a fresh long passphrase')).__typename).toBe('RateLimitedError');
  });

  it.each([
    ['short7!', 'PASSWORD_TOO_SHORT'],
    ['x'.repeat(201), 'PASSWORD_TOO_LONG'],
    ['password123', 'PASSWORD_TOO_COMMON'],
    ['Football1', 'PASSWORD_TOO_COMMON'], // compared case-insensitively
    ['QWERTYUIOP', 'PASSWORD_TOO_COMMON'],
  ])('refuses the new password %j with %s naming input.newPassword', async (newPassword, code) => {
    api.setNow(START);
    const handle = `pwp${randomBytes(3).toString('hex')}`;
    const p = await api.register(handle);
    const r = await change(p.token, `${handle}-password`, newPassword);
    expect(r).toMatchObject({ __typename: 'PasswordInputError', code, field: 'input.newPassword' });
    expect(r.message).toMatch(/^input\.newPassword: /);
    expect((await login(handle, `${handle}-password`)).__typename).toBe('AuthPayload'); // unchanged
  });

  it('refuses a common password at registration too, naming input.password', async () => {
    const r = (await api.gql(REGISTER, { input: { handle: 'pwcommon', displayName: 'C', password: 'iloveyou1' } })).body.data![
      'registerPlayer'
    ];
    expect(r).toMatchObject({ __typename: 'PasswordInputError', code: 'PASSWORD_TOO_COMMON', field: 'input.password' });
  });

  it('changes it: this session stays, every other ends, apps lose access, API keys stay', async () => {
    api.setNow(START);
    const p = await api.register('pwc3');
    const other = (await login('pwc3', 'pwc3-password')).token as string;
    const current = (await login('pwc3', 'pwc3-password')).token as string;
    const key = (await api.gql(CREATE_KEY, { input: { name: 'bot', apiScopes: ['GAMES_READ'] } }, current)).body.data!['createApiKey'].key;
    const appToken = await grantAppAccess(p.id, p.id);
    // Another player's app grant: not touched.
    const q = await api.register('pwc3other');
    const othersAppToken = await grantAppAccess(q.id, q.id);
    for (const t of [p.token, other, current, key, appToken]) expect(await me(t)).toMatchObject({ __typename: 'Player', id: p.id });
    // An app's token (OAuth) cannot change the password, whatever it holds.
    expect(await change(appToken, 'pwc3-password', 'a fresh long passphrase')).toMatchObject({ __typename: 'ForbiddenError' });

    expect(await change(current, 'pwc3-password', 'a fresh long passphrase')).toEqual({
      __typename: 'PasswordChanged',
      endedSessions: 2, // the registration's and `other`
      revokedAppRecords: 2, // the grant and its access token
    });
    expect(await me(current)).toMatchObject({ __typename: 'Player', id: p.id });
    for (const t of [p.token, other]) expect(await me(t)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect(await me(appToken)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect(await me(key)).toMatchObject({ __typename: 'Player', id: p.id });
    expect(await me(othersAppToken)).toMatchObject({ __typename: 'Player', id: q.id });
    expect(await api.app.services.db.prisma.oAuthRecord.count({ where: { accountId: p.id } })).toBe(0);
    expect(await api.app.services.db.prisma.oAuthRecord.count({ where: { accountId: q.id } })).toBe(2);

    expect((await login('pwc3', 'pwc3-password')).__typename).toBe('UnauthenticatedError');
    expect((await login('pwc3', 'a fresh long passphrase')).__typename).toBe('AuthPayload');
  });

  it('is refused to an API key, with every scope', async () => {
    api.setNow(START);
    const p = await api.register('pwc4');
    const key = (await api.gql(CREATE_KEY, { input: { name: 'all', apiScopes: ['GAMES_READ', 'GAMES_PLAY', 'KEYS_MANAGE'] } }, p.token))
      .body.data!['createApiKey'].key;
    expect(await change(key, 'pwc4-password', 'a fresh long passphrase')).toMatchObject({
      __typename: 'ForbiddenError',
      code: 'FORBIDDEN',
    });
    expect((await login('pwc4', 'pwc4-password')).__typename).toBe('AuthPayload');
  });

  it('is served over REST as POST /v1/me/password', async () => {
    api.setNow(START);
    const p = await api.register('pwc5');
    const post = (body: unknown) =>
      api.fetch('/v1/me/password', {
        method: 'POST',
        headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const common = await post({ currentPassword: 'pwc5-password', newPassword: 'sunshine1' });
    expect(common.status).toBe(422);
    expect(await common.json()).toMatchObject({ code: 'PASSWORD_TOO_COMMON', field: '/newPassword' }); // REST names the body's member
    const wrong = await post({ currentPassword: 'nope-nope', newPassword: 'a fresh long passphrase' });
    expect(wrong.status).toBe(401);
    const ok = await post({ currentPassword: 'pwc5-password', newPassword: 'a fresh long passphrase' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ endedSessions: 0, revokedAppRecords: 0 });
  });
});
