/**
 * Bad input at the API (issue 6): fast-check throws random and hostile GraphQL documents, random
 * variables for the game operations, random REST calls and malformed HTTP at the app over
 * `yoga.fetch`, as the players of the games, a spectator, an anonymous caller and a bad token.
 * Every response: status < 500; every error carries a code; no stack trace or server internals; no
 * unexpected (masked) error logged; and — the oracle being the store — no body sent to anyone but a
 * rack's owner contains that rack (in rack order or sorted), nor any game's bag seed while the game
 * is on. After all of it, every game's log is seq 1 … version (no partial write).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lexicon } from '../../../engine/lexicon/lexicon.js';
import { setBagSeedSourceForTests } from '../../../service/game-create.js';
import { LEXICONS } from '../../api/harness.js';
import {
  act,
  asGame,
  CREATE_GAME,
  findPlay,
  GAME,
  GAME_RECORD,
  graphql,
  JOIN_GAME,
  readGame,
  registerPlayer,
  SUBMIT_TURN,
  type GameOrError,
  type Player,
} from '../../e2e/client.js';
import { recorder, runs } from '../summary.js';
import {
  errorsWithoutCode,
  forbiddenFor,
  internalsIn,
  invariantViolations,
  leaksIn,
  openWorld,
  readTruth,
  STORE_TARGETS,
  type GameSecretsTruth,
  type World,
} from '../world.js';

const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;
const rec = recorder('api-fuzz');
afterAll(() => rec.flush());

/** Default runs per property in `npm test` (×ARBITER_RELIABILITY_SCALE in the heavy run). */
const BASE_RUNS = 150;

// ---------------------------------------------------------------------------------------------
// What a fuzzed request is

interface FuzzRequest {
  readonly label: string;
  readonly path: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

const CHECK_PLAY = `query($input: CheckPlayInput!) { checkPlay(input: $input) { __typename ... on ScoredPlay { score words { word score } } ... on Error { code message details } } }`;
const ADJUDICATE = `query($dispute: JSON!, $ruleSet: String, $overrides: JSON) { adjudicate(dispute: $dispute, ruleSet: $ruleSet, overrides: $overrides) { __typename ... on Error { code message } } }`;
const IMPORT_GAME = `mutation($input: ImportGameInput!) { importGame(input: $input) { __typename ... on Game { id version } ... on Error { code message } } }`;
const MY_GAMES = `query($first: Int, $after: String) { myGames(first: $first, after: $after) { edges { cursor node { id version myRack board { rows } } } pageInfo { hasNextPage endCursor } } }`;
const RULE_SET = `query($id: String!, $overrides: JSON) { ruleSet(id: $id, overrides: $overrides) { __typename ... on Error { code message } } }`;
const CHECK_WORDS = `query($words: [String!]!, $lexicon: String) { checkWords(words: $words, lexicon: $lexicon) { __typename ... on Error { code message } } }`;

/** Valid documents the mutator starts from. */
const BASE_DOCUMENTS = [
  SUBMIT_TURN,
  GAME,
  CREATE_GAME,
  JOIN_GAME,
  GAME_RECORD,
  CHECK_PLAY,
  ADJUDICATE,
  IMPORT_GAME,
  MY_GAMES,
  RULE_SET,
  CHECK_WORDS,
  '{ me { __typename } }',
  '{ ruleSets { id } lexicons { name } }',
];

const GRAPHQL_CHARS = [...'{}()[]:$!@.,"=#|&\n\t ...abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_\\\u0000\u00ff\ud83d'];

/** A document with a few random cuts, insertions and duplications. */
const mutatedDocument = fc
  .tuple(
    fc.constantFrom(...BASE_DOCUMENTS),
    fc.array(
      fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        cut: fc.nat({ max: 8 }),
        insert: fc.string({ unit: fc.constantFrom(...GRAPHQL_CHARS), maxLength: 6 }),
        dup: fc.boolean(),
      }),
      {
        minLength: 1,
        maxLength: 4,
      },
    ),
  )
  .map(([doc, edits]) => {
    let s = doc;
    for (const e of edits) {
      const i = Math.floor(e.at * s.length);
      const piece = e.dup ? s.slice(i, i + e.cut) : '';
      s = s.slice(0, i) + e.insert + piece + s.slice(i + (e.dup ? 0 : e.cut));
    }
    return s;
  });

/** Valid syntax, hostile intent: deep, wide, cyclic, unknown, huge. */
const hostileDocument = fc.oneof(
  fc.integer({ min: 20, max: 3000 }).map((n) => `{ ${'me { ... on Player { '.repeat(n)}id${' } }'.repeat(n)} }`),
  fc.integer({ min: 20, max: 3000 }).map((n) => `{ ${'... on Query { '.repeat(n)}__typename${' }'.repeat(n)} }`),
  fc.integer({ min: 100, max: 20_000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ruleSets { id }`).join(' ')} }`),
  fc.integer({ min: 1, max: 12 }).map((n) => `{ __schema { types { ${'fields { type { '.repeat(n)}name${' } }'.repeat(n)} } } }`),
  fc
    .integer({ min: 1, max: 40 })
    .map((n) => `{ __type(name: "Game") { ${'fields { type { ofType { '.repeat(n)}name${' } } }'.repeat(n)} } }`),
  fc.constant('fragment A on Query { ...B } fragment B on Query { ...A } { ...A }'),
  fc.constant('query A { me { __typename } } query B { ruleSets { id } }'),
  fc
    .string({ minLength: 1, maxLength: 20 })
    .map((f) => `{ ${f.replace(/[^A-Za-z_]/g, '') || 'x'}Unknown { id } game(id: "x") { ... on Game { secretRack bagSeed bag } } }`),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => `{ checkWords(words: ["${'Q'.repeat(n)}"]) { __typename } }`),
  fc
    .integer({ min: 10, max: 2_000 })
    .map((n) => `{ checkWords(words: [${Array.from({ length: n }, () => '"QI"').join(',')}]) { __typename } }`),
  fc.constant('{ me @skip(if: "yes") { __typename } }'),
  fc.constant('subscription { me { __typename } }'),
  fc.constant('{ me { __typename } } # '.repeat(2000)),
);

const anyDocument = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 4, arbitrary: mutatedDocument },
  { weight: 3, arbitrary: hostileDocument },
);

/** Strings near the move grammar: coordinates, words, dots, blanks, digraphs, junk. */
const moveLike = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc
    .tuple(
      fc.oneof(fc.constantFrom('8H', 'H8', '1A', 'A1', '15O', 'O15', '0A', '16P', 'Z9', '8', 'H', ''), fc.string({ maxLength: 4 })),
      fc.constantFrom(' ', '  ', '\t', ''),
      fc.string({ unit: fc.constantFrom(...'ABCDEQXZaeiqz.?[]CH -'), maxLength: 18 }),
    )
    .map(([c, s, w]) => `${c}${s}${w}`),
  fc.constantFrom('-', '-ABC', '--', '- ', '-?', '-[CH]', 'pass'),
);

const tilesLike = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: fc.constantFrom(...'AEIOUQXZ?[]CH'), maxLength: 12 }));
const intLike = fc.oneof(
  fc.integer({ min: -3, max: 40 }),
  fc.integer(),
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1.5, Number.MAX_SAFE_INTEGER),
);
/**
 * Deeply nested JSON (lists in lists, objects in objects), for JSON-typed inputs walked recursively.
 * The arbitrary yields a placeholder string that {@link jsonBody} expands in the request text, so
 * that neither fast-check's reporter nor JSON.stringify in this process has to recurse through it.
 */
const DEEP = '\u0001deep:';
const deepJson = fc.tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean()).map(([n, objects]) => `${DEEP}${n}:${objects ? 'o' : 'l'}`);
const jsonBody = (value: unknown): string =>
  JSON.stringify(value).replace(/"\\u0001deep:(\d+):([ol])"/g, (_m, n: string, kind: string) =>
    kind === 'o' ? `${'{"a":'.repeat(Number(n))}1${'}'.repeat(Number(n))}` : `${'['.repeat(Number(n))}1${']'.repeat(Number(n))}`,
  );
const junk = fc.oneof({ weight: 20, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 1, arbitrary: deepJson });
const maybe = <T>(a: fc.Arbitrary<T>) =>
  fc.option(fc.oneof({ weight: 4, arbitrary: a as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: junk }), { nil: undefined });

const actionLike = fc.oneof(
  moveLike.map((move) => ({ play: { move } })),
  tilesLike.map((tiles) => ({ exchange: { tiles } })),
  tilesLike.map((tiles) => ({ freeTrade: { tiles } })),
  fc.constant({ pass: true }),
  fc.constant({ pass: false }),
  fc
    .option(fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), { nil: undefined })
    .map((words) => ({ challenge: words === undefined ? {} : { words } })),
  fc.constant({ resign: true }),
  fc.record({ blanks: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }), move: moveLike }).map((b) => ({ blankSubstitution: b })),
  fc.constant({ pass: true, resign: true }),
  junk,
);

// ---------------------------------------------------------------------------------------------

describe.each(STORE_TARGETS)('fuzzing the API on $kind', (target) => {
  let world: World;
  let players: Player[];
  const gameIds: string[] = [];
  let restRoutes: [string, string][];
  const unexpected: unknown[] = [];
  let truths = new Map<string, { version: number; truth: GameSecretsTruth }>();
  let gcgSample = '';

  beforeAll(async () => {
    world = await openWorld(target, { recorder: rec, logError: (e) => unexpected.push(e) });
    let n = 0;
    setBagSeedSourceForTests(() => `reliability-api-fuzz-seed-${++n}-${Math.random().toString(36).slice(2)}-0123456789abcdef`);
    const api = world.apis[0]!;
    const [ann, bob, cat] = [await registerPlayer(api, 'ann'), await registerPlayer(api, 'bob'), await registerPlayer(api, 'cat')];
    players = [ann!, bob!, cat!];
    // A game in progress (a play, an exchange, a play or a pass; Bob to move) and a fresh one. The bag seeds are
    // random, and the test's finder knows only short words: a rack it finds no opening for gets a new game.
    let g1 = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: bob.handle } }, ann.token));
    let opening = findPlay(await readGame(api, ann, g1.id), LEX, true);
    for (let tries = 1; opening === null && tries < 20; tries++) {
      g1 = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: bob.handle } }, ann.token));
      opening = findPlay(await readGame(api, ann, g1.id), LEX, true);
    }
    if (opening === null) throw new Error('no opening the finder knows in 20 racks');
    await act(api, ann, g1.id, { play: { move: opening.move } });
    await act(api, bob, g1.id, { exchange: { tiles: (await readGame(api, bob, g1.id)).myRack!.slice(0, 3) } });
    const second = findPlay(await readGame(api, ann, g1.id), LEX, true);
    await act(api, ann, g1.id, second ? { play: { move: second.move } } : { pass: true });
    const g2 = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: ann.handle } }, bob.token));
    gameIds.push(g1.id, g2.id);
    const rec1 = await graphql<{ gcg: string }>(api, 'gameRecord', GAME_RECORD, { id: g1.id }, ann.token);
    gcgSample = rec1.gcg;
    const doc = (await (await api.fetch('/rest/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    restRoutes = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => [p, m.toUpperCase()] as [string, string]),
    );
    unexpected.length = 0;
  });
  afterAll(async () => {
    setBagSeedSourceForTests(null);
    await world?.close();
  });

  /** Re-reads the oracle for every game whose version changed since last time (and new games). */
  const refreshTruths = async (): Promise<GameSecretsTruth[]> => {
    const rows = await world.db.prisma.game.findMany({ select: { id: true, version: true } });
    const next = new Map<string, { version: number; truth: GameSecretsTruth }>();
    for (const r of rows) {
      const known = truths.get(r.id);
      next.set(r.id, known && known.version === r.version ? known : { version: r.version, truth: await readTruth(world.db, r.id) });
    }
    truths = next;
    return [...next.values()].map((t) => t.truth);
  };

  // Callers: the two players, a spectator, nobody, and a forged token.
  const who = () =>
    fc.constantFrom<[string | null, string | null]>(
      ...players.map((p) => [p.id, p.token] as [string, string]),
      [null, null],
      [null, 'not.a.token'],
    );
  const gameId = () =>
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...gameIds) },
      { weight: 1, arbitrary: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })) },
    );

  const gqlRequest = (label: string, query: unknown, variables: unknown, token: string | null): FuzzRequest => ({
    label,
    path: '/graphql',
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: jsonBody({ query, variables }),
  });

  /** Random variables for the game operations: mostly shaped like the inputs, sometimes not at all. */
  const operationRequest = (token: string | null) =>
    fc.oneof(
      fc
        .record({
          gameId: gameId(),
          expectedVersion: intLike,
          idempotencyKey: fc.oneof(fc.string({ maxLength: 20 }), fc.string({ minLength: 190, maxLength: 260 })),
          action: actionLike,
        })
        .map((input) => gqlRequest('submitTurn', SUBMIT_TURN, { input }, token)),
      fc
        .record({
          opponent: maybe(fc.constantFrom('ann', 'bob', 'cat', 'nobody', '', ' ANN ')),
          ruleSet: maybe(fc.constantFrom('NSA_2008', 'WESPA', 'FRIENDLY', 'MATCH_VARIANT', 'ONLINE_VOID', 'NOPE')),
          lexicon: maybe(fc.constantFrom('SOWPODS', 'WORDLIST', 'NOPE')),
          seat: maybe(intLike),
          firstSeat: maybe(intLike),
          overrides: maybe(junk),
          timeControl: maybe(
            fc.record({
              kind: fc.constantFrom('untimed', 'correspondence', 'clock', 'nope'),
              turnSeconds: maybe(intLike),
              bankSeconds: maybe(intLike),
              minutes: maybe(intLike),
            }),
          ),
        })
        .map((input) => gqlRequest('createGame', CREATE_GAME, { input }, token)),
      fc
        .record({
          move: moveLike,
          rack: maybe(tilesLike),
          board: maybe(fc.array(fc.string({ maxLength: 17 }), { maxLength: 16 })),
          ruleSet: maybe(fc.string({ maxLength: 10 })),
          lexicon: maybe(fc.string({ maxLength: 10 })),
          overrides: maybe(junk),
        })
        .map((input) => gqlRequest('checkPlay', CHECK_PLAY, { input }, token)),
      gameId().map((id) => gqlRequest('game', GAME, { id }, token)),
      gameId().map((id) => gqlRequest('gameRecord', GAME_RECORD, { id }, token)),
      gameId().map((id) => gqlRequest('joinGame', JOIN_GAME, { id }, token)),
      fc
        .record({ dispute: junk, ruleSet: maybe(fc.string({ maxLength: 10 })), overrides: maybe(junk) })
        .map((v) => gqlRequest('adjudicate', ADJUDICATE, v, token)),
      fc
        .tuple(fc.nat(), fc.nat({ max: 20 }), fc.string({ maxLength: 20 }))
        .map(([at, cut, ins]) => {
          const i = at % Math.max(1, gcgSample.length);
          return gcgSample.slice(0, i) + ins + gcgSample.slice(i + cut);
        })
        .map((gcg) => gqlRequest('importGame', IMPORT_GAME, { input: { gcg } }, token)),
      fc
        .record({ first: maybe(intLike), after: maybe(fc.string({ maxLength: 30 })) })
        .map((v) => gqlRequest('myGames', MY_GAMES, v, token)),
      fc.record({ id: fc.string({ maxLength: 12 }), overrides: maybe(junk) }).map((v) => gqlRequest('ruleSet', RULE_SET, v, token)),
      fc
        .record({ words: fc.array(fc.string({ maxLength: 16 }), { maxLength: 5 }), lexicon: maybe(fc.string({ maxLength: 10 })) })
        .map((v) => gqlRequest('checkWords', CHECK_WORDS, v, token)),
    );

  const restRequest = (token: string | null) =>
    fc
      .record({
        route: fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...restRoutes) },
          {
            weight: 1,
            arbitrary: fc.tuple(
              fc.string({ maxLength: 12 }).map((s) => `/${encodeURIComponent(s)}`),
              fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
            ),
          },
        ),
        query: fc.dictionary(
          fc.constantFrom('id', 'words', 'first', 'after', 'gameId', 'x'),
          fc.oneof(fc.string({ maxLength: 20 }), gameId()),
          { maxKeys: 3 },
        ),
        body: fc.oneof(
          junk.map((j) => jsonBody(j)),
          fc.string({ maxLength: 60 }),
          fc
            .record({
              input: fc.record({
                gameId: gameId(),
                expectedVersion: intLike,
                idempotencyKey: fc.string({ maxLength: 10 }),
                action: actionLike,
              }),
            })
            .map((b) => jsonBody(b)),
          fc.record({ input: fc.record({ move: moveLike, rack: maybe(tilesLike) }) }).map((b) => jsonBody(b)),
          fc.record({ gameId: gameId() }).map((b) => jsonBody(b)),
        ),
      })
      .map(({ route: [path, method], query, body }): FuzzRequest => {
        const q = new URLSearchParams(query).toString();
        return {
          label: `${method} /rest${path}`,
          path: `/rest${path}${q ? `?${q}` : ''}`,
          method,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
        };
      });

  /** Malformed HTTP around /graphql: bad JSON, wrong types, GET mutations, batches, odd content types. */
  const httpRequest = (token: string | null) =>
    fc.oneof(
      fc.string({ maxLength: 80 }).map((body): FuzzRequest => ({
        label: 'raw body',
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      })),
      fc.record({ query: junk, variables: junk, operationName: junk, extensions: junk }).map((b): FuzzRequest => ({
        label: 'odd fields',
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: jsonBody(b),
      })),
      fc.tuple(fc.constantFrom(...BASE_DOCUMENTS), fc.string({ maxLength: 30 })).map(([query, v]): FuzzRequest => ({
        label: 'GET',
        path: `/graphql?${new URLSearchParams({ query, variables: v })}`,
        method: 'GET',
        headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      })),
      fc.array(fc.constantFrom(...BASE_DOCUMENTS), { minLength: 1, maxLength: 5 }).map((qs): FuzzRequest => ({
        label: 'batch',
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(qs.map((query) => ({ query }))),
      })),
      fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/graphql',
            'multipart/form-data',
            'application/x-www-form-urlencoded',
            'application/json; charset=latin1',
            '',
          ),
          fc.string({ maxLength: 40 }),
        )
        .map(([ct, body]): FuzzRequest => ({
          label: `content-type ${ct}`,
          path: '/graphql',
          method: 'POST',
          headers: ct ? { 'content-type': ct } : {},
          body,
        })),
      fc.string({ maxLength: 60 }).map((h): FuzzRequest => ({
        label: 'odd authorization',
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: h.replace(/[\r\n\0]/g, ' ') },
        body: JSON.stringify({ query: '{ me { __typename ... on Error { code } } }' }),
      })),
    );

  const send = async (r: FuzzRequest): Promise<{ status: number; text: string; json: unknown; contentType: string }> => {
    const res = await world.apis[0]!.fetch(r.path, {
      method: r.method,
      headers: { ...r.headers },
      ...(r.body === undefined ? {} : { body: r.body }),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, contentType: res.headers.get('content-type') ?? '' };
  };

  /** One request: every check of the module comment. */
  const check = async (viewerId: string | null, r: FuzzRequest) => {
    rec.add('inputsTried');
    unexpected.length = 0;
    const res = await send(r);
    const what = `${r.label} ${r.path.slice(0, 80)} ${String(r.body ?? '').slice(0, 300)} → ${res.status} ${res.text.slice(0, 400)}`;
    expect(res.status, what).toBeLessThan(500);
    expect(internalsIn(res.text), what).toBeNull();
    expect(errorsWithoutCode(res.json), what).toEqual([]);
    expect(res.text.includes('INTERNAL_SERVER_ERROR'), what).toBe(false);
    // A REST error answer is the Error object itself: it has a code too.
    if (
      r.path.startsWith('/rest/') &&
      res.status >= 400 &&
      res.json &&
      typeof res.json === 'object' &&
      !('errors' in res.json) &&
      'message' in res.json
    ) {
      expect(typeof (res.json as { code?: unknown }).code, what).toBe('string');
    }
    const leaks = leaksIn(res.text, forbiddenFor(await refreshTruths(), viewerId), `${r.path}${r.body ?? ''}`);
    expect(leaks, what).toEqual([]);
    expect(unexpected.map(String), what).toEqual([]);
  };

  it('random and hostile GraphQL documents', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(who(), anyDocument, fc.oneof(fc.constant({}), junk), async ([viewerId, token], query, variables) =>
        check(viewerId, gqlRequest('document', query, variables, token)),
      ),
      { numRuns: runs(BASE_RUNS) },
    );
  });

  it('random variables for every game operation', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        who().chain(([id, token]) => operationRequest(token).map((r) => [id, r] as const)),
        async ([viewerId, r]) => check(viewerId, r),
      ),
      { numRuns: runs(BASE_RUNS * 2) },
    );
  });

  it('random REST calls and malformed HTTP', { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        who().chain(([id, token]) => fc.oneof(restRequest(token), httpRequest(token)).map((r) => [id, r] as const)),
        async ([viewerId, r]) => check(viewerId, r),
      ),
      { numRuns: runs(BASE_RUNS) },
    );
  });

  it('after all of it, every game’s log is exactly seq 1 … version', async () => {
    const violations = await invariantViolations(world.db);
    rec.add('invariantViolations', violations.length);
    expect(violations).toEqual([]);
    expect(gameIds.length).toBe(2);
  });
});
