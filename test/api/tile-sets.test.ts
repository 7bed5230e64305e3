import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const TILE_SETS = `{ tileSets { id language blanks total source tiles { letter blankLetter count value vowel } } }`;
const CREATE_GAME = `mutation($input: CreateGameInput!) {
  createGame(input: $input) {
    __typename
    ... on Game { myRack tileValues { tile value } ruleSet { parameters { path value } } }
    ... on ValidationError { issues { field message } }
    ... on Error { code message }
  }
}`;

interface Tile {
  letter: string;
  blankLetter: string;
  count: number;
  value: number;
}

describe.each(STORE_TARGETS)('tile sets over the API on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('tileSets lists the eleven sets with tiles, totals and sources', async () => {
    const sets = (await api.gql(TILE_SETS)).body.data!['tileSets'] as { id: string; total: number; tiles: Tile[]; source: string }[];
    expect(sets.map((s) => s.id)).toEqual([
      'ENGLISH',
      'ENGLISH_SUPER',
      'SPANISH',
      'FRENCH',
      'GERMAN',
      'CATALAN',
      'POLISH',
      'NORWEGIAN',
      'DUTCH',
      'SLOVENE',
      'ITALIAN',
    ]);
    const byId = Object.fromEntries(sets.map((s) => [s.id, s]));
    expect(byId.FRENCH).toMatchObject({ language: 'fr', blanks: 2, total: 102 });
    expect(byId.ITALIAN).toMatchObject({ language: 'it', total: 120 });
    expect(byId.CATALAN!.tiles.find((t) => t.letter === 'L·L')).toEqual({
      letter: 'L·L',
      blankLetter: 'l·l',
      count: 1,
      value: 10,
      vowel: false,
    });
    expect(byId.POLISH!.source).toMatch(/Polska Federacja Scrabble/);
  });

  it('GET /v1/tile-sets answers the same list', async () => {
    const res = await api.fetch('/v1/tile-sets');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; tiles: Tile[] }[] | { items: { id: string; tiles: Tile[] }[] };
    const list = Array.isArray(body) ? body : body.items;
    expect(list).toHaveLength(11);
    expect(list.find((s) => s.id === 'POLISH')!.tiles.find((t) => t.letter === 'Ć')).toMatchObject({
      count: 1,
      value: 6,
      blankLetter: 'ć',
    });
  });

  it('createGame with tileSet FRENCH: the game is played with French tiles and values', async () => {
    const ann = await api.register('ann-tiles');
    const r = (await api.gql(CREATE_GAME, { input: { tileSet: 'FRENCH' } }, ann.token)).body.data!['createGame'];
    expect(r.__typename).toBe('Game');
    expect(r.ruleSet.parameters.find((p: { path: string }) => p.path === 'board.distribution').value).toBe('french');
    const values = Object.fromEntries(r.tileValues.map((t: { tile: string; value: number }) => [t.tile, t.value]));
    expect(values).toMatchObject({ K: 10, W: 10, M: 2, '?': 0 });
  });

  it('tileSet and a contradicting override: a ValidationError naming input.tileSet', async () => {
    const bob = await api.register('bob-tiles');
    const input = { tileSet: 'POLISH', overrides: { board: { distribution: 'german' } } };
    const r = (await api.gql(CREATE_GAME, { input }, bob.token)).body.data!['createGame'];
    expect(r).toMatchObject({ __typename: 'ValidationError', issues: [{ field: 'input.tileSet' }] });
  });

  it('importGame with tileSet ITALIAN replays an A–Z record with Italian values', async () => {
    const cy = await api.register('cy-tiles');
    const IMPORT = `mutation($input: ImportGameInput!) { importGame(input: $input) { __typename ... on Error { code message } } }`;
    // 8H ZIO: (Z 8 + I 1 + O 1) × 2 = 20 in Italian, (10 + 1 + 1) × 2 = 24 in English. The record stops there.
    const gcg = '#player1 Ann Ann\n#player2 Bob Bob\n>Ann: AEILOTZ 8H ZIO +20 20\n';
    const english = (await api.gql(IMPORT, { input: { gcg } }, cy.token)).body.data!['importGame'];
    expect(english).toMatchObject({ code: 'GCG_REPLAY_FAILED' });
    const italian = (await api.gql(IMPORT, { input: { gcg, tileSet: 'ITALIAN' } }, cy.token)).body.data!['importGame'];
    // The scores agree; only the unfinished game keeps it out.
    expect(italian).toMatchObject({ code: 'GCG_INCOMPLETE' });
  });
});
