/**
 * The webhook GraphQL surface (issue 5, "Notifications for integrations") over HTTP, on PGlite and on
 * Postgres: subscriptions belong to an API key, only their owner sees or changes them, the delivery log
 * after a sender run (drain with an injected fetch), typed errors naming the field, and the signing
 * secret answered once and never again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../service/webhook-delivery.js';
import { drain } from '../../service/webhook-drain.js';
import { SIGNATURE_HEADER, verifySignature } from '../../service/webhook-signature.js';
import { TEST_DESTINATIONS } from '../webhooks/fixture.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from './harness.js';

const ERR = `... on Error { __typename code message details }`;
const CREATE_KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { ... on NewApiKey { key apiKey { id } } ${ERR} } }`;
const SUB_FIELDS = `id apiKeyId url kinds active createdAt`;
const CREATE_SUB = `mutation($input: CreateWebhookSubscriptionInput!) {
  createWebhookSubscription(input: $input) { __typename ... on NewWebhookSubscription { secret subscription { ${SUB_FIELDS} } } ... on WebhookInputError { field } ${ERR} } }`;
const LIST_SUBS = `{ webhookSubscriptions { __typename ... on WebhookSubscriptionList { subscriptions { ${SUB_FIELDS} } } ${ERR} } }`;
const SET_ACTIVE = `mutation($id: ID!, $active: Boolean!) { setWebhookSubscriptionActive(id: $id, active: $active) { __typename ... on WebhookSubscription { ${SUB_FIELDS} } ${ERR} } }`;
const DELETE_SUB = `mutation($id: ID!) { deleteWebhookSubscription(id: $id) { __typename ... on DeletedWebhookSubscription { id } ${ERR} } }`;
const DELIVERIES = `query($subscriptionId: ID, $status: WebhookDeliveryStatus, $first: Int, $after: String) {
  webhookDeliveries(subscriptionId: $subscriptionId, status: $status, first: $first, after: $after) {
    edges { cursor node { id subscriptionId gameId kind status attempts nextAttemptAt lastStatusCode lastError log { attempt statusCode error } } }
    pageInfo { hasNextPage endCursor }
  } }`;
const CREATE_GAME = `mutation($input: CreateGameInput!) { createGame(input: $input) { ... on Game { id } ${ERR} } }`;

describe.each(STORE_TARGETS)('webhook subscriptions and deliveries over GraphQL on $kind', (target) => {
  let api: TestApi;
  /** Every response body seen, to check that no query ever answers a secret again. */
  const seen: string[] = [];
  const gql = async (query: string, variables: Record<string, unknown>, bearer?: string) => {
    const r = await api.gql(query, variables, bearer);
    seen.push(JSON.stringify(r.body));
    return r.body;
  };
  const data = async (field: string, query: string, variables: Record<string, unknown>, bearer?: string) => {
    const body = await gql(query, variables, bearer);
    if (body.errors?.length || !body.data) throw new Error(`${field}: ${JSON.stringify(body)}`);
    return body.data[field];
  };

  let ann: { id: string; token: string };
  let ben: { id: string; token: string };
  let annKey: { key: string; id: string };
  let annOtherKey: { key: string; id: string };
  let benKey: { key: string; id: string };
  let subscriptionId: string;
  let secret: string;

  const newKey = async (token: string, scopes: string[]) => {
    const r = await data('createApiKey', CREATE_KEY, { input: { name: 'bot', scopes } }, token);
    return { key: r.key as string, id: r.apiKey.id as string };
  };

  beforeAll(async () => {
    api = await openTestApi(target);
    ann = await api.register('ann-hooks');
    ben = await api.register('ben-hooks');
    annKey = await newKey(ann.token, ['webhooks:manage', 'games:read']);
    annOtherKey = await newKey(ann.token, ['games:read']);
    benKey = await newKey(ben.token, ['webhooks:manage']);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('creates a subscription with an API key: it belongs to that key, and the secret is answered once', async () => {
    const r = await data(
      'createWebhookSubscription',
      CREATE_SUB,
      { input: { url: 'https://hooks.example.com/arbiter', kinds: ['game-ended', 'your-turn'] } },
      annKey.key,
    );
    expect(r).toMatchObject({
      __typename: 'NewWebhookSubscription',
      subscription: { apiKeyId: annKey.id, url: 'https://hooks.example.com/arbiter', kinds: ['your-turn', 'game-ended'], active: true },
    });
    expect(r.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    subscriptionId = r.subscription.id;
    secret = r.secret;
  });

  it('a player token names one of the player’s keys; an API key cannot register for another key', async () => {
    const viaToken = await data(
      'createWebhookSubscription',
      CREATE_SUB,
      { input: { url: 'https://b.example.com/h', kinds: ['challenge-resolved'], apiKeyId: annOtherKey.id } },
      ann.token,
    );
    expect(viaToken).toMatchObject({ __typename: 'NewWebhookSubscription', subscription: { apiKeyId: annOtherKey.id } });
    expect(await data('deleteWebhookSubscription', DELETE_SUB, { id: viaToken.subscription.id }, ann.token)).toEqual({
      __typename: 'DeletedWebhookSubscription',
      id: viaToken.subscription.id,
    });

    expect(
      await data('createWebhookSubscription', CREATE_SUB, { input: { url: 'https://b.example.com/h', kinds: ['your-turn'] } }, ann.token),
    ).toMatchObject({
      __typename: 'ValidationError',
      code: 'VALIDATION',
    });
    expect(
      await data(
        'createWebhookSubscription',
        CREATE_SUB,
        { input: { url: 'https://b.example.com/h', kinds: ['your-turn'], apiKeyId: annOtherKey.id } },
        annKey.key,
      ),
    ).toMatchObject({
      __typename: 'ForbiddenError',
      details: { field: 'input.apiKeyId' },
    });
    // Ben's key is not Ann's.
    expect(
      await data(
        'createWebhookSubscription',
        CREATE_SUB,
        { input: { url: 'https://b.example.com/h', kinds: ['your-turn'], apiKeyId: benKey.id } },
        ann.token,
      ),
    ).toMatchObject({
      __typename: 'NotFoundError',
      code: 'API_KEY_NOT_FOUND',
      details: { field: 'input.apiKeyId' },
    });
    // A key without webhooks:manage.
    expect(
      await data(
        'createWebhookSubscription',
        CREATE_SUB,
        { input: { url: 'https://b.example.com/h', kinds: ['your-turn'] } },
        annOtherKey.key,
      ),
    ).toMatchObject({
      __typename: 'ForbiddenError',
      message: 'This API key is not allowed here: it needs the API scope webhooks:manage.',
    });
  });

  it.each([
    [{ url: 'http://hooks.example.com/x', kinds: ['your-turn'] }, 'WEBHOOK_URL_NOT_HTTPS', 'input.url'],
    [{ url: 'not a url', kinds: ['your-turn'] }, 'WEBHOOK_URL_INVALID', 'input.url'],
    [{ url: 'https://user:pw@hooks.example.com/x', kinds: ['your-turn'] }, 'WEBHOOK_URL_INVALID', 'input.url'],
    [{ url: 'https://hooks.example.com/x', kinds: ['tile-drawn'] }, 'WEBHOOK_KINDS_INVALID', 'input.kinds'],
    [{ url: 'https://hooks.example.com/x', kinds: [] }, 'WEBHOOK_KINDS_INVALID', 'input.kinds'],
    [{ url: 'https://169.254.169.254/latest/meta-data/', kinds: ['your-turn'] }, 'WEBHOOK_URL_FORBIDDEN', 'input.url'],
    [{ url: 'https://0x7f000001/', kinds: ['your-turn'] }, 'WEBHOOK_URL_FORBIDDEN', 'input.url'],
    [{ url: 'https://unknown-host.invalid/', kinds: ['your-turn'] }, 'WEBHOOK_URL_FORBIDDEN', 'input.url'],
  ])('refuses %j with %s naming %s', async (input, code, field) => {
    expect(await data('createWebhookSubscription', CREATE_SUB, { input }, annKey.key)).toMatchObject({
      __typename: 'WebhookInputError',
      code,
      field,
    });
  });

  it('answers WEBHOOK_URL_FORBIDDEN with the reason, never the address', async () => {
    const r = await data(
      'createWebhookSubscription',
      CREATE_SUB,
      { input: { url: 'https://[::ffff:a9fe:a9fe]/x', kinds: ['your-turn'] } },
      annKey.key,
    );
    expect(r).toMatchObject({
      __typename: 'WebhookInputError',
      code: 'WEBHOOK_URL_FORBIDDEN',
      field: 'input.url',
      details: { reason: 'LINK_LOCAL' },
    });
    expect(r.message).toMatch(/link-local/);
    expect(JSON.stringify(r)).not.toMatch(/169\.254/);
  });

  it('lists the owner’s subscriptions only, without secrets; another player can neither see, pause nor delete them', async () => {
    const mine = await data('webhookSubscriptions', LIST_SUBS, {}, annKey.key);
    expect(mine.subscriptions).toEqual([expect.objectContaining({ id: subscriptionId, apiKeyId: annKey.id, active: true })]);
    expect(await data('webhookSubscriptions', LIST_SUBS, {}, ann.token)).toEqual(mine);
    expect((await data('webhookSubscriptions', LIST_SUBS, {}, benKey.key)).subscriptions).toEqual([]);
    for (const [query, vars] of [
      [DELETE_SUB, { id: subscriptionId }],
      [SET_ACTIVE, { id: subscriptionId, active: false }],
    ] as const) {
      const field = query === DELETE_SUB ? 'deleteWebhookSubscription' : 'setWebhookSubscriptionActive';
      expect(await data(field, query, vars, benKey.key)).toMatchObject({
        __typename: 'NotFoundError',
        code: 'WEBHOOK_SUBSCRIPTION_NOT_FOUND',
        details: { field: 'id' },
      });
    }
    expect((await data('webhookSubscriptions', LIST_SUBS, {}, ann.token)).subscriptions[0]).toMatchObject({
      id: subscriptionId,
      active: true,
    });
    expect(await data('webhookSubscriptions', LIST_SUBS, {})).toMatchObject({ __typename: 'UnauthenticatedError' });
  });

  it('lists deliveries after a sender run, with each attempt; owner-only; filters and pages', async () => {
    // Ann creates a game against Ben: it is Ann's turn, so a your-turn event is written for her.
    const game = await data('createGame', CREATE_GAME, { input: { opponent: 'ben-hooks' } }, ann.token);
    let now = new Date(START.getTime() + 60_000);
    const calls: { url: string; headers: Record<string, string>; body: string }[] = [];
    const statuses = [503, 200];
    const fetch: FetchLike = async (url, init) => {
      calls.push({ url, headers: init.headers, body: init.body });
      const status = statuses[calls.length - 1] ?? 200;
      return new Response(status === 200 ? 'ok' : 'down for maintenance', { status });
    };
    const db = api.app.services.db;
    expect(await drain(db, { now: () => now, fetch, destinations: TEST_DESTINATIONS })).toMatchObject({
      deliveriesCreated: 1,
      attempted: 1,
      retrying: 1,
    });
    now = new Date(now.getTime() + 10 * 60_000);
    expect(await drain(db, { now: () => now, fetch, destinations: TEST_DESTINATIONS })).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(calls.map((c) => c.url)).toEqual(['https://hooks.example.com/arbiter', 'https://hooks.example.com/arbiter']);
    // Each body is signed with the secret answered at creation.
    expect(verifySignature(secret, calls[1]!.headers[SIGNATURE_HEADER.toLowerCase()]!, calls[1]!.body, now)).toMatchObject({ ok: true });

    const page = await data('webhookDeliveries', DELIVERIES, { first: 10 }, annKey.key);
    expect(page.edges).toHaveLength(1);
    expect(page.edges[0].node).toMatchObject({
      subscriptionId,
      gameId: game.id,
      kind: 'your-turn',
      status: 'succeeded',
      attempts: 2,
      nextAttemptAt: null,
      lastStatusCode: 200,
      lastError: null,
      log: [
        { attempt: 1, statusCode: 503, error: 'HTTP 503: down for maintenance' },
        { attempt: 2, statusCode: 200, error: null },
      ],
    });
    expect(page.pageInfo).toEqual({ hasNextPage: false, endCursor: page.edges[0].cursor });
    expect(await data('webhookDeliveries', DELIVERIES, { subscriptionId, first: 10 }, ann.token)).toEqual(page);
    expect((await data('webhookDeliveries', DELIVERIES, { status: 'succeeded' }, annKey.key)).edges).toHaveLength(1);
    expect((await data('webhookDeliveries', DELIVERIES, { status: 'failed' }, annKey.key)).edges).toEqual([]);
    expect((await data('webhookDeliveries', DELIVERIES, { after: page.edges[0].cursor }, annKey.key)).edges).toEqual([]);
    // Ben sits in the same game but owns no subscription: he sees no delivery, not even asking for Ann's subscription.
    expect((await data('webhookDeliveries', DELIVERIES, {}, benKey.key)).edges).toEqual([]);
    expect((await data('webhookDeliveries', DELIVERIES, { subscriptionId }, benKey.key)).edges).toEqual([]);

    // Bad page arguments: a typed error code naming the argument.
    for (const [vars, code, field] of [
      [{ first: 0 }, 'PAGE_SIZE_INVALID', 'first'],
      [{ after: 'not-a-cursor' }, 'CURSOR_INVALID', 'after'],
    ] as const) {
      const body = await gql(DELIVERIES, vars, annKey.key);
      expect(body.errors?.[0]?.extensions).toMatchObject({ code, field });
    }
  });

  it('pauses, resumes and deletes; the secret never appears in any answer but the first', async () => {
    expect(await data('setWebhookSubscriptionActive', SET_ACTIVE, { id: subscriptionId, active: false }, annKey.key)).toMatchObject({
      id: subscriptionId,
      active: false,
    });
    expect(await data('setWebhookSubscriptionActive', SET_ACTIVE, { id: subscriptionId, active: true }, ann.token)).toMatchObject({
      id: subscriptionId,
      active: true,
    });
    expect(await data('deleteWebhookSubscription', DELETE_SUB, { id: subscriptionId }, annKey.key)).toEqual({
      __typename: 'DeletedWebhookSubscription',
      id: subscriptionId,
    });
    expect((await data('webhookSubscriptions', LIST_SUBS, {}, ann.token)).subscriptions).toEqual([]);
    expect((await data('webhookDeliveries', DELIVERIES, {}, ann.token)).edges).toEqual([]);
    expect(await data('deleteWebhookSubscription', DELETE_SUB, { id: subscriptionId }, annKey.key)).toMatchObject({
      code: 'WEBHOOK_SUBSCRIPTION_NOT_FOUND',
    });

    const withSecret = seen.filter((body) => body.includes(secret));
    expect(withSecret).toHaveLength(1);
    expect(withSecret[0]).toContain('"__typename":"NewWebhookSubscription"');
    // No other answer carried any whsec_ secret but the creations.
    expect(seen.filter((body) => body.includes('whsec_')).every((body) => body.includes('NewWebhookSubscription'))).toBe(true);
  });
});
