/**
 * The worked event of docs/tournaments.md, run as written: every curl request in order, by curl through
 * bash, against a live HTTP server over the app on a fresh database, with the server's clock set where
 * the page says `# at`. Then the outcomes the page states are checked against the API: the final
 * standings of division A (worked by hand in the page), the pairings the rules give round 2, who counts
 * first, the slip's history, and the league's second round made and started on its own. PGlite and Postgres.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '../../store/roles.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { curlExamples, runCurlExamples } from '../rest/curl-examples.js';

const PAGE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'tournaments.md'), 'utf8');
const WORKED = PAGE.slice(PAGE.indexOf('## A worked event'), PAGE.indexOf('## GraphQL'));

interface Pairing {
  first: number;
  second: number;
  gameId: string | null;
  slip: { status: string; changes: { from: number[]; to: number[]; ruling: { reason: string; ruling: string | null } | null }[] } | null;
}
interface RoundJson {
  status: string;
  pairings: Pairing[];
  byes: { player: number; spread: number }[];
}
interface StandingJson {
  rank: number;
  name: string;
  wins: number;
  losses: number;
  spread: number;
  firsts: number;
  seconds: number;
}

describe.each(STORE_TARGETS)('the worked event of docs/tournaments.md on $kind', (target) => {
  let api: TestApi;
  let server: Server;
  let base: string;
  const vars: Record<string, string> = {};
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-tournament-doc-'));
  const get = async <T>(path: string): Promise<T> => {
    const res = await api.fetch(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    api = await openTestApi(target);
    server = createServer(api.app.yoga);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const root = await api.register('root');
    await setRole(api.app.services.db.prisma, 'root', 'admin');
    vars['ROOT'] = root.token;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every request answers its status, in order', async () => {
    const examples = curlExamples(WORKED, 'docs/tournaments.md');
    expect(examples.length).toBeGreaterThan(40);
    await runCurlExamples(examples, base, dir, { vars, setNow: (at) => api.setNow(at) });
  });

  it('round 2 is paired as the page says: Diaz’s bye, then King of the Hill in rank order', async () => {
    const r2 = await get<RoundJson>(`/v1/tournaments/${vars['T']}/divisions/A/rounds/2`);
    expect(r2.byes.map((b) => [b.player, b.spread])).toEqual([[4, 50]]);
    expect(r2.pairings.map((p) => [p.first, p.second].sort((a, b) => a - b))).toEqual([
      [3, 7],
      [1, 5],
      [2, 6],
    ]);
  });

  it('the final standings are the ones worked by hand', async () => {
    const { items } = await get<{ items: StandingJson[] }>(`/v1/tournaments/${vars['T']}/divisions/A/standings`);
    expect(items.map((r) => [r.rank, r.name, r.wins, r.losses, r.spread])).toEqual([
      [1, 'Smith, Ann', 2, 0, 180],
      [2, 'Chen, Cy', 2, 0, 65],
      [3, 'Fox, Flo', 1.5, 0.5, 50],
      [4, 'Gray, Gus', 1, 1, 40],
      [5, 'Diaz, Di', 1, 1, -20],
      [6, 'Evans, Ed', 0.5, 1.5, -155],
      [7, 'Hill, Hal', 0, 1, -35],
      [8, 'Brown, Ben', 0, 2, -75],
    ]);
    // Ben forfeited round 2 before it began: it counts as his first (seed-001 §4); Diaz's bye counts neither.
    const ben = items.find((r) => r.name === 'Brown, Ben')!;
    const diaz = items.find((r) => r.name === 'Diaz, Di')!;
    expect(ben.firsts + ben.seconds).toBe(2);
    expect(ben.firsts).toBeGreaterThanOrEqual(1);
    expect(diaz.firsts + diaz.seconds).toBe(1);
  });

  it('Ben’s dispute was dismissed and the slip stands as submitted', async () => {
    const r1 = await get<{
      pairings: {
        first: number;
        second: number;
        slip: { firstScore: number; secondScore: number; disputes: { number: number; status: string; ruledReason: string }[] };
      }[];
    }>(`/v1/tournaments/${vars['T']}/divisions/A/rounds/1`);
    const slip = r1.pairings.find((p) => [p.first, p.second].includes(2))!.slip;
    expect(slip.disputes).toMatchObject([{ number: 1, status: 'DISMISSED', ruledReason: 'Both score sheets show 387.' }]);
    expect([slip.firstScore, slip.secondScore].sort()).toEqual([387, 412]);
  });

  it('the changed slip keeps its correction and the ruling, with the reason', async () => {
    const r1 = await get<RoundJson>(`/v1/tournaments/${vars['T']}/divisions/A/rounds/1`);
    const chen = r1.pairings.find((p) => [p.first, p.second].includes(3))!;
    expect(chen.slip?.status).toBe('SUBMITTED');
    expect(chen.slip?.changes.map((c) => [c.from, c.to, c.ruling?.reason, c.ruling?.ruling])).toEqual([
      [[401, 356], [401, 366], 'Both score sheets show 401-366; the slip was miscopied.', 'SLIP_CORRECTED'],
    ]);
  });

  it('the TSH file and the CSV say the same', async () => {
    const t = await api.fetch(`/v1/tournaments/${vars['T']}/divisions/A.t`);
    const lines = (await t.text()).trim().split('\n');
    expect(lines).toHaveLength(8);
    // Ann: opponents Ben (2) and Evans (5); her scores 412 and 455.
    expect(lines[0]).toMatch(/^Smith, Ann\s+1900\s+2 5; 412 455;/);
    const csv = await (await api.fetch(`/v1/tournaments/${vars['T']}/divisions/A/standings.csv`)).text();
    expect(csv.split('\r\n')[1]).toMatch(/^1,1,"Smith, Ann",1900,,2,0,180,/);
  });

  it('the league ended round 1 by itself and made round 2’s games', async () => {
    const r1 = await get<RoundJson>(`/v1/tournaments/${vars['LEAGUE']}/divisions/L/rounds/1`);
    expect(r1.status).toBe('ENDED');
    expect(r1.pairings.every((p) => p.slip?.status === 'SUBMITTED')).toBe(true);
    const r2 = await get<RoundJson>(`/v1/tournaments/${vars['LEAGUE']}/divisions/L/rounds/2`);
    expect(r2.status).toBe('STARTED');
    expect(r2.pairings).toHaveLength(3);
    expect(r2.pairings.every((p) => p.gameId !== null)).toBe(true);
    const { items } = await get<{ items: StandingJson[] }>(`/v1/tournaments/${vars['LEAGUE']}/divisions/L/standings`);
    expect(items.slice(0, 3).map((r) => [r.name, r.wins])).toEqual([
      ['Smith, Ann', 1],
      ['Brown, Ben', 1],
      ['Cole, Cat', 1],
    ]);
  });
});
