/**
 * Hostile use of the OAuth authorization server (issue 32), beside the hostile-input suite (api-fuzz):
 * each attempt below is refused, and nothing of it is in the logs — every access token, refresh token,
 * code and code_verifier the suite saw is looked for in every line the app wrote, and none is there.
 *
 * PKCE missing or `plain`; `state` missing; a redirect URI one character off or with a path added; a code
 * replayed (which also revokes the grant it made); a refresh token reused after rotation (the whole grant
 * revoked); the tokens of a grant revoked with RFC 7009; a consent POST without its CSRF token or with a
 * wrong one; a `games:read` token trying to move; an app's token after its player's OAuth records were
 * deleted (what a password change and an account deletion do: store/oauth-revocation.ts).
 */
import * as oauth from 'oauth4webapi';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { memoryLogger, setLogger } from '../../../functions/observability/log.js';
import { revokeOAuthGrantsOf } from '../../../store/oauth-revocation.js';
import { STORE_TARGETS } from '../../api/harness.js';
import { CREATE_GAME, JOIN_GAME, SUBMIT_TURN } from '../../e2e/client.js';
import {
  actionOf,
  authorizationRequest,
  authorize,
  browserLike,
  csrfOf,
  INSECURE,
  REDIRECT_URI,
  startOAuthServer,
  walkConsent,
  type OAuthTestServer,
} from '../../oauth/fixture.js';
import { recorder } from '../summary.js';

const ME = '{ me { __typename ... on Player { id } ... on Error { code } } }';

// Counted with the other reliability suites (bench/reliability.ts): each test below is one hostile attempt.
const rec = recorder('oauth-security');
afterAll(() => rec.flush());

describe.each(STORE_TARGETS)('OAuth security (%s)', (target) => {
  let server: OAuthTestServer;
  let clientId: string;
  const lines: string[] = [];
  /** Every secret value the suite handled: none may be in a log line. */
  const secrets: string[] = [];
  const login = { handle: 'victim', password: 'victim-password' };
  let victim: { id: string; token: string };

  const client = () => ({ client_id: clientId });
  const keep = (t: oauth.TokenEndpointResponse) => {
    secrets.push(t.access_token, ...(t.refresh_token ? [t.refresh_token] : []));
    return t;
  };
  const refused = async (accessToken: string) => {
    const r = await server.api.gql(ME, {}, accessToken);
    expect(r.body.data?.['me']).toMatchObject({ code: 'UNAUTHENTICATED' });
  };
  /** The code of a completed browser part, not yet exchanged. */
  const codeFor = async (scope = 'games:read') => {
    const request = await authorizationRequest(server.as, clientId, scope);
    const back = await walkConsent(browserLike(server.origin), request.url, login);
    const params = oauth.validateAuthResponse(server.as, client(), back, request.state);
    secrets.push(params.get('code')!, request.verifier);
    return { params, verifier: request.verifier };
  };
  const exchange = (params: URLSearchParams, verifier: string) =>
    oauth.authorizationCodeGrantRequest(server.as, client(), oauth.None(), params, REDIRECT_URI, verifier, INSECURE);
  /** The redirect the authorization endpoint answers a bad request with, or its error page. */
  const authorizeOnce = async (url: URL) => browserLike(server.origin).go(url.href);

  beforeAll(async () => {
    setLogger(memoryLogger(lines));
    server = await startOAuthServer(target);
    victim = await server.api.register('victim');
    const maker = await server.api.register('maker');
    clientId = await server.registerApp(maker.id);
  }, 60_000);
  afterAll(async () => {
    setLogger(undefined);
    await server?.close();
  });
  afterEach(() => rec.add('inputsTried'));

  test('an authorization request without PKCE is refused on the redirect URI', async () => {
    const { url } = await authorizationRequest(server.as, clientId, 'games:read', { code_challenge: null, code_challenge_method: null });
    const res = await authorizeOnce(url);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
  });

  test('PKCE `plain` is refused', async () => {
    const { url, verifier } = await authorizationRequest(server.as, clientId, 'games:read', { code_challenge_method: 'plain' });
    url.searchParams.set('code_challenge', verifier);
    const back = new URL((await authorizeOnce(url)).headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('code')).toBeNull();
  });

  test('a request without state is refused, on the redirect URI', async () => {
    const { url } = await authorizationRequest(server.as, clientId, 'games:read', { state: null });
    const back = new URL((await authorizeOnce(url)).headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/state/);
  });

  test.each([
    ['one character off', 'https://app.example/callbacK'],
    ['a path added', 'https://app.example/callback/more'],
    ['another host', 'https://app.example.evil/callback'],
  ])('a redirect URI with %s gets an error page, never a redirect', async (_why, redirectUri) => {
    const { url } = await authorizationRequest(server.as, clientId, 'games:read', { redirect_uri: redirectUri });
    const res = await authorizeOnce(url);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toMatch(/redirect_uri/);
  });

  test('a code replayed is refused, and the grant it made is revoked with it', async () => {
    const { params, verifier } = await codeFor();
    const first = keep(await oauth.processAuthorizationCodeResponse(server.as, client(), await exchange(params, verifier)));
    expect((await server.api.gql(ME, {}, first.access_token)).body.data?.['me']).toMatchObject({ id: victim.id });
    const replay = await exchange(params, verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    await refused(first.access_token);
  });

  test('a code exchanged with the wrong verifier is refused', async () => {
    const { params } = await codeFor();
    const res = await exchange(params, oauth.generateRandomCodeVerifier());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  test('a refresh token reused after its rotation revokes the whole grant', async () => {
    const tokens = keep(await authorize(server, clientId, login, 'games:read'));
    const rotated = keep(
      await oauth.processRefreshTokenResponse(
        server.as,
        client(),
        await oauth.refreshTokenGrantRequest(server.as, client(), oauth.None(), tokens.refresh_token!, INSECURE),
      ),
    );
    const reuse = await oauth.refreshTokenGrantRequest(server.as, client(), oauth.None(), tokens.refresh_token!, INSECURE);
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    // The thief's use ended the legitimate holder's tokens too: the app must ask the player again.
    const next = await oauth.refreshTokenGrantRequest(server.as, client(), oauth.None(), rotated.refresh_token!, INSECURE);
    expect(next.status).toBe(400);
    await refused(rotated.access_token);
    await refused(tokens.access_token);
  });

  test('the tokens of a grant revoked with RFC 7009 are refused', async () => {
    const tokens = keep(await authorize(server, clientId, login, 'games:read'));
    const res = await oauth.revocationRequest(server.as, client(), oauth.None(), tokens.refresh_token!, INSECURE);
    await oauth.processRevocationResponse(res);
    await refused(tokens.access_token);
    const refresh = await oauth.refreshTokenGrantRequest(server.as, client(), oauth.None(), tokens.refresh_token!, INSECURE);
    expect(refresh.status).toBe(400);
  });

  test('a consent POST without its CSRF token, or with another one, grants nothing', async () => {
    const request = await authorizationRequest(server.as, clientId, 'games:play');
    const browser = browserLike(server.origin);
    let res = await browser.go(request.url.href);
    res = await browser.go(res.headers.get('location')!);
    let html = await res.text();
    res = await browser.form(actionOf(html, 'login'), { ...login }); // no csrf at all
    expect(res.status).toBe(403);
    res = await browser.form(actionOf(html, 'login'), { csrf: csrfOf(html), ...login });
    res = await browser.go(res.headers.get('location')!);
    res = await browser.go(res.headers.get('location')!);
    html = await res.text();
    expect(html).toMatch(/Approve/);
    const confirm = actionOf(html, 'confirm');
    expect((await browser.form(confirm, {})).status).toBe(403);
    expect((await browser.form(confirm, { csrf: csrfOf(html).slice(1) + 'A' })).status).toBe(403);
    // Another browser holding the right token but not the interaction's cookie gets nothing either.
    expect((await browserLike(server.origin).form(confirm, { csrf: csrfOf(html) })).status).toBe(400);
    // Nothing was granted: the player's grant list is empty of this scope.
    const grants = await server.app.services.db.prisma.oAuthRecord.findMany({ where: { model: 'Grant', accountId: victim.id } });
    expect(grants.every((g) => !JSON.stringify(g.payload).includes('games:play'))).toBe(true);
  });

  test('a games:read token cannot move, refused as an API key without games:play is', async () => {
    const tokens = keep(await authorize(server, clientId, login, 'games:read'));
    const opponent = await server.api.register('opponent');
    const created = await server.api.gql(CREATE_GAME, { input: { opponent: 'opponent' } }, victim.token);
    const game = created.body.data!['createGame'] as { id: string; version: number };
    const joined = await server.api.gql(JOIN_GAME, { id: game.id }, opponent.token);
    const version = (joined.body.data!['joinGame'] as { version: number }).version ?? game.version;
    const input = { gameId: game.id, expectedVersion: version, idempotencyKey: 'oauth-read-only', action: { pass: true } };
    const r = await server.api.gql(SUBMIT_TURN, { input }, tokens.access_token);
    expect(r.body.errors?.[0]?.extensions?.['code'] ?? (r.body.data?.['submitTurn'] as { code?: string })?.code).toBe('FORBIDDEN');
    expect(JSON.stringify(r.body)).toMatch(/games:play/);
    // It still reads.
    expect((await server.api.gql(ME, {}, tokens.access_token)).body.data?.['me']).toMatchObject({ id: victim.id });
  });

  test('a scope no app may hold (keys:manage) is left out: the token cannot mint an API key to outlive its grant', async () => {
    const tokens = keep(await authorize(server, clientId, login, 'games:read keys:manage'));
    expect(tokens.scope).toBe('games:read');
    const r = await server.api.gql(
      `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { __typename ... on Error { code message } } }`,
      { input: { name: 'escape', scopes: ['games:read'] } },
      tokens.access_token,
    );
    expect(JSON.stringify(r.body)).toMatch(/FORBIDDEN/);
    expect(JSON.stringify(r.body)).toMatch(/keys:manage/);
  });

  test("an app's tokens die with the player's OAuth records (password change, deletion)", async () => {
    const tokens = keep(await authorize(server, clientId, login, 'games:read'));
    await server.app.services.db.transaction((tx) => revokeOAuthGrantsOf(tx, victim.id));
    await refused(tokens.access_token);
    const refresh = await oauth.refreshTokenGrantRequest(server.as, client(), oauth.None(), tokens.refresh_token!, INSECURE);
    expect(refresh.status).toBe(400);
  });

  test("an app's tokens die when its player changes the password, through changePassword itself", async () => {
    const changer = { handle: 'changer', password: 'changer-password' };
    const signedIn = await server.api.register(changer.handle, changer.password);
    const tokens = keep(await authorize(server, clientId, changer, 'games:read'));
    const changed = await server.api.gql(
      `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { __typename ... on Error { code message } } }`,
      { input: { currentPassword: changer.password, newPassword: 'a fresh and longer passphrase' } },
      signedIn.token,
    );
    expect(changed.body.data?.['changePassword']).toMatchObject({ __typename: 'PasswordChanged' });
    await refused(tokens.access_token);
    const refresh = await oauth.refreshTokenGrantRequest(server.as, client(), oauth.None(), tokens.refresh_token!, INSECURE);
    expect(refresh.status).toBe(400);
  });

  test("an app's tokens die when its player deletes the account, through deleteAccount itself", async () => {
    const leaver = { handle: 'leaver', password: 'leaver-password' };
    const signedIn = await server.api.register(leaver.handle, leaver.password);
    const tokens = keep(await authorize(server, clientId, leaver, 'games:read'));
    const deleted = await server.api.gql(
      `mutation($input: DeleteAccountInput!) { deleteAccount(input: $input) { __typename ... on Error { code message } } }`,
      { input: { password: leaver.password, confirm: `DELETE ${leaver.handle}` } },
      signedIn.token,
    );
    expect(deleted.body.data?.['deleteAccount']).toMatchObject({ __typename: 'DeletedAccount' });
    await refused(tokens.access_token);
    const refresh = await oauth.refreshTokenGrantRequest(server.as, client(), oauth.None(), tokens.refresh_token!, INSECURE);
    expect(refresh.status).toBe(400);
  });

  test('no token, code or verifier is in any log line', () => {
    expect(secrets.length).toBeGreaterThan(10);
    const all = lines.join('\n');
    // The refusals were logged (the replayed code, the reused refresh token): the lines are there, without the values.
    expect(lines.filter((l) => l.includes('"oauth.grant.error"')).length).toBeGreaterThanOrEqual(2);
    for (const s of secrets) expect(all.includes(s), `a secret of ${s.length} characters is in the log`).toBe(false);
    expect(all).not.toContain(login.password);
  });
});
