/**
 * Board pictures over the API (issue 20): `Game.boardSvg`, `Board.premiums`, `Game.tileValues`, and the
 * image routes /v1/games/{id}/board.svg|png and replay.gif with their authorization, ETags and cache
 * headers — who sees which rack, what is public once the game is over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { geometry } from '../../render/theme.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import {
  act,
  asGame,
  CREATE_GAME,
  findPlay,
  graphql,
  readGame,
  registerPlayer,
  type GameOrError,
  type Player,
  useFixedBagSeeds,
} from './client.js';

useFixedBagSeeds('pictures');

const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;
const PICTURE = `query($id: ID!, $v: Int) { game(id: $id) { __typename ... on Game { version myRack boardSvg(version: $v)
  board { premiums } tileValues { tile value } } ... on Error { code message } } }`;

/** The letters of the rack tiles in an SVG picture, in order. */
const rackOf = (svg: string): string[] => [...svg.matchAll(/<g class="tile rack-tile" data-letter="([^"]+)"/g)].map((m) => m[1]!);
const tilesOf = (rack: string): string[] => [...rack.matchAll(/\[([^\]]+)\]|./g)].map((m) => m[1] ?? m[0]);

describe('board pictures', () => {
  const target = STORE_TARGETS[0]!;
  let api: TestApi;
  let ann: Player;
  let ben: Player;
  let cat: Player;
  let gameId: string;
  const get = (path: string, token?: string, headers: Record<string, string> = {}) =>
    api.fetch(path, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

  beforeAll(async () => {
    api = await openTestApi(target);
    [ann, ben, cat] = [await registerPlayer(api, 'ann'), await registerPlayer(api, 'ben'), await registerPlayer(api, 'cat')];
    const g = asGame(await graphql<GameOrError>(api, 'createGame', CREATE_GAME, { input: { opponent: ben.handle } }, ann.token));
    gameId = g.id;
    const play = findPlay(g, LEX, true)!;
    await act(api, ann, gameId, { play: { move: play.move } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('boardSvg shows each player their own rack and a spectator none; premiums and tile values come with the game', async () => {
    for (const p of [ann, ben]) {
      const g = await graphql<{ boardSvg: string; myRack: string }>(api, 'game', PICTURE, { id: gameId }, p.token);
      expect(rackOf(g.boardSvg)).toEqual(tilesOf(g.myRack));
      expect(g.boardSvg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
    const watched = await graphql<{ boardSvg: string; myRack: string | null; board: { premiums: string[] } }>(
      api,
      'game',
      PICTURE,
      { id: gameId },
      cat.token,
    );
    expect(watched.myRack).toBeNull();
    expect(rackOf(watched.boardSvg)).toEqual([]);
    expect(watched.board.premiums).toHaveLength(15);
    expect(watched.board.premiums[0]).toBe(`=..'...=...'..=`);
    expect(watched.board.premiums[7]).toBe(`=..'...-...'..=`);
    const values = (watched as unknown as { tileValues: { tile: string; value: number }[] }).tileValues;
    expect(values).toContainEqual({ tile: 'Q', value: 10 });
    expect(values[values.length - 1]).toEqual({ tile: '?', value: 0 });
    expect(values).toHaveLength(27);
  });

  it('boardSvg(version) shows the game as it was; a version below 1 is a validation error', async () => {
    const before = await graphql<{ boardSvg: string }>(api, 'game', PICTURE, { id: gameId, v: 3 }, ann.token);
    expect(before.boardSvg).not.toContain('<g class="tile" ');
    const now = await graphql<{ boardSvg: string }>(api, 'game', PICTURE, { id: gameId }, ann.token);
    expect(now.boardSvg).toContain('<g class="tile" ');
    const bad = await api.gql(PICTURE, { id: gameId, v: 0 }, ann.token);
    expect(bad.body.errors?.[0]?.extensions?.['code']).toBe('VALIDATION');
  });

  it('a live game’s picture needs a sign-in, and shows the caller’s own view', async () => {
    const anonymous = await get(`/v1/games/${gameId}/board.svg`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="arbiter"');
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect((await get(`/v1/games/${gameId}/board.svg`, 'not-a-token')).status).toBe(401);

    const g = await readGame(api, ben, gameId);
    const res = await get(`/v1/games/${gameId}/board.svg`, ben.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const etag = res.headers.get('etag')!;
    expect(etag).toContain(`-v${g.version}-seat1-board.svg`);
    expect(rackOf(await res.text())).toEqual(tilesOf(g.myRack!));
    const again = await get(`/v1/games/${gameId}/board.svg`, ben.token, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    // Ann's picture is another picture: her rack, her ETag.
    const hers = await get(`/v1/games/${gameId}/board.svg`, ann.token);
    expect(hers.headers.get('etag')).not.toBe(etag);
    expect((await get(`/v1/games/${gameId}/board.svg`, cat.token)).headers.get('etag')).toContain('-all-');

    const old = await get(`/v1/games/${gameId}/board.svg?version=3`, ben.token);
    expect(old.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(await old.text()).not.toContain('<g class="tile" ');
  });

  it('the PNG has the picture’s size', async () => {
    const res = await get(`/v1/games/${gameId}/board.png`, ann.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const g = geometry(15, true);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([g.width, g.height]);
  });

  it('refuses what it cannot answer: a bad version, an unknown game, another method, a key without games:read', async () => {
    expect((await get(`/v1/games/${gameId}/board.png?version=two`, ann.token)).status).toBe(400);
    expect((await get(`/v1/games/00000000-0000-4000-8000-000000000000/board.svg`, ann.token)).status).toBe(404);
    expect((await get(`/v1/games/nope/board.svg`)).status).toBe(404);
    expect((await api.fetch(`/v1/games/${gameId}/board.svg`, { method: 'POST' })).status).toBe(405);
    const key = await graphql<{ key: string }>(
      api,
      'createApiKey',
      `
        mutation {
          createApiKey(input: { name: "hooks", scopes: ["webhooks:manage"] }) {
            ... on NewApiKey {
              key
            }
          }
        }
      `,
      {},
      ann.token,
    );
    const res = await get(`/v1/games/${gameId}/board.svg`, key.key);
    expect(res.status).toBe(403);
  });

  it('a finished game is public and rack-less, cached as immutable at a version; the replay has a frame per line', async () => {
    const over = await act(api, ben, gameId, { resign: true });
    expect(over.status).toBe('ended');
    const current = await get(`/v1/games/${gameId}/board.svg`);
    expect(current.status).toBe(200);
    expect(current.headers.get('cache-control')).toBe('public, max-age=3600');
    const svg = await current.text();
    expect(rackOf(svg)).toEqual([]);
    expect(svg).toContain('Game over');
    // Even a seated player gets the public picture: the same for everyone.
    expect((await get(`/v1/games/${gameId}/board.svg`, ann.token)).headers.get('etag')).toBe(current.headers.get('etag'));
    const pinned = await get(`/v1/games/${gameId}/board.png?version=${over.version}`);
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers.get('etag')).toContain(`-v${over.version}-all-board.png`);

    const gif = await get(`/v1/games/${gameId}/replay.gif`);
    expect(gif.status).toBe(200);
    expect(gif.headers.get('content-type')).toBe('image/gif');
    const bytes = Buffer.from(await gif.arrayBuffer());
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect(bytes.readUInt16LE(6)).toBe(480);
    let frames = 0;
    for (let i = bytes.indexOf(Buffer.from([0x21, 0xf9, 0x04])); i >= 0; i = bytes.indexOf(Buffer.from([0x21, 0xf9, 0x04]), i + 1))
      frames++;
    // The deal, the play, the resignation's line(s) share positions as turnViews groups them: at least 3.
    expect(frames).toBe(over.history.length + 1);
  });
});
