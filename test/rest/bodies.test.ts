/**
 * A JSON body that is not an object (issue 34 item 3): `null`, an array, a number, a string or a boolean is
 * a 400 problem naming the body on every route that takes a JSON body — whole-body inputs (`POST /v1/games`,
 * `POST /v1/players`), bodies read field by field (`POST /v1/checks/words`, `PATCH /v1/webhooks/{id}`) — and
 * nothing is made; `{}` (or no body) still asks for every default. The OpenAPI document says so: every JSON
 * request body is an object, none `anyOf [object, null]`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../rest/routes/index.js';
import { openTestApi, type TestApi } from '../api/harness.js';

type Doc = {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const NOT_OBJECTS: readonly [string, string, string][] = [
  ['null', 'null', 'not null'],
  ['an array', '[]', 'not an array'],
  ['an array of an object', '[{"ruleSet": "NSA_2008"}]', 'not an array'],
  ['a number', '7', 'not a number'],
  ['a string', '"NSA_2008"', 'not a string'],
  ['a boolean', 'true', 'not a boolean'],
];

describe('JSON bodies that are not objects', () => {
  let api: TestApi;
  let ann: string;
  const post = (method: string, path: string, raw: string | undefined, token?: string) =>
    api.fetch(`/v1${path}`, {
      method,
      headers: {
        ...(raw === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(raw === undefined ? {} : { body: raw }),
    });
  const myGames = async () => ((await (await post('GET', '/me/games', undefined, ann)).json()) as { items: unknown[] }).items.length;

  beforeAll(async () => {
    api = await openTestApi({ kind: 'pglite' });
    ann = (await api.register('ann')).token;
  });
  afterAll(async () => api?.close());

  const routes: readonly [string, string, boolean][] = [
    ['POST', '/games', true],
    ['POST', '/players', false],
    ['POST', '/matches', true],
    ['POST', '/checks/words', false],
    ['POST', '/checks/rule-set', false],
    ['PATCH', '/webhooks/00000000-0000-0000-0000-000000000000', true],
  ];
  describe.each(routes)('%s %s', (method, path, signedIn) => {
    it.each(NOT_OBJECTS)('%s is 400 problem+json naming the body', async (_kind, raw, named) => {
      const res = await post(method, path, raw, signedIn ? ann : undefined);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const problem = (await res.json()) as { code: string; status: number; detail: string };
      expect(problem).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
      expect(problem.detail).toContain('body must be a JSON object');
      expect(problem.detail).toContain(named);
    });
  });

  it('every route with a JSON body refuses null and an array the same way, before anything else is looked at', async () => {
    const json = ROUTES.filter((r) => Object.values(r.args).some((s) => s.from === 'body' || s.from === 'bodyField'));
    expect(json.map((r) => r.method)).toContain('PUT');
    for (const r of json) {
      const path = r.path.replace(/\{(\w+)\}/g, '1');
      for (const raw of ['null', '[]']) {
        const res = await post(r.method, path, raw, ann);
        expect([r.operationId, raw, res.status]).toEqual([r.operationId, raw, 400]);
        expect(((await res.json()) as { detail: string }).detail).toContain('body must be a JSON object');
      }
    }
  });

  it('no game was made by any of them; {} and no body still make one of every default', async () => {
    expect(await myGames()).toBe(0);
    for (const raw of NOT_OBJECTS.map(([, r]) => r)) expect((await post('POST', '/games', raw, ann)).status).toBe(400);
    expect(await myGames()).toBe(0);
    expect((await post('POST', '/games', '{}', ann)).status).toBe(201);
    expect((await post('POST', '/games', undefined, ann)).status).toBe(201);
    expect(await myGames()).toBe(2);
  });

  it('the OpenAPI document publishes every JSON request body as an object, never null', async () => {
    const doc = (await (await api.fetch('/v1/openapi.json')).json()) as Doc;
    const resolve = (s: Record<string, unknown>): Record<string, unknown> => {
      const ref = s['$ref'];
      return typeof ref === 'string' ? resolve(doc.components.schemas[ref.replace('#/components/schemas/', '')]!) : s;
    };
    const bodies = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) => {
        const json = op.requestBody?.content['application/json'];
        return json ? [{ at: `${method.toUpperCase()} ${path}`, schema: json.schema }] : [];
      }),
    );
    expect(bodies.length).toBeGreaterThan(30);
    const notObjects = bodies.filter(({ schema }) => {
      const s = resolve(schema);
      // An object, or a @oneOf input: one object per member.
      const objects = s['type'] === 'object' || (Array.isArray(s['oneOf']) && s['oneOf'].every((m) => resolve(m)['type'] === 'object'));
      return !objects;
    });
    expect(notObjects.map((b) => `${b.at}: ${JSON.stringify(b.schema)}`)).toEqual([]);
    expect(doc.paths['/games']!['post']!.requestBody!.content['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/CreateGameInput',
    });
  });
});
