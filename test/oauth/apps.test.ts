/**
 * Third-party app registration and the grants a player gave (docs/apps.md) over GraphQL and REST, on
 * PGlite and on Postgres: public and confidential apps, the secret answered once (at registration and
 * rotation) and never listed, each class of bad redirect URI refused naming the URI and writing nothing,
 * update, rotation, deletion revoking every record of the app, another player's app as NOT_FOUND, who may
 * call what (player token, API key with apps:manage), and grants shaped as oidc-provider writes them
 * listed and revoked with their tokens. The whole flow through the authorization server is in
 * grants-flow.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApp } from '../../service/oauth-apps.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from '../api/harness.js';

const ERR = `... on Error { __typename code message details }`;
const APP = `id name redirectUris iconUrl clientType createdAt updatedAt`;
const REGISTER = `mutation($input: RegisterAppInput!) { registerApp(input: $input) {
  __typename ... on OAuthAppCredentials { clientSecret app { ${APP} } } ... on AppInputError { field } ${ERR} } }`;
const MY_APPS = `{ myApps { __typename ... on OAuthAppList { apps { ${APP} } } ${ERR} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateAppInput!) { updateApp(id: $id, input: $input) {
  __typename ... on OAuthApp { ${APP} } ... on AppInputError { field } ${ERR} } }`;
const ROTATE = `mutation($id: ID!) { rotateAppSecret(id: $id) { __typename ... on OAuthAppCredentials { clientSecret app { id } } ${ERR} } }`;
const DELETE = `mutation($id: ID!) { deleteApp(id: $id) { __typename ... on DeletedOAuthApp { id } ${ERR} } }`;
const MY_GRANTS = `{ myGrants { __typename ... on OAuthGrantList { grants { id app { id name iconUrl } scopes createdAt lastUsedAt expiresAt } } ${ERR} } }`;
const REVOKE = `mutation($id: ID!) { revokeGrant(id: $id) { __typename ... on RevokedGrant { id } ${ERR} } }`;
const CREATE_KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { ... on NewApiKey { key } ${ERR} } }`;

const CALLBACK = 'https://app.example/callback';

describe.each(STORE_TARGETS)('OAuth apps and grants on $kind', (target) => {
  let api: TestApi;
  /** Every response body seen, to check that no read ever answers a secret. */
  const seen: string[] = [];
  let ann: { id: string; token: string };
  let ben: { id: string; token: string };

  const gql = async (query: string, variables: Record<string, unknown>, bearer?: string) => {
    const r = await api.gql(query, variables, bearer);
    if (r.body.errors?.length || !r.body.data) throw new Error(JSON.stringify(r.body));
    seen.push(JSON.stringify(r.body));
    return Object.values(r.body.data)[0] as Record<string, any>;
  };
  const register = (token: string, input: Record<string, unknown>) =>
    gql(REGISTER, { input: { name: 'Board Buddy', redirectUris: [CALLBACK], clientType: 'PUBLIC', ...input } }, token);
  const db = () => api.app.services.db.prisma;
  const rest = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await api.fetch(path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    seen.push(text);
    return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as Record<string, any>) : null };
  };

  beforeAll(async () => {
    api = await openTestApi(target);
    ann = await api.register('ann-apps');
    ben = await api.register('ben-apps');
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('registers a public app: an unguessable client id, no secret, the URIs stored exactly', async () => {
    const uris = [CALLBACK, 'http://127.0.0.1:8080/cb', 'com.example.buddy:/oauth2redirect'];
    const r = await register(ann.token, { name: '  Board Buddy  ', redirectUris: uris, iconUrl: 'https://app.example/icon.png' });
    expect(r).toMatchObject({
      __typename: 'OAuthAppCredentials',
      clientSecret: null,
      app: { name: 'Board Buddy', redirectUris: uris, iconUrl: 'https://app.example/icon.png', clientType: 'PUBLIC' },
    });
    expect(r['app'].id).toMatch(/^app_[A-Za-z0-9_-]{22}$/);
    const row = await db().oAuthApp.findUniqueOrThrow({ where: { id: r['app'].id } });
    expect(row).toMatchObject({ ownerId: ann.id, clientType: 'public', secret: null, redirectUris: uris, deletedAt: null });
  });

  it('registers a confidential app: its secret is answered once, kept for the token endpoint, never listed', async () => {
    api.setNow(new Date(START.getTime() + 1000)); // a second later: listed after the first (oldest first)
    const r = await register(ann.token, { name: 'Buddy Server', clientType: 'CONFIDENTIAL' });
    api.setNow(START);
    expect(r['clientSecret']).toMatch(/^appsec_[A-Za-z0-9_-]{43}$/);
    const row = await db().oAuthApp.findUniqueOrThrow({ where: { id: r['app'].id } });
    expect(row.secret).toBe(r['clientSecret']);
    const list = await gql(MY_APPS, {}, ann.token);
    expect(list['apps'].map((a: { name: string }) => a.name)).toEqual(['Board Buddy', 'Buddy Server']);
    const one = await rest('GET', `/v1/apps/${r['app'].id}`, ann.token);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: r['app'].id, clientType: 'CONFIDENTIAL', redirectUris: [CALLBACK] });
    const listed = await rest('GET', '/v1/apps', ann.token);
    expect(listed.json?.['items']).toHaveLength(2);
    for (const body of [JSON.stringify(list), JSON.stringify(one.json), JSON.stringify(listed.json)]) expect(body).not.toContain('appsec_');
  });

  it.each([
    ['http://app.example/callback', 'NOT_HTTPS'],
    ['https://app.example/callback#x', 'FRAGMENT'],
    ['https://*.app.example/callback', 'WILDCARD'],
    ['/callback', 'NOT_ABSOLUTE'],
    ['javascript:alert(1)', 'SCHEME_FORBIDDEN'],
    ['buddy:/callback', 'SCHEME_NOT_PRIVATE_USE'],
    ['com.example.buddy://callback', 'PRIVATE_USE_FORM'],
    ['https://localhost/callback', 'HTTPS_LOOPBACK'],
    [CALLBACK, 'DUPLICATE'],
  ])('refuses the redirect URI %s (%s) naming it, and writes nothing', async (uri, reason) => {
    const before = await db().oAuthApp.count();
    const r = await register(ben.token, { redirectUris: [CALLBACK, uri] });
    expect(r).toMatchObject({
      __typename: 'AppInputError',
      code: 'APP_REDIRECT_URI_INVALID',
      field: 'input.redirectUris.1',
      details: { reason, uri },
    });
    expect(r['message']).toContain(uri);
    expect(await db().oAuthApp.count()).toBe(before);
  });

  it('refuses a bad name, icon, or URI count, with the field; over REST as 400 problems', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '   ' }, 'APP_NAME_INVALID', 'input.name'],
      [{ name: 'x'.repeat(81) }, 'APP_NAME_INVALID', 'input.name'],
      [{ iconUrl: 'http://app.example/icon.png' }, 'APP_ICON_URL_INVALID', 'input.iconUrl'],
      [{ redirectUris: [] }, 'APP_REDIRECT_URI_INVALID', 'input.redirectUris'],
      [{ redirectUris: Array.from({ length: 11 }, (_, i) => `${CALLBACK}/${i}`) }, 'APP_REDIRECT_URI_INVALID', 'input.redirectUris'],
    ];
    for (const [input, code, field] of cases) expect(await register(ben.token, input)).toMatchObject({ code, field });
    const res = await rest('POST', '/v1/apps', ben.token, { name: 'Buddy', redirectUris: ['http://app.example/cb'], clientType: 'PUBLIC' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.json).toMatchObject({
      code: 'APP_REDIRECT_URI_INVALID',
      field: '/redirectUris/0',
      details: { reason: 'NOT_HTTPS', uri: 'http://app.example/cb' },
    });
    expect(res.json?.['detail']).toContain('http://app.example/cb');
    const bad = await rest('POST', '/v1/apps', ben.token, { name: 'Buddy', redirectUris: [CALLBACK], clientType: 'SECRETIVE' });
    expect(bad.status).toBe(400);
    expect(await db().oAuthApp.count({ where: { ownerId: ben.id } })).toBe(0);
  });

  it('registers over REST with 201 and a Location; updates name, URIs and icon; a bad update changes nothing', async () => {
    const created = await rest('POST', '/v1/apps', ann.token, { name: 'Rest Buddy', redirectUris: [CALLBACK], clientType: 'PUBLIC' });
    expect(created.status).toBe(201);
    const id = created.json?.['app'].id as string;
    expect(created.headers.get('location')).toBe(`/v1/apps/${id}`);
    api.setNow(new Date(START.getTime() + 60_000));
    const updated = await gql(
      UPDATE,
      { id, input: { name: 'Rest Buddy 2', redirectUris: ['http://[::1]/cb'], iconUrl: 'https://app.example/i.png' } },
      ann.token,
    );
    expect(updated).toMatchObject({ name: 'Rest Buddy 2', redirectUris: ['http://[::1]/cb'], iconUrl: 'https://app.example/i.png' });
    expect(updated['updatedAt']).toBe(new Date(START.getTime() + 60_000).toISOString());
    const cleared = await rest('PATCH', `/v1/apps/${id}`, ann.token, { iconUrl: null });
    expect(cleared.status).toBe(200);
    expect(cleared.json).toMatchObject({ name: 'Rest Buddy 2', iconUrl: null, redirectUris: ['http://[::1]/cb'] });
    const refused = await gql(UPDATE, { id, input: { name: 'Never', redirectUris: ['https://app.example/#x'] } }, ann.token);
    expect(refused).toMatchObject({ code: 'APP_REDIRECT_URI_INVALID', field: 'input.redirectUris.0' });
    expect(await db().oAuthApp.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: 'Rest Buddy 2',
      redirectUris: ['http://[::1]/cb'],
    });
    api.setNow(START);
  });

  it('rotates a confidential app’s secret (shown once), and refuses to for a public app', async () => {
    const app = await register(ann.token, { name: 'Rotating', clientType: 'CONFIDENTIAL' });
    const id = app['app'].id as string;
    const rotated = await gql(ROTATE, { id }, ann.token);
    expect(rotated['clientSecret']).toMatch(/^appsec_/);
    expect(rotated['clientSecret']).not.toBe(app['clientSecret']);
    expect((await db().oAuthApp.findUniqueOrThrow({ where: { id } })).secret).toBe(rotated['clientSecret']);
    const overRest = await rest('POST', `/v1/apps/${id}/secret`, ann.token);
    expect(overRest.status).toBe(200);
    expect(overRest.json?.['clientSecret']).not.toBe(rotated['clientSecret']);
    const pub = await register(ann.token, { name: 'No secret' });
    expect(await gql(ROTATE, { id: pub['app'].id }, ann.token)).toMatchObject({ code: 'APP_NOT_CONFIDENTIAL' });
    expect((await db().oAuthApp.findUniqueOrThrow({ where: { id: pub['app'].id } })).secret).toBeNull();
  });

  /** oauth_records rows as oidc-provider's adapter (store/oauth-adapter.ts) writes them for `clientId`. */
  const issue = async (accountId: string, clientId: string, scope = 'games:read games:play') => {
    const grantId = randomBytes(32).toString('base64url');
    const iat = Math.floor(START.getTime() / 1000);
    const resource = 'http://arbiter.test/';
    const rows = [
      {
        model: 'Grant',
        id: grantId,
        payload: {
          iat,
          exp: iat + 31_536_000,
          jti: grantId,
          kind: 'Grant',
          accountId,
          clientId,
          openid: { scope: 'openid offline_access' },
          resources: { [resource]: scope },
        },
        grantId: null,
        expiresAt: new Date(START.getTime() + 31_536_000_000),
      },
      ...['AccessToken', 'RefreshToken', 'AuthorizationCode'].map((model) => {
        const id = randomBytes(32).toString('base64url');
        return {
          model,
          id,
          payload: { iat, exp: iat + 3600, jti: id, kind: model, accountId, clientId, grantId, scope, resource },
          grantId,
          expiresAt: new Date(START.getTime() + 3_600_000),
        };
      }),
    ];
    await db().oAuthRecord.createMany({ data: rows.map((r) => ({ ...r, accountId, clientId })) });
    return grantId;
  };

  it('deletes an app with every grant, code and token issued to it; another app’s stay', async () => {
    const doomed = (await register(ann.token, { name: 'Doomed' }))['app'].id as string;
    const kept = (await register(ann.token, { name: 'Kept' }))['app'].id as string;
    await issue(ben.id, doomed);
    await issue(ann.id, doomed);
    const keptGrant = await issue(ben.id, kept);
    expect(await db().oAuthRecord.count({ where: { clientId: doomed } })).toBe(8);
    expect(await rest('DELETE', `/v1/apps/${doomed}`, ann.token)).toMatchObject({ status: 204 });
    expect(await db().oAuthRecord.count({ where: { clientId: doomed } })).toBe(0);
    expect(await db().oAuthRecord.count({ where: { clientId: kept } })).toBe(4);
    expect((await db().oAuthApp.findUniqueOrThrow({ where: { id: doomed } })).deletedAt).not.toBeNull();
    const list = await gql(MY_APPS, {}, ann.token);
    expect(list['apps'].map((a: { id: string }) => a.id)).not.toContain(doomed);
    expect(await gql(DELETE, { id: doomed }, ann.token)).toMatchObject({ __typename: 'NotFoundError', code: 'APP_NOT_FOUND' });
    expect(await gql(UPDATE, { id: doomed, input: { name: 'Back' } }, ann.token)).toMatchObject({ code: 'APP_NOT_FOUND' });
    const grants = await gql(MY_GRANTS, {}, ben.token);
    expect(grants['grants'].map((g: { id: string }) => g.id)).toEqual([keptGrant]);
  });

  it('answers someone else’s app as not found, over GraphQL and REST, and leaves it alone', async () => {
    const mine = await register(ann.token, { name: 'Ann only', clientType: 'CONFIDENTIAL' });
    const id = mine['app'].id as string;
    expect((await gql(MY_APPS, {}, ben.token))['apps']).toEqual([]);
    for (const [query, vars] of [
      [UPDATE, { id, input: { name: 'Stolen' } }],
      [ROTATE, { id }],
      [DELETE, { id }],
    ] as const) {
      const r = await gql(query, vars, ben.token);
      expect(r).toMatchObject({ __typename: 'NotFoundError', code: 'APP_NOT_FOUND' });
      expect(r['message']).not.toContain('Ann only');
    }
    for (const [method, path] of [
      ['GET', `/v1/apps/${id}`],
      ['PATCH', `/v1/apps/${id}`],
      ['DELETE', `/v1/apps/${id}`],
      ['POST', `/v1/apps/${id}/secret`],
    ] as const) {
      const res = await rest(method, path, ben.token, method === 'PATCH' ? { name: 'Stolen' } : undefined);
      expect([method, path, res.status, res.json?.['code']]).toEqual([method, path, 404, 'APP_NOT_FOUND']);
    }
    expect(await db().oAuthApp.findUniqueOrThrow({ where: { id } })).toMatchObject({
      name: 'Ann only',
      secret: mine['clientSecret'],
      deletedAt: null,
    });
    expect(await rest('GET', '/v1/apps/app_nothing_here', ann.token)).toMatchObject({ status: 404 });
  });

  it('lets an API key with apps:manage manage apps, but never the grants; a key without it is refused', async () => {
    const key = async (scopes: string[]) =>
      (await gql(CREATE_KEY, { input: { name: 'deploy', apiScopes: scopes.map((s) => s.replace(':', '_').toUpperCase()) } }, ann.token))[
        'key'
      ] as string;
    const manager = await key(['apps:manage']);
    const reader = await key(['games:read']);
    expect(await register(manager, { name: 'From a script' })).toMatchObject({ __typename: 'OAuthAppCredentials' });
    expect((await gql(MY_APPS, {}, manager))['apps'].length).toBeGreaterThan(0);
    expect(await register(reader, { name: 'Nope' })).toMatchObject({ __typename: 'ForbiddenError', code: 'FORBIDDEN' });
    expect(await gql(MY_APPS, {}, reader)).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await gql(MY_GRANTS, {}, manager)).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await rest('GET', '/v1/me/grants', manager)).toMatchObject({ status: 403 });
    expect(await rest('DELETE', '/v1/me/grants/whatever', manager)).toMatchObject({ status: 403 });
    const anonymous = await api.gql(MY_APPS, {});
    expect(anonymous.body.data?.['myApps']).toMatchObject({ __typename: 'UnauthenticatedError' });
  });

  it('lists a player’s grants with their app, scopes and last use, and revokes one with its tokens', async () => {
    const app = await register(ann.token, { name: 'Grant Buddy', iconUrl: 'https://app.example/g.png' });
    const clientId = app['app'].id as string;
    const older = await issue(ben.id, clientId, 'games:read');
    const newer = await issue(ben.id, clientId, 'games:read games:play');
    await db().oAuthRecord.updateMany({
      where: { model: 'Grant', id: newer },
      data: { createdAt: new Date(START.getTime() + 1000), lastUsedAt: START },
    });
    await db().oAuthRecord.updateMany({ where: { model: 'Grant', id: older }, data: { createdAt: START } });
    const listed = (await gql(MY_GRANTS, {}, ben.token))['grants'].filter((g: { app: { id: string } }) => g.app.id === clientId);
    expect(listed).toEqual([
      {
        id: newer,
        app: { id: clientId, name: 'Grant Buddy', iconUrl: 'https://app.example/g.png' },
        scopes: ['GAMES_READ', 'GAMES_PLAY'],
        createdAt: new Date(START.getTime() + 1000).toISOString(),
        lastUsedAt: START.toISOString(),
        expiresAt: new Date(START.getTime() + 31_536_000_000).toISOString(),
      },
      expect.objectContaining({ id: older, scopes: ['GAMES_READ'], lastUsedAt: null }),
    ]);
    expect((await gql(MY_GRANTS, {}, ann.token))['grants'].map((g: { id: string }) => g.id)).not.toContain(newer);

    // Another player cannot revoke it, and learns nothing of it.
    expect(await gql(REVOKE, { id: newer }, ann.token)).toMatchObject({ __typename: 'NotFoundError', code: 'GRANT_NOT_FOUND' });
    expect(await db().oAuthRecord.count({ where: { OR: [{ id: newer }, { grantId: newer }] } })).toBe(4);

    expect(await rest('DELETE', `/v1/me/grants/${encodeURIComponent(newer)}`, ben.token)).toMatchObject({ status: 204 });
    expect(await db().oAuthRecord.count({ where: { OR: [{ id: newer }, { grantId: newer }] } })).toBe(0);
    expect(await db().oAuthRecord.count({ where: { OR: [{ id: older }, { grantId: older }] } })).toBe(4);
    const after = await rest('GET', '/v1/me/grants', ben.token);
    expect(after.json?.['items'].map((g: { id: string }) => g.id)).toContain(older);
    expect(after.json?.['items'].map((g: { id: string }) => g.id)).not.toContain(newer);
    expect(await gql(REVOKE, { id: newer }, ben.token)).toMatchObject({ code: 'GRANT_NOT_FOUND' });
  });

  it('holds a player to 20 live apps; a deleted one frees its place', async () => {
    const cat = await api.register('cat-apps');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await register(cat.token, { name: `App ${i}` }))['app'].id as string);
    expect(await register(cat.token, { name: 'One too many' })).toMatchObject({
      __typename: 'ConflictError',
      code: 'APP_LIMIT_REACHED',
      details: { limit: 20 },
    });
    expect(await db().oAuthApp.count({ where: { ownerId: cat.id } })).toBe(20);
    await gql(DELETE, { id: ids[0] }, cat.token);
    expect(await register(cat.token, { name: 'In its place' })).toMatchObject({ __typename: 'OAuthAppCredentials' });
  });

  it('holds the cap under concurrent registrations: 25 at once make exactly 20 apps, the rest APP_LIMIT_REACHED', async () => {
    const dan = await api.register('dan-apps');
    // The service itself, 25 calls in flight together (over GraphQL the 30-an-hour limit would be the test's subject).
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        registerApp(api.app.services.db, dan.id, { name: `Racer ${i}`, redirectUris: [CALLBACK], clientType: 'public' }, new Date()),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    const refused = results.flatMap((r) => (r.ok ? [] : [r.error]));
    expect(refused).toHaveLength(5);
    for (const e of refused) expect(e).toMatchObject({ code: 'APP_LIMIT_REACHED', details: { limit: 20 } });
    expect(await db().oAuthApp.count({ where: { ownerId: dan.id } })).toBe(20);
  });

  it('never answered a secret except from registration and rotation', () => {
    const leaks = seen.filter((b) => b.includes('appsec_') && !b.includes('clientSecret'));
    expect(leaks).toEqual([]);
  });
});
