/**
 * Tournaments over REST under /v1 (issue 30, item 9), on PGlite and on Postgres: created (201, Location,
 * ETag), read with If-None-Match (304), players added with If-Match (a stale one 412, a missing one fine),
 * a round paired, started, its results recorded and a slip signed and submitted by path
 * (`…/slips/{player}-{opponent}/sign`), the standings, the crosstable, the division as a TSH `.t` file
 * (text/plain) and as CSV (text/csv), a division imported from a `.t` file (text/plain body), the event's
 * list, and the problems: 404 for an unknown tournament, 403 for a non-director pairing, 422 for a game not
 * in the round, 415 for a JSON body where a file is due.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_TARGETS, type TestApi } from '../api/harness.js';
import type { Player } from '../e2e/client.js';
import { closeSuite, openSuite } from '../e2e/fixture.js';
import { EIGHT, eventDirectedBy, registerPlayers, scoresFor, type Json } from './client.js';

const TSH = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'tsh', 'team-pairings-anon1.t'), 'utf8');

describe.each(STORE_TARGETS)('a tournament over REST on $kind', (target) => {
  let api: TestApi;
  let admin: Player, dir: Player, ann: Player, ben: Player;
  let event: string;
  let id: string;
  let etag: string;

  beforeAll(async () => {
    api = await openSuite(target, 'tournament-rest');
    [admin, dir, ann, ben] = await registerPlayers(api, 'admin', 'dir', 'ann', 'ben');
    event = await eventDirectedBy(api, admin, dir, 'Sunday Classic 2026');
  });
  afterAll(() => closeSuite(api));

  const send = (method: string, path: string, who?: Player, body?: unknown, headers: Record<string, string> = {}) =>
    api.fetch(`/v1${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }),
        ...(who ? { authorization: `Bearer ${who.token}` } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const json = async (res: Response, status: number): Promise<Json> => {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as Json;
  };
  const division = () => `/tournaments/${id}/divisions/A`;

  it('POST /v1/tournaments creates it: 201, Location, the ETag its version', async () => {
    const res = await send('POST', '/tournaments', dir, {
      organizationId: event,
      name: 'Sunday Classic',
      divisions: [{ name: 'A', rounds: 2 }],
    });
    const t = await json(res, 201);
    id = t.id;
    expect(res.headers.get('location')).toBe(`/v1/tournaments/${id}`);
    etag = res.headers.get('etag')!;
    expect(etag).toBe(`"${t.version}"`);
    expect(t).toMatchObject({ name: 'Sunday Classic', public: true, viewerRole: 'DIRECTOR', divisions: [{ name: 'A', roundCount: 2 }] });
  });

  it('GET /v1/tournaments/{id} answers anyone, with its ETag; If-None-Match → 304', async () => {
    const res = await send('GET', `/tournaments/${id}`);
    expect((await json(res, 200)).viewerRole).toBe('PUBLIC');
    expect(res.headers.get('etag')).toBe(etag);
    expect((await send('GET', `/tournaments/${id}`, undefined, undefined, { 'if-none-match': etag })).status).toBe(304);
    expect((await json(await send('GET', '/tournaments/00000000-0000-0000-0000-000000000000'), 404)).code).toBe('TOURNAMENT_NOT_FOUND');
  });

  it('POST …/players adds players with If-Match; a stale If-Match is 412 and writes nothing', async () => {
    for (const p of EIGHT([ann, ben])) {
      const res = await send(
        'POST',
        `${division()}/players`,
        dir,
        { handle: p.h, name: p.n, rating: p.rating, class: p.c },
        { 'if-match': etag },
      );
      const d = await json(res, 200);
      etag = res.headers.get('etag')!;
      expect(etag).toBe(`"${d.version}"`);
    }
    const stale = await send('POST', `${division()}/players`, dir, { name: 'Late, Lou' }, { 'if-match': '"1"' });
    expect(await json(stale, 412)).toMatchObject({ code: 'STALE_VERSION' });
    const t = await json(await send('GET', `/tournaments/${id}`), 200);
    expect(t.divisions[0].entrants).toHaveLength(8);
    expect(`"${t.version}"`).toBe(etag);
  });

  it('pairs (a player may not: 403), starts, records results (422 for a game not in the round), signs and submits by path', async () => {
    expect((await json(await send('POST', `${division()}/rounds/1/pairing`, ann, { seed: 'r1' }), 403)).code).toMatch(
      /NOT_ALLOWED|NOT_DIRECTOR/,
    );
    const paired = await json(await send('POST', `${division()}/rounds/1/pairing`, dir, { seed: 'r1', method: 'KING_OF_THE_HILL' }), 200);
    expect(paired).toMatchObject({ number: 1, status: 'PAIRED', method: 'KING_OF_THE_HILL' });
    expect(paired.pairings).toHaveLength(4);
    await json(await send('POST', `${division()}/rounds/1/start`, dir), 200);
    // King of the hill by seed: Ann (1) plays Ben (2), the two players with accounts.
    const g = (paired.pairings as Json[]).find((p) => p.first === 1 || p.second === 1)!;
    expect([g.first, g.second].sort()).toEqual([1, 2]);
    const stranger = (paired.pairings as Json[]).find((p) => p !== g)!;
    const wrong = await send('POST', `${division()}/rounds/1/results`, dir, {
      player: g.first,
      opponent: stranger.first,
      score: 400,
      opponentScore: 300,
    });
    expect((await json(wrong, 422)).code).toBe('GAME_NOT_IN_ROUND');
    let round: Json = {};
    for (const p of paired.pairings as Json[]) {
      const [score, opponentScore] = scoresFor(p.first, p.second);
      const res = await send(
        'POST',
        `${division()}/rounds/1/results`,
        dir,
        { player: p.first, opponent: p.second, score, opponentScore },
        { 'idempotency-key': `r1-${p.first}` },
      );
      round = await json(res, 200);
    }
    expect(round.pairings.every((p: Json) => p.slip?.status === 'RECORDED')).toBe(true);
    // The slip is named by its two players in either order; each signs for themselves, a stranger may not.
    expect((await json(await send('POST', `${division()}/rounds/1/slips/${stranger.first}-${stranger.second}/sign`, ann), 403)).code).toBe(
      'SLIP_SIGNER_NOT_IN_GAME',
    );
    await json(await send('POST', `${division()}/rounds/1/slips/2-1/sign`, ann), 200);
    const signed = await json(await send('POST', `${division()}/rounds/1/slips/1-2/sign`, ben), 200);
    const slipOf = (r: Json) => (r.pairings as Json[]).find((p) => p.first === g.first)!.slip as Json;
    expect([...slipOf(signed).signers].sort()).toEqual([1, 2]);
    const submitted = await json(await send('POST', `${division()}/rounds/1/slips/${g.first}-${g.second}/submit`, dir), 200);
    expect(slipOf(submitted).status).toBe('SUBMITTED');
    expect(slipOf(await json(await send('GET', `${division()}/rounds/1`), 200)).status).toBe('SUBMITTED');
  });

  it('GET …/standings and …/crosstable: the standings of the results, one cell per round', async () => {
    const standings = (await json(await send('GET', `${division()}/standings`), 200)).items as Json[];
    expect(standings.map((s) => s.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(standings.reduce((n, s) => n + s.wins, 0)).toBe(4);
    expect(standings.reduce((n, s) => n + s.spread, 0)).toBe(0);
    const crosstable = (await json(await send('GET', `${division()}/crosstable`), 200)).items as Json[];
    expect(crosstable.map((r) => r.number)).toEqual(standings.map((s) => s.number));
    expect(crosstable[0]!.cells).toHaveLength(2);
    expect(crosstable[0]!.cells[0]).toMatchObject({ round: 1, kind: 'GAME', result: 'WIN' });
  });

  it('GET …/standings.csv is the standings as CSV, text/csv: a header line and a line per player', async () => {
    const csv = await send('GET', `${division()}/standings.csv`);
    const rows = (await csv.text()).trim().split('\n');
    expect(csv.status, rows.join('\n')).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(rows).toHaveLength(9);
  });

  it('GET …/divisions/A.t is the division as TSH, text/plain', async () => {
    const t = await send('GET', `${division()}.t`);
    const text = await t.text();
    expect(t.status, text).toBe(200);
    expect(t.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[2]).toMatch(/^Carter, Cy\s+1700\s/);
  });

  it('POST …/divisions/{division}.t imports a division from a .t file (text/plain); a JSON body is 415', async () => {
    const json415 = await send('POST', `/tournaments/${id}/divisions/B.t?rounds=6`, dir, { text: TSH });
    expect(json415.status).toBe(415);
    const res = await send('POST', `/tournaments/${id}/divisions/B.t?rounds=6`, dir, TSH);
    const t = await json(res, 201);
    expect(t.divisions.map((d: Json) => d.name)).toEqual(['A', 'B']);
    expect(t.divisions[1].entrants).toHaveLength(42);
    const standings = (await json(await send('GET', `/tournaments/${id}/divisions/B/standings`), 200)).items as Json[];
    expect(standings).toHaveLength(42);
    const back = await (await send('GET', `/tournaments/${id}/divisions/B.t`)).text();
    expect(back.trim().split('\n')).toHaveLength(42);
  });

  it('GET /v1/tournaments?organization= lists the event’s tournaments', async () => {
    const page = await json(await send('GET', `/tournaments?organization=${event}`), 200);
    expect(page.items.map((t: Json) => t.id)).toContain(id);
    expect(page).toHaveProperty('nextCursor');
  });
});
