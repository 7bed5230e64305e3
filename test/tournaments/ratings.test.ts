/**
 * Tournament ratings over the API (issue 33, item 2), on PGlite and on Postgres: a division rated by the
 * NASPA system plays two rounds; its ratings out appear after each complete round (none while a round's
 * results are missing) on the standings (REST) and the entrants (GraphQL); the `.t` export carries them as
 * `newr`, and a division imported from that file keeps them and rates the same. A default division is
 * Glicko-2; an unknown system is refused by name and writes nothing.
 *
 * Four players rated 1500 with no `lifeg` (tsh counts 100 games: multiplier 20), every game won by the
 * lower entrant number, king of the hill. Round 1: 1–2 and 3–4. A winner's excess is 1 − ½ = ½ win, 10
 * points; the 5 a game beyond which a gain accelerates leaves 5 more: 1515; the loser loses 10 and gets
 * 5/20 back as feedback: 1490.25, rounded 1490. Round 2 (3 and 1 lead): 3–1 won by 1, 2–4 won by 2. Both
 * rounds are one segment rated from the ratings in: 1 has 2 wins for 1 expected, +20, accelerated by
 * 20 − 10 = 10: 1530, and each of its opponents (2 and 3) gets 10/20 back: 1500.5 → 1501; 4 loses 20: 1480.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import { graphql, type Player } from '../e2e/client.js';
import { closeSuite, openSuite } from '../e2e/fixture.js';
import { eventDirectedBy, registerPlayers, scoresFor, type Json } from './client.js';

const ENTRANTS = ['Ames, Al', 'Bose, Bea', 'Cruz, Cy', 'Dorn, Di'];

describe.each(STORE_TARGETS)('tournament ratings on $kind', (target) => {
  let api: TestApi;
  let admin: Player, dir: Player;
  let event: string;
  let id: string;

  beforeAll(async () => {
    api = await openSuite(target, 'tournament-ratings');
    [admin, dir] = await registerPlayers(api, 'radmin', 'rdir');
    event = await eventDirectedBy(api, admin, dir, 'Rated Open 2027');
  });
  afterAll(() => closeSuite(api));

  const send = (method: string, path: string, body?: unknown) =>
    api.fetch(`/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${dir.token}`,
        ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const json = async (res: Response, status: number): Promise<Json> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as Json;
  };
  const ratingsOf = async (division: string): Promise<Record<number, Json>> => {
    const items = (await json(await send('GET', `/tournaments/${id}/divisions/${division}/standings`), 200)).items as Json[];
    return Object.fromEntries(items.map((s) => [s.number, { in: s.ratingIn, out: s.ratingOut, change: s.ratingChange }]));
  };
  const playRound = async (round: number, results: boolean) => {
    const base = `/tournaments/${id}/divisions/A/rounds/${round}`;
    const paired = await json(await send('POST', `${base}/pairing`, { seed: `r${round}`, method: 'KING_OF_THE_HILL' }), 200);
    await json(await send('POST', `${base}/start`), 200);
    const games = paired.pairings as Json[];
    for (const [i, g] of games.entries()) {
      if (!results && i === games.length - 1) break;
      const [score, opponentScore] = scoresFor(g.first, g.second);
      await json(await send('POST', `${base}/results`, { player: g.first, opponent: g.second, score, opponentScore }), 200);
    }
    return games;
  };

  it('a division is created with its rating system; an unknown one is refused and nothing is written', async () => {
    const bad = await send('POST', '/tournaments', {
      organizationId: event,
      name: 'Bad',
      divisions: [{ name: 'A', rounds: 2, ratingSystem: 'ELO' }],
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(await bad.text()).toMatch(/ratingSystem/);
    const t = await json(
      await send('POST', '/tournaments', {
        organizationId: event,
        name: 'Rated Open',
        divisions: [
          { name: 'A', rounds: 2, ratingSystem: 'NASPA', players: ENTRANTS.map((name) => ({ name, rating: 1500 })) },
          { name: 'G', rounds: 1, players: ENTRANTS.map((name, i) => ({ name, rating: 1600 - 100 * i })) },
        ],
      }),
      201,
    );
    id = t.id;
    const list = await json(await send('GET', `/tournaments?organization=${event}`), 200);
    expect(list.items.map((x: Json) => x.name)).toEqual(['Rated Open']);
    const q = `query($id: ID!) { tournament(id: $id) { ... on Tournament { divisions { name ratingSystem } } } }`;
    const read = await graphql<Json>(api, 'tournament', q, { id });
    expect(read.divisions).toEqual([
      { name: 'A', ratingSystem: 'NASPA' },
      { name: 'G', ratingSystem: 'GLICKO2' },
    ]);
  });

  it('no rating out before a round is complete; after round 1 winners 1515, losers 1490', async () => {
    await playRound(1, false);
    const partial = await ratingsOf('A');
    expect(Object.values(partial).map((r) => r.out)).toEqual([null, null, null, null]);
    await json(
      await send('POST', `/tournaments/${id}/divisions/A/rounds/1/results`, {
        player: 3,
        opponent: 4,
        score: scoresFor(3, 4)[0],
        opponentScore: scoresFor(3, 4)[1],
      }),
      200,
    );
    expect(await ratingsOf('A')).toEqual({
      1: { in: 1500, out: 1515, change: 15 },
      2: { in: 1500, out: 1490, change: -10 },
      3: { in: 1500, out: 1515, change: 15 },
      4: { in: 1500, out: 1490, change: -10 },
    });
  });

  it('after round 2: 1530, 1501, 1501, 1480 — on the standings (REST) and on the entrants (GraphQL)', async () => {
    const games = await playRound(2, true);
    expect(games.map((g) => [g.first, g.second].sort())).toEqual(
      expect.arrayContaining([
        [1, 3],
        [2, 4],
      ]),
    );
    const outs = { 1: 1530, 2: 1501, 3: 1501, 4: 1480 };
    expect(Object.fromEntries(Object.entries(await ratingsOf('A')).map(([n, r]) => [n, r.out]))).toEqual(
      Object.fromEntries(Object.entries(outs).map(([n, r]) => [n, r])),
    );
    const q = `query($id: ID!) { tournament(id: $id) { ... on Tournament { division(name: "A") {
      entrants { number ratingIn ratingOut ratingChange }
      r1: standings(throughRound: 1) { number ratingOut } } } } }`;
    const d = (await graphql<Json>(api, 'tournament', q, { id })).division as Json;
    expect(d.entrants).toEqual([
      { number: 1, ratingIn: 1500, ratingOut: 1530, ratingChange: 30 },
      { number: 2, ratingIn: 1500, ratingOut: 1501, ratingChange: 1 },
      { number: 3, ratingIn: 1500, ratingOut: 1501, ratingChange: 1 },
      { number: 4, ratingIn: 1500, ratingOut: 1480, ratingChange: -20 },
    ]);
    // Standings through round 1 show the ratings after round 1.
    expect(Object.fromEntries((d.r1 as Json[]).map((s) => [s.number, s.ratingOut]))).toEqual({ 1: 1515, 2: 1490, 3: 1515, 4: 1490 });
  });

  it('the .t export writes them as newr; a division imported from it keeps them and rates the same', async () => {
    const text = await (await send('GET', `/tournaments/${id}/divisions/A.t`)).text();
    const lines = text.trim().split('\n');
    expect(lines.map((l) => /; newr ([\d ]+?)(;|$)/.exec(l)?.[1])).toEqual(['1515 1530', '1490 1501', '1515 1501', '1490 1480']);
    await json(await send('POST', `/tournaments/${id}/divisions/B.t?rounds=2&ratingSystem=NASPA`, text), 201);
    expect(await (await send('GET', `/tournaments/${id}/divisions/B.t`)).text()).toBe(text);
    expect(await ratingsOf('B')).toEqual(await ratingsOf('A'));
  });

  it('a Glicko-2 division: the favourite who wins gains less than the outsider who wins', async () => {
    const base = `/tournaments/${id}/divisions/G/rounds/1`;
    const paired = await json(await send('POST', `${base}/pairing`, { seed: 'g1', method: 'KING_OF_THE_HILL' }), 200);
    for (const g of paired.pairings as Json[]) {
      // 1600 beats 1500; 1300 beats 1400 (the higher number wins the second game).
      const upset = g.first === 3 || g.second === 3;
      const [a, b] = upset
        ? [Math.max(g.first, g.second), Math.min(g.first, g.second)]
        : [Math.min(g.first, g.second), Math.max(g.first, g.second)];
      await json(await send('POST', `${base}/results`, { player: a, opponent: b, score: 450, opponentScore: 350 }), 200);
    }
    const r = await ratingsOf('G');
    expect(r[1]!.change).toBeGreaterThan(0);
    expect(r[4]!.change).toBeGreaterThan(r[1]!.change);
    expect(r[2]!.change).toBeLessThan(0);
    expect(r[3]!.change).toBeLessThan(r[2]!.change);
  });
});
