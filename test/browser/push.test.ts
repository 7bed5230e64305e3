/**
 * Web Push on the play page in Debian's headless Chromium (issue 31): the service worker registers at
 * /push-sw.js for the scope /play, the "Notify me" toggle is there for a signed-in player, and a push
 * delivered to the registered worker is shown as a notification whose click target is the game's link.
 *
 * Headless Chromium has no push service it can reach (the test blocks every other host, and Chromium's
 * own service needs Google's servers), so PushManager.subscribe fails here: the test checks the page says
 * so instead of pretending, and delivers the push straight to the worker with the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`), with the very payload service/push-channel.ts sends. The push
 * service side — VAPID, encryption, 410 — is tested against a real stand-in in test/push/push.test.ts.
 */
import { randomUUID } from 'node:crypto';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, type App } from '../../functions/app.js';
import { devStaticFiles } from '../../functions/dev-assets.js';
import { pushPayload } from '../../service/push-channel.js';
import { clientOver, LEXICONS, START, TEST_JWT } from '../api/harness.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';
import { LOCAL_DESTINATIONS } from '../webhooks/fixture.js';
import { openChromium, type Chromium } from './chromium.js';

let testDb: TestDb;
let app: App;
let chrome: Chromium;
let origin: string;

beforeAll(async () => {
  testDb = await openTestDb(STORE_TARGETS[0]!);
  const keys = webpush.generateVAPIDKeys();
  app = await createApp({
    db: testDb.db,
    lexicons: LEXICONS,
    jwt: TEST_JWT,
    now: () => START,
    webhookDestinations: LOCAL_DESTINATIONS,
    push: { subject: 'mailto:operator@arbiter.example', vapidKeys: () => Promise.resolve(keys) },
    staticFiles: devStaticFiles(),
    robots: 'off',
    logError: () => undefined,
  });
  chrome = await openChromium(app.yoga);
  origin = chrome.origin;
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await app?.close();
  await testDb?.drop();
});

/** A context that reaches the app only, with notifications allowed for it, signed in as a new player. */
const signedInPage = async (handle: string): Promise<{ context: BrowserContext; page: Page; playerId: string }> => {
  const api = clientOver((path, init = {}) => Promise.resolve(app.yoga.fetch(`${origin}${path}`, init)));
  const me = await api.register(handle);
  const context = await chrome.newContext();
  await context.grantPermissions(['notifications'], { origin });
  // A new page starts on about:blank, whose storage a script may not touch (a page error): the app's pages only.
  await context.addInitScript((token) => {
    if (location.protocol !== 'about:') sessionStorage.setItem('arbiter.token', token);
  }, me.token);
  const page = await context.newPage();
  return { context, page, playerId: me.id };
};

/** The worker's registration id for the scope /play, from the DevTools protocol. */
const registrationId = async (cdp: CDPSession): Promise<string> => {
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const r = registrations.find((x) => x.scopeURL === `${origin}/play` && !x.isDeleted);
      if (r) resolve(r.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return found;
};

const notifications = (page: Page) =>
  page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration('/play');
    const shown = (await reg?.getNotifications()) ?? [];
    return shown.map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as { url: string; kind: string; gameId: string | null },
    }));
  });

describe('Web Push on the play page', () => {
  test('the worker registers for /play, and the toggle is an accessible button', async () => {
    const { context, page } = await signedInPage('pushy');
    await page.goto(`${origin}/play#games`);
    const toggle = page.locator('#notify');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await toggle.textContent()).toBe('Notify me');
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${origin}/play`);
    const worker = await page.request.get(`${origin}/push-sw.js`);
    expect(worker.headers()['content-type']).toMatch(/^text\/javascript/);

    // Subscribing needs a push service; headless Chromium here has none it can reach, and the page says so.
    await toggle.click();
    await expect.poll(() => page.locator('#push-status').textContent()).not.toBe('');
    const subscribed = (await toggle.getAttribute('aria-pressed')) === 'true';
    const rows = await testDb.db.prisma.pushSubscription.count();
    // Either way the page and the server agree: pressed exactly when the server holds the subscription.
    expect(rows).toBe(subscribed ? 1 : 0);
    if (!subscribed) expect(await page.locator('#push-status').textContent()).toMatch(/could not subscribe|refused|blocked|push service/i);
    expect(chrome.pageErrors).toEqual([]);
    expect(chrome.violations).toEqual([]);
    await context.close();
  }, 60_000);

  test('a push delivered to the worker shows the notification, and its click target is the game’s link', async () => {
    const { context, page, playerId } = await signedInPage('pushed');
    await page.goto(`${origin}/play#games`);
    await page.locator('#notify').waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready);
    const cdp = await context.newCDPSession(page);
    const id = await registrationId(cdp);
    const gameId = randomUUID();
    const payload = pushPayload([
      {
        id: randomUUID(),
        playerId,
        kind: 'your-turn',
        gameId,
        tournamentId: null,
        version: 5,
        title: 'Your move against Alice',
        body: 'Alice played 8D ACIDS for 24.',
        url: `${origin}/play#game=${gameId}`,
        at: START,
      },
    ]);
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: JSON.stringify(payload) });
    await expect.poll(async () => (await notifications(page)).length, { timeout: 10_000 }).toBe(1);
    expect(await notifications(page)).toEqual([
      {
        title: 'Your move against Alice',
        body: 'Alice played 8D ACIDS for 24.',
        tag: `game-${gameId}`,
        data: { url: `${origin}/play#game=${gameId}`, kind: 'your-turn', gameId },
      },
    ]);

    // A later push about the same game replaces it on screen (same tag); a link elsewhere leads to the play page instead.
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId: id,
      data: JSON.stringify({ ...payload, title: 'Alice won', kind: 'game-ended', url: 'https://elsewhere.example/phish' }),
    });
    await expect.poll(async () => (await notifications(page))[0]?.title, { timeout: 10_000 }).toBe('Alice won');
    const [shown, ...rest] = await notifications(page);
    expect(rest).toEqual([]);
    expect(shown!.data.url).toBe(`${origin}/play`);
    expect(chrome.pageErrors).toEqual([]);
    await context.close();
  }, 60_000);
});
