import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../functions/app.js';
import { issuePlayerToken } from '../../graph/auth.js';
import { clientOver, LEXICONS, openTestApi, START, STORE_TARGETS, TEST_JWT, type TestApi } from './harness.js';

/**
 * Sign-in sessions (issue 32, docs/accounts.md "Sessions"): every login opens one, its tokens carry it, and
 * ending it refuses them — at once in this process, within the token cache's life in another one.
 */

const LOGIN = `mutation($h: String!, $p: String!) { login(handle: $h, password: $p) { __typename ... on AuthPayload { token expiresAt } ... on Error { code message } } }`;
const ME = `{ me { __typename ... on Player { id } ... on Error { code message } } }`;
const SESSIONS = `{ sessions { __typename ... on SignInSessionList { sessions { id userAgent createdAt lastUsedAt expiresAt current } } ... on Error { code message details } } }`;
const END = `mutation($id: ID!) { endSession(id: $id) { __typename ... on SignInSession { id endedAt } ... on Error { code message } } }`;
const SIGN_OUT = `mutation($keep: Boolean) { signOutEverywhere(keepCurrent: $keep) { __typename ... on SignedOut { endedSessions } ... on Error { code message } } }`;
const RENEW = `mutation($t: String!) { renewToken(token: $t) { __typename ... on AuthPayload { token expiresAt player { id } } ... on Error { code message details } } }`;
const CREATE_KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { __typename ... on NewApiKey { key } ... on Error { code message } } }`;

const at = (ms: number): Date => new Date(START.getTime() + ms);
const DAY = 24 * 3600 * 1000;

describe.each(STORE_TARGETS)('sign-in sessions on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(() => api?.close());

  /** A login from a device named `ua`: the token. */
  const loginFrom = async (handle: string, ua: string): Promise<string> => {
    const res = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': ua },
      body: JSON.stringify({ query: LOGIN, variables: { h: handle, p: `${handle}-password` } }),
    });
    const body = (await res.json()) as { data: { login: { __typename: string; token: string } } };
    expect(body.data.login.__typename).toBe('AuthPayload');
    return body.data.login.token;
  };
  const me = async (token: string) => (await api.gql(ME, {}, token)).body.data!['me'];
  const sessionsOf = async (token: string) => (await api.gql(SESSIONS, {}, token)).body.data!['sessions'];

  it('opens a session per login, listed with its device and the current one marked', async () => {
    api.setNow(START);
    const p = await api.register('sess1');
    api.setNow(at(500));
    const phone = await loginFrom('sess1', 'Phone/1.0');
    api.setNow(at(1000));
    const laptop = await loginFrom('sess1', 'Laptop/2.0');
    const list = await sessionsOf(laptop);
    expect(list.__typename).toBe('SignInSessionList');
    // Registering signs in too: three sessions, the most recently used first.
    expect(list.sessions.map((s: { userAgent: string | null }) => s.userAgent)).toEqual(['Laptop/2.0', 'Phone/1.0', null]);
    expect(list.sessions.map((s: { current: boolean }) => s.current)).toEqual([true, false, false]);
    expect(list.sessions[0]).toMatchObject({ createdAt: at(1000).toISOString(), lastUsedAt: at(1000).toISOString() });
    expect(list.sessions[0].expiresAt).toBe(at(1000 + 30 * DAY).toISOString());
    expect((await sessionsOf(phone)).sessions.map((s: { current: boolean }) => s.current)).toEqual([false, true, false]);
    expect(await me(p.token)).toMatchObject({ __typename: 'Player', id: p.id });
  });

  it('records a use at most once a minute and slides the 30-day expiry', async () => {
    api.setNow(START);
    await api.register('sess2');
    const token = await loginFrom('sess2', 'UA');
    const only = async () => (await sessionsOf(token)).sessions.find((s: { current: boolean }) => s.current);
    api.setNow(at(30_000));
    // Each check below is a fresh one (not the 5 s cache): forgetting the session sends the token to the database again.
    api.app.services.principals.forgetSession((await only()).id);
    await me(token);
    expect((await only()).lastUsedAt).toBe(START.toISOString()); // 30 s: not written
    api.setNow(at(61_000));
    api.app.services.principals.forgetSession((await only()).id);
    await me(token);
    const s = await only();
    expect(s.lastUsedAt).toBe(at(61_000).toISOString());
    expect(s.expiresAt).toBe(at(61_000 + 30 * DAY).toISOString());
    api.setNow(START);
  });

  it('ends one session: its token is refused at once, the others keep working', async () => {
    api.setNow(START);
    await api.register('sess3');
    const a = await loginFrom('sess3', 'A');
    const b = await loginFrom('sess3', 'B');
    expect(await me(b)).toMatchObject({ __typename: 'Player' }); // cached now
    const bId = (await sessionsOf(b)).sessions.find((s: { current: boolean }) => s.current).id;
    expect((await api.gql(END, { id: bId }, a)).body.data!['endSession']).toEqual({
      __typename: 'SignInSession',
      id: bId,
      endedAt: START.toISOString(),
    });
    expect(await me(b)).toEqual({
      __typename: 'UnauthenticatedError',
      code: 'UNAUTHENTICATED',
      message: 'The token’s session was ended (signed out, or the password changed): sign in again (login).',
    });
    expect(await me(a)).toMatchObject({ __typename: 'Player' });
    expect((await sessionsOf(a)).sessions.map((s: { userAgent: string }) => s.userAgent)).not.toContain('B');
    // Ending it again, or a made-up id: SESSION_NOT_FOUND.
    for (const id of [bId, '00000000-0000-4000-8000-000000000000', 'nope']) {
      expect((await api.gql(END, { id }, a)).body.data!['endSession']).toMatchObject({
        __typename: 'NotFoundError',
        code: 'SESSION_NOT_FOUND',
      });
    }
  });

  it('never ends another player’s session (NOT_FOUND, and it keeps working)', async () => {
    api.setNow(START);
    const victim = await api.register('sess4v');
    const attacker = await api.register('sess4a');
    const victimSession = (await sessionsOf(victim.token)).sessions[0].id;
    expect((await api.gql(END, { id: victimSession }, attacker.token)).body.data!['endSession']).toMatchObject({
      __typename: 'NotFoundError',
      code: 'SESSION_NOT_FOUND',
    });
    expect(await me(victim.token)).toMatchObject({ __typename: 'Player', id: victim.id });
  });

  it('signs out everywhere, this session included or kept', async () => {
    api.setNow(START);
    await api.register('sess5');
    const [a, b, c] = [await loginFrom('sess5', 'A'), await loginFrom('sess5', 'B'), await loginFrom('sess5', 'C')];
    for (const t of [a, b, c]) expect(await me(t)).toMatchObject({ __typename: 'Player' });
    // Kept: the registration's session, A and B end; C (the caller) stays.
    expect((await api.gql(SIGN_OUT, { keep: true }, c)).body.data!['signOutEverywhere']).toEqual({
      __typename: 'SignedOut',
      endedSessions: 3,
    });
    expect(await me(a)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect(await me(b)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect(await me(c)).toMatchObject({ __typename: 'Player' });
    // Default: this one too.
    const d = await loginFrom('sess5', 'D');
    expect((await api.gql(SIGN_OUT, {}, c)).body.data!['signOutEverywhere']).toEqual({ __typename: 'SignedOut', endedSessions: 2 });
    for (const t of [c, d]) expect(await me(t)).toMatchObject({ __typename: 'UnauthenticatedError' });
  });

  it('renews a live session’s token without the password, even after the token’s hour; not an ended one', async () => {
    api.setNow(START);
    const p = await api.register('sess6');
    api.setNow(at(2 * 3600 * 1000)); // the token expired an hour ago
    expect(await me(p.token)).toMatchObject({
      __typename: 'UnauthenticatedError',
      message: 'The token has expired: sign in again (login).',
    });
    const renewed = (await api.gql(RENEW, { t: p.token })).body.data!['renewToken'];
    expect(renewed).toMatchObject({ __typename: 'AuthPayload', player: { id: p.id }, expiresAt: at(3 * 3600 * 1000).toISOString() });
    expect(await me(renewed.token)).toMatchObject({ __typename: 'Player', id: p.id });
    // The same session: ending it refuses the renewed token and any further renewal.
    const id = (await sessionsOf(renewed.token)).sessions.find((s: { current: boolean }) => s.current).id;
    expect((await api.gql(END, { id }, renewed.token)).body.data!['endSession'].__typename).toBe('SignInSession');
    expect(await me(renewed.token)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect((await api.gql(RENEW, { t: renewed.token })).body.data!['renewToken']).toMatchObject({
      __typename: 'UnauthenticatedError',
      details: { reason: 'SESSION_REVOKED' },
    });
    expect((await api.gql(RENEW, { t: 'not-a-token' })).body.data!['renewToken'].__typename).toBe('UnauthenticatedError');
    api.setNow(START);
  });

  it('lets a session die after 30 days without use', async () => {
    api.setNow(START);
    const p = await api.register('sess7');
    api.setNow(at(30 * DAY + 1000));
    expect((await api.gql(RENEW, { t: p.token })).body.data!['renewToken'].__typename).toBe('UnauthenticatedError');
    api.setNow(START);
  });

  it('refuses a token minted without a session (before sessions existed)', async () => {
    api.setNow(START);
    const p = await api.register('sess8');
    const old = await issuePlayerToken(TEST_JWT, p.id, START);
    expect(await me(old.token)).toEqual({
      __typename: 'UnauthenticatedError',
      code: 'UNAUTHENTICATED',
      message: 'The token was issued before sign-in sessions existed: sign in again (login).',
    });
  });

  it('allows the account actions only with a password session: an API key is FORBIDDEN whatever its scopes', async () => {
    api.setNow(START);
    const p = await api.register('sess9');
    const key = (
      await api.gql(
        CREATE_KEY,
        { input: { name: 'all', apiScopes: ['GAMES_READ', 'GAMES_PLAY', 'KEYS_MANAGE', 'WEBHOOKS_MANAGE'] } },
        p.token,
      )
    ).body.data!['createApiKey'].key as string;
    const sessionId = (await sessionsOf(p.token)).sessions[0].id;
    for (const [query, vars, field] of [
      [SESSIONS, {}, 'sessions'],
      [END, { id: sessionId }, 'endSession'],
      [SIGN_OUT, {}, 'signOutEverywhere'],
    ] as const) {
      const r = (await api.gql(query, vars, key)).body.data![field];
      expect(r).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN' });
      expect(r.message).toMatch(/API key is not allowed here: it needs a token from signing in with the password/);
    }
    expect(await me(p.token)).toMatchObject({ __typename: 'Player' }); // nothing was ended
  });

  it('serves the same over REST: list, end one, sign out everywhere, renew', async () => {
    api.setNow(START);
    await api.register('sess10');
    const a = await loginFrom('sess10', 'rest-A');
    const b = await loginFrom('sess10', 'rest-B');
    const auth = (t: string) => ({ authorization: `Bearer ${t}` });
    const list = await api.fetch('/v1/me/sessions', { headers: auth(a) });
    expect(list.status).toBe(200);
    const items = ((await list.json()) as { items: { id: string; userAgent: string; current: boolean }[] }).items;
    expect(items.find((s) => s.current)?.userAgent).toBe('rest-A');
    const bId = items.find((s) => s.userAgent === 'rest-B')!.id;
    expect((await api.fetch(`/v1/me/sessions/${bId}`, { method: 'DELETE', headers: auth(a) })).status).toBe(204);
    expect((await api.fetch('/v1/me', { headers: auth(b) })).status).toBe(401);
    const again = await api.fetch(`/v1/me/sessions/${bId}`, { method: 'DELETE', headers: auth(a) });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { code: string }).code).toBe('SESSION_NOT_FOUND');
    const renew = await api.fetch('/v1/sessions/renew', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: a }),
    });
    expect(renew.status).toBe(200);
    const renewed = ((await renew.json()) as { token: string }).token;
    const out = await api.fetch('/v1/me/sessions/sign-out', {
      method: 'POST',
      headers: { ...auth(renewed), 'content-type': 'application/json' },
      body: JSON.stringify({ keepCurrent: true }),
    });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ endedSessions: 1 }); // the registration's; A stays (renewed is A's)
    expect((await api.fetch('/v1/me', { headers: auth(renewed) })).status).toBe(200);
    expect((await api.fetch('/v1/me', { headers: auth(a) })).status).toBe(200); // A's first token: same session
  });
});

describe.each(STORE_TARGETS)('a session ended in one process, on $kind', (target) => {
  let api: TestApi;
  let other: App;
  let otherNow = START;
  beforeAll(async () => {
    api = await openTestApi(target);
    // A second app over the same database (another server, another Lambda container), with its own 5 s cache.
    other = await createApp({ db: api.app.services.db, lexicons: LEXICONS, jwt: TEST_JWT, registerLexicons: false, now: () => otherNow });
  });
  afterAll(async () => {
    await other?.close();
    await api?.close();
  });

  it('is refused by the other process once its cache entry is older than the cache’s life', async () => {
    api.setNow(START);
    const p = await api.register('xproc');
    const otherClient = clientOver((path: string, init: RequestInit = {}) =>
      Promise.resolve(other.yoga.fetch(`http://arbiter.test${path}`, init)),
    );
    expect((await otherClient.gql(ME, {}, p.token)).body.data!['me']).toMatchObject({ __typename: 'Player' }); // cached there
    expect((await api.gql(SIGN_OUT, {}, p.token)).body.data!['signOutEverywhere']).toMatchObject({ endedSessions: 1 });
    expect((await api.gql(ME, {}, p.token)).body.data!['me'].__typename).toBe('UnauthenticatedError'); // here: at once
    otherNow = at(4_999);
    expect((await otherClient.gql(ME, {}, p.token)).body.data!['me'].__typename).toBe('Player'); // there: inside its cache's life
    otherNow = at(5_000);
    expect((await otherClient.gql(ME, {}, p.token)).body.data!['me']).toMatchObject({
      __typename: 'UnauthenticatedError',
      message: expect.stringMatching(/session was ended/),
    });
  });
});
