import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../store/lexicon-files.js';
import { eventUrl, createHandler } from '../../functions/lambda-handler.js';
import { getIntrospectionQuery } from '../../graph/graphql.js';
import { lexiconRegistry, type LexiconRegistry } from '../../service/lexicons.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const fixture = (name: string): APIGatewayProxyEventV2 =>
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'apigw', name), 'utf8')) as APIGatewayProxyEventV2;

const LAMBDA_CONTEXT = {
  functionName: 'arbiter-graphql',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:arbiter-graphql',
  memoryLimitInMB: '1024',
  awsRequestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
  logGroupName: '/aws/lambda/arbiter-graphql',
  logStreamName: '2026/11/21/[$LATEST]abcdef',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 29_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
} satisfies LambdaContext;

describe.each(STORE_TARGETS)('the HTTP platform on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('serves the same operations as REST routes, with the OpenAPI document', async () => {
    const res = await api.fetch('/rest/rule-sets');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }[]).map((r) => r.id)).toEqual([
      'NSA_2008',
      'WESPA',
      'FRIENDLY',
      'MATCH_VARIANT',
      'ONLINE_VOID',
    ]);

    const doc = (await (await api.fetch('/rest/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: unknown };
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths['/rule-sets']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/check-play']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/register-player']!)).toEqual(['post']);
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });

    const ui = await api.fetch('/rest/docs');
    expect([ui.status, ui.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  });

  it('gives REST errors an HTTP status from their code', async () => {
    const post = (path: string, body: unknown, token?: string) =>
      api.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    const play = await post('/rest/check-play', { input: { move: '8A CAT' } });
    expect(play.status).toBe(422);
    expect(await play.json()).toMatchObject({ code: 'MISSES_CENTRE', citation: { source: 'seed-003', rule: 'rule 3' } });
    const ok = await post('/rest/check-play', { input: { move: '8D JUKEBOX' } });
    expect([ok.status, ((await ok.json()) as { score: number }).score]).toEqual([200, 120]);

    const anonymous = await api.fetch('/rest/me');
    expect([anonymous.status, ((await anonymous.json()) as { code: string }).code]).toEqual([401, 'UNAUTHENTICATED']);
    const reg = await post('/rest/register-player', { input: { handle: 'rest-user', displayName: 'Rest', password: 'rest-password' } });
    const { token } = (await reg.json()) as { token: string };
    const me = await api.fetch('/rest/me', { headers: { authorization: `Bearer ${token}` } });
    expect([me.status, ((await me.json()) as { handle: string }).handle]).toEqual([200, 'rest-user']);
    const invalid = await post('/rest/register-player', { input: { handle: 'x', displayName: 'X', password: 'rest-password' } });
    expect(invalid.status).toBe(400);
    const taken = await post('/rest/register-player', { input: { handle: 'rest-user', displayName: 'Rest', password: 'rest-password' } });
    expect(taken.status).toBe(409);

    const ruling = await post('/rest/adjudicate', { dispute: { kind: 'overtime', secondsOver: 125 } });
    expect([ruling.status, ((await ruling.json()) as { ruling: string }).ruling]).toEqual([200, 'OVERTIME_PENALTY']);
  });

  it('answers through the Lambda handler from an API Gateway HTTP API v2 event (base64 body)', async () => {
    const handler = createHandler(() => Promise.resolve(api.app));
    const result = await handler(fixture('graphql-post.json'), LAMBDA_CONTEXT);
    expect(result.statusCode).toBe(200);
    expect(result.isBase64Encoded).toBe(false);
    expect(result.headers!['content-type']).toMatch(/json/);
    expect(JSON.parse(result.body!)).toEqual({ data: { checkPlay: { __typename: 'ScoredPlay', score: 120 } } });
  });

  it('strips a named stage from the path (GET /prod/rest/rule-sets)', async () => {
    const event = fixture('rest-get-stage.json');
    expect(eventUrl(event)).toBe('https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/rest/rule-sets');
    const result = await createHandler(() => Promise.resolve(api.app))(event, LAMBDA_CONTEXT);
    expect(result.statusCode).toBe(200);
    expect((JSON.parse(result.body!) as unknown[]).length).toBe(5);
  });

  it('lets introspection through the limits (GraphiQL works)', async () => {
    const r = await api.gql(getIntrospectionQuery());
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data!['__schema'].queryType.name).toBe('Query');
  });
});

describe('query limits', () => {
  const target = STORE_TARGETS[0]!;
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target, { limits: { maxDepth: 3, maxCost: 100, listFactor: 10 } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('refuses a query nested too deep, before running it', async () => {
    const r = await api.gql(`query Deep { ruleSets { parameters { sources { rule } } } }`);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        message: 'Operation "Deep" nests fields 4 deep; the limit is 3.',
        extensions: { code: 'QUERY_TOO_DEEP', depth: 4, maxDepth: 3 },
      }),
    ]);
  });

  it('counts fragments where they are spread', async () => {
    const r = await api.gql(`{ ruleSets { ...P } } fragment P on RuleSet { parameters { sources { rule } } }`);
    expect(r.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_DEEP', depth: 4, maxDepth: 3 });
  });

  it('refuses a query over the cost limit: ruleSets(1 + 10 × (id 1 + parameters(1 + 10 × path 1))) = 121', async () => {
    const r = await api.gql(`{ ruleSets { id parameters { path } } }`);
    expect(r.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COSTLY', cost: 121, maxCost: 100 });
    const cheap = await api.gql(`{ ruleSets { id } }`);
    expect(cheap.body.data!['ruleSets']).toHaveLength(5);
  });
});

describe('unexpected errors', () => {
  const logged: unknown[] = [];
  const broken: LexiconRegistry = {
    ...LEXICONS,
    get: () => {
      throw new Error('disk on fire at /secret/path');
    },
  };
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(STORE_TARGETS[0]!, { lexicons: broken, logError: (e) => logged.push(e) });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('are masked (no message, no stack, even with NODE_ENV=development) and logged on the server', async () => {
    const before = process.env['NODE_ENV'];
    process.env['NODE_ENV'] = 'development';
    try {
      const r = await api.gql(`{ checkWords(words: ["CAT"]) { __typename } }`);
      expect(r.body).toEqual({
        data: null,
        errors: [
          {
            message: 'Unexpected error.',
            locations: [{ line: 1, column: 3 }],
            path: ['checkWords'],
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      });
      expect(JSON.stringify(r.body)).not.toContain('secret');
    } finally {
      process.env['NODE_ENV'] = before;
    }
    expect(logged.map((e) => (e instanceof Error ? e.message : String(e)))).toEqual(['disk on fire at /secret/path']);
  });

  it('leave the typed errors alone', async () => {
    const r = await api.gql(`{ me { __typename ... on Error { code } } }`);
    expect(r.body.data!['me']).toEqual({ __typename: 'UnauthenticatedError', code: 'UNAUTHENTICATED' });
  });
});

it('an empty registry reports LEXICON_NOT_FOUND with the fix', () => {
  const r = lexiconRegistry([]).get('SOWPODS');
  expect(r.ok ? null : r.error.code).toBe('LEXICON_NOT_FOUND');
});
