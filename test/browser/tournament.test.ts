/**
 * `npm run test:browser` (issue 30, item 9): the public standings page of a tournament in Debian's
 * Chromium, driven by playwright-core, against the real app on a local port, every request to another
 * host blocked. A tournament is made through the API (eight players, round 1 paired and its results
 * recorded, one slip changed by a ruling); the page then shows the standings table row for row as the API
 * computes them and the crosstable cell for cell, without JavaScript and without a CSP violation. The
 * accessibility check reads Chromium's accessibility tree: the document's language, one h1, a heading per
 * division, each table named by its caption, column headers and a row header per player; the tables'
 * scroll regions are reachable by keyboard. A division has its own page; a private tournament and an
 * unknown division answer 404. Screenshots go to test-artifacts/browser/ (not committed).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import type { Player } from '../e2e/client.js';
import { EIGHT, eventDirectedBy, expectType, registerPlayers, run, scoresFor, type Json } from '../tournaments/client.js';
import { openChromium, type Chromium } from './chromium.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'browser');

let api: TestApi;
let chrome: Chromium;
let origin: string;

let tournamentId: string;
let privateId: string;
/** The standings and crosstable of division A as the API answers them. */
let expected: Json;

/** A tournament of two divisions: A with eight players and round 1 played (one slip changed by a ruling), B with two players. */
const makeTournament = async (admin: Player, dir: Player, ann: Player, ben: Player): Promise<void> => {
  const event = await eventDirectedBy(api, admin, dir, 'Browser Open 2026');
  const input = {
    organizationId: event,
    name: 'Browser Open <2026>',
    divisions: [
      { name: 'A', rounds: 2 },
      { name: 'B', rounds: 1 },
    ],
  };
  const t = expectType(await run(api, 'createTournament', { input }, dir), 'Tournament');
  tournamentId = t.id;
  for (const p of EIGHT([ann, ben])) expectType(await run(api, 'addTournamentPlayer', { t: t.id, d: 'A', ...p }, dir), 'Division');
  for (const n of ['Ives, Ida', 'Jones, Jo']) expectType(await run(api, 'addTournamentPlayer', { t: t.id, d: 'B', n }, dir), 'Division');
  let round = expectType(await run(api, 'pairRound', { t: t.id, d: 'A', r: 1, s: 'browser' }, dir), 'Round');
  expectType(await run(api, 'startRound', { t: t.id, d: 'A', r: 1 }, dir), 'Round');
  for (const p of round.pairings as Json[]) {
    const [s, os] = scoresFor(p.first, p.second);
    round = expectType(await run(api, 'recordResult', { t: t.id, d: 'A', r: 1, p: p.first, o: p.second, s, os }, dir), 'Round');
  }
  const g = round.pairings[0] as Json;
  expectType(await run(api, 'submitSlip', { t: t.id, d: 'A', r: 1, p: g.first, o: g.second }, dir), 'Round');
  const [s, os] = scoresFor(g.first, g.second);
  const change = { t: t.id, d: 'A', r: 1, p: g.first, o: g.second, s: s + 25, os, why: 'Agreed score.' };
  expectType(await run(api, 'changeSlip', change, dir), 'Round');
  expected = expectType(await run(api, 'standings', { id: t.id }), 'Tournament').division;
  const hidden = { organizationId: event, name: 'Staff Cup', public: false, divisions: [{ name: 'A', rounds: 1 }] };
  privateId = expectType(await run(api, 'createTournament', { input: hidden }, dir), 'Tournament').id;
};

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  api = await openTestApi(STORE_TARGETS[0]!);
  const [admin, dir, ann, ben] = await registerPlayers(api, 'admin', 'dir', 'ann', 'ben');
  await makeTournament(admin, dir, ann, ben);
  chrome = await openChromium(api.app.yoga);
  origin = chrome.origin;
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await api?.close();
});

const texts = (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
const minus = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

describe('the standings page in Chromium, without JavaScript', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await chrome.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  test('GET /tournaments/{id} answers the page with its CSP, every division on it', async () => {
    const res = await page.goto(`${origin}/tournaments/${tournamentId}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
    expect(await page.title()).toBe('Browser Open <2026> — standings');
    expect(await texts(page, 'h1')).toEqual(['Browser Open <2026>']);
    expect(await texts(page, 'h2')).toEqual(['Division A', 'Division B']);
    // The style sheet applied (allowed by its hash): the header cells have their background.
    expect(
      await page
        .locator('table.standings thead th')
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor),
    ).toBe('rgb(243, 236, 217)');
    await page.screenshot({ path: join(ARTIFACTS, 'tournament-standings.png'), fullPage: true });
  });

  test('the standings table has the API’s rows, in its order', async () => {
    const table = page.locator('table.standings[data-division="A"]');
    expect(await table.locator('caption').textContent()).toBe('Standings of division A after round 1 of 2');
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(8);
    for (const [i, s] of (expected.standings as Json[]).entries()) {
      const row = rows.nth(i);
      expect(await row.getAttribute('data-player')).toBe(String(s.number));
      const cells = await row.locator('td, th').evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
      expect(cells).toEqual([
        String(s.rank),
        s.name,
        expect.any(String),
        expect.any(String),
        s.record,
        minus(s.spread),
        String(s.firsts),
        String(s.seconds),
        String(s.byes),
      ]);
    }
  });

  test('the crosstable has a cell per player and round: result, both scores, opponent, first or second', async () => {
    const table = page.locator('table.crosstable[data-division="A"]');
    for (const row of expected.crosstable as Json[]) {
      const tr = table.locator(`tbody tr[data-player="${row.number}"]`);
      const [one, two] = row.cells as Json[];
      const letter = { WIN: 'W', LOSS: 'L', TIE: 'T' }[one!.result as string]!;
      const word = { WIN: 'Won', LOSS: 'Lost', TIE: 'Tied' }[one!.result as string]!;
      const position = one!.position === 'FIRST' ? 'first' : 'second';
      expect(await tr.locator('td[data-round="1"]').textContent()).toBe(
        `${letter}${word} ${one!.score}–${one!.opponentScore} v ${one!.opponent}, ${position}`,
      );
      expect(two!.kind).toBe('NONE');
      expect(await tr.locator('td[data-round="2"]').textContent()).toBe('—No game');
    }
  });

  test('accessible: language, headings, tables named by their captions, column and row headers, reachable scroll regions', async () => {
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('heading', { level: 2 }).count()).toBe(2);
    const standings = page.getByRole('table', { name: /^Standings of division A/ });
    expect(await standings.count()).toBe(1);
    expect(await standings.getByRole('columnheader').evaluateAll((els) => els.map((e) => e.textContent))).toEqual([
      'Rank',
      'Player',
      'Rating',
      'Class',
      'Won–lost',
      'Spread',
      'Firsts',
      'Seconds',
      'Byes',
    ]);
    expect(await standings.getByRole('rowheader').count()).toBe(8);
    const cross = page.getByRole('table', { name: /^Crosstable of division A/ });
    expect(await cross.getByRole('rowheader').count()).toBe(8);
    expect(await cross.getByRole('columnheader', { name: 'Round 1' }).count()).toBe(1);
    // Every th says what it heads; every table has a caption.
    expect(await page.locator('th:not([scope])').count()).toBe(0);
    expect(await page.locator('table:not(:has(> caption))').count()).toBe(0);
    // The results are words to a screen reader, not letters: the accessible tree reads "Won" or "Lost".
    expect(await cross.ariaSnapshot()).toMatch(/(Won|Lost) \d+–\d+ v \d+, (first|second)/);
    // Tab reaches the links between divisions, then each table's scroll region in order.
    const focused: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      focused.push(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? ''),
      );
    }
    expect(focused.slice(0, 5)).toEqual([
      'All divisions',
      'Division A',
      'Division B',
      'Standings of division A',
      'Crosstable of division A',
    ]);
  });

  test('a division has its own page; a private tournament, an unknown division and a bad id answer 404', async () => {
    const res = await page.goto(`${origin}/tournaments/${tournamentId}/divisions/B`);
    expect(res?.status()).toBe(200);
    expect(await texts(page, 'h2')).toEqual(['Division B']);
    expect(await page.locator('table.standings tbody tr').count()).toBe(2);
    expect(await page.locator('table.standings caption').textContent()).toBe('Standings of division B, before round 1');
    await page.getByRole('link', { name: 'All divisions' }).click();
    expect(await texts(page, 'h2')).toEqual(['Division A', 'Division B']);
    for (const path of [`/tournaments/${privateId}`, `/tournaments/${tournamentId}/divisions/Z`, '/tournaments/not-an-id']) {
      const r = await page.goto(`${origin}${path}`);
      expect(r?.status(), path).toBe(404);
      expect(await texts(page, 'h1')).toEqual(['Not found']);
    }
  });

  test('nothing was blocked, no CSP violation, no page error', () => {
    expect(chrome.blocked).toEqual([]);
    expect(chrome.violations).toEqual([]);
    expect(chrome.pageErrors).toEqual([]);
  });
});
