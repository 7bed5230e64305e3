/**
 * The schema conventions of docs/api.md over HTTP: closed sets as UPPER_CASE enums beside the deprecated
 * String fields they replace (both answer, and agree), inputs that take the enum or the old spelling
 * (never both), and Relay `node(id:)` / `nodes(ids:)` answering exactly what each type's own query
 * answers, to the same callers: a rack stays hidden through node(id:) as it does through game(id:).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { act, asGame, CREATE_GAME, graphql, registerPlayer, type GameOrError, type Player } from './client.js';

const GAME_VIEW = `id version status state mySeat myRack whoseTurn legalActions actions scores
  ruleSet { id preset challengeMode challenge }
  timeControl { kind type turnSeconds }
  seats { seat isMe rackSize player { id handle } }
  history { kind type notation score }
  result { reason endReason winner loser adjustments { kind type points } }`;

const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Game { ${GAME_VIEW} } ... on Match { matchState: state matchStatus: status preset ruleSetId }
  ... on Player { handle } ... on WebhookSubscription { url eventTypes kinds } } }`;
const GAME = `query($id: ID!) { game(id: $id) { __typename ... on Game { ${GAME_VIEW} } ... on Error { code message } } }`;
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { ${GAME_VIEW} }
  ... on ValidationError { code issues { field message } } ... on Error { code message } } }`;

describe.each(STORE_TARGETS)('enums, deprecations and nodes over GraphQL on $kind', (target) => {
  let api: TestApi;
  let ann: Player;
  let bob: Player;
  let cat: Player;
  let gameId: string;

  const create = (input: Record<string, unknown>, p: Player = ann) =>
    graphql<Record<string, any>>(api, 'createGame', CREATE, { input }, p.token);

  beforeAll(async () => {
    api = await openTestApi(target);
    ann = await registerPlayer(api, 'ann');
    bob = await registerPlayer(api, 'bob');
    cat = await registerPlayer(api, 'cat');
    const g = await create({ preset: 'WESPA', opponent: 'bob', timeControl: { type: 'CORRESPONDENCE', turnSeconds: 86400 } });
    expect(g['__typename']).toBe('Game');
    gameId = g['id'];
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers each closed set as an enum and, deprecated, in its old spelling', async () => {
    const g = await graphql<Record<string, any>>(api, 'game', GAME, { id: gameId }, ann.token);
    expect(g).toMatchObject({
      state: 'PLAYING',
      status: 'playing',
      ruleSet: { id: 'WESPA', preset: 'WESPA', challengeMode: 'points-per-word', challenge: 'POINTS_PER_WORD' },
      timeControl: { kind: 'correspondence', type: 'CORRESPONDENCE', turnSeconds: 86400 },
    });
    expect(g['actions']).toEqual(g['legalActions'].map((a: string) => a.toUpperCase().replace(/-/g, '_')));
    expect(g['actions']).toEqual(expect.arrayContaining(['PLAY', 'EXCHANGE', 'PASS', 'RESIGN', 'ABORT', 'REQUEST_PAUSE']));
  });

  it('takes the old spelling of an input as before, the enum as its replacement, and refuses both at once', async () => {
    const old = await create({ ruleSet: 'FRIENDLY', opponent: 'bob', timeControl: { kind: 'untimed' } });
    expect(old).toMatchObject({ __typename: 'Game', ruleSet: { id: 'FRIENDLY', preset: 'FRIENDLY' }, timeControl: { type: 'UNTIMED' } });
    // The old lower-case enum literal still parses, as it did.
    const literal = await api.gql(
      `mutation { createGame(input: { opponent: "bob", timeControl: { kind: correspondence, turnSeconds: 86400 } }) { ... on Game { timeControl { type } } } }`,
      {},
      ann.token,
    );
    expect(literal.body.data?.['createGame']).toEqual({ timeControl: { type: 'CORRESPONDENCE' } });

    const both = await create({ preset: 'WESPA', ruleSet: 'WESPA', opponent: 'bob' });
    expect(both).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION', issues: [{ field: 'input.ruleSet' }] });
    const neither = await create({ opponent: 'bob', timeControl: { turnSeconds: 86400 } });
    expect(neither).toMatchObject({ __typename: 'ValidationError', issues: [{ field: 'input.timeControl.type' }] });

    const rules = await api.gql(
      `{ a: ruleSet(preset: ONLINE_VOID) { ... on RuleSet { id preset challenge } } b: ruleSet(id: "ONLINE_VOID") { ... on RuleSet { preset } }
         c: ruleSet { ... on ValidationError { issues { field } } } }`,
    );
    expect(rules.body.data).toEqual({
      a: { id: 'ONLINE_VOID', preset: 'ONLINE_VOID', challenge: 'VOID' },
      b: { preset: 'ONLINE_VOID' },
      c: { issues: [{ field: 'preset' }] },
    });
  });

  it('answers the score sheet and the outcome with both spellings', async () => {
    const g = await create({ preset: 'NSA_2008', opponent: 'bob' });
    await act(api, ann, g['id'], { pass: true });
    await act(api, bob, g['id'], { resign: true });
    const over = await graphql<Record<string, any>>(api, 'game', GAME, { id: g['id'] }, ann.token);
    expect(over).toMatchObject({ state: 'ENDED', status: 'ended', actions: [], legalActions: [] });
    expect(over['history'].map((m: { kind: string; type: string }) => [m.kind, m.type])).toEqual([['pass', 'PASS']]);
    expect(over['result']).toMatchObject({ reason: 'resigned', endReason: 'RESIGNED', winner: 0, loser: 1 });
  });

  it('answers checkPlay and adjudicate under a preset given as an enum', async () => {
    const r = await api.gql(`{
      checkPlay(input: { move: "8D JUKEBOX", preset: WESPA }) { ... on ScoredPlay { score preset ruleSet words { letters { premium premiumSquare } } } }
      adjudicate(dispute: { kind: "overtime", secondsOver: 125 }, preset: NSA_2008) { ... on Ruling { ruling preset ruleSet citations { verification verificationLevel } } }
    }`);
    const play = r.body.data!['checkPlay'];
    expect(play).toMatchObject({ score: 120, preset: 'WESPA', ruleSet: 'WESPA' });
    const letters = play.words[0].letters as { premium: string | null; premiumSquare: string | null }[];
    expect(letters.map((l) => l.premiumSquare)).toEqual(letters.map((l) => l.premium));
    expect(letters.map((l) => l.premiumSquare)).toContain('DLS');
    const ruling = r.body.data!['adjudicate'];
    expect(ruling).toMatchObject({ ruling: 'OVERTIME_PENALTY', preset: 'NSA_2008', ruleSet: 'NSA_2008' });
    const levels: Record<string, string> = { V: 'VERIFIED', P: 'PRIMARY_EXCERPT', S: 'SECONDARY', Seed: 'SEED', U: 'UNVERIFIED' };
    for (const c of ruling.citations as { verification: string | null; verificationLevel: string | null }[])
      expect(c.verificationLevel).toBe(c.verification === null ? null : levels[c.verification]);
  });

  it('node(id:) answers a game exactly as game(id:) does, to every caller: no rack but your own', async () => {
    const key = await graphql<Record<string, any>>(
      api,
      'createApiKey',
      `
        mutation {
          createApiKey(input: { name: "play only", apiScopes: [GAMES_PLAY] }) {
            ... on NewApiKey {
              key
            }
          }
        }
      `,
      {},
      ann.token,
    );
    for (const [who, token] of [
      ['ann (seat 0)', ann.token],
      ['bob (seat 1)', bob.token],
      ['cat (spectator)', cat.token],
      ['anonymous', undefined],
      ['a key without games:read', key['key']],
    ] as const) {
      const viaGame = await api.gql(GAME, { id: gameId }, token);
      const viaNode = await api.gql(NODE, { id: gameId }, token);
      const game = viaGame.body.data!['game'];
      if (game.__typename === 'Game') {
        expect(viaNode.body, who).toEqual({ data: { node: { ...game, id: gameId } } });
      } else {
        // The field's own query answers a typed error in its union; node(id:) can only carry it in errors.
        expect(viaNode.body.data, who).toEqual({ node: null });
        expect(
          viaNode.body.errors?.map((e) => [e.extensions?.['code'], e.message]),
          who,
        ).toEqual([[game.code, game.message]]);
      }
    }
    const racks = async (token: string) => {
      const n = (await api.gql(NODE, { id: gameId }, token)).body.data!['node'];
      return [n.mySeat, n.myRack === null ? null : n.myRack.length];
    };
    expect(await racks(ann.token)).toEqual([0, 7]);
    expect(await racks(bob.token)).toEqual([1, 7]);
    expect(await racks(cat.token)).toEqual([null, null]);
  });

  it('nodes(ids:) answers each id as node(id:) would, in order; ids are the ones every other field answers', async () => {
    const match = await graphql<Record<string, any>>(
      api,
      'createMatch',
      `
        mutation {
          createMatch(input: { preset: MATCH_VARIANT, opponent: "bob" }) {
            ... on Match {
              id
              state
              status
              preset
              ruleSetId
            }
          }
        }
      `,
      {},
      ann.token,
    );
    expect(match).toMatchObject({ state: 'PLAYING', status: 'playing', preset: 'MATCH_VARIANT', ruleSetId: 'MATCH_VARIANT' });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const r = await api.gql(
      `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Game { mySeat } ... on Match { matchState: state } ... on Player { handle } } }`,
      { ids: [gameId, match['id'], bob.id, unknown] },
      cat.token,
    );
    expect(r.body).toEqual({
      data: {
        nodes: [
          { __typename: 'Game', id: gameId, mySeat: null },
          { __typename: 'Match', id: match['id'], matchState: 'PLAYING' },
          { __typename: 'Player', id: bob.id, handle: 'bob' },
          null,
        ],
      },
    });
    // A player is shown to signed-in callers only, as everywhere else.
    const anonymous = await api.gql(NODE, { id: bob.id });
    expect([anonymous.body.data, anonymous.body.errors?.[0]?.extensions?.['code']]).toEqual([{ node: null }, 'UNAUTHENTICATED']);
    // Not an id of this API: a typed VALIDATION error, never an unexpected one.
    const bad = await api.gql(NODE, { id: 'R2FtZToxMjM=' }, cat.token);
    expect([bad.body.data, bad.body.errors?.[0]?.extensions?.['code']]).toEqual([{ node: null }, 'VALIDATION']);
    const many = await api.gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: Array(101).fill(gameId) }, cat.token);
    expect(many.body.errors?.[0]?.extensions?.['code']).toBe('VALIDATION');
  });

  it('a webhook subscription is a node of its owner only; the new inputs and fields agree with the old', async () => {
    const created = await graphql<Record<string, any>>(
      api,
      'createApiKey',
      `
        mutation {
          createApiKey(input: { name: "bot", apiScopes: [WEBHOOKS_MANAGE, GAMES_READ] }) {
            ... on NewApiKey {
              key
              apiKey {
                id
                scopes
                apiScopes
              }
            }
          }
        }
      `,
      {},
      ann.token,
    );
    expect(created['apiKey']).toMatchObject({ scopes: ['webhooks:manage', 'games:read'], apiScopes: ['WEBHOOKS_MANAGE', 'GAMES_READ'] });
    const noScopes = await api.gql(
      `mutation { createApiKey(input: { name: "none" }) { ... on ValidationError { issues { field } } } }`,
      {},
      ann.token,
    );
    expect(noScopes.body.data).toEqual({ createApiKey: { issues: [{ field: 'input.apiScopes' }] } });

    const sub = await graphql<Record<string, any>>(
      api,
      'createWebhookSubscription',
      `
        mutation {
          createWebhookSubscription(input: { url: "https://bot.example.com/hook", eventTypes: [YOUR_TURN, GAME_ENDED] }) {
            __typename
            ... on NewWebhookSubscription {
              subscription {
                id
                kinds
                eventTypes
              }
            }
            ... on Error {
              code
              message
            }
          }
        }
      `,
      {},
      created['key'],
    );
    expect(sub['subscription']).toMatchObject({ kinds: ['your-turn', 'game-ended'], eventTypes: ['YOUR_TURN', 'GAME_ENDED'] });
    const id = sub['subscription'].id as string;
    expect((await api.gql(NODE, { id }, ann.token)).body.data!['node']).toEqual({
      __typename: 'WebhookSubscription',
      id,
      url: 'https://bot.example.com/hook',
      eventTypes: ['YOUR_TURN', 'GAME_ENDED'],
      kinds: ['your-turn', 'game-ended'],
    });
    expect((await api.gql(NODE, { id }, bob.token)).body).toEqual({ data: { node: null } });

    const deliveries = await api.gql(
      `{ a: webhookDeliveries(state: DEAD) { edges { node { id } } } b: webhookDeliveries(status: dead) { edges { node { id } } } }`,
      {},
      ann.token,
    );
    expect(deliveries.body).toEqual({ data: { a: { edges: [] }, b: { edges: [] } } });
  });

  it('every id argument takes the id that Node.id answers (the ids are the same everywhere)', async () => {
    const g = asGame(
      (await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: 'bob' } }, ann.token)) as GameOrError,
    );
    const n = (await api.gql(`query($id: ID!) { node(id: $id) { id } }`, { id: g.id }, ann.token)).body.data!['node'];
    expect(n).toEqual({ id: g.id });
    const record = await api.gql(`query($id: ID!) { gameRecord(id: $id) { ... on GameRecord { gameId } } }`, { id: n.id }, ann.token);
    expect(record.body.data).toEqual({ gameRecord: { gameId: g.id } });
  });
});
