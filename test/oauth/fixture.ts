/**
 * The authorization server under test: the real app (functions/app.ts) behind a real HTTP server on a
 * local port, so that oauth4webapi, the client library, talks to it as an app would. A registered app is
 * written straight into `oauth_apps` (registration itself is tested with service/oauth-apps.ts), and the
 * browser part of the flow (sign-in and consent pages) is walked with fetch and a cookie jar here; the
 * Chromium suite (test/browser/oauth.test.ts) walks it in a real browser.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { createApp, type App } from '../../functions/app.js';
import { DEFAULT_RATE_LIMITS } from '../../service/rate-limits.js';
import { clientOver, LEXICONS, TEST_JWT, type TestApi } from '../api/harness.js';
import { openTestDb, type StoreTarget, type TestDb } from '../store/targets.js';

export const REDIRECT_URI = 'https://app.example/callback';
export const INSECURE = { [oauth.allowInsecureRequests]: true } as const;

export interface OAuthTestServer {
  readonly app: App;
  readonly origin: string;
  readonly api: Pick<TestApi, 'gql' | 'fetch' | 'register'>;
  readonly as: oauth.AuthorizationServer;
  /** Registers an app owned by `ownerId`; confidential when `secret` is given. */
  registerApp(ownerId: string, options?: { secret?: string; redirectUris?: string[]; name?: string }): Promise<string>;
  close(): Promise<void>;
}

export const startOAuthServer = async (target: StoreTarget): Promise<OAuthTestServer> => {
  const testDb: TestDb = await openTestDb(target);
  let origin = '';
  const app = await createApp({
    db: testDb.db,
    lexicons: LEXICONS,
    jwt: TEST_JWT,
    rateLimits: DEFAULT_RATE_LIMITS,
    trustedProxies: 0,
    robots: 'off',
    logError: () => undefined,
    // The issuer is the server's own origin, known once it listens: the first request's (the default without ARBITER_PUBLIC_URL).
    oauth: { issuer: null },
    env: {},
  });
  const server: Server = createServer(app.yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = clientOver((path, init = {}) => fetch(`${origin}${path}`, init));
  const issuer = new URL(origin);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...INSECURE }));
  return {
    app,
    origin,
    api,
    as,
    registerApp: async (ownerId, options = {}) => {
      const id = `app_${randomBytes(9).toString('base64url')}`;
      await testDb.db.prisma.oAuthApp.create({
        data: {
          id,
          ownerId,
          name: options.name ?? 'Board Buddy',
          redirectUris: options.redirectUris ?? [REDIRECT_URI],
          clientType: options.secret ? 'confidential' : 'public',
          secret: options.secret ?? null,
        },
      });
      return id;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
      await testDb.drop();
    },
  };
};

/** A cookie jar over fetch that does not follow redirects: each hop is looked at. */
export const browserLike = (origin: string) => {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const absolute = new URL(url, origin);
    const headers = new Headers(init.headers);
    if (absolute.origin === origin && jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(absolute, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };
  const form = (url: string, fields: Record<string, string>) =>
    go(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  return { go, form, jar };
};

export const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)![1]!;
export const actionOf = (html: string, step: string): string => new RegExp(`action="([^"]+/${step})"`).exec(html)![1]!;

export interface PkceRequest {
  readonly url: URL;
  readonly verifier: string;
  readonly state: string;
}

/** An authorization URL with PKCE S256 and state, made by oauth4webapi's helpers. */
export const authorizationRequest = async (
  as: oauth.AuthorizationServer,
  clientId: string,
  scope: string,
  extra: Record<string, string | null> = {},
): Promise<PkceRequest> => {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  const params: Record<string, string | null> = {
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return { url, verifier, state };
};

/**
 * The browser's part: the authorization request, the sign-in page, the consent page (approved), up to the
 * redirect back to the app. Answers the final redirect's URL (to the app, with `code` and `state`).
 */
export const walkConsent = async (
  browser: ReturnType<typeof browserLike>,
  authorizeUrl: URL,
  login: { handle: string; password: string } | null,
  decision: 'confirm' | 'abort' = 'confirm',
): Promise<URL> => {
  let res = await browser.go(authorizeUrl.href);
  for (let hop = 0; hop < 10; hop++) {
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, authorizeUrl);
      if (next.href.startsWith(REDIRECT_URI)) return next;
      res = await browser.go(next.href);
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`unexpected page ${res.status}: ${html}`);
    if (html.includes('/login"')) {
      if (!login) throw new Error('asked to sign in');
      res = await browser.form(actionOf(html, 'login'), { csrf: csrfOf(html), ...login });
    } else {
      res = await browser.form(actionOf(html, decision), { csrf: csrfOf(html) });
    }
  }
  throw new Error('too many hops');
};

/** The whole flow for a player and a public app: tokens as oauth4webapi processed them. */
export const authorize = async (
  server: OAuthTestServer,
  clientId: string,
  login: { handle: string; password: string },
  scope: string,
): Promise<oauth.TokenEndpointResponse> => {
  const request = await authorizationRequest(server.as, clientId, scope);
  const back = await walkConsent(browserLike(server.origin), request.url, login);
  const client = { client_id: clientId };
  const params = oauth.validateAuthResponse(server.as, client, back, request.state);
  const res = await oauth.authorizationCodeGrantRequest(server.as, client, oauth.None(), params, REDIRECT_URI, request.verifier, INSECURE);
  return oauth.processAuthorizationCodeResponse(server.as, client, res);
};
