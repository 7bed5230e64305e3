/**
 * Boards given as data over the API (issue 21): the named layouts are listed with their rows, a game is
 * created on a custom board (stored with it, hashed, named in its GCG), placement on it refuses bricked
 * squares and plays that miss its start square, and a bad layout is a typed error naming what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRICKED_BOX_LAYOUT } from '../../engine/board.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { graphql, refused, registerPlayer, type Player } from './client.js';

const LAYOUTS = `{ layouts { name description size rows start hash } }`;
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename
  ... on Game { id version board { layout boardLayout { name size rows start hash } } }
  ... on Error { code message details } } }`;
const RECORD = `query($id: ID!) { gameRecord(id: $id) { __typename ... on GameRecord { gcg } } }`;

/** The bricked box with its start moved to A1: rows as a client writes them, `.` for plain squares. */
const ROWS = BRICKED_BOX_LAYOUT.rows.map((r) => r.replace(/ /g, '.'));

describe.each(STORE_TARGETS)('custom boards on $kind', (target) => {
  let api: TestApi;
  let a: Player;
  let b: Player;
  beforeAll(async () => {
    api = await openTestApi(target);
    a = await registerPlayer(api, 'layout-a');
    b = await registerPlayer(api, 'layout-b');
  });
  afterAll(async () => api?.close());

  it('lists the named layouts with their rows and start squares', async () => {
    const r = await api.gql(LAYOUTS);
    const layouts = r.body.data!['layouts'] as { name: string; size: number; rows: string[]; start: string; hash: string }[];
    expect(layouts.map((l) => [l.name, l.size, l.start])).toEqual([
      ['CrosswordGame', 15, 'H8'],
      ['SuperCrosswordGame', 21, 'K11'],
      ['NoPremium15', 15, 'H8'],
      ['TestStartCorner7', 7, 'A1'],
      ['TestBrickedBox11', 11, 'F2'],
    ]);
    expect(layouts[4]!.rows[4]).toBe('....###....');
    for (const l of layouts) expect(l.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('creates a game on a board given as data, stores it whole and names it in the GCG', async () => {
    const made = await graphql<any>(
      api,
      'createGame',
      CREATE,
      { input: { opponent: b.handle, layout: { rows: ROWS, start: 'A1' } } },
      a.token,
    );
    expect(made.__typename).toBe('Game');
    const layout = made.board.boardLayout;
    expect(made.board.layout).toBe(layout.name);
    expect(layout).toMatchObject({ size: 11, rows: ROWS, start: 'A1' });
    expect(layout.name).toBe(`custom-${layout.hash.slice(7, 19)}`);

    // Over a bricked square: refused naming it; a first play away from A1: refused naming A1.
    const bricked = await refused(api, a, made.id, { play: { move: 'E3 ABC' } });
    expect(bricked).toMatchObject({ code: 'SQUARE_BRICKED', details: { squares: ['E5'] } });
    const missed = await refused(api, a, made.id, { play: { move: '2D CAT' } });
    expect(missed.code).toBe('MISSES_CENTRE');
    expect(missed.message).toContain('start square A1');

    const record = await graphql<any>(api, 'gameRecord', RECORD, { id: made.id }, a.token);
    expect(record.gcg).toContain(`#board-layout ${layout.name}`);
    expect(record.gcg).toContain('#board-start A1');
    expect(record.gcg).toContain(`#board-hash ${layout.hash}`);
    expect(record.gcg).toContain('#board-row ....###....');
  });

  it('a game with an open seat keeps its board until the second player joins', async () => {
    const made = await graphql<any>(api, 'createGame', CREATE, { input: { layout: { rows: ROWS, start: 'K11' } } }, a.token);
    expect(made.__typename).toBe('Game');
    const joined = await graphql<any>(
      api,
      'joinGame',
      `
        mutation ($id: ID!) {
          joinGame(gameId: $id) {
            __typename
            ... on Game {
              board {
                boardLayout {
                  start
                  rows
                }
              }
            }
            ... on Error {
              code
              message
            }
          }
        }
      `,
      { id: made.id },
      b.token,
    );
    expect(joined.board.boardLayout).toEqual({ start: 'K11', rows: ROWS });
  });

  it.each([
    ['ragged rows', { rows: [...ROWS.slice(0, 10), '....'], start: 'A1' }, 'LAYOUT_RAGGED_ROWS', { row: 11 }],
    ['an unknown symbol', { rows: [...ROWS.slice(0, 10), '.....X.....'], start: 'A1' }, 'LAYOUT_UNKNOWN_SYMBOL', { square: 'F11' }],
    ['no start square', { rows: ROWS }, 'LAYOUT_START_MISSING', { field: 'start' }],
    ['a bricked start square', { rows: ROWS, start: 'F6' }, 'LAYOUT_START_BRICKED', { square: 'F6' }],
    ['a start off the board', { rows: ROWS, start: 'L1' }, 'LAYOUT_START_OFF_BOARD', { start: 'L1' }],
    ['a 4×4 board', { rows: ['....', '....', '....', '....'], start: 'A1' }, 'LAYOUT_SIZE', { rows: 4 }],
  ])('refuses %s with a typed error', async (_what, layout, code, details) => {
    const r = await graphql<any>(api, 'createGame', CREATE, { input: { opponent: b.handle, layout } }, a.token);
    expect(r).toMatchObject({ __typename: 'RuleViolation', code, details });
  });
});
