/**
 * A player's page (issue 33, item 4; docs/players.md) over GraphQL and REST on each database: ratings
 * and their history (rows written as the rated-games code writes them), the record against each opponent
 * and the recent games from real games, hidden and deleted players, the chart, and bad input.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../engine/rating/categories.js';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const ERR = `... on Error { __typename code message details }`;
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id version } ${ERR} } }`;
const TURN = `mutation($input: SubmitTurnInput!) { submitTurn(input: $input) { __typename ... on Game { version status } ${ERR} } }`;
const ABORT = `mutation($id: ID!) { abortGame(gameId: $id) { __typename ... on Game { status } ${ERR} } }`;
const PROFILE = `query($h: String!) { playerProfile(handle: $h) { __typename ${ERR}
  ... on PlayerProfile { handle displayName memberSince hidden recordGames
    ratings { category rating deviation provisional games lastRatedAt chartUrl history { gameId rating ratingBefore deviation score opponent { handle } } }
    records { opponent { handle displayName } wins draws losses games }
    recentGames { gameId status outcome score opponentScore rated ratingCategory ratingAfter ratingDelta url playUrl boardUrl opponent { handle } } } } }`;
const HISTORY = `query($h: String!, $c: String!) { ratingHistory(handle: $h, category: $c) { __typename ${ERR}
  ... on RatingInputError { field } ... on RatingHistory { category points { rating } } } }`;
const HIDE = `mutation($hidden: Boolean!) { setProfileHidden(hidden: $hidden) { __typename ... on ProfileSetting { hidden } ${ERR} } }`;

const CATEGORY = 'tournament/correspondence';
const ESCAPED = encodeURIComponent(CATEGORY);

describe.each(STORE_TARGETS)('a player’s page on $kind', (target) => {
  let api: TestApi;
  const p: Record<string, { id: string; token: string }> = {};
  const games: Record<string, string> = {};

  const create = async (creator: string, opponent: string): Promise<{ id: string; version: number }> => {
    const r = (await api.gql(CREATE, { input: { preset: 'NSA_2008', opponent } }, p[creator]!.token)).body.data!['createGame'];
    expect(r.__typename).toBe('Game');
    return r;
  };
  const resign = async (who: string, g: { id: string; version: number }) => {
    const r = await api.gql(
      TURN,
      { input: { gameId: g.id, expectedVersion: g.version, idempotencyKey: randomUUID(), action: { resign: true } } },
      p[who]!.token,
    );
    expect(r.body.data!['submitTurn']).toMatchObject({ __typename: 'Game', status: 'ended' });
  };
  const profile = async (handle: string, as?: string) =>
    (await api.gql(PROFILE, { h: handle }, as ? p[as]!.token : undefined)).body.data!['playerProfile'];

  beforeAll(async () => {
    api = await openTestApi(target);
    for (const h of ['alice', 'bob', 'carol', 'dave']) p[h] = await api.register(h);
    // alice beats bob twice and loses once, beats carol once; an aborted game with carol; a game in play with dave.
    const g1 = await create('alice', 'bob');
    await resign('bob', g1);
    const g2 = await create('alice', 'bob');
    await resign('alice', g2);
    const g3 = await create('bob', 'alice');
    await resign('bob', g3);
    const g4 = await create('alice', 'carol');
    await resign('carol', g4);
    const g5 = await create('alice', 'carol');
    expect((await api.gql(ABORT, { id: g5.id }, p['alice']!.token)).body.data!['abortGame'].status).toBe('ended');
    const g6 = await create('alice', 'dave');
    Object.assign(games, { g1: g1.id, g2: g2.id, g3: g3.id, g4: g4.id, g5: g5.id, g6: g6.id });
    // g1 and g2 were rated: the rows the rated-games code writes when such a game ends.
    const prisma = api.app.services.db.prisma;
    await prisma.game.updateMany({ where: { id: { in: [g1.id, g2.id] } }, data: { rated: true, ratingCategory: CATEGORY } });
    const t1 = new Date('2026-11-21T12:10:00.000Z');
    const t2 = new Date('2026-11-21T12:20:00.000Z');
    const change = (
      gameId: string,
      seq: number,
      player: string,
      opp: string,
      score: number,
      before: number,
      after: number,
      rd: number,
      at: Date,
    ) =>
      prisma.ratingChange.create({
        data: {
          playerId: p[player]!.id,
          category: CATEGORY,
          gameId,
          gameSeq: seq,
          opponentId: p[opp]!.id,
          score,
          ratingBefore: before,
          deviationBefore: 350,
          volatilityBefore: 0.06,
          ratingAfter: after,
          deviationAfter: rd,
          volatilityAfter: 0.06,
          ratedAt: at,
        },
      });
    await change(g1.id, 9, 'alice', 'bob', 1, 1500, 1662.31, 290.3, t1);
    await change(g2.id, 9, 'alice', 'bob', 0, 1662.31, 1580.5, 250.1, t2);
    await prisma.playerRating.create({
      data: {
        playerId: p['alice']!.id,
        category: CATEGORY,
        rating: 1580.5,
        deviation: 250.1,
        volatility: 0.06,
        games: 2,
        provisional: true,
        lastRatedAt: t2,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('shows ratings with their history, the record against each opponent and recent games, to anyone', async () => {
    const a = await profile('alice');
    expect(a).toMatchObject({ __typename: 'PlayerProfile', handle: 'alice', displayName: 'ALICE', hidden: false, recordGames: 5 });
    expect(a.ratings).toEqual([
      {
        category: CATEGORY,
        rating: 1580.5,
        deviation: 250.1,
        provisional: true,
        games: 2,
        lastRatedAt: '2026-11-21T12:20:00.000Z',
        chartUrl: `/v1/players/alice/ratings/${ESCAPED}/chart.svg`,
        history: [
          { gameId: games['g1'], rating: 1662.31, ratingBefore: 1500, deviation: 290.3, score: 1, opponent: { handle: 'bob' } },
          { gameId: games['g2'], rating: 1580.5, ratingBefore: 1662.31, deviation: 250.1, score: 0, opponent: { handle: 'bob' } },
        ],
      },
    ]);
    // Casual and rated games alike; the aborted one is not a result.
    expect(a.records).toEqual([
      { opponent: { handle: 'bob', displayName: 'BOB' }, wins: 2, draws: 0, losses: 1, games: 3 },
      { opponent: { handle: 'carol', displayName: 'CAROL' }, wins: 1, draws: 0, losses: 0, games: 1 },
    ]);
    const recent = new Map<string, Record<string, unknown>>(a.recentGames.map((g: { gameId: string }) => [g.gameId, g]));
    expect(recent.size).toBe(6);
    expect(recent.get(games['g1']!)).toMatchObject({
      status: 'ENDED',
      outcome: 'WIN',
      rated: true,
      ratingCategory: CATEGORY,
      ratingAfter: 1662.31,
    });
    expect(recent.get(games['g1']!)!['ratingDelta']).toBeCloseTo(162.31, 6);
    expect(recent.get(games['g2']!)).toMatchObject({ outcome: 'LOSS', rated: true, ratingAfter: 1580.5 });
    expect(recent.get(games['g3']!)).toMatchObject({
      outcome: 'WIN',
      rated: false,
      ratingAfter: null,
      ratingDelta: null,
      opponent: { handle: 'bob' },
    });
    expect(recent.get(games['g5']!)).toMatchObject({ outcome: 'ABORTED', opponent: { handle: 'carol' } });
    // The game in play shows who and where it stands, nothing more.
    expect(recent.get(games['g6']!)).toEqual({
      gameId: games['g6'],
      status: 'PLAYING',
      outcome: null,
      score: null,
      opponentScore: null,
      rated: false,
      ratingCategory: null,
      ratingAfter: null,
      ratingDelta: null,
      url: `/v1/games/${games['g6']}`,
      playUrl: `/play#game=${games['g6']}`,
      boardUrl: `/v1/games/${games['g6']}/board.svg`,
      opponent: { handle: 'dave' },
    });
    const ended = recent.get(games['g4']!)!;
    expect(typeof ended['score']).toBe('number');
    // From bob's side the same games are the mirror image.
    const b = await profile('bob', 'alice');
    expect(b.records).toEqual([{ opponent: { handle: 'alice', displayName: 'ALICE' }, wins: 1, draws: 0, losses: 2, games: 3 }]);
    expect(b.ratings).toEqual([]);
  });

  it('over REST: the page, the history with an escaped category, and no rack anywhere', async () => {
    const res = await api.fetch('/v1/players/alice');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ handle: 'alice', ratings: [{ category: CATEGORY, rating: 1580.5 }] });
    expect(JSON.stringify(body)).not.toMatch(/rack/i);
    const hist = await api.fetch(`/v1/players/alice/ratings/${ESCAPED}/history`);
    expect(hist.status).toBe(200);
    expect((await hist.json()).points.map((x: { rating: number }) => x.rating)).toEqual([1662.31, 1580.5]);
  });

  it('draws the chart: one point per rated game, ETag revalidation, PNG too', async () => {
    const res = await api.fetch(`/v1/players/alice/ratings/${ESCAPED}/chart.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const svg = await res.text();
    expect([...svg.matchAll(/<circle [^>]*data-rating="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([1662, 1581]); // rounded to the nearest point
    expect(svg).toContain('<title id="chart-title">Rating history of alice in tournament/correspondence</title>');
    const again = await api.fetch(`/v1/players/alice/ratings/${ESCAPED}/chart.svg`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    const png = await api.fetch(`/v1/players/alice/ratings/${ESCAPED}/chart.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await png.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    // A category with no games: an empty chart, not an error.
    const empty = await api.fetch(`/v1/players/alice/ratings/${encodeURIComponent('friendly/recorded')}/chart.svg`);
    expect(await empty.text()).toContain('No rated games yet');
  });

  it('serves the page as HTML at /players/{handle}: headings, tables, the chart inlined, no script', async () => {
    const res = await api.fetch('/players/alice');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    const html = await res.text();
    expect(html).toMatch(/<html lang="en">/);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain('<h3>tournament/correspondence</h3>');
    expect(html).toMatch(
      /<svg [^>]*role="img"[^>]*aria-labelledby="chart-tournament-correspondence-title chart-tournament-correspondence-desc"/,
    );
    expect([...html.matchAll(/<circle [^>]*data-rating="(\d+)"/g)]).toHaveLength(2);
    expect(html).toMatch(/<th scope="row"><a href="\/players\/bob">BOB<\/a><\/th><td>2<\/td><td>0<\/td><td>1<\/td><td>3<\/td>/);
    expect(html).toContain('<td>Won</td>');
    expect(html).toContain('<td>In play</td>');
    expect(html).not.toMatch(/<script|rack/i);
    expect((await api.fetch('/players/no-such-player')).status).toBe(404);
  });

  it('a hidden page is seen by its player only: others get PLAYER_NOT_FOUND, as for an unknown handle', async () => {
    expect((await api.gql(HIDE, { hidden: true }, p['carol']!.token)).body.data!['setProfileHidden']).toEqual({
      __typename: 'ProfileSetting',
      hidden: true,
    });
    const unknown = await profile('nobody-here');
    for (const seen of [await profile('carol'), await profile('carol', 'alice')]) {
      expect(seen).toMatchObject({ __typename: 'NotFoundError', code: 'PLAYER_NOT_FOUND' });
      expect(seen.message).toBe(unknown.message.replace('nobody-here', 'carol'));
    }
    expect(await profile('carol', 'carol')).toMatchObject({ __typename: 'PlayerProfile', hidden: true });
    expect((await api.fetch('/v1/players/carol')).status).toBe(404);
    expect((await api.fetch('/players/carol')).status).toBe(404);
    expect((await api.fetch(`/v1/players/carol/ratings/${ESCAPED}/chart.svg`)).status).toBe(404);
    const own = await api.fetch(`/v1/players/carol/ratings/${ESCAPED}/chart.svg`, {
      headers: { authorization: `Bearer ${p['carol']!.token}` },
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, no-cache');
    // The opponent's page still counts the games against her: games are public as games are.
    expect((await profile('alice')).records.map((r: { opponent: { handle: string } }) => r.opponent.handle)).toContain('carol');
    // Shown again over REST.
    const patch = await api.fetch('/v1/me/profile', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${p['carol']!.token}` },
      body: JSON.stringify({ hidden: false }),
    });
    expect(patch.status).toBe(200);
    expect(await patch.json()).toEqual({ hidden: false });
    expect(await profile('carol')).toMatchObject({ __typename: 'PlayerProfile', hidden: false });
  });

  it('setting it needs a credential', async () => {
    const r = (await api.gql(HIDE, { hidden: true })).body;
    expect(r.data?.['setProfileHidden']?.code ?? r.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
    const patch = await api.fetch('/v1/me/profile', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"hidden":true}',
    });
    expect(patch.status).toBe(401);
  });

  it('a deleted player has no page, not even for themselves', async () => {
    await api.app.services.db.prisma.player.update({ where: { id: p['dave']!.id }, data: { deletedAt: new Date() } });
    expect(await profile('dave')).toMatchObject({ code: 'PLAYER_NOT_FOUND' });
    expect((await api.fetch('/v1/players/dave')).status).toBe(404);
  });

  it('bad input: an unknown category names the field and lists the known ones; an unknown handle is 404', async () => {
    const r = (await api.gql(HISTORY, { h: 'alice', c: 'tournament/blitz' })).body.data!['ratingHistory'];
    expect(r).toMatchObject({ __typename: 'RatingInputError', code: 'UNKNOWN_CATEGORY', field: 'category' });
    expect(r.details.known).toEqual(CATEGORIES.map((c) => c.id));
    expect(r.message).toContain('tournament/correspondence');
    const rest = await api.fetch(`/v1/players/alice/ratings/${encodeURIComponent('tournament/blitz')}/history`);
    expect(rest.status).toBe(404);
    expect(await rest.json()).toMatchObject({ code: 'UNKNOWN_CATEGORY', details: { known: CATEGORIES.map((c) => c.id) } });
    expect((await api.fetch(`/v1/players/alice/ratings/nope/chart.svg`)).status).toBe(404);
    expect((await api.fetch('/v1/players/no-such-player')).status).toBe(404);
    expect(await profile('no-such-player')).toMatchObject({ __typename: 'NotFoundError', code: 'PLAYER_NOT_FOUND' });
  });
});
