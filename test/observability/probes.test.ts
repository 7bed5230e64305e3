/**
 * Issue 18: GET /health answers without the database; GET /ready checks the database, the migrations
 * and the lexicons — on the app both runtimes serve, and through the Lambda handler.
 */
import type { APIGatewayProxyEventV2, Context as LambdaContext } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createYoga } from 'graphql-yoga';
import { checkReadiness, useProbes } from '../../functions/observability/health.js';
import { schema } from '../../graph/schema.js';
import { createHandler } from '../../functions/lambda-handler.js';
import { createDb, IN_MEMORY, type Db } from '../../store/db.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';

const getEvent = (path: string): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'api.example.com' },
    requestContext: { requestId: 'probe-1', domainName: 'api.example.com', stage: '$default', http: { method: 'GET', path } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

describe('health and readiness', () => {
  let api: TestApi;
  let bare: Db;
  beforeAll(async () => {
    api = await openTestApi(STORE_TARGETS[0]!);
    bare = await createDb({ dataDir: IN_MEMORY, migrate: false });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await bare?.close();
  });

  it('GET /health is 200 without asking the database', async () => {
    // A database that fails every query: /health still answers, /ready says why not.
    const broken = { prisma: { $queryRawUnsafe: () => Promise.reject(new Error('connection refused')) } } as unknown as Db;
    const yoga = createYoga({ schema, plugins: [useProbes({ db: broken, lexicons: LEXICONS })] });
    expect((await yoga.fetch('http://arbiter.test/health')).status).toBe(200);
    const ready = await yoga.fetch('http://arbiter.test/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not ready', checks: { database: 'unreachable or not migrated' } });
    // Yoga's own health check answers it, before any plugin: 200 with an empty body.
    const res = await api.fetch('/health');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('GET /ready is 200 on a migrated database with lexicons', async () => {
    const res = await api.fetch('/ready');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', lexicons: 'ok' } });
  });

  it('is not ready without lexicons, on a database never migrated, or one that does not answer', async () => {
    const noLexicons = await checkReadiness({ db: api.app.services.db, lexicons: { all: [] } as never });
    expect(noLexicons).toEqual({ ready: false, checks: { database: 'ok', migrations: 'ok', lexicons: 'no lexicon loaded' } });
    expect(await checkReadiness({ db: bare, lexicons: LEXICONS })).toEqual({
      ready: false,
      checks: { database: 'unreachable or not migrated', migrations: 'unknown', lexicons: 'ok' },
    });
    const hanging = { prisma: { $queryRawUnsafe: () => new Promise(() => undefined) } } as unknown as Db;
    expect((await checkReadiness({ db: hanging, lexicons: LEXICONS }, 50)).checks.database).toBe('no answer within 50 ms');
  });

  it('reports a pending migration by name', async () => {
    await bare.prisma.$executeRawUnsafe(
      'CREATE TABLE "_prisma_migrations" ("migration_name" text, "finished_at" timestamptz, "rolled_back_at" timestamptz)',
    );
    const r = await checkReadiness({ db: bare, lexicons: LEXICONS });
    expect(r.ready).toBe(false);
    expect(r.checks.migrations).toMatch(/^pending: \d{14}_/);
  });

  it('answers both through the Lambda handler, with the request id echoed', async () => {
    const handler = createHandler(() => Promise.resolve(api.app));
    const ctx = { awsRequestId: 'probe' } as LambdaContext;
    const health = await handler(getEvent('/health'), ctx);
    expect(health.statusCode).toBe(200);
    expect(health.headers?.['x-request-id']).toBe('probe-1');
    expect((await handler(getEvent('/ready'), ctx)).statusCode).toBe(200);
  });
});
