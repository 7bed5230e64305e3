/**
 * What every Chromium suite under test/browser/ sets up the same way: Debian's Chromium (or
 * ARBITER_CHROMIUM) launched headless by playwright-core, the app behind an HTTP server on a local port,
 * and browser contexts that reach that origin only — any other request is aborted and recorded, so a
 * suite can assert the pages never tried the internet — with each page's errors and CSP violations
 * collected for the same kind of assertion. Not a test file: vitest.browser.config.ts runs *.test.ts only.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium as playwright, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';

const CHROMIUM = process.env['ARBITER_CHROMIUM'] ?? '/usr/bin/chromium';
/** As the machine notes say Chromium must run here: no sandbox as root, no background network of its own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Chromium {
  readonly browser: Browser;
  readonly server: Server;
  /** The app's origin, e.g. http://127.0.0.1:41234; the only one the contexts reach. */
  readonly origin: string;
  /** Requests to anywhere but `origin`, aborted. */
  readonly blocked: string[];
  /** Content-Security-Policy violations reported on any page's console. */
  readonly violations: string[];
  /** Uncaught errors of any page. */
  readonly pageErrors: string[];
  /**
   * A fresh context that reaches `origin` only, its pages watched. `elsewhere` answers the requests to
   * other hosts (e.g. an app's redirect URI the test stands in for); by default `block`.
   */
  newContext(options?: Parameters<Browser['newContext']>[0], elsewhere?: (route: Route) => Promise<void>): Promise<BrowserContext>;
  /** Records the request in `blocked` and aborts it, as a client-side block. */
  block(route: Route): Promise<void>;
  close(): Promise<void>;
}

/** Serves `handler` on 127.0.0.1 at a free port and launches Chromium. */
export const openChromium = async (handler: RequestListener): Promise<Chromium> => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closeServer = async () => {
    // Open event streams would keep close() waiting forever.
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  let browser: Browser;
  try {
    browser = await playwright.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  } catch (e) {
    await closeServer();
    throw e;
  }
  const blocked: string[] = [];
  const violations: string[] = [];
  const pageErrors: string[] = [];
  const watch = (page: Page): void => {
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) violations.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  };
  const block = (route: Route): Promise<void> => {
    blocked.push(route.request().url());
    return route.abort('blockedbyclient');
  };
  return {
    browser,
    server,
    origin,
    blocked,
    violations,
    pageErrors,
    block,
    newContext: async (options = {}, elsewhere = block) => {
      const context = await browser.newContext(options);
      await context.route((url) => url.origin !== origin, elsewhere);
      context.on('page', watch);
      return context;
    },
    close: async () => {
      await browser.close();
      await closeServer();
    },
  };
};
