/**
 * Issue 18: a whole game through the Lambda handler (GraphQL and REST), a webhook drain and a deadline
 * sweep, with the process's logger, metrics and tracer replaced by in-memory ones. Every request leaves
 * one JSON line with its fields; no rack, bag seed, password, token, API key or webhook secret of the
 * game appears in any line; /metrics then shows the game's metrics, the EMF lines are valid EMF, and
 * the spans name the request, the resolve, the service call, the SQL and the webhook delivery.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandler, type Handler } from '../../functions/lambda-handler.js';
import { createDeadlineHandler } from '../../functions/deadlines.js';
import { createWebhookHandler } from '../../functions/webhooks.js';
import { memoryLogger, setLogger } from '../../functions/observability/log.js';
import { Metrics, setMetrics } from '../../functions/observability/metrics.js';
import { sqlObserver } from '../../functions/observability/scope.js';
import { startLocalTracing } from '../../functions/observability/tracing-local.js';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { setBagSeedSourceForTests } from '../../service/game-create.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { TEST_DESTINATIONS } from '../webhooks/fixture.js';
import { CREATE_GAME, findPlay, GAME, JOIN_GAME, SUBMIT_TURN, type Action, type GameView } from '../e2e/client.js';
import { assertValidEmf } from './emf.js';
import { lambdaContext, RECORDED_GRAPHQL_EVENT } from '../functions/apigw-event.js';

const RECORDED = RECORDED_GRAPHQL_EVENT;
const LAMBDA_CONTEXT = lambdaContext('obs');
const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;
const SEED = 'observability-seed-0123456789abcdef';

let requests = 0;
const event = (
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  extra: Record<string, string> = {},
): APIGatewayProxyEventV2 => ({
  ...RECORDED,
  rawPath: path,
  rawQueryString: '',
  requestContext: { ...RECORDED.requestContext, requestId: `req-${++requests}`, http: { ...RECORDED.requestContext.http, method, path } },
  headers: { ...RECORDED.headers, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra },
  body: body === undefined ? undefined : JSON.stringify(body),
  isBase64Encoded: false,
});

describe('the logs, metrics and traces of a whole game', () => {
  const target = STORE_TARGETS[0]!;
  const lines: string[] = [];
  const workerLines: string[] = [];
  const exporter = new InMemorySpanExporter();
  const metrics = new Metrics(true);
  const secrets: string[] = [];
  /** What the Lambda handler wrote to stdout after each invocation: the EMF lines. */
  const stdout: string[] = [];
  let api: TestApi;
  let handler: Handler;
  let stopTracing: () => Promise<void>;

  beforeAll(async () => {
    setLogger(memoryLogger(lines));
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout.push(String(chunk));
      return true;
    });
    setMetrics(metrics);
    stopTracing = await startLocalTracing(exporter);
    setBagSeedSourceForTests(() => SEED);
    api = await openTestApi(target, { observer: sqlObserver, app: { metricsEndpoint: true } });
    handler = createHandler(() => Promise.resolve(api.app));
  }, 180_000);
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    vi.restoreAllMocks();
    setLogger(undefined);
    setMetrics(undefined);
    await stopTracing?.();
    await api?.close();
  });

  const call = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const res = await handler(event('POST', '/graphql', { query, variables }, token), LAMBDA_CONTEXT);
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body!) as { data: Record<string, any> };
    return body.data;
  };

  it('plays it, then finds every request in the log and no secret anywhere', { timeout: 180_000 }, async () => {
    const passwords = ['obs-ann-password-1', 'obs-bob-password-1'];
    secrets.push(SEED, ...passwords);
    const register = async (handle: string, password: string) => {
      const d = await call(`mutation Register($i: RegisterPlayerInput!) { registerPlayer(input: $i) { ... on AuthPayload { token } } }`, {
        i: { handle, displayName: handle, password },
      });
      const token = d['registerPlayer'].token as string;
      secrets.push(token);
      return token;
    };
    const ann = await register('obs-ann', passwords[0]!);
    const bob = await register('obs-bob', passwords[1]!);
    const login = await call(`mutation($h: String!, $p: String!) { login(handle: $h, password: $p) { ... on AuthPayload { token } } }`, {
      h: 'obs-ann',
      p: passwords[0],
    });
    secrets.push(login['login'].token);
    const key = await call(
      `mutation { createApiKey(input: { name: "bot", apiScopes: [WEBHOOKS_MANAGE, GAMES_READ, GAMES_PLAY] }) { ... on NewApiKey { key } } }`,
      {},
      bob,
    );
    const apiKey = key['createApiKey'].key as string;
    secrets.push(apiKey);
    const sub = await call(
      `mutation { createWebhookSubscription(input: { url: "https://bot.example.com/hook", eventTypes: [YOUR_TURN, GAME_ENDED] }) { ... on NewWebhookSubscription { secret } } }`,
      {},
      apiKey,
    );
    secrets.push(sub['createWebhookSubscription'].secret);

    const open = (await call(CREATE_GAME, { input: { ruleSet: 'ONLINE_VOID' } }, ann))['createGame'] as GameView;
    await call(JOIN_GAME, { id: open.id }, bob);
    let keys = 0;
    const turn = async (token: string, action: Action): Promise<GameView> => {
      const g = (await call(GAME, { id: open.id }, token))['game'] as GameView;
      secrets.push(g.myRack!);
      const r = await call(
        SUBMIT_TURN,
        { input: { gameId: open.id, expectedVersion: g.version, idempotencyKey: `obs-${++keys}`, action } },
        token,
      );
      return r['submitTurn'];
    };
    const annView = (await call(GAME, { id: open.id }, ann))['game'] as GameView;
    await turn(ann, { play: { move: findPlay(annView, LEX, true)!.move } });
    // The bot's turn over REST with its API key.
    const before = (await call(GAME, { id: open.id }, apiKey))['game'] as GameView;
    secrets.push(before.myRack!);
    const rest = await handler(
      event('POST', `/v1/games/${open.id}/turns`, { pass: true }, apiKey, {
        'if-match': `"${before.version}"`,
        'idempotency-key': 'obs-rest',
      }),
      LAMBDA_CONTEXT,
    );
    expect(rest.statusCode, rest.body).toBeLessThan(300);
    let last!: GameView;
    for (const token of [ann, bob, ann, bob, ann]) last = await turn(token, { pass: true });
    expect(last.status).toBe('ended');
    // A refusal: not Ann's turn any more.
    const refused = (
      await call(
        `mutation($i: SubmitTurnInput!) { submitTurn(input: $i) { __typename } }`,
        { i: { gameId: open.id, expectedVersion: 0, idempotencyKey: 'obs-late', action: { pass: true } } },
        ann,
      )
    )['submitTurn'];
    expect(refused.__typename).not.toBe('Game');
    const anonymous = await handler(event('GET', '/v1/rule-sets'), LAMBDA_CONTEXT);
    expect(anonymous.statusCode).toBe(200);

    // The workers: Bob's subscription gets the game's events; the sweeper finds nothing overdue.
    const webhooks = createWebhookHandler({
      getDb: async () => api.app.services.db,
      now: () => new Date(),
      fetch: async () => new Response('ok', { status: 200 }),
      destinations: TEST_DESTINATIONS,
      log: (l) => workerLines.push(l),
    });
    expect((await webhooks()).succeeded).toBeGreaterThan(0);
    await createDeadlineHandler({ getDb: async () => api.app.services.db, log: (l) => workerLines.push(l) })();

    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLines = parsed.filter((l) => l['msg'] === 'request');
    expect(requestLines).toHaveLength(requests);
    for (const l of requestLines) {
      expect(Object.keys(l)).toEqual(
        expect.arrayContaining(['requestId', 'operation', 'caller', 'gameId', 'outcome', 'status', 'ms', 'sql']),
      );
      expect(l['level']).toBe('info');
    }
    expect(new Set(requestLines.map((l) => l['requestId'])).size).toBe(requests);
    const turnLines = requestLines.filter((l) => l['operation'] === 'mutation submitTurn');
    expect(turnLines.length).toBeGreaterThanOrEqual(6);
    for (const l of turnLines) expect(l).toMatchObject({ caller: 'player', gameId: open.id, status: 200 });
    expect(turnLines.every((l) => (l['sql'] as number) > 0)).toBe(true);
    expect(requestLines.find((l) => l['path'] === `/v1/games/${open.id}/turns`)).toMatchObject({
      operation: 'POST /v1/games/{id}/turns',
      caller: 'api-key',
      gameId: open.id,
      outcome: 'OK',
    });
    expect(requestLines.find((l) => l['path'] === '/v1/rule-sets')).toMatchObject({ caller: 'anonymous', gameId: null, outcome: 'OK' });
    expect(requestLines.find((l) => l['requestId'] === `req-${requests - 1}`)!['outcome']).toMatch(/^[A-Z_]+$/);
    expect(requestLines.find((l) => l['requestId'] === `req-${requests - 1}`)!['outcome']).not.toBe('OK');
    expect(workerLines.map((l) => JSON.parse(l).msg)).toEqual(['webhooks.drain', 'deadlines.sweep']);

    const everything = [...lines, ...workerLines].join('\n');
    const unique = [...new Set(secrets)].filter((s) => s.length >= 5);
    expect(unique.length).toBeGreaterThanOrEqual(10);
    for (const s of unique) expect(everything.includes(s), `a secret in the logs: ${s.slice(0, 6)}…`).toBe(false);
  });

  it('shows the game in /metrics and writes valid EMF', async () => {
    const res = await api.fetch('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^arbiter_turns_submitted_total\{outcome="OK"\} [1-9]/m);
    expect(text).toMatch(/^arbiter_turns_submitted_total\{outcome="(NOT_YOUR_TURN|STALE_VERSION|GAME_OVER|GAME_NOT_ACTIVE|[A-Z_]+)"\} 1$/m);
    expect(text).toMatch(/^arbiter_turn_latency_ms_count [1-9]/m);
    expect(text).toMatch(/^arbiter_webhook_deliveries_total\{status="succeeded"\} [1-9]/m);
    expect(text).toMatch(/^arbiter_webhook_oldest_pending_age_seconds 0$/m);
    expect(text).toMatch(/^arbiter_deadline_sweeps_total 1$/m);
    expect(text).toMatch(/^arbiter_requests_total\{status="2xx"\} [1-9]/m);
    expect(text).toMatch(/^arbiter_cold_starts_total\{function="api"\} 1$/m);
    for (const name of ['disputes_filed_total', 'disputes_ruled_total', 'rate_limit_refusals_total'])
      expect(text).toContain(`# TYPE arbiter_${name} counter`);

    // The Lambda handler wrote each invocation's metrics to stdout as it ended.
    const emf = stdout.flatMap((chunk) => chunk.split('\n')).filter((l) => l.startsWith('{"_aws"'));
    const docs = emf.map((l) => JSON.parse(l) as Record<string, any>);
    for (const doc of docs) assertValidEmf(doc);
    expect(docs.filter((d) => d['turns_submitted_total'] !== undefined && d['outcome'] === 'OK').length).toBeGreaterThanOrEqual(7);
    expect(docs.some((d) => d['cold_starts_total'] === 1 && d['function'] === 'api')).toBe(true);
    expect(docs.some((d) => Array.isArray(d['request_duration_ms']) || typeof d['request_duration_ms'] === 'number')).toBe(true);
  });

  it('traces the request, the resolve, the service call, each SQL statement and the webhook delivery', () => {
    const spans = exporter.getFinishedSpans();
    const names = new Set(spans.map((s) => s.name));
    for (const name of ['request', 'graphql.resolve', 'service.transaction', 'sql', 'webhook.delivery', 'webhooks', 'deadlines']) {
      expect(names, name).toContain(name);
    }
    const resolve = spans.find((s) => s.name === 'graphql.resolve' && s.attributes['graphql.field.path'] === 'Mutation.submitTurn')!;
    const request = spans.find((s) => s.spanContext().spanId === resolve.parentSpanContext?.spanId);
    expect(request?.name).toBe('request');
    expect(spans.some((s) => s.name === 'sql' && s.parentSpanContext?.traceId === resolve.spanContext().traceId)).toBe(true);
  });
});
