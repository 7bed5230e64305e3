/**
 * A complete game through the Lambda handler (functions/lambda-handler.ts), each request an API
 * Gateway HTTP API (payload v2) event made from a recorded one (test/fixtures/apigw/), on PGlite and
 * on Postgres: register, create with an open seat, join, play, exchange, a REST read, passes until six scoreless turns.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type Handler } from '../../functions/lambda-handler.js';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { setBagSeedSourceForTests } from '../../service/game-create.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { CREATE_GAME, findPlay, GAME, JOIN_GAME, rackPoints, SUBMIT_TURN, type Action, type GameView, useFixedBagSeeds } from './client.js';
import { lambdaContext, RECORDED_GRAPHQL_EVENT } from '../functions/apigw-event.js';

useFixedBagSeeds('lambda');

const RECORDED = RECORDED_GRAPHQL_EVENT;
const LAMBDA_CONTEXT = lambdaContext('e2e');
const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;

/** The recorded event with a new body (base64, as API Gateway sends binary-safe bodies) and token. */
const eventFor = (body: unknown, token?: string): APIGatewayProxyEventV2 => {
  const text = JSON.stringify(body);
  return {
    ...RECORDED,
    headers: {
      ...RECORDED.headers,
      'content-length': String(Buffer.byteLength(text)),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: Buffer.from(text).toString('base64'),
    isBase64Encoded: true,
  };
};

describe.each(STORE_TARGETS)('a game through the Lambda handler on $kind', (target) => {
  let api: TestApi;
  let handler: Handler;
  beforeAll(async () => {
    api = await openTestApi(target);
    handler = createHandler(() => Promise.resolve(api.app));
    setBagSeedSourceForTests(() => 'e2e-lambda-seed-0123456789abcdef');
  });
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    await api?.close();
  });

  const call = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const res = await handler(eventFor({ query, variables }, token), LAMBDA_CONTEXT);
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body!) as { data?: Record<string, any>; errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    return body.data!;
  };
  const register = async (handle: string) => {
    const d = await call(
      `mutation($i: RegisterPlayerInput!) { registerPlayer(input: $i) { ... on AuthPayload { token player { id } } } }`,
      { i: { handle, displayName: handle, password: `${handle}-password` } },
    );
    return d['registerPlayer'].token as string;
  };
  const game = async (id: string, token: string): Promise<GameView> => (await call(GAME, { id }, token))['game'];
  let keys = 0;
  const turn = async (id: string, token: string, action: Action): Promise<GameView> => {
    const g = await game(id, token);
    const r = (
      await call(SUBMIT_TURN, { input: { gameId: id, expectedVersion: g.version, idempotencyKey: `lambda-${++keys}`, action } }, token)
    )['submitTurn'];
    expect(r.__typename, JSON.stringify(r)).toBe('Game');
    return r;
  };

  it('plays a whole game', async () => {
    const ann = await register('lambda-ann');
    const bob = await register('lambda-bob');
    const open = (await call(CREATE_GAME, { input: { ruleSet: 'ONLINE_VOID' } }, ann))['createGame'] as GameView;
    expect(open).toMatchObject({ __typename: 'Game', status: 'open' });
    const joined = (await call(JOIN_GAME, { id: open.id }, bob))['joinGame'] as GameView;
    expect(joined).toMatchObject({ status: 'playing', mySeat: 1, whoseTurn: 0 });

    const view = await game(open.id, ann);
    const play = findPlay(view, LEX, true)!;
    const played = await turn(open.id, ann, { play: { move: play.move } });
    expect(played.scores).toEqual([play.score, 0]);
    const exchanged = await turn(open.id, bob, { exchange: { tiles: joined.myRack!.slice(0, 3) } });
    expect(exchanged.lastMove).toMatchObject({ kind: 'exchange', count: 3 });

    // The REST route for the same read, through the handler: GET /rest/game?id=…
    const rest = await handler(
      {
        ...RECORDED,
        rawPath: '/rest/game',
        rawQueryString: `id=${open.id}`,
        requestContext: { ...RECORDED.requestContext, http: { ...RECORDED.requestContext.http, method: 'GET', path: '/rest/game' } },
        headers: { ...RECORDED.headers, authorization: `Bearer ${ann}` },
        body: undefined,
        isBase64Encoded: false,
      },
      LAMBDA_CONTEXT,
    );
    expect(rest.statusCode).toBe(200);
    expect(JSON.parse(rest.body!)).toMatchObject({ id: open.id, version: exchanged.version, myRack: played.myRack });
    expect(rest.headers?.['deprecation']).toMatch(/^@\d+$/);

    // The /v1 resource for the same read: GET /v1/games/{id}, with its ETag; If-None-Match → 304.
    const v1Event = (headers: Record<string, string>) => ({
      ...RECORDED,
      rawPath: `/v1/games/${open.id}`,
      rawQueryString: '',
      requestContext: {
        ...RECORDED.requestContext,
        http: { ...RECORDED.requestContext.http, method: 'GET', path: `/v1/games/${open.id}` },
      },
      headers: { ...RECORDED.headers, authorization: `Bearer ${ann}`, ...headers },
      body: undefined,
      isBase64Encoded: false,
    });
    const v1 = await handler(v1Event({}), LAMBDA_CONTEXT);
    expect(v1.statusCode).toBe(200);
    expect(v1.headers?.['etag']).toBe(`"${exchanged.version}"`);
    expect(JSON.parse(v1.body!)).toMatchObject({ id: open.id, version: exchanged.version, myRack: played.myRack });
    const unchanged = await handler(v1Event({ 'if-none-match': `"${exchanged.version}"` }), LAMBDA_CONTEXT);
    expect(unchanged.statusCode).toBe(304);

    const racks = [(await game(open.id, ann)).myRack!, (await game(open.id, bob)).myRack!];
    let last!: GameView;
    // ONLINE_VOID counts exchanges and passes as scoreless: Bob's exchange was the first of six.
    for (const [i, token] of [ann, bob, ann, bob, ann].entries()) {
      last = await turn(open.id, token, { pass: true });
      expect(last.status).toBe(i < 4 ? 'playing' : 'ended');
    }
    expect(last.result).toMatchObject({ reason: 'scoreless-turns' });
    expect(last.scores).toEqual([play.score - rackPoints(racks[0]!), -rackPoints(racks[1]!)]);
    expect(last.result!.bagSeed).toBe('e2e-lambda-seed-0123456789abcdef');
  });
});
