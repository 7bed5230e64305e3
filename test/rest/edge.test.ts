/**
 * The transport rules of /v1 (rest/): media types, malformed JSON and headers, unknown routes and
 * methods, credentials, rate limiting mapped to 429, pages with their Link header, items of a list,
 * 204 on delete, hidden information (another player's rack) — over `yoga.fetch` on PGlite.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEXICONS, openTestApi, TEST_JWT, type TestApi } from '../api/harness.js';
import { createApp, type App } from '../../functions/app.js';
import { openTestDb, type TestDb } from '../store/targets.js';

describe('the /v1 edge', () => {
  let api: TestApi;
  let ann: string;
  let ben: string;
  const call = (
    method: string,
    path: string,
    init: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ) =>
    api.fetch(`/v1${path}`, {
      method,
      headers: {
        ...(init.body !== undefined || init.raw !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...init.headers,
      },
      ...(init.raw !== undefined ? { body: init.raw } : init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  const problem = async (res: Response) => {
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    return (await res.json()) as { code: string; status: number; detail: string };
  };

  beforeAll(async () => {
    api = await openTestApi({ kind: 'pglite' });
    ann = (await api.register('ann')).token;
    ben = (await api.register('ben')).token;
  });
  afterAll(async () => api?.close());

  it('refuses what is not JSON, malformed JSON, unknown body properties and odd headers', async () => {
    const notJson = await call('POST', '/checks/words', { raw: 'words=QI', headers: { 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);
    expect((await problem(notJson)).code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await call('POST', '/checks/words', { raw: '{"words": [' });
    expect(broken.status).toBe(400);
    expect((await problem(broken)).code).toBe('BAD_REQUEST');
    const extra = await call('POST', '/checks/words', { body: { words: ['QI'], lexcion: 'SOWPODS' } });
    expect(extra.status).toBe(400);
    expect((await problem(extra)).detail).toContain('lexcion');
    const wrongType = await call('POST', '/checks/play', { body: { move: 8 } });
    expect(wrongType.status).toBe(400);
    // Checked against the operation's JSON Schema: the field as a JSON pointer, and the rule it broke (issue 34).
    expect(await wrongType.json()).toMatchObject({ code: 'VALIDATION', issues: [{ field: '/move', in: 'body', rule: 'type' }] });
    const tooMany = await call('POST', '/checks/words', { body: { words: Array.from({ length: 101 }, () => 'QI') } });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      code: 'VALIDATION',
      errorType: 'ValidationError',
      issues: [{ field: '/words', in: 'body' }],
    });
  });

  it('answers 404 for an unknown route and 405 with Allow for a wrong method', async () => {
    const nowhere = await call('GET', '/nowhere');
    expect(nowhere.status).toBe(404);
    expect((await problem(nowhere)).code).toBe('ROUTE_NOT_FOUND');
    const wrong = await call('PUT', '/games/g1');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it('401 without a credential (WWW-Authenticate), 403 for a key without the scope', async () => {
    const anonymous = await call('GET', '/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="arbiter"');
    const key = (await (await call('POST', '/api-keys', { token: ann, body: { name: 'reader', scopes: ['games:read'] } })).json()) as {
      key: string;
    };
    const forbidden = await call('POST', '/games', { token: key.key, body: {} });
    expect(forbidden.status).toBe(403);
    expect((await problem(forbidden)).code).toBe('FORBIDDEN');
  });

  it('If-Match: required on a turn (428), refused when weak (400), 412 when stale on any game action', async () => {
    const game = (await (await call('POST', '/games', { token: ann, body: { opponent: 'ben' } })).json()) as {
      id: string;
      version: number;
    };
    const none = await call('POST', `/games/${game.id}/turns`, { token: ann, body: { pass: true } });
    expect(none.status).toBe(428);
    const weak = await call('POST', `/games/${game.id}/turns`, {
      token: ann,
      body: { pass: true },
      headers: { 'if-match': `W/"${game.version}"` },
    });
    expect(weak.status).toBe(400);
    const stale = await call('POST', `/games/${game.id}/abort`, { token: ann, headers: { 'if-match': `"${game.version - 1}"` } });
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ code: 'STALE_VERSION', expected: game.version - 1, actual: game.version });
    const aborted = await call('POST', `/games/${game.id}/abort`, { token: ann, headers: { 'if-match': `"${game.version}"` } });
    expect(aborted.status).toBe(200);
    expect(await aborted.json()).toMatchObject({ whoseTurn: null, actions: [], result: { winner: null } });
  });

  it('never shows another player’s rack', async () => {
    const game = (await (await call('POST', '/games', { token: ann, body: { opponent: 'ben' } })).json()) as { id: string; myRack: string };
    const asBen = (await (await call('GET', `/games/${game.id}`, { token: ben })).json()) as { myRack: string; seats: unknown[] };
    expect(asBen.myRack).toHaveLength(7);
    expect(JSON.stringify(asBen)).not.toContain(game.myRack);
    const record = await (await call('GET', `/games/${game.id}/record`, { token: ben })).text();
    expect(record).not.toContain(game.myRack);
  });

  it('pages forward with nextCursor and a relative Link header', async () => {
    const first = await call('GET', '/me/games?first=1', { token: ann });
    const page = (await first.json()) as { items: { id: string }[]; nextCursor: string };
    expect(page.items).toHaveLength(1);
    expect(first.headers.get('link')).toBe(`<?first=1&after=${encodeURIComponent(page.nextCursor)}>; rel="next"`);
    const next = (await (await call('GET', `/me/games?first=1&after=${encodeURIComponent(page.nextCursor)}`, { token: ann })).json()) as {
      items: { id: string }[];
    };
    expect(next.items[0]!.id).not.toBe(page.items[0]!.id);
    const bad = await call('GET', '/me/games?after=nonsense', { token: ann });
    expect(bad.status).toBe(400);
    expect((await problem(bad)).code).toBe('CURSOR_INVALID');
  });

  it('an item of a list, 404 when it is not yours; DELETE of a webhook is 204', async () => {
    const created = await call('POST', '/api-keys', { token: ann, body: { name: 'hooks', scopes: ['webhooks:manage'] } });
    const key = (await created.json()) as { key: string; apiKey: { id: string } };
    expect(created.headers.get('location')).toBe(`/v1/api-keys/${key.apiKey.id}`);
    expect((await call('GET', `/api-keys/${key.apiKey.id}`, { token: ann })).status).toBe(200);
    const other = await call('GET', `/api-keys/${key.apiKey.id}`, { token: ben });
    expect(other.status).toBe(404);
    expect((await problem(other)).code).toBe('API_KEY_NOT_FOUND');
    const hook = (await (
      await call('POST', '/webhooks', { token: key.key, body: { url: 'https://hooks.example.com/in', kinds: ['your-turn'] } })
    ).json()) as {
      subscription: { id: string };
      secret: string;
    };
    expect(hook.secret).toMatch(/^whsec_/);
    const paused = await call('PATCH', `/webhooks/${hook.subscription.id}`, { token: key.key, body: { active: false } });
    expect(await paused.json()).toMatchObject({ id: hook.subscription.id, active: false });
    const gone = await call('DELETE', `/webhooks/${hook.subscription.id}`, { token: key.key });
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe('');
    expect((await call('GET', `/webhooks/${hook.subscription.id}`, { token: key.key })).status).toBe(404);
  });
});

describe('RATE_LIMITED from any plugin becomes 429 with Retry-After', () => {
  let app: App;
  let db: TestDb;
  beforeAll(async () => {
    db = await openTestDb({ kind: 'pglite' });
    const limiter: Plugin = {
      onExecute: ({ setResultAndStopExecution }) =>
        setResultAndStopExecution({
          errors: [
            createGraphQLError('Too many requests: wait 12 seconds.', { extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 12 } }),
          ],
        }),
    };
    app = await createApp({ db: db.db, lexicons: LEXICONS, jwt: TEST_JWT, plugins: [limiter], logError: () => undefined });
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('maps the code and the seconds', async () => {
    const res = await app.yoga.fetch('http://arbiter.test/v1/rule-sets');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('12');
    expect(await res.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429, detail: 'Too many requests: wait 12 seconds.' });
  });
});
