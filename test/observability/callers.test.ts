/**
 * The caller kind of the request log and metrics (docs/operating.md): a session token is `player`, an API
 * key `api-key`, a third-party app's OAuth access token `app` (docs/apps.md) — never `player`, though it
 * acts as one — and no credential `anonymous`. Through the Lambda handler, as requests reach production,
 * with the process's logger and metrics replaced by in-memory ones; on PGlite and on Postgres.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type Handler } from '../../functions/lambda-handler.js';
import { memoryLogger, setLogger } from '../../functions/observability/log.js';
import { Metrics, setMetrics } from '../../functions/observability/metrics.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { lambdaContext, RECORDED_GRAPHQL_EVENT } from '../functions/apigw-event.js';

const RECORDED = RECORDED_GRAPHQL_EVENT;
const LAMBDA_CONTEXT = lambdaContext('callers');

const ME = `{ me { __typename ... on Player { handle } } }`;
const CREATE_KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { ... on NewApiKey { key } ... on Error { code } } }`;

describe.each(STORE_TARGETS)('the caller kind on $kind', (target) => {
  const lines: string[] = [];
  const metrics = new Metrics(false);
  let api: TestApi;
  let handler: Handler;
  let requests = 0;

  const call = async (path: string, token?: string, body?: unknown) => {
    const requestId = `callers-${++requests}`;
    const method = body === undefined ? 'GET' : 'POST';
    const res = await handler(
      {
        ...RECORDED,
        rawPath: path,
        rawQueryString: '',
        requestContext: { ...RECORDED.requestContext, requestId, http: { ...RECORDED.requestContext.http, method, path } },
        headers: { ...RECORDED.headers, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        isBase64Encoded: false,
      },
      LAMBDA_CONTEXT,
    );
    const line = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l['msg'] === 'request' && l['requestId'] === requestId);
    return { status: res.statusCode, body: JSON.parse(res.body ?? 'null') as Record<string, any>, line };
  };

  /** An app of `ownerId` and an access token of `accountId` for it, as oidc-provider writes them (test/oauth/apps.test.ts). */
  const accessToken = async (ownerId: string, accountId: string): Promise<string> => {
    const db = api.app.services.db.prisma;
    const clientId = `app_${randomBytes(16).toString('base64url')}`;
    await db.oAuthApp.create({
      data: {
        id: clientId,
        ownerId,
        name: 'Board Buddy',
        redirectUris: ['https://app.example/callback'],
        clientType: 'public',
        secret: null,
      },
    });
    const grantId = randomBytes(16).toString('base64url');
    const token = randomBytes(32).toString('base64url');
    const iat = Math.floor(START.getTime() / 1000);
    const scope = 'games:read';
    await db.oAuthRecord.createMany({
      data: [
        {
          model: 'Grant',
          id: grantId,
          payload: { iat, exp: iat + 86_400, jti: grantId, kind: 'Grant', accountId, clientId },
          accountId,
          clientId,
          expiresAt: new Date(START.getTime() + 86_400_000),
        },
        {
          model: 'AccessToken',
          id: token,
          payload: { iat, exp: iat + 3600, jti: token, kind: 'AccessToken', accountId, clientId, grantId, scope },
          grantId,
          accountId,
          clientId,
          expiresAt: new Date(START.getTime() + 3_600_000),
        },
      ],
    });
    return token;
  };

  beforeAll(async () => {
    setLogger(memoryLogger(lines));
    setMetrics(metrics);
    api = await openTestApi(target);
    handler = createHandler(() => Promise.resolve(api.app));
  }, 120_000);
  afterAll(async () => {
    setLogger(undefined);
    setMetrics(undefined);
    await api?.close();
  });

  it('logs and counts an app’s OAuth token as `app`, apart from the player, the API key and the anonymous caller', async () => {
    const ann = await api.register('callers-ann');
    const key = await api.gql(CREATE_KEY, { input: { name: 'bot', apiScopes: ['GAMES_READ'] } }, ann.token);
    const apiKey = key.body.data?.['createApiKey'].key as string;
    expect(apiKey).toMatch(/^arb_/);
    const appToken = await accessToken(ann.id, ann.id);
    // (requests made before this point went around the handler: only these four are logged and counted)

    const asPlayer = await call('/graphql', ann.token, { query: ME });
    const asKey = await call('/graphql', apiKey, { query: ME });
    const asApp = await call('/graphql', appToken, { query: ME });
    const asNobody = await call('/graphql', undefined, { query: ME });
    const appOnRest = await call('/v1/me/games', appToken);

    // The app's token really is accepted as the player (else it would be logged anonymous for the wrong reason).
    expect(asApp.body['data']['me']).toEqual({ __typename: 'Player', handle: 'callers-ann' });
    expect(appOnRest.status).toBe(200);
    expect(asPlayer.line).toMatchObject({ caller: 'player' });
    expect(asKey.line).toMatchObject({ caller: 'api-key' });
    expect(asApp.line).toMatchObject({ caller: 'app' });
    expect(asNobody.line).toMatchObject({ caller: 'anonymous' });
    expect(appOnRest.line).toMatchObject({ caller: 'app', operation: 'GET /v1/me/games' });
    for (const l of lines) expect(l).not.toContain(appToken);

    const text = metrics.prometheusText();
    expect(text).toContain('arbiter_requests_by_caller_total{caller="app"} 2\n');
    expect(text).toContain('arbiter_requests_by_caller_total{caller="player"} 1\n');
    expect(text).toContain('arbiter_requests_by_caller_total{caller="api-key"} 1\n');
    expect(text).toContain('arbiter_requests_by_caller_total{caller="anonymous"} 1\n');
  });
});
