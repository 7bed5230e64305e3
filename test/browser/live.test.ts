/**
 * The play page follows its game through the event stream (issue 31 item 6, docs/live.md): in Chromium,
 * two players' pages; a move on one shows on the other within a second, with no reload and no polling;
 * a page closed and opened again, and a page whose stream the server cut, each show every move exactly
 * once. The server in front of the app can cut the open streams and refuse new ones for a while, and
 * records the Last-Event-ID each stream request resumes after.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { devStaticFiles } from '../../functions/dev-assets.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { openChromium, type Chromium } from './chromium.js';

/** The bound: the other page shows a move within a second of its commit. */
const LIVE_MS = 1000;

let api: TestApi;
let chrome: Chromium;
let origin: string;

/** The stream requests: while `refusing`, answered 503 at once; `cut()` ends the open ones as a dropped network would. */
const streams = { refusing: false, sockets: new Set<Socket>(), requests: [] as { auth: string; after: string }[] };
const isStream = (req: IncomingMessage) => /^\/v1\/(games\/[^/]+|me)\/events/.test(req.url ?? '');
const cut = () => {
  for (const s of streams.sockets) s.destroy();
  streams.sockets.clear();
};

beforeAll(async () => {
  api = await openTestApi(STORE_TARGETS[0]!, { app: { staticFiles: devStaticFiles() } });
  chrome = await openChromium((req, res) => {
    if (isStream(req)) {
      streams.requests.push({ auth: String(req.headers.authorization), after: String(req.headers['last-event-id']) });
      if (streams.refusing) {
        res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' }).end('{"detail":"refused by the test"}');
        return;
      }
      streams.sockets.add(req.socket);
      req.socket.once('close', () => streams.sockets.delete(req.socket));
    }
    void api.app.yoga(req, res);
  });
  origin = chrome.origin;
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await api?.close();
});

const newContext = () => chrome.newContext({ viewport: { width: 1000, height: 900 } });

/** Signs in (or up) on /play and opens the game `id`, or stays on the games list. */
const enter = async (context: BrowserContext, handle: string, register: boolean, id?: string): Promise<Page> => {
  const page = await context.newPage();
  await page.goto(`${origin}/play`);
  await page.fill('#handle', handle);
  await page.fill('#password', `${handle}-secret-1`);
  await page.click(register ? '#register' : '#sign-in');
  await page.waitForSelector('h1:text("My games")');
  if (id) await openGame(page, id);
  return page;
};

const openGame = async (page: Page, id: string): Promise<void> => {
  await page.evaluate((g) => (location.hash = `#game=${g}`), id);
  await page.waitForSelector('#board');
};

const turnLine = (page: Page) => page.locator('#turn-line');
/** The page's own credential, and the game's version as the API tells it to that player. */
const tokenOf = async (page: Page) => `Bearer ${await page.evaluate(() => sessionStorage.getItem('arbiter.token'))}`;
const versionOf = (page: Page, id: string) =>
  page.evaluate(async (g) => {
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionStorage.getItem('arbiter.token')}` },
      body: JSON.stringify({ query: 'query($id: ID!) { game(id: $id) { ... on Game { version } } }', variables: { id: g } }),
    });
    return ((await res.json()) as { data: { game: { version: number } } }).data.game.version;
  }, id);
const sheet = (page: Page) => page.locator('.history ol li').allTextContents();

/** Reloads and navigations of the page's main frame from now on, and a marker that a reload would wipe. */
const watchNavigations = async (page: Page): Promise<() => Promise<number>> => {
  let navigations = 0;
  page.on('framenavigated', (f) => void (f === page.mainFrame() && navigations++));
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'never reloaded'));
  return async () => {
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('never reloaded');
    return navigations;
  };
};

/** From now on, the page's clock when its turn line first contains `text` (read with `seenAt`). */
const markWhen = (page: Page, text: string) =>
  page.evaluate((t) => {
    const w = window as unknown as { seenAt?: number };
    delete w.seenAt;
    const look = () => {
      if (w.seenAt === undefined && document.getElementById('turn-line')?.textContent?.includes(t)) w.seenAt = Date.now();
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    look();
  }, text);
const seenAt = async (page: Page, timeout = 15_000): Promise<number> => {
  await page.waitForFunction(() => (window as unknown as { seenAt?: number }).seenAt !== undefined, undefined, { timeout });
  return page.evaluate(() => (window as unknown as { seenAt: number }).seenAt);
};

/** Plays the first two non-blank rack tiles across from H8 by keyboard; the page shows it done. */
const playTwoTiles = async (page: Page): Promise<void> => {
  const tiles = await page.locator('.rack-tile').evaluateAll((els) => els.map((e) => e.getAttribute('data-tile')!));
  const letters = tiles.filter((t) => t !== '?' && t.length === 1).slice(0, 2);
  await page.focus('[data-square="H8"]');
  await page.keyboard.type(letters.join('').toLowerCase());
  await expect.poll(() => page.locator('#status').textContent()).toMatch(/scores \d+/);
  await page.keyboard.press('Enter');
};

describe('the play page follows its game live, in Chromium', () => {
  test('a move shows on the other page within a second; a closed page and a cut stream resume without a gap or a repeat', async () => {
    const suffix = Date.now().toString(36).slice(-5);
    const [ann, ben] = [`ann-${suffix}`, `ben-${suffix}`];
    const annContext = await newContext();
    const benContext = await newContext();
    const listReads = new Map<BrowserContext, number>();
    for (const c of [annContext, benContext])
      c.on('request', (r) => void ((r.postData() ?? '').includes('myGames') && listReads.set(c, (listReads.get(c) ?? 0) + 1)));
    const a = await enter(annContext, ann, true);
    const b = await enter(benContext, ben, true);
    // The games lists do not poll either (they once asked every 5 seconds): once each follows its player's
    // events (and has read the list again as its stream opened), nothing is asked…
    for (const c of [annContext, benContext]) await expect.poll(() => listReads.get(c) ?? 0).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const asked: string[] = [];
    for (const p of [a, b]) p.on('request', (r) => void (r.url().endsWith('/graphql') && asked.push(r.postData() ?? '')));
    await new Promise((resolve) => setTimeout(resolve, 5500));
    expect(asked).toEqual([]);
    // …and Ann's new game shows on Ben's list as soon as it is made: his own events' stream (GET /v1/me/events).
    await a.fill('#opponent', ben);
    await a.click('#new-game');
    await a.waitForSelector('#board');
    const id = /#game=([\w-]+)/.exec(a.url())![1]!;
    await expect.poll(() => b.locator(`a[data-game="${id}"]`).count(), { timeout: 3000 }).toBe(1);
    await openGame(b, id);
    const bNavigations = await watchNavigations(b);
    await expect.poll(() => turnLine(a).textContent()).toContain('Your turn');

    // Nothing polls: a quiet game sends no request at all (the page once asked every 2 seconds).
    asked.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(asked).toEqual([]);

    // Ann plays: Ben's page shows it within a second of Ann's page showing it done.
    await markWhen(a, 'Waiting for your opponent');
    await markWhen(b, 'Your turn');
    await playTwoTiles(a);
    const [played, shown] = [await seenAt(a), await seenAt(b)];
    expect(shown - played).toBeLessThanOrEqual(LIVE_MS);
    expect(await b.locator('[data-square="H8"] .tile').count()).toBe(1);
    expect(await sheet(b)).toEqual(await sheet(a));

    // Ann closes her browser; Ben passes; Ann comes back: both moves, once each.
    await annContext.close();
    await b.click('#pass');
    await expect.poll(() => b.locator('#status').textContent()).toContain('You passed.');
    const a2 = await enter(await newContext(), ann, false, id);
    await expect.poll(() => turnLine(a2).textContent()).toContain('Your turn');
    expect(await sheet(a2)).toHaveLength(2);
    expect(await sheet(a2)).toEqual(await sheet(b));

    // The network drops Ben's stream and the server refuses him for a while; Ann passes meanwhile. Ben's page
    // reconnects after the version it had shown and shows her pass, once.
    const versionBefore = await versionOf(b, id);
    const bensToken = await tokenOf(b);
    const cutAt = streams.requests.length;
    streams.refusing = true;
    cut();
    await a2.click('#pass');
    await expect.poll(() => a2.locator('#status').textContent()).toContain('You passed.');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await turnLine(b).textContent()).not.toContain('Your turn');
    streams.refusing = false;
    await expect.poll(() => turnLine(b).textContent(), { timeout: 20_000 }).toContain('Your turn');
    expect(await sheet(b)).toHaveLength(3);
    expect(await sheet(b)).toEqual(await sheet(a2));
    // Each attempt asked for what came after the version it had shown: not the whole log, not past Ann's pass.
    const resumes = streams.requests.slice(cutAt).filter((r) => r.auth === bensToken);
    expect(resumes.length).toBeGreaterThan(1);
    expect(new Set(resumes.map((r) => r.after))).toEqual(new Set([String(versionBefore)]));

    // And it is live again: Ben's next move reaches Ann within a second.
    await markWhen(b, 'Waiting for your opponent');
    await markWhen(a2, 'Your turn');
    await b.click('#pass');
    expect((await seenAt(a2)) - (await seenAt(b))).toBeLessThanOrEqual(LIVE_MS);
    expect(await sheet(a2)).toEqual(await sheet(b));
    expect(await sheet(b)).toHaveLength(4);
    expect(await bNavigations()).toBe(0);
  });

  test('nothing asked for another host or threw', () => {
    expect(chrome.blocked).toEqual([]);
    expect(chrome.pageErrors).toEqual([]);
  });
});
