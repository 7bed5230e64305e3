/**
 * `npm run test:browser` (issue 20): Debian's Chromium, driven by playwright-core, against the real
 * app on a local port, with every request to another host blocked. Two browser contexts sign up as
 * two players and play a short game to its end through /play — by click, by keyboard and by drag, an
 * illegal placement refused with its message, a challenge, an exchange, a pass, a resignation — and
 * GraphiQL runs a query and the API docs render, all without the internet and without a CSP
 * violation; a player plays the robot the games list offers. Screenshots go to test-artifacts/browser/ (not committed).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { devStaticFiles } from '../../functions/dev-assets.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { openChromium, type Chromium } from './chromium.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'browser');

let api: TestApi;
let chrome: Chromium;
let origin: string;
const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  api = await openTestApi(STORE_TARGETS[0]!, { app: { graphiql: true, staticFiles: devStaticFiles() } });
  chrome = await openChromium(api.app.yoga);
  origin = chrome.origin;
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await api?.close();
});

/** Signs up on /play as a new player; returns the page, on the games list. */
const signUp = async (context: BrowserContext, handle: string): Promise<Page> => {
  const page = await context.newPage();
  await page.goto(`${origin}/play`);
  await page.fill('#handle', handle);
  await page.fill('#password', `${handle}-secret-1`);
  await page.click('#register');
  await page.waitForSelector('h1:text("My games")');
  return page;
};

const turnLine = (page: Page) => page.locator('#turn-line');
/** Whose page is to move: the one whose turn line says so (once its stream caught up). */
const mover = async (a: Page, b: Page): Promise<[Page, Page]> => {
  await expect
    .poll(async () => (await turnLine(a).textContent())! + (await turnLine(b).textContent())!, { timeout: 15_000 })
    .toMatch(/Your turn/);
  return (await turnLine(a).textContent())!.includes('Your turn') ? [a, b] : [b, a];
};
const rackLetters = async (page: Page): Promise<string[]> =>
  page.locator('.rack-tile').evaluateAll((els) => els.map((e) => e.getAttribute('data-tile')!));

describe('the play page in Chromium, offline', () => {
  test('two players play a short game to its end', async () => {
    const suffix = Date.now().toString(36).slice(-5);
    const [ann, ben] = [`ann-${suffix}`, `ben-${suffix}`];
    const desk = await chrome.newContext({ viewport: { width: 1100, height: 900 } });
    // Ben plays on a phone.
    const phone = await chrome.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const a = await signUp(desk, ann);
    const b = await signUp(phone, ben);

    // Ann starts a game against Ben.
    await a.fill('#opponent', ben);
    await a.click('#new-game');
    await a.waitForSelector('#board');
    await expect.poll(() => turnLine(a).textContent()).toContain('Your turn');
    // Ben's list shows it (his events' stream), with whose turn it is.
    await expect.poll(() => b.locator('#games').textContent(), { timeout: 15_000 }).toContain(`${ann}’s turn`);
    await b.click('a[data-game]');
    await b.waitForSelector('#board');
    await shot(b, '01-phone-board');

    // Screen-reader labels on squares and tiles.
    expect(await a.getAttribute('[data-square="H8"]', 'aria-label')).toBe('H8, double word, centre, empty');
    expect(await a.getAttribute('[data-square="A1"]', 'aria-label')).toBe('A1, triple word, empty');
    expect(await a.getAttribute('#rack-0', 'aria-label')).toMatch(/^(Blank|[A-Z]), (blank|\d+ points)$/);
    expect(await a.getAttribute('#board', 'role')).toBe('grid');

    // An illegal placement, by click: a tile on A1 misses the centre; checkPlay says so, and so does Play.
    const rack = await rackLetters(a);
    const letters = rack.map((t, i) => [t, i] as const).filter(([t]) => t !== '?');
    await a.click(`#rack-${letters[0]![1]}`);
    await a.click('[data-square="A1"]');
    await expect.poll(() => a.locator('#alert').textContent()).toMatch(/centre square H8/);
    const refusal = (await a.locator('#alert').textContent())!;
    await shot(a, '02-illegal-placement');
    await a.click('#play');
    await expect.poll(() => a.locator('#alert').textContent()).toMatch(/centre square H8/);
    expect(await turnLine(a).textContent()).toContain('Your turn');
    expect(refusal).toContain('1A');
    await a.click('#recall');

    // A play by keyboard: the board's cursor starts on the centre, typing goes across; the tentative
    // score shows, Enter plays it.
    expect(await a.getAttribute('[data-square="H8"]', 'tabindex')).toBe('0');
    await a.focus('[data-square="H8"]');
    await a.keyboard.type(`${letters[0]![0]}${letters[1]![0]}`.toLowerCase());
    await expect.poll(() => a.locator('#status').textContent()).toMatch(/^8H \S+ scores \d+/);
    const tentative = (await a.locator('#status').textContent())!;
    await shot(a, '03-tentative-score');
    await a.keyboard.press('Enter');
    await expect.poll(() => turnLine(a).textContent()).toContain('Waiting for your opponent');
    const score = Number(/scores (\d+)/.exec(tentative)![1]);
    expect(await a.locator('.player[data-seat="0"] .score').textContent()).toBe(String(score));

    // Ben sees it arrive without reloading, and challenges it.
    await expect.poll(() => turnLine(b).textContent(), { timeout: 15_000 }).toContain('Your turn');
    expect(await b.locator('[data-square="H8"] .letter').textContent()).toBe(letters[0]![0]);
    await b.click('#challenge');
    await expect.poll(() => b.locator('#status').textContent()).toContain('You challenged.');

    // Whoever is to move now exchanges two tiles.
    const [exchanger] = await mover(a, b);
    await exchanger.click('#exchange');
    await exchanger.click('#rack-0');
    await exchanger.click('#rack-1');
    await exchanger.click('#exchange-confirm');
    await expect.poll(() => exchanger.locator('#status').textContent()).toContain('Exchanged.');

    // A pass by whoever is to move, until it is Ann's turn (on the desk, where a mouse drags): she drags a
    // tile onto the board, sees it placed, takes it back, and passes.
    const pass = async (p: Page) => {
      await p.click('#pass');
      await expect.poll(() => p.locator('#status').textContent()).toContain('You passed.');
    };
    const [next] = await mover(a, b);
    if (next === b) await pass(b);
    await expect.poll(() => turnLine(a).textContent(), { timeout: 15_000 }).toContain('Your turn');
    const target = (await a.locator('[data-square="H8"] .tile').count()) ? '[data-square="G8"]' : '[data-square="H8"]';
    await a.dragAndDrop('#rack-0', target);
    await expect.poll(() => a.locator(`${target} .tile.tentative`).count()).toBe(1);
    await shot(a, '04-dragged');
    await a.click('#recall');
    expect(await a.locator('.tile.tentative').count()).toBe(0);
    await pass(a);

    // Ben resigns: the game is over on both pages.
    await expect.poll(() => turnLine(b).textContent(), { timeout: 15_000 }).toContain('Your turn');
    await b.click('#resign');
    await b.click('#resign-confirm');
    for (const p of [a, b]) await expect.poll(() => turnLine(p).textContent(), { timeout: 15_000 }).toContain('Game over (resigned)');
    expect(await a.locator('.player[data-seat="0"]').textContent()).toContain('won');
    await expect(a.locator('a[href$="replay.gif"]').count()).resolves.toBe(1);
    await shot(a, '05-game-over-desk');
    await shot(b, '06-game-over-phone');
    // The phone page fits its width: nothing scrolls sideways.
    expect(await b.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await desk.close();
    await phone.close();
  });

  test('a player plays the robot offered on the games list, which answers by itself', async () => {
    const context = await chrome.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await signUp(context, `cy-${Date.now().toString(36).slice(-5)}`);
    const robot = page.locator('button.robot', { hasText: 'robot:greedy' });
    await expect.poll(() => robot.count(), { timeout: 15_000 }).toBe(1);
    await robot.click();
    await page.waitForSelector('#board');
    await expect.poll(() => turnLine(page).textContent()).toContain('Your turn');
    await page.click('#pass');
    // The robot may answer before the pass is read back: the stream shows its move at once.
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/You passed\.|Your turn\. Last move: Robot/);
    // Nobody else is on the page: the robot moves by itself, and the game's stream hands the turn back.
    await expect.poll(() => turnLine(page).textContent(), { timeout: 30_000 }).toContain('Your turn');
    expect(await page.locator('.player[data-seat="1"]').textContent()).toContain('Robot (greedy)');
    await shot(page, '07-robot');
    await context.close();
  });

  test('GraphiQL runs a query, from this server’s files only', async () => {
    const context = await chrome.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${origin}/graphql`, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30_000 });
    const answer = page.waitForResponse(
      (r) => r.url() === `${origin}/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('checkPlay'),
    );
    await page.click('.graphiql-execute-button');
    const body = (await (await answer).json()) as { data?: { checkPlay?: { __typename?: string } } };
    expect(body.data?.checkPlay?.__typename).toMatch(/^(ScoredPlay|RuleViolation)$/);
    await expect.poll(() => page.locator('.graphiql-response').textContent(), { timeout: 15_000 }).toContain('"checkPlay"');
    await shot(page, '07-graphiql');
    await context.close();
  });

  test('the API docs render from this server’s files only', async () => {
    const context = await chrome.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${origin}/rest/docs`);
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 30_000 }).toBeGreaterThan(10);
    expect(await page.locator('.info .title').textContent()).toContain('Arbiter REST API');
    await shot(page, '08-api-docs');
    await context.close();
  });

  test('nothing asked for another host, broke the CSP, or threw', () => {
    expect(chrome.blocked).toEqual([]);
    expect(chrome.violations).toEqual([]);
    expect(chrome.pageErrors).toEqual([]);
  });
});
