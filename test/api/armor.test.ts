/**
 * Request hardening (issue 15, deliverable 5): a body cap, and token, alias and directive caps applied
 * while the document is parsed, each answered with a typed error before any resolver runs; `__typename`
 * and introspection counted in the cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_LIMITS } from '../../graph/armor.js';
import { getIntrospectionQuery } from '../../graph/graphql.js';
import type { LexiconRegistry } from '../../service/lexicons.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

/** The lexicons, counting every lookup: a resolver of checkWords has run iff the count moved. */
let lookups = 0;
const counting: LexiconRegistry = {
  ...LEXICONS,
  get: (...args: Parameters<LexiconRegistry['get']>) => {
    lookups++;
    return LEXICONS.get(...args);
  },
};

const post = (api: TestApi, body: BodyInit, headers: Record<string, string> = {}, path = '/graphql') =>
  api.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

describe('request armor', () => {
  let api: TestApi;
  /** The same limits but a 16 MiB body cap, to reach the parser with huge documents. */
  let roomy: TestApi;
  beforeAll(async () => {
    api = await openTestApi(STORE_TARGETS[0]!, { lexicons: counting });
    roomy = await openTestApi(STORE_TARGETS[0]!, {
      requestLimits: { ...DEFAULT_REQUEST_LIMITS, maxBodyBytes: 16 * 1024 * 1024, maxImportBodyBytes: 16 * 1024 * 1024 },
    });
  });
  afterAll(async () => {
    await api?.close();
    await roomy?.close();
  });

  it('refuses a document of 100,000 aliased __typename: over the body cap (413), and at parse time past it (QUERY_TOO_MANY_TOKENS, 400)', async () => {
    expect((await api.gql(aliases(100_000, '__typename'))).status).toBe(413);
    const r = await roomy.gql(aliases(100_000, '__typename'));
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'QUERY_TOO_MANY_TOKENS', maxTokens: 3000 } })]);
  });

  it('refuses 2,000 aliased checkWords before any of them runs', async () => {
    const before = lookups;
    const r = await api.gql(aliases(2_000, 'checkWords(words: ["CAT"]) { __typename }'));
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]?.extensions?.['code']).toMatch(/^QUERY_TOO_MANY_(TOKENS|ALIASES)$/);
    expect(lookups).toBe(before);
  });

  it('allows 30 aliases and refuses 31 (QUERY_TOO_MANY_ALIASES), no resolver run', async () => {
    const ok = await api.gql(aliases(30, 'checkWords(words: ["CAT"]) { __typename }'));
    expect(ok.body.errors).toBeUndefined();
    expect(Object.keys(ok.body.data!)).toHaveLength(30);
    const before = lookups;
    const r = await api.gql(aliases(31, 'checkWords(words: ["CAT"]) { __typename }'));
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'QUERY_TOO_MANY_ALIASES', aliases: 31, maxAliases: 30 } }),
    ]);
    expect(lookups).toBe(before);
  });

  it('refuses more than 50 directives (QUERY_TOO_MANY_DIRECTIVES)', async () => {
    const r = await api.gql(`{ ruleSets { id ${'@include(if: true) '.repeat(51)} } }`);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'QUERY_TOO_MANY_DIRECTIVES', directives: 51, maxDirectives: 50 } }),
    ]);
  });

  it('refuses a 20 MB body with 413 REQUEST_TOO_LARGE, on GraphQL and on REST, declared or streamed', async () => {
    const big = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(20 * 1024 * 1024) } });
    for (const path of ['/graphql', '/rest/register-player']) {
      const res = await post(api, big, {}, path);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        errors: [expect.objectContaining({ extensions: { code: 'REQUEST_TOO_LARGE', maxBytes: 1024 * 1024 } })],
      });
    }
    // No Content-Length: the body is read only until it passes the cap.
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        if (pulled > 20 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await api.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(2 * 1024 * 1024);
  });

  it('refuses a body over 256 KiB unless the operation is importGame alone', async () => {
    const pad = 'x'.repeat(300 * 1024);
    // The padding rides in `extensions`, which Yoga accepts and ignores: the document itself is fine.
    const plain = await post(api, JSON.stringify({ query: '{ __typename }', extensions: { pad } }));
    expect(plain.status).toBe(413);
    expect(((await plain.json()) as { errors: { extensions: unknown }[] }).errors[0]!.extensions).toMatchObject({
      code: 'REQUEST_TOO_LARGE',
      maxBytes: 256 * 1024,
    });
    const importing = await post(
      api,
      JSON.stringify({
        query: 'mutation($input: ImportGameInput!) { importGame(input: $input) { __typename } }',
        variables: { input: { gcg: `#character-encoding UTF-8\n#note ${'x'.repeat(190_000)}\n`.repeat(1) } },
        extensions: { pad: pad.slice(0, 100_000) },
      }),
    );
    // Past the body cap: the resolver answers (no token, so UNAUTHENTICATED).
    expect(importing.status).toBe(200);
    expect(((await importing.json()) as { data: { importGame: { __typename: string } } }).data.importGame.__typename).toBe(
      'UnauthenticatedError',
    );
  });

  it('lets one full introspection query through and refuses two (introspection is counted)', async () => {
    const one = await api.gql(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true }));
    expect(one.body.errors).toBeUndefined();
    const selection = getIntrospectionQuery().replace(/^\s*query IntrospectionQuery \{\s*__schema/, '');
    const fragments = selection.slice(selection.indexOf('fragment FullType'));
    const body = selection.slice(0, selection.indexOf('fragment FullType'));
    const two = await api.gql(
      `query Two { a: __schema ${body.trim().replace(/\}$/, '')} b: __schema ${body.trim().replace(/\}$/, '')} } ${fragments}`,
    );
    expect(two.body.data).toBeUndefined();
    expect(two.body.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COSTLY', introspection: true, maxCost: 60_000 });
  });
});

describe('__typename counts in the cost', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(STORE_TARGETS[0]!, { limits: { maxDepth: 10, maxCost: 20, listFactor: 10 } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('refuses 21 aliased __typename against a cost limit of 20', async () => {
    expect((await api.gql(aliases(20, '__typename'))).body.errors).toBeUndefined();
    const r = await api.gql(aliases(21, '__typename'));
    expect(r.body.errors?.[0]?.extensions).toEqual({ code: 'QUERY_TOO_COSTLY', cost: 21, maxCost: 20 });
  });
});
