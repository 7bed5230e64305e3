/**
 * Word lists uploaded over the API (issue 21): normalised, spelled in the tile set's tiles, stored, usable by
 * new games, loaded from the database by a process that has never seen them; unspellable words reported;
 * the name rules, the size cap and the scope enforced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../engine/lexicon/upload.js';
import { contentHash } from '../../engine/lexicon/wordlist.js';
import { lexiconByName } from '../../service/lexicon-uploads.js';
import { lexiconRegistry } from '../../service/lexicons.js';
import { analyzePosition } from '../../service/analysis.js';
import { submitTurn } from '../../service/turns.js';
import { clearUploadKwgCache } from '../../service/upload-kwgs.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const UPLOAD = `mutation($input: UploadLexiconInput!) { uploadLexicon(input: $input) { __typename
  ... on LexiconUpload { created tileSet unspellableCount unspellable lexicon { name hash wordCount } }
  ... on Error { code message details } } }`;
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id version lexicon { name hash } } ... on Error { code message } } }`;
const KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { __typename ... on NewApiKey { key } ... on Error { code message } } }`;

describe.each(STORE_TARGETS)('uploaded word lists on $kind', (target) => {
  let api: TestApi;
  let a: { id: string; token: string };
  let b: { id: string; token: string };
  // Its own registry: uploads are added to it, and other suites share LEXICONS.
  const lexicons = lexiconRegistry([...LEXICONS.all]);
  beforeAll(async () => {
    api = await openTestApi(target, { lexicons });
    a = await api.register('upload-a');
    b = await api.register('upload-b');
  });
  afterAll(async () => api?.close());

  const upload = async (input: Record<string, unknown>, token = a.token) =>
    (await api.gql(UPLOAD, { input }, token)).body.data!['uploadLexicon'];

  it('normalises (NFC, upper case), hashes the whole list and reports the words the tile set cannot spell', async () => {
    // "n" + combining tilde is Ñ after NFC; Ñ is no English tile.
    const r = await upload({ name: 'my-words', tileSet: 'english', words: 'cat\n# a comment\nDOG\n\nman\u0303a\ncat\nzoo\n' });
    expect(r).toMatchObject({ __typename: 'LexiconUpload', created: true, tileSet: 'english', unspellableCount: 1, unspellable: ['MAÑA'] });
    expect(r.lexicon).toEqual({ name: 'MY-WORDS', hash: contentHash(['CAT', 'DOG', 'MAÑA', 'ZOO']), wordCount: 4 });
    const again = await upload({ name: 'MY-WORDS', tileSet: 'english', words: 'ZOO\nCAT\nDOG\nMAÑA' });
    expect(again).toMatchObject({ created: false, lexicon: { hash: r.lexicon.hash } });
  });

  it('spells words in the tile set’s tiles, digraphs included: CHICO, ÑU and LLAMA are Spanish, KIWI is not', async () => {
    const r = await upload({ name: 'es-test', tileSet: 'spanish', words: 'chico\nñu\nkiwi\nllama\n' });
    // Spanish tiles have no K and no W: KIWI cannot be spelled.
    expect(r).toMatchObject({ unspellableCount: 1, unspellable: ['KIWI'], lexicon: { wordCount: 4 } });
  });

  it('a new game can use the upload, and a process that never saw it loads it from the database', async () => {
    const game = (await api.gql(CREATE, { input: { lexicon: 'my-words', opponent: 'upload-b' } }, a.token)).body.data!['createGame'];
    expect(game).toMatchObject({ __typename: 'Game', lexicon: { name: 'MY-WORDS', hash: contentHash(['CAT', 'DOG', 'MAÑA', 'ZOO']) } });
    // Another Lambda container: only the files' lexicons loaded.
    const fresh = { db: api.app.services.db, lexicons: lexiconRegistry([...LEXICONS.all]), now: () => new Date('2026-11-21T12:00:00Z') };
    const byName = await lexiconByName(fresh, 'my-words');
    expect(byName.ok && byName.value.has('ZOO') && !byName.value.has('BIRD')).toBe(true);
    const other = { ...fresh, lexicons: lexiconRegistry([...LEXICONS.all]) };
    const turn = await submitTurn(other, a.id, {
      gameId: game.id,
      expectedVersion: game.version,
      idempotencyKey: 'upload-pass-1',
      action: { kind: 'pass' },
    });
    expect(turn.ok).toBe(true);
  });

  it('refuses a server lexicon’s name, another player’s name, an unknown tile set and a bad or empty list', async () => {
    expect(await upload({ name: 'sowpods', tileSet: 'english', words: 'CAT' })).toMatchObject({ code: 'LEXICON_NAME_TAKEN' });
    expect(await upload({ name: 'my-words', tileSet: 'english', words: 'CAT' }, b.token)).toMatchObject({ code: 'LEXICON_NAME_TAKEN' });
    expect(await upload({ name: 'x', tileSet: 'klingon', words: 'CAT' })).toMatchObject({
      code: 'UNKNOWN_DISTRIBUTION',
      details: { field: 'tileSet' },
    });
    expect(await upload({ name: 'x', tileSet: 'english', words: 'CAT\nDOG2' })).toMatchObject({
      code: 'LEXICON_BAD_WORD',
      details: { line: 2 },
    });
    expect(await upload({ name: 'x', tileSet: 'english', words: '\n# nothing\n' })).toMatchObject({ code: 'LEXICON_EMPTY' });
    expect(await upload({ name: 'bad name!', tileSet: 'english', words: 'CAT' })).toMatchObject({ code: 'LEXICON_BAD_NAME' });
  });

  it('POST /v1/lexicons takes the list as text/plain, name and tile set in the query, and answers 201', async () => {
    const res = await api.fetch('/v1/lexicons?name=rest-words&tileSet=english', {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'text/plain; charset=utf-8' },
      body: 'qi\nza\nqi\n',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/v1/lexicons/REST-WORDS');
    expect(await res.json()).toMatchObject({ created: true, unspellableCount: 0, lexicon: { name: 'REST-WORDS', wordCount: 2 } });
    const json = await api.fetch('/v1/lexicons', {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'rest-words', tileSet: 'english', words: 'x1' }),
    });
    expect(json.status).toBe(422);
    expect(await json.json()).toMatchObject({ code: 'LEXICON_BAD_WORD' });
  });

  // Compiling a national-size list (its .dawg and .kwg) takes tens of seconds on a shared test machine.
  it('POST /v1/lexicons takes a 3 MB list (a national list’s size); a 3 MB body to any other route is still 413', async () => {
    const big = await api.register('upload-big');
    // 375,000 distinct 7-letter words plus newlines: 3,000,000 bytes, over the 1 MiB cap of every other route
    // (short words: the move-generation graph's size grows with the square of a word's length).
    const word = (i: number) => [0, 1, 2, 3].map((k) => String.fromCharCode(65 + (Math.floor(i / 26 ** k) % 26))).join('') + 'XYZ';
    const list = Array.from({ length: 375_000 }, (_, i) => word(i)).join('\n') + '\n';
    expect(Buffer.byteLength(list)).toBe(3_000_000);
    const res = await api.fetch('/v1/lexicons?name=big-list&tileSet=english', {
      method: 'POST',
      headers: { authorization: `Bearer ${big.token}`, 'content-type': 'text/plain; charset=utf-8' },
      body: list,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ created: true, unspellableCount: 0, lexicon: { name: 'BIG-LIST', wordCount: 375_000 } });
    const json = JSON.stringify({ query: '{ __typename }', variables: { pad: list } });
    for (const path of ['/graphql', '/v1/games', '/v1/lexicons/BIG-LIST']) {
      const refused = await api.fetch(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${big.token}`, 'content-type': 'application/json' },
        body: json,
      });
      expect(refused.status).toBe(413);
      expect(await refused.json()).toEqual({
        errors: [expect.objectContaining({ extensions: { code: 'REQUEST_TOO_LARGE', maxBytes: 1024 * 1024 } })],
      });
    }
  }, 240_000);

  it('an upload gets a move-generation graph: analysis plays only its words, and a robot game can use it', async () => {
    const mover = await api.register('upload-movegen');
    const r = await upload({ name: 'movegen-words', tileSet: 'english', words: 'cat\nact\nta\n' }, mover.token);
    expect(r).toMatchObject({ __typename: 'LexiconUpload', lexicon: { wordCount: 3 } });
    // As a process that has never seen the upload: the KWG comes from lexicon_uploads.kwg.
    clearUploadKwgCache();
    const deps = { db: api.app.services.db, lexicons: lexiconRegistry([...LEXICONS.all]), now: () => new Date('2026-11-21T12:00:00Z') };
    const cgp = '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACTQIZE/ 0/0 0 lex MOVEGEN-WORDS;';
    const a = await analyzePosition(deps, null, { kind: 'cgp', cgp }, { top: 50 });
    expect(a.ok).toBe(true);
    const words = new Set(a.ok ? a.value.top.filter((m) => m.kind === 'play').map((m) => m.notation.split(' ')[1]) : []);
    // SOWPODS would give QI, ZA, ZEA, CITE …; this list has three words, and all three are found.
    expect([...words].sort()).toEqual(['ACT', 'CAT', 'TA']);
    const game = (await api.gql(CREATE, { input: { lexicon: 'movegen-words', opponent: 'robot:equity' } }, mover.token)).body.data![
      'createGame'
    ];
    expect(game).toMatchObject({ __typename: 'Game', lexicon: { name: 'MOVEGEN-WORDS' } });
  });

  it('an API key needs the lexicons:manage scope', async () => {
    const key = (await api.gql(KEY, { input: { name: 'player key', apiScopes: ['GAMES_PLAY'] } }, a.token)).body.data!['createApiKey'];
    expect(key.__typename).toBe('NewApiKey');
    const r = await upload({ name: 'my-words', tileSet: 'english', words: 'CAT' }, key.key);
    expect(r).toMatchObject({ __typename: 'ForbiddenError' });
    const manager = (await api.gql(KEY, { input: { name: 'list key', apiScopes: ['LEXICONS_MANAGE'] } }, a.token)).body.data![
      'createApiKey'
    ];
    expect(await upload({ name: 'key-words', tileSet: 'english', words: 'CAT' }, manager.key)).toMatchObject({
      __typename: 'LexiconUpload',
    });
  });
});

describe('the size cap', () => {
  it('a list over the byte cap is LEXICON_TOO_LARGE (checked in the engine: the GraphQL body cap is lower)', async () => {
    const { checkUpload } = await import('../../engine/lexicon/upload.js');
    const { ENGLISH } = await import('../../engine/tiles.js');
    const r = checkUpload('big', ENGLISH, 'A'.repeat(MAX_UPLOAD_BYTES + 1));
    expect(!r.ok && r.error).toMatchObject({ code: 'LEXICON_TOO_LARGE', details: { maxBytes: MAX_UPLOAD_BYTES } });
  });
});
