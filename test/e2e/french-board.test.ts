/**
 * The example of docs/languages.md run as written (issue 21): a club uploads a French word list, creates
 * a French game on a 7×7 board that starts in a corner, and the first play on A1 is judged by that list
 * and scored with French tile values on that board's premiums.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lexiconRegistry } from '../../service/lexicons.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { asGame, graphql, readGame, registerPlayer, submit, type GameOrError, type Player } from './client.js';

const UPLOAD = `mutation($input: UploadLexiconInput!) { uploadLexicon(input: $input) { __typename
  ... on LexiconUpload { tileSet unspellableCount lexicon { name wordCount } } ... on Error { code message } } }`;
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename
  ... on Game { id version myRack board { boardLayout { size start } } lexicon { name } }
  ... on Error { code message details } } }`;

// The rows of the docs' example: A1 is a double word (-), G1 a quadruple word (~), D4 bricked (#).
const ROWS = ["-..'..~", '."...".', '..^.^..', "'..#..'", '..^.^..', '."...".', "~..'..-"];

// The French set's published values (FISF): the expected score is worked from these, not from the code.
const FRENCH_VALUES: Record<string, number> = {
  A: 1, B: 3, C: 3, D: 2, E: 1, F: 4, G: 2, H: 4, I: 1, J: 8, K: 10, L: 1, M: 2,
  N: 1, O: 1, P: 3, Q: 8, R: 1, S: 1, T: 1, U: 1, V: 4, W: 10, X: 10, Y: 10, Z: 10,
}; // prettier-ignore

// Every two-letter string of A–Z: whatever two tiles the rack holds, they spell a word of this list.
const LETTERS = Object.keys(FRENCH_VALUES);
const PAIRS = LETTERS.flatMap((x) => LETTERS.map((y) => `${x}${y}`)).join('\n');

describe.each(STORE_TARGETS)('a French game on a board given as data on $kind', (target) => {
  let api: TestApi;
  let ann: Player;
  let bob: Player;
  beforeAll(async () => {
    // Its own registry: the upload is added to it, and other suites share LEXICONS.
    api = await openTestApi(target, { lexicons: lexiconRegistry([...LEXICONS.all]) });
    [ann, bob] = [await registerPlayer(api, 'fr-ann'), await registerPlayer(api, 'fr-bob')];
  });
  afterAll(async () => api?.close());

  it('uploads club-fr, creates the game on the 7×7 corner board and scores the first play on A1', async () => {
    const up = await graphql<any>(api, 'uploadLexicon', UPLOAD, { input: { name: 'club-fr', tileSet: 'french', words: PAIRS } }, ann.token);
    expect(up).toMatchObject({ __typename: 'LexiconUpload', tileSet: 'french', unspellableCount: 0, lexicon: { wordCount: 676 } });

    const input = { opponent: bob.handle, tileSet: 'FRENCH', lexicon: 'club-fr', layout: { start: 'A1', rows: ROWS } };
    const g = asGame(await graphql<GameOrError>(api, 'createGame', CREATE, { input }, ann.token)) as any;
    expect(g.board.boardLayout).toEqual({ size: 7, start: 'A1' });
    expect(g.lexicon.name).toBe('CLUB-FR');

    const [x, y] = [...(g.myRack as string)].filter((t) => t !== '?');
    // A1 doubles the word; B1 is plain.
    const expected = (FRENCH_VALUES[x!]! + FRENCH_VALUES[y!]!) * 2;
    const played = await submit(api, ann, g.id, g.version, { play: { move: `1A ${x}${y}` } });
    expect(played.__typename).toBe('Game');
    const after = await readGame(api, ann, g.id);
    expect(after.scores[0]).toBe(expected);
  });
});
