/**
 * Grants made by the real authorization server, on each store target: an app registered through the API
 * (registerApp), a player who authorizes it through oidc-provider's flow (oauth4webapi as the app, the
 * sign-in and consent pages walked in between: test/oauth/fixture.ts), then the player's list of authorized
 * apps read back from the Grant oidc-provider wrote, its last use after a call, and what revoking the grant
 * and deleting the app do to the app's tokens. An app's own token can neither list nor revoke grants.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STORE_TARGETS } from '../api/harness.js';
import { authorize, INSECURE, REDIRECT_URI, startOAuthServer, type OAuthTestServer } from './fixture.js';

const ERR = `... on Error { __typename code message }`;
const REGISTER = `mutation($input: RegisterAppInput!) { registerApp(input: $input) { __typename ... on OAuthAppCredentials { app { id } } ${ERR} } }`;
const MY_GRANTS = `{ myGrants { __typename ... on OAuthGrantList { grants { id app { id name iconUrl } scopes createdAt lastUsedAt } } ${ERR} } }`;
const MY_APPS = `{ myApps { __typename ${ERR} } }`;
const DELETE_APP = `mutation($id: ID!) { deleteApp(id: $id) { __typename ${ERR} } }`;

describe.each(STORE_TARGETS)('grants of the real authorization server ($kind)', (target) => {
  let server: OAuthTestServer;
  let owner: { id: string; token: string };
  let player: { id: string; token: string };
  const login = { handle: 'granting', password: 'granting-password' };

  const registerApp = async (name: string): Promise<string> => {
    const r = await server.api.gql(
      REGISTER,
      { input: { name, redirectUris: [REDIRECT_URI], clientType: 'PUBLIC', iconUrl: 'https://app.example/icon.png' } },
      owner.token,
    );
    const payload = r.body.data?.['registerApp'];
    if (payload?.__typename !== 'OAuthAppCredentials') throw new Error(JSON.stringify(r.body));
    return payload.app.id as string;
  };
  const grants = async () => {
    const r = await server.api.gql(MY_GRANTS, {}, player.token);
    return r.body.data?.['myGrants'].grants as {
      id: string;
      app: { id: string; name: string };
      scopes: string[];
      lastUsedAt: string | null;
    }[];
  };
  const me = async (token: string) => (await server.api.fetch('/v1/me', { headers: { authorization: `Bearer ${token}` } })).status;
  const refresh = async (clientId: string, refreshToken: string) => {
    const client = { client_id: clientId };
    const res = await oauth.refreshTokenGrantRequest(server.as, client, oauth.None(), refreshToken, INSECURE);
    return oauth.processRefreshTokenResponse(server.as, client, res);
  };

  beforeAll(async () => {
    server = await startOAuthServer(target);
    owner = await server.api.register('grant-maker');
    player = await server.api.register(login.handle, login.password);
  }, 60_000);
  afterAll(() => server?.close());

  test('the grant the flow made is listed with its app and scopes, its last use, and an app token cannot see it', async () => {
    const clientId = await registerApp('Flow Buddy');
    const before = await grants();
    const tokens = await authorize(server, clientId, login, 'games:read games:play');
    const listed = (await grants()).filter((g) => !before.some((b) => b.id === g.id));
    expect(listed).toEqual([
      expect.objectContaining({
        app: { id: clientId, name: 'Flow Buddy', iconUrl: 'https://app.example/icon.png' },
        scopes: ['GAMES_READ', 'GAMES_PLAY'],
      }),
    ]);
    expect(await me(tokens.access_token)).toBe(200);
    const used = (await grants()).find((g) => g.id === listed[0]!.id)!;
    expect(used.lastUsedAt).not.toBeNull();

    // The app's own token: neither the player's grants nor app management.
    const asApp = await server.api.gql(MY_GRANTS, {}, tokens.access_token);
    expect(asApp.body.data?.['myGrants']).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN' });
    expect((await server.api.gql(MY_APPS, {}, tokens.access_token)).body.data?.['myApps']).toMatchObject({ __typename: 'ForbiddenError' });
    const restRevoke = await server.api.fetch(`/v1/me/grants/${encodeURIComponent(listed[0]!.id)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(restRevoke.status).toBe(403);
    expect((await grants()).map((g) => g.id)).toContain(listed[0]!.id);
  });

  test('revoking the grant ends its access token and its refresh token; the app must ask again', async () => {
    const clientId = await registerApp('Revoked Buddy');
    const tokens = await authorize(server, clientId, login, 'games:read');
    const grant = (await grants()).find((g) => g.app.id === clientId)!;
    expect(grant.scopes).toEqual(['GAMES_READ']);
    expect(await me(tokens.access_token)).toBe(200);
    const res = await server.api.fetch(`/v1/me/grants/${encodeURIComponent(grant.id)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${player.token}` },
    });
    expect(res.status).toBe(204);
    expect(await me(tokens.access_token)).toBe(401);
    await expect(refresh(clientId, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await grants()).some((g) => g.app.id === clientId)).toBe(false);

    // Asking again makes a new grant that works.
    const again = await authorize(server, clientId, login, 'games:read');
    expect(await me(again.access_token)).toBe(200);
    expect((await grants()).filter((g) => g.app.id === clientId)).toHaveLength(1);
  });

  test('deleting the app ends every player’s grant and token of it', async () => {
    const clientId = await registerApp('Deleted Buddy');
    const tokens = await authorize(server, clientId, login, 'games:read');
    expect(await me(tokens.access_token)).toBe(200);
    const deleted = await server.api.gql(DELETE_APP, { id: clientId }, owner.token);
    expect(deleted.body.data?.['deleteApp']).toMatchObject({ __typename: 'DeletedOAuthApp' });
    expect(await me(tokens.access_token)).toBe(401);
    await expect(refresh(clientId, tokens.refresh_token!)).rejects.toBeDefined();
    expect((await grants()).some((g) => g.app.id === clientId)).toBe(false);
  });
});
