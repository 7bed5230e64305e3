/**
 * A third-party app's authorization in Debian's headless Chromium (issue 32), JavaScript off: the app
 * (oauth4webapi, as a real app would use it) makes the authorization URL with PKCE S256 and state; the
 * browser opens it, signs in on the sign-in page with the keyboard, reads the consent page (the app's name,
 * its maker, the scopes in words) and approves or denies; the app's redirect URI (answered by the test
 * itself: the browser reaches no other host) receives the code, which oauth4webapi exchanges for tokens
 * that then act for the player.
 */
import * as oauth from 'oauth4webapi';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, type App } from '../../functions/app.js';
import { clientOver, LEXICONS, START, TEST_JWT } from '../api/harness.js';
import { authorizationRequest, INSECURE, REDIRECT_URI } from '../oauth/fixture.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';
import { openChromium, type Chromium } from './chromium.js';

let testDb: TestDb;
let app: App;
let chrome: Chromium;
let origin: string;
let as: oauth.AuthorizationServer;
let clientId: string;
let playerId: string;
let api: ReturnType<typeof clientOver>;

beforeAll(async () => {
  testDb = await openTestDb(STORE_TARGETS[0]!);
  app = await createApp({
    db: testDb.db,
    lexicons: LEXICONS,
    jwt: TEST_JWT,
    now: () => START,
    robots: 'off',
    logError: () => undefined,
    oauth: { issuer: null },
    env: {},
  });
  chrome = await openChromium(app.yoga);
  origin = chrome.origin;
  api = clientOver((path, init = {}) => fetch(`${origin}${path}`, init));
  playerId = (await api.register('chromeplayer')).id;
  const maker = await api.register('chromemaker');
  clientId = 'app_chromium_test';
  await testDb.db.prisma.oAuthApp.create({
    data: { id: clientId, ownerId: maker.id, name: 'Rack Radar', redirectUris: [REDIRECT_URI], clientType: 'public' },
  });
  const issuer = new URL(origin);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...INSECURE }));
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await app?.close();
  await testDb?.drop();
});

/** A context without JavaScript that reaches the app only; the app's redirect URI is answered here and recorded. */
const appContext = async (): Promise<{ context: BrowserContext; landed: Promise<URL> }> => {
  let land: (u: URL) => void;
  const landed = new Promise<URL>((resolve) => (land = resolve));
  const context = await chrome.newContext({ javaScriptEnabled: false }, async (route) => {
    if (route.request().url().startsWith(REDIRECT_URI)) {
      land(new URL(route.request().url()));
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>back at the app</title>' });
    }
    return chrome.block(route);
  });
  return { context, landed };
};

describe('OAuth in Chromium, without JavaScript', () => {
  test('from the app’s redirect through sign-in and consent to tokens', async () => {
    const request = await authorizationRequest(as, clientId, 'games:read games:play');
    const { context, landed } = await appContext();
    const page = await context.newPage();
    await page.goto(request.url.href);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to Arbiter');
    expect(await page.textContent('main')).toContain('Rack Radar asks to use your Arbiter account');
    // Focus order: the handle first (autofocus), then the password, then the button.
    await page.getByLabel('Handle').focus();
    await page.keyboard.type('chromeplayer');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await page.keyboard.type('chromeplayer-password');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign in');
    await page.keyboard.press('Enter');
    // The sign-in page is an interaction URL too: wait for the consent page itself, not for a URL.
    await page.getByRole('heading', { level: 1, name: 'Allow Rack Radar?' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Allow Rack Radar?');
    const main = await page.textContent('main');
    expect(main).toContain('registered by chromemaker');
    expect(main).toContain('See your games');
    expect(main).toContain('Play in your games');
    expect(main).not.toContain('webhooks');
    await page.getByRole('button', { name: 'Approve' }).click();
    const back = await landed;
    const client = { client_id: clientId };
    const params = oauth.validateAuthResponse(as, client, back, request.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, request.verifier, INSECURE),
    );
    expect(tokens.scope?.split(' ').sort()).toEqual(['games:play', 'games:read']);
    const me = await api.gql('{ me { ... on Player { id } } }', {}, tokens.access_token);
    expect(me.body.data?.['me']).toEqual({ id: playerId });
    await context.close();
  });

  test('Deny sends access_denied back to the app, and no code', async () => {
    const request = await authorizationRequest(as, clientId, 'games:read webhooks:manage');
    const { context, landed } = await appContext();
    const page = await context.newPage();
    await page.goto(request.url.href);
    await page.getByLabel('Handle').fill('chromeplayer');
    await page.getByLabel('Password').fill('chromeplayer-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    const back = await landed;
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(request.state);
    expect(back.searchParams.get('code')).toBeNull();
    await context.close();
  });

  test('a wrong password shows the sign-in page again with the reason, announced', async () => {
    const request = await authorizationRequest(as, clientId, 'games:read');
    const { context } = await appContext();
    const page = await context.newPage();
    await page.goto(request.url.href);
    await page.getByLabel('Handle').fill('chromeplayer');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toBeTruthy();
    expect(await page.getByLabel('Handle').inputValue()).toBe('chromeplayer');
    await context.close();
  });
});
