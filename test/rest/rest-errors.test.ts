/**
 * REST errors in REST words (issue 34 item 2): a body or parameter that breaks the operation's JSON Schema (the
 * one the OpenAPI document publishes) is a 400 `VALIDATION` problem naming the field as a JSON pointer, the rule
 * it broke and, for an enum, the values allowed. A fuzzed run over every POST/PUT/PATCH operation of the document
 * (missing required fields, wrong types, unknown fields, bad enum values, at the top and one level down) never
 * answers a message with `Variable "$`, `input.` or the name of a GraphQL input type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInputObjectType } from '../../graph/graphql.js';
import { schema } from '../../graph/schema.js';
import { compileOperation } from '../../rest/operation.js';
import { restMessage, restMembers } from '../../rest/rest-words.js';
import { ROUTES } from '../../rest/routes/index.js';
import { openTestApi, type TestApi } from '../api/harness.js';

type Schema = Record<string, any>;
type Doc = {
  paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};

interface Issue {
  field: string;
  in: string;
  rule?: string;
  message: string;
  allowed?: unknown[];
}
interface Problem {
  status: number;
  code: string;
  detail: string;
  message: string;
  issues?: Issue[];
}

const INPUT_TYPES = Object.values(schema.getTypeMap()).flatMap((t) => (isInputObjectType(t) ? [t.name] : []));
// `input.` as a GraphQL argument path names it (`input.handle`); a REST pointer to a body field named input (`/input`) is REST's own.
const FORBIDDEN = [/Variable "\$/, /(^|[^\w/])input\./, new RegExp(`\\b(${INPUT_TYPES.join('|')})\\b`)];

/** Every sentence of a REST answer a client may show. */
const messagesOf = (body: unknown): string[] => {
  const out: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'string' && ['detail', 'message', 'title', 'field'].includes(key)) out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(body, '');
  return out;
};

const wrongValue = (s: Schema): unknown => {
  const type = Array.isArray(s['type']) ? s['type'][0] : s['type'];
  if (type === 'string') return 12345;
  if (type === 'integer' || type === 'number') return 'many';
  if (type === 'boolean') return 'yes';
  if (type === 'array') return 7;
  return 'not an object';
};

describe('REST errors speak REST', () => {
  let api: TestApi;
  let token: string;
  let doc: Doc;
  const resolve = (s: Schema | undefined): Schema => {
    if (!s) return {};
    if (typeof s['$ref'] === 'string') return resolve(doc.components.schemas[s['$ref'].split('/').pop()!]);
    if (Array.isArray(s['anyOf'])) return resolve(s['anyOf'].find((x: Schema) => x['type'] !== 'null'));
    return s;
  };
  const send = async (method: string, path: string, body: unknown) => {
    const res = await api.fetch(`/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'if-match': '"1"' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, problem: (text ? JSON.parse(text) : {}) as Problem };
  };

  beforeAll(async () => {
    api = await openTestApi({ kind: 'pglite' }, { rateLimits: { buckets: {}, loginBackoff: { handle: null, address: null } } });
    token = (await api.register('fuzz')).token;
    doc = (await (await api.fetch('/v1/openapi.json')).json()) as Doc;
  });
  afterAll(async () => api?.close());

  it('POST /v1/games with an unknown field names it as a pointer with the rule', async () => {
    const { status, problem } = await send('POST', '/games', { bogus: 1 });
    expect(status).toBe(400);
    expect(problem.code).toBe('VALIDATION');
    expect(problem.issues).toContainEqual(
      expect.objectContaining({ field: '/bogus', in: 'body', rule: 'additionalProperties', allowed: expect.arrayContaining(['ruleSet']) }),
    );
    expect(problem.detail).not.toMatch(/Variable|CreateGameInput/);
  });

  it('POST /v1/players without displayName says /displayName is required', async () => {
    const res = await api.fetch('/v1/players', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ handle: 'nodisplay', password: 'long-enough-password' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await res.json()) as Problem;
    expect(problem.issues).toEqual([{ field: '/displayName', in: 'body', rule: 'required', message: '/displayName is required.' }]);
    expect(problem.detail).toBe('/displayName is required.');
  });

  it('a bad enum value lists the values allowed', async () => {
    // The first enum property of a POST body in the document.
    const found = Object.entries(doc.paths).flatMap(([template, item]) => {
      const schema = resolve(item['post']?.requestBody?.content['application/json']?.schema);
      const props = Object.entries<Schema>(schema['properties'] ?? {});
      return props.flatMap(([name, p]) => (Array.isArray(resolve(p)['enum']) ? [{ template, name, values: resolve(p)['enum'] }] : []));
    })[0]!;
    expect(found).toBeDefined();
    const path = found.template.replace(/\{[^}]+\}/g, '00000000-0000-0000-0000-000000000000');
    const { status, problem } = await send('POST', path, { [found.name]: 'NOT_A_VALUE' });
    expect(status).toBe(400);
    const issue = problem.issues!.find((i) => i.field === `/${found.name}`)!;
    expect(issue).toMatchObject({ rule: 'enum', in: 'body', allowed: found.values });
    expect(issue.message).toContain(String(found.values[0]));
  });

  it('a field one level down is named by its whole pointer, with a oneOf naming the branch chosen', async () => {
    const { status, problem } = await send('POST', '/games/00000000-0000-0000-0000-000000000000/turns', {
      play: { move: 5 },
    });
    expect(status).toBe(400);
    expect(problem.issues).toContainEqual(expect.objectContaining({ field: '/play/move', rule: 'type', in: 'body' }));
    expect(problem.issues!.every((i) => i.field.startsWith('/play'))).toBe(true);
    // Naming no branch, or two: one issue naming the choices.
    const two = await send('POST', '/games/00000000-0000-0000-0000-000000000000/turns', { pass: true, resign: true });
    expect(two.problem.issues).toEqual([
      expect.objectContaining({ field: '', rule: 'oneOf', allowed: expect.arrayContaining(['play', 'pass', 'resign']) }),
    ]);
  });

  it('an item of a list is named by its index', async () => {
    const { status, problem } = await send('POST', '/tournaments', { divisions: [{ method: 'COIN_TOSS' }] });
    expect(status).toBe(400);
    expect(problem.issues).toContainEqual(expect.objectContaining({ field: '/divisions/0/method', in: 'body', rule: 'enum' }));
  });

  it('a query parameter of the wrong kind is named as a parameter', async () => {
    const res = await api.fetch('/v1/me/games?first=-5', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as Problem;
    for (const m of messagesOf(problem)) for (const re of FORBIDDEN) expect(m).not.toMatch(re);
    expect(problem.code).toBe('VALIDATION');
    expect(problem.detail).toMatch(/^first: /);
    const typed = await api.fetch('/v1/me/games?first=ten', { headers: { authorization: `Bearer ${token}` } });
    expect(typed.status).toBe(400);
  });

  it('a GraphQL error that still reaches REST names the REST field, not the argument path', async () => {
    const created = await send('POST', '/games', {});
    expect(created.status).toBe(201);
    const id = (JSON.parse(created.text) as { id: string }).id;
    const { status, problem } = await send('POST', `/games/${id}/turns`, { pass: false });
    expect(status).toBe(400);
    expect(problem.code).toBe('VALIDATION');
    for (const m of messagesOf(problem)) for (const re of FORBIDDEN) expect(m).not.toMatch(re);
    expect(problem.issues).toEqual([expect.objectContaining({ field: '', in: 'body' })]);
  });

  it('GraphQL coercion and validation messages are rewritten to REST fields', () => {
    const route = (method: string, path: string) => ROUTES.find((r) => r.method === method && r.path === path)!;
    const names = new Set(INPUT_TYPES);
    const games = compileOperation(schema, route('POST', '/games'));
    const players = compileOperation(schema, route('POST', '/players'));
    const turns = compileOperation(schema, route('POST', '/games/{id}/turns'));
    expect(
      restMessage(
        games,
        'Variable "$input" got invalid value { bogus: 1 }; Field "bogus" is not defined by type "CreateGameInput".',
        names,
      ),
    ).toBe('/bogus is not a field of the body.');
    expect(
      restMessage(
        players,
        'Variable "$input" got invalid value { handle: "x" }; Field "displayName" of required type "String!" was not provided.',
        names,
      ),
    ).toBe('/displayName is required.');
    expect(
      restMessage(
        turns,
        'Variable "$input" got invalid value 5 at "input.action.play.move"; String cannot represent a non string value: 5',
        names,
      ),
    ).toBe('/play/move must be a string.');
    expect(
      restMembers(
        turns,
        { message: 'input.action: pass and resign take the value true.', issues: [{ field: 'input.action.play', message: 'x' }] },
        names,
      ),
    ).toEqual({
      message: 'the body: pass and resign take the value true.',
      issues: [{ field: '/play', in: 'body', message: 'x' }],
    });
    expect(restMessage(games, 'A CreateGameInput is wrong.', names)).not.toMatch(/CreateGameInput/);
  });

  it('a fuzzed run over every POST/PUT/PATCH operation never speaks GraphQL', async () => {
    const uuid = '00000000-0000-0000-0000-000000000000';
    let sent = 0;
    let validation = 0;
    const failures: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!['post', 'put', 'patch'].includes(method)) continue;
        const json = op.requestBody?.content['application/json']?.schema;
        if (!json) continue;
        const path = template.replace(/\{[^}]+\}/g, uuid);
        const body = resolve(json);
        const props: Record<string, Schema> = body['properties'] ?? {};
        const cases: [string, unknown][] = [
          ['empty', {}],
          ['unknown field', { zzBogus: 1 }],
        ];
        if (Array.isArray(body['oneOf']))
          cases.push(['two branches', Object.fromEntries(body['oneOf'].map((b: Schema) => [resolve(b)['required'][0], {}]))]);
        for (const [name, raw] of Object.entries(props)) {
          const p = resolve(raw);
          cases.push([`${name}: wrong type`, { [name]: wrongValue(p) }], [`${name}: null`, { [name]: null }]);
          if (Array.isArray(p['enum'])) cases.push([`${name}: bad enum`, { [name]: 'NOT_A_VALUE' }]);
          if (p['type'] === 'object' || p['oneOf'])
            cases.push([`${name}: unknown inner field`, { [name]: { zzBogus: 1 } }], [`${name}: empty`, { [name]: {} }]);
          if (p['type'] === 'array') cases.push([`${name}: wrong items`, { [name]: [{ zzBogus: 1 }, 12345, 'x'] }]);
        }
        for (const [what, value] of cases) {
          const { status, text, problem } = await send(method.toUpperCase(), path, value);
          sent++;
          if (problem.code === 'VALIDATION') validation++;
          if (status >= 500) failures.push(`${method} ${template} (${what}): ${status} ${text}`);
          for (const m of messagesOf(problem))
            for (const re of FORBIDDEN) if (re.test(m)) failures.push(`${method} ${template} (${what}): ${m}`);
          if (problem.issues)
            for (const i of problem.issues)
              if (i.in === 'body' && i.field !== '' && !i.field.startsWith('/'))
                failures.push(`${method} ${template} (${what}): field ${i.field} is not a pointer`);
        }
      }
    }
    console.log(`fuzz: ${sent} requests, ${validation} VALIDATION`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(100);
    expect(validation).toBeGreaterThan(sent / 2);
  }, 120_000);
});
