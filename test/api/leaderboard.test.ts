/**
 * The leaderboards (issue 33, item 4; docs/players.md) over GraphQL and REST on each database, from
 * `player_ratings` rows as the rated-games code writes them: established players best first with ties by
 * account id, provisional players in a list apart, hidden and deleted players left out, keyset pages that
 * stay stable, and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../engine/rating/categories.js';
import { openTestApi, STORE_TARGETS, type TestApi } from './harness.js';

const BOARD = `query($c: String!, $p: Boolean, $first: Int, $after: String) {
  leaderboard(category: $c, provisional: $p, first: $first, after: $after) {
    edges { cursor node { rank handle rating provisional games } }
    pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`;

const CATEGORY = 'tournament/correspondence';

interface Seeded {
  readonly id: string;
  readonly handle: string;
  readonly rating: number;
  readonly provisional: boolean;
  readonly hidden: boolean;
  readonly deleted: boolean;
}

describe.each(STORE_TARGETS)('the leaderboard on $kind', (target) => {
  let api: TestApi;
  const seeded: Seeded[] = [];
  /** The expected list, computed here: listed players only, rating best first, then by id as Postgres orders uuids (their hex text). */
  const expected = (provisional: boolean) =>
    seeded
      .filter((s) => s.provisional === provisional && !s.hidden && !s.deleted)
      .sort((a, b) => b.rating - a.rating || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((s) => s.handle);

  const page = async (vars: Record<string, unknown>) => api.gql(BOARD, { c: CATEGORY, ...vars });

  beforeAll(async () => {
    api = await openTestApi(target);
    const prisma = api.app.services.db.prisma;
    // 30 players: ratings in steps of 25 with every third one tied with the one before; every fifth provisional.
    for (let i = 0; i < 30; i++) {
      const player = await prisma.player.create({ data: { handle: `lb${String(i).padStart(2, '0')}`, displayName: `LB ${i}` } });
      const rating = 2000 - Math.floor(i / 2) * 25 + (i % 3 === 0 ? 0.5 : 0);
      const s: Seeded = {
        id: player.id,
        handle: player.handle,
        rating,
        provisional: i % 5 === 4,
        hidden: i === 7 || i === 9,
        deleted: i === 12,
      };
      seeded.push(s);
      await prisma.playerRating.create({
        data: {
          playerId: s.id,
          category: CATEGORY,
          rating,
          deviation: s.provisional ? 200 : 80,
          volatility: 0.06,
          games: 10 + i,
          provisional: s.provisional,
          lastRatedAt: new Date('2026-11-20T00:00:00.000Z'),
        },
      });
      if (s.hidden) await prisma.player.update({ where: { id: s.id }, data: { profileHidden: true } });
      if (s.deleted) await prisma.player.update({ where: { id: s.id }, data: { deletedAt: new Date() } });
    }
    // Another category's rating never shows here.
    await prisma.playerRating.create({
      data: {
        playerId: seeded[0]!.id,
        category: 'friendly/correspondence',
        rating: 2400,
        deviation: 60,
        volatility: 0.06,
        games: 3,
        provisional: false,
        lastRatedAt: new Date(),
      },
    });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('ranks established players best first, ties by id, hidden and deleted players left out', async () => {
    const r = (await page({ first: 100 })).body.data!['leaderboard'];
    const handles = r.edges.map((e: { node: { handle: string } }) => e.node.handle);
    expect(handles).toEqual(expected(false));
    expect(handles).not.toContain('lb07');
    expect(handles).not.toContain('lb12');
    expect(r.edges.map((e: { node: { rank: number } }) => e.node.rank)).toEqual(handles.map((_: string, i: number) => i + 1));
    expect(r.edges.every((e: { node: { provisional: boolean } }) => !e.node.provisional)).toBe(true);
    expect(r.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    // The tied pairs really are tied, and ordered by id.
    const ties = seeded.filter((s, i) => i > 0 && s.rating === seeded[i - 1]!.rating);
    expect(ties.length).toBeGreaterThan(0);
  });

  it('keeps provisional players in a list apart', async () => {
    const r = (await page({ p: true, first: 100 })).body.data!['leaderboard'];
    expect(r.edges.map((e: { node: { handle: string } }) => e.node.handle)).toEqual(expected(true));
    expect(expected(true).length).toBe(5);
    expect(r.edges[0].node).toMatchObject({ rank: 1, provisional: true });
  });

  it('pages with cursors: the pages put together are the whole list, ranks numbered on across pages', async () => {
    const all: { rank: number; handle: string }[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const r: {
        edges: { node: { rank: number; handle: string } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string; hasPreviousPage: boolean };
      } = (await page({ first: 4, after })).body.data!['leaderboard'];
      pages++;
      expect(r.pageInfo.hasPreviousPage).toBe(after !== null);
      all.push(...r.edges.map((e) => e.node));
      if (!r.pageInfo.hasNextPage) break;
      after = r.pageInfo.endCursor;
    }
    expect(all.map((e) => e.handle)).toEqual(expected(false));
    expect(all.map((e) => e.rank)).toEqual(all.map((_, i) => i + 1));
    expect(pages).toBe(Math.ceil(expected(false).length / 4));
    // The same cursor gives the same page again.
    const first = (await page({ first: 4 })).body.data!['leaderboard'];
    const a = (await page({ first: 4, after: first.pageInfo.endCursor })).body.data!['leaderboard'];
    const b = (await page({ first: 4, after: first.pageInfo.endCursor })).body.data!['leaderboard'];
    expect(a).toEqual(b);
  });

  it('over REST: items and nextCursor, the category escaped, ?provisional=true', async () => {
    const path = `/v1/leaderboards/${encodeURIComponent(CATEGORY)}`;
    const one = await api.fetch(`${path}?first=3`);
    expect(one.status).toBe(200);
    const body = await one.json();
    expect(body.items.map((x: { handle: string }) => x.handle)).toEqual(expected(false).slice(0, 3));
    const two = await (await api.fetch(`${path}?first=3&after=${encodeURIComponent(body.nextCursor)}`)).json();
    expect(two.items.map((x: { handle: string }) => x.handle)).toEqual(expected(false).slice(3, 6));
    const prov = await (await api.fetch(`${path}?provisional=true`)).json();
    expect(prov.items.map((x: { handle: string }) => x.handle)).toEqual(expected(true));
  });

  it('bad input: an unknown category (with the known ids), a page size out of range, a cursor of another list', async () => {
    const r = await api.gql(BOARD, { c: 'scrabble' });
    expect(r.body.errors?.[0]?.extensions).toMatchObject({ code: 'UNKNOWN_CATEGORY', field: 'category' });
    expect(r.body.errors?.[0]?.extensions?.['known']).toEqual(CATEGORIES.map((c) => c.id));
    const rest = await api.fetch('/v1/leaderboards/scrabble');
    expect(rest.status).toBe(404);
    expect(await rest.json()).toMatchObject({
      code: 'UNKNOWN_CATEGORY',
      details: { field: 'category', known: CATEGORIES.map((c) => c.id) },
    });
    expect((await page({ first: 0 })).body.errors?.[0]?.extensions).toMatchObject({ code: 'PAGE_SIZE_INVALID', field: 'first' });
    expect((await page({ first: 101 })).body.errors?.[0]?.extensions).toMatchObject({ code: 'PAGE_SIZE_INVALID' });
    const provCursor = (await page({ p: true, first: 1 })).body.data!['leaderboard'].pageInfo.endCursor;
    expect((await page({ after: provCursor })).body.errors?.[0]?.extensions).toMatchObject({ code: 'CURSOR_INVALID', field: 'after' });
    expect((await page({ after: 'garbage' })).body.errors?.[0]?.extensions).toMatchObject({ code: 'CURSOR_INVALID' });
    expect((await api.fetch(`/v1/leaderboards/${encodeURIComponent(CATEGORY)}?after=garbage`)).status).toBe(400);
  });
});
