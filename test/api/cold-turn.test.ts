/**
 * A container's first request is usually a player's turn, and it never needs Prisma (docs/deploying.md,
 * "Bundles and cold start"): the token's player and the turn's statements run on the driver, so Prisma's
 * client, made on its first use (store/prisma-client.ts), stays unmade. A second app over the same
 * database, as a fresh process would build it, whose `db.prisma` refuses every use, plays a turn all the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../functions/app.js';
import { DEFAULT_RATE_LIMITS } from '../../service/rate-limits.js';
import { TEST_DESTINATIONS } from '../webhooks/fixture.js';
import { clientOver, LEXICONS, openTestApi, START, STORE_TARGETS, TEST_JWT, type TestApi } from './harness.js';

const CREATE_GAME = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id version myRack } ... on Error { code message } } }`;
const SUBMIT_TURN = `mutation($input: SubmitTurnInput!) { submitTurn(input: $input) { __typename ... on Game { whoseTurn myRack scores } ... on Error { code message } } }`;

describe.each(STORE_TARGETS)("a fresh process's first turn on $kind", (target) => {
  let api: TestApi;
  let cold: App | undefined;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(async () => {
    await cold?.close();
    await api?.close();
  });

  it('verifies the token, reads the player and plays the turn without touching Prisma', async () => {
    const me = await api.register('coldfirst');
    await api.register('coldsecond');
    const game = (await api.gql(CREATE_GAME, { input: { opponent: 'coldsecond' } }, me.token)).body.data!['createGame'];
    expect(game.__typename).toBe('Game');
    const touched: string[] = [];
    const noPrisma = new Proxy(
      {},
      {
        get: (_target, key) => {
          touched.push(String(key));
          throw new Error(`Prisma used: ${String(key)}`);
        },
      },
    );
    cold = await createApp({
      db: { ...api.app.services.db, prisma: noPrisma as never },
      lexicons: LEXICONS,
      jwt: TEST_JWT,
      now: () => START,
      registerLexicons: false,
      robots: 'off',
      rateLimits: DEFAULT_RATE_LIMITS,
      webhookDestinations: TEST_DESTINATIONS,
      trustedProxies: 0,
    });
    const client = clientOver((path, init = {}) => Promise.resolve(cold!.yoga.fetch(`http://arbiter.test${path}`, init)));
    // Two tiles of the rack across the centre: the default rules take the play and check words when challenged.
    const tiles = [...(game.myRack as string)]
      .filter((t) => t !== '?')
      .slice(0, 2)
      .join('');
    const input = {
      gameId: game.id,
      expectedVersion: game.version,
      idempotencyKey: 'cold-first',
      action: { play: { move: `8H ${tiles}` } },
    };
    const turn = (await client.gql(SUBMIT_TURN, { input }, me.token)).body;
    expect(turn.errors).toBeUndefined();
    expect(turn.data!['submitTurn']).toMatchObject({ __typename: 'Game', whoseTurn: 1 });
    expect(turn.data!['submitTurn'].scores[0]).toBeGreaterThan(0);
    expect(touched).toEqual([]);
  });
});
