/**
 * The authorization server's whole flow (docs/apps.md#the-authorization-server), on each store target:
 * oauth4webapi as the app (discovery, PKCE S256, state, the code exchanged, refresh, revocation,
 * introspection), the sign-in and consent pages walked in between, and the access token used on GraphQL,
 * on REST and on a stream exactly as a session token with those scopes would be.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STORE_TARGETS } from '../api/harness.js';
import { CREATE_GAME } from '../e2e/client.js';
import {
  authorizationRequest,
  authorize,
  browserLike,
  INSECURE,
  REDIRECT_URI,
  startOAuthServer,
  walkConsent,
  type OAuthTestServer,
} from './fixture.js';

const ME = '{ me { __typename ... on Player { id handle } ... on Error { code message } } }';

describe.each(STORE_TARGETS)('OAuth flow (%s)', (target) => {
  let server: OAuthTestServer;
  let player: { id: string; token: string };
  let clientId: string;

  beforeAll(async () => {
    server = await startOAuthServer(target);
    player = await server.api.register('oauthflow');
    const owner = await server.api.register('appmaker');
    clientId = await server.registerApp(owner.id);
  }, 60_000);
  afterAll(() => server?.close());

  test('the metadata is served at RFC 8414 and OpenID discovery alike, with S256 only', async () => {
    const rfc = await (await server.api.fetch('/.well-known/oauth-authorization-server')).json();
    const oidc = await (await server.api.fetch('/.well-known/openid-configuration')).json();
    expect(rfc).toEqual(oidc);
    expect(rfc).toMatchObject({
      issuer: server.origin,
      authorization_endpoint: `${server.origin}/oauth/authorize`,
      token_endpoint: `${server.origin}/oauth/token`,
      revocation_endpoint: `${server.origin}/oauth/revoke`,
      introspection_endpoint: `${server.origin}/oauth/introspect`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
    });
    expect(rfc.scopes_supported).toEqual(expect.arrayContaining(['games:read', 'games:play']));
    expect(rfc.scopes_supported).not.toContain('keys:manage');
  });

  test('code with PKCE → tokens that act for the player on GraphQL and REST; refresh rotates', async () => {
    const tokens = await authorize(server, clientId, { handle: 'oauthflow', password: 'oauthflow-password' }, 'games:read games:play');
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope?.split(' ').sort()).toEqual(['games:play', 'games:read']);
    expect(tokens.refresh_token).toBeTruthy();
    const me = await server.api.gql(ME, {}, tokens.access_token);
    expect(me.body.data?.['me']).toEqual({ __typename: 'Player', id: player.id, handle: 'oauthflow' });
    const rest = await server.api.fetch('/v1/me', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { id: string }).id).toBe(player.id);

    const client = { client_id: clientId };
    const refreshed = await oauth.processRefreshTokenResponse(
      server.as,
      client,
      await oauth.refreshTokenGrantRequest(server.as, client, oauth.None(), tokens.refresh_token!, INSECURE),
    );
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const again = await server.api.gql(ME, {}, refreshed.access_token);
    expect(again.body.data?.['me']).toMatchObject({ id: player.id });
  });

  test("the access token opens a game's event stream, with the player's view", async () => {
    const tokens = await authorize(server, clientId, { handle: 'oauthflow', password: 'oauthflow-password' }, 'games:read');
    await server.api.register('streamfoe');
    const game = (await server.api.gql(CREATE_GAME, { input: { opponent: 'streamfoe' } }, player.token)).body.data!['createGame'] as {
      id: string;
    };
    const abort = new AbortController();
    const res = await server.api.fetch(`/v1/games/${game.id}/events`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/x-ndjson' },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ version: 1, kind: 'game-created', seat: 0 });
    // Without a token the same stream is refused: the token is what let it in.
    const anonymous = await server.api.fetch(`/v1/games/${game.id}/events`, { headers: { accept: 'application/x-ndjson' } });
    expect(anonymous.status).not.toBe(200);
  });

  test('a confidential app authenticates at the token endpoint and may introspect its own tokens; a public one may not', async () => {
    const owner = await server.api.register('servermaker');
    const secret = 'conf-secret-of-the-server-app-0123456789';
    const confId = await server.registerApp(owner.id, { secret, name: 'Tourney Server' });
    const request = await authorizationRequest(server.as, confId, 'games:read');
    const back = await walkConsent(browserLike(server.origin), request.url, { handle: 'oauthflow', password: 'oauthflow-password' });
    const conf = { client_id: confId };
    const params = oauth.validateAuthResponse(server.as, conf, back, request.state);
    // The wrong secret is refused.
    const wrong = await oauth.authorizationCodeGrantRequest(
      server.as,
      conf,
      oauth.ClientSecretBasic('not-the-secret-at-all-0123456789'),
      params,
      REDIRECT_URI,
      request.verifier,
      INSECURE,
    );
    expect(wrong.status).toBe(401);
    const tokens = await oauth.processAuthorizationCodeResponse(
      server.as,
      conf,
      await oauth.authorizationCodeGrantRequest(
        server.as,
        conf,
        oauth.ClientSecretBasic(secret),
        params,
        REDIRECT_URI,
        request.verifier,
        INSECURE,
      ),
    );
    const info = await oauth.processIntrospectionResponse(
      server.as,
      conf,
      await oauth.introspectionRequest(server.as, conf, oauth.ClientSecretBasic(secret), tokens.access_token, INSECURE),
    );
    expect(info).toMatchObject({ active: true, client_id: confId, sub: player.id, scope: 'games:read', token_type: 'Bearer' });
    const pub = await oauth.introspectionRequest(server.as, { client_id: clientId }, oauth.None(), tokens.access_token, INSECURE);
    // Not allowed to know: answered as for an unknown token (RFC 7662 §2.2), nothing of it told.
    expect(await pub.json()).toEqual({ active: false });
  });

  test("CORS: a browser app's origin may call the token endpoint; no origin may read the sign-in pages", async () => {
    const call = (path: string, origin: string) =>
      server.api.fetch(path, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: `client_id=${clientId}&grant_type=refresh_token&refresh_token=spent`,
      });
    const app = await call('/oauth/token', new URL(REDIRECT_URI).origin);
    expect(app.headers.get('access-control-allow-origin')).toBe(new URL(REDIRECT_URI).origin);
    const other = await call('/oauth/token', 'https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const page = await server.api.fetch('/oauth/interaction/whatever', { headers: { origin: 'https://evil.example' } });
    expect([...page.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
  });

  test("a grant's last use is recorded, at most once a minute", async () => {
    const tokens = await authorize(server, clientId, { handle: 'oauthflow', password: 'oauthflow-password' }, 'games:read');
    const grantOf = () =>
      server.app.services.db.prisma.oAuthRecord
        .findFirst({ where: { model: 'AccessToken', id: tokens.access_token } })
        .then((at) => server.app.services.db.prisma.oAuthRecord.findUnique({ where: { model_id: { model: 'Grant', id: at!.grantId! } } }));
    expect((await grantOf())!.lastUsedAt).toBeNull();
    await server.api.gql(ME, {}, tokens.access_token);
    const first = (await grantOf())!.lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await server.api.gql(ME, {}, tokens.access_token);
    expect((await grantOf())!.lastUsedAt).toEqual(first);
  });
});
