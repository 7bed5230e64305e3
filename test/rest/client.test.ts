/**
 * An integrator's first game over /v1, with a client generated from the served OpenAPI document
 * (openapi-typescript types in generated/rest/v1.ts, written by `npm run generate`; openapi-fetch at
 * run time): register, sign in, create, join, two turns, a stale If-Match (412), an idempotent retry
 * (the same answer, one turn stored), a 404, an illegal move (422), the GCG record. Every answer is
 * checked against the document: its status is one the operation declares, its body valid against the
 * declared schema (ajv, JSON Schema 2020-12). On PGlite and Postgres.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../generated/rest/v1.js';
import { compilePath } from '../../rest/route.js';
import { CLIENT_TYPES, clientTypes } from '../../scripts/rest-client-types.js';
import { setBagSeedSourceForTests } from '../../service/game-create.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>>; components: { responses: Record<string, any> } };

/** Checks each answer against the document: a declared status, and a body its schema accepts. */
const documentChecker = (doc: Doc) => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema(doc, 'openapi');
  const templates = Object.keys(doc.paths).map((t) => ({ t, match: compilePath(t) }));
  const seen: string[] = [];
  return {
    seen,
    check: async (request: Request, response: Response) => {
      const path = new URL(request.url).pathname.replace(/^\/v1/, '');
      const template = templates.find((x) => x.match(path))?.t;
      const method = request.method.toLowerCase();
      const op = template ? doc.paths[template]?.[method] : undefined;
      expect(op, `${request.method} ${path} is in the document`).toBeDefined();
      const status = String(response.status);
      const declared = op!.responses[status] ?? (response.status >= 500 ? op!.responses['default'] : undefined);
      expect(declared, `${request.method} ${template} declares ${status}`).toBeDefined();
      seen.push(`${request.method} ${template} ${status}`);
      const ref = declared.$ref as string | undefined;
      const resolved = ref ? doc.components.responses[ref.split('/').pop()!] : declared;
      const [type, media] = Object.entries<any>(resolved.content ?? {})[0] ?? [];
      if (!type) return;
      expect(response.headers.get('content-type') ?? '').toContain(type);
      if (!type.includes('json')) return;
      const pointer = ref
        ? `#/components/responses/${ref.split('/').pop()}/content/${type.replace('/', '~1')}/schema`
        : `#/paths/${template!.replaceAll('/', '~1')}/${method}/responses/${status}/content/${type.replace('/', '~1')}/schema`;
      const validate = ajv.getSchema(`openapi${pointer}`)!;
      const body = await response.clone().json();
      expect(validate(body), `${request.method} ${template} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(media.schema).toBeDefined();
    },
  };
};

describe.each(STORE_TARGETS)('a game over /v1 with a generated client on $kind', (target) => {
  let api: TestApi;
  let doc: Doc;
  let checker: ReturnType<typeof documentChecker>;
  let client: ReturnType<typeof createClient<paths>>;
  beforeAll(async () => {
    api = await openTestApi(target);
    setBagSeedSourceForTests(() => 'rest-examples-bag-seed-0123456789abcdef');
    doc = (await (await api.fetch('/v1/openapi.json')).json()) as Doc;
    checker = documentChecker(doc);
    client = createClient<paths>({
      baseUrl: 'http://arbiter.test/v1',
      fetch: async (request: Request) => {
        const response = await api.app.yoga.fetch(request);
        await checker.check(request, response);
        return response;
      },
    });
  });
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    await api?.close();
  });

  it('the client types are those of the served document (npm run generate wrote them)', async () => {
    expect(readFileSync(CLIENT_TYPES, 'utf8')).toBe(await clientTypes(doc));
  });

  it('plays a short game: register, sign in, create, join, turns, 412, idempotent retry, 404, 422, the record', async () => {
    const reg = await client.POST('/players', { body: { handle: 'ann', displayName: 'Ann', password: 'ann-password-1' } });
    expect(reg.response.status).toBe(201);
    expect(reg.response.headers.get('location')).toBe('/v1/me');
    await client.POST('/players', { body: { handle: 'ben', displayName: 'Ben', password: 'ben-password-1' } });
    const login = await client.POST('/sessions', { body: { handle: 'ben', password: 'ben-password-1' } });
    expect(login.data?.player.handle).toBe('ben');
    const ann = { authorization: `Bearer ${reg.data!.token}` };
    const ben = { authorization: `Bearer ${login.data!.token}` };

    // An open game; Ben takes the seat.
    const created = await client.POST('/games', { body: {}, headers: ann });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    expect(created.response.headers.get('location')).toBe(`/v1/games/${id}`);
    expect(created.data!.seats.find((seat) => !seat.isMe)?.player).toBeNull(); // the open seat
    const joined = await client.POST('/games/{id}/join', { params: { path: { id } }, headers: ben });
    expect(joined.response.status).toBe(200);
    expect(joined.data!.mySeat).toBe(1);
    expect(joined.data!.myRack).toHaveLength(7);

    // Ann reads the game; its ETag is the version, and If-None-Match with it is 304.
    const read = await client.GET('/games/{id}', { params: { path: { id } }, headers: ann });
    const etag = read.response.headers.get('etag')!;
    expect(etag).toBe(`"${read.data!.version}"`);
    expect(read.data!.seats.find((s) => !s.isMe)?.player?.handle).toBe('ben');
    const notModified = await client.GET('/games/{id}', { params: { path: { id }, header: { 'If-None-Match': etag } }, headers: ann });
    expect(notModified.response.status).toBe(304);

    // An illegal move: 422 with the typed error of GraphQL (code, message, citation), nothing stored.
    const illegal = await client.POST('/games/{id}/turns', {
      params: { path: { id }, header: { 'If-Match': etag } },
      headers: ann,
      body: { play: { move: '8A CAT' } },
    });
    expect(illegal.response.status).toBe(422);
    expect(illegal.response.headers.get('content-type')).toBe('application/problem+json');
    expect(illegal.error).toMatchObject({ status: 422, errorType: 'RuleViolation', detail: illegal.error!.message });
    expect(['MISSES_CENTRE', 'TILES_NOT_IN_RACK']).toContain(illegal.error!.code);
    expect(illegal.error!.type).toBe(`tag:arbiter,2026:problem:${illegal.error!.code}`);

    // Turn one (Ann passes), with an Idempotency-Key; the retry answers the same and stores nothing.
    const headers = { 'If-Match': etag, 'Idempotency-Key': `ann-turn-1-${target.kind}` };
    const first = await client.POST('/games/{id}/turns', { params: { path: { id }, header: headers }, headers: ann, body: { pass: true } });
    expect(first.response.status).toBe(200);
    expect(first.data!.version).toBe(read.data!.version + 1);
    expect(first.response.headers.get('etag')).toBe(`"${first.data!.version}"`);
    const retry = await client.POST('/games/{id}/turns', { params: { path: { id }, header: headers }, headers: ann, body: { pass: true } });
    expect(retry.response.status).toBe(200);
    expect(retry.data).toEqual(first.data);
    const sheet = await client.GET('/games/{id}/turns', { params: { path: { id } }, headers: ann });
    expect(sheet.data!.items).toHaveLength(1);

    // A stale If-Match: 412, with the version now.
    const stale = await client.POST('/games/{id}/turns', {
      params: { path: { id }, header: { 'If-Match': etag } },
      headers: ben,
      body: { pass: true },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toMatchObject({ code: 'STALE_VERSION', expected: read.data!.version, actual: first.data!.version });

    // Turn two: Ben exchanges two of his tiles at the version he reads.
    const benView = await client.GET('/games/{id}', { params: { path: { id } }, headers: ben });
    const second = await client.POST('/games/{id}/turns', {
      params: {
        path: { id },
        header: { 'If-Match': benView.response.headers.get('etag')!, 'Idempotency-Key': `ben-turn-1-${target.kind}` },
      },
      headers: ben,
      body: { exchange: { tiles: benView.data!.myRack!.slice(0, 2) } },
    });
    expect(second.response.status).toBe(200);
    expect(second.data!.lastMove).toMatchObject({ seat: 1, notation: `-${benView.data!.myRack!.slice(0, 2)}` });
    // Closed sets (move kinds, statuses) are left out of these checks: their GraphQL fields are becoming enums.
    const notations = (await client.GET('/games/{id}/turns', { params: { path: { id } }, headers: ann })).data!.items.map(
      (m) => m.notation,
    );
    expect(notations).toEqual(['-', '-2']);
    // Ann sees that Ben exchanged two tiles, never which.
    const annView = await client.GET('/games/{id}', { params: { path: { id } }, headers: ann });
    expect(annView.data!.lastMove).toMatchObject({ notation: '-2', tiles: null });

    // A game that does not exist: 404.
    const missing = await client.GET('/games/{id}', { params: { path: { id: '00000000-0000-0000-0000-000000000000' } }, headers: ann });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'GAME_NOT_FOUND', errorType: 'NotFoundError' });

    // The record, as GCG text: Ann's racks only while the game is on.
    const record = await client.GET('/games/{id}/record', { params: { path: { id } }, headers: ann, parseAs: 'text' });
    expect(record.response.headers.get('content-type')).toContain('text/plain');
    expect(record.data).toContain('#player1 ann Ann');
    expect(record.data).toMatch(/>ann: +\S+ - \+0 0/);
    expect(record.data).toMatch(/>ben: +-2 \+0 0/); // his rack and tiles are his own
    expect(record.data).not.toContain(benView.data!.myRack!);

    // The inbox lists the game.
    const inbox = await client.GET('/me/games', { params: { query: { first: 5 } }, headers: ann });
    expect(inbox.data!.items.map((g) => g.id)).toContain(id);
    expect(inbox.data!.nextCursor).toBeNull();

    expect(checker.seen).toEqual(
      expect.arrayContaining(['POST /games/{id}/turns 412', 'POST /games/{id}/turns 422', 'GET /games/{id} 404', 'GET /games/{id} 304']),
    );
  });
});
