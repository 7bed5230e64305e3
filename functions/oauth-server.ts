import type { IncomingHttpHeaders } from 'node:http';
import type inject from 'light-my-request';
import type { Plugin } from 'graphql-yoga';
import type Provider from 'oidc-provider';
import { clientAddress, type ServerContextLike } from '../graph/client-address.js';
import type { AppServices } from '../graph/context.js';
import type { RuleError } from '../engine/errors.js';
import { checkOAuthTokenLimit } from '../service/oauth-token-limits.js';
import { metrics } from './observability/metrics.js';
import { currentScope } from './observability/scope.js';
import { publicBaseUrlFromEnv } from './webhooks.js';

/**
 * Serves the authorization server (functions/oauth-provider.ts) inside the Yoga app, the same on Lambda
 * and on `npm start`: oidc-provider is a Koa application wanting Node's (req, res), everything here is
 * fetch; light-my-request (Fastify's injector) turns a fetch Request into a Node request for
 * `provider.callback()` and its answer back into a Response, in process, no socket. Routes: /oauth/*,
 * and the metadata at /.well-known/oauth-authorization-server (RFC 8414) and
 * /.well-known/openid-configuration (the same document).
 */

export const RFC8414_PATH = '/.well-known/oauth-authorization-server';
const OIDC_DISCOVERY_PATH = '/.well-known/openid-configuration';
const TOKEN_PATH = '/oauth/token';

export interface OAuthServerOptions {
  /**
   * The issuer: ARBITER_PUBLIC_URL (functions/webhooks.ts publicBaseUrlFromEnv), else the origin of the
   * first request this process serves (npm start, tests). It must stay the same for a deployment.
   */
  readonly issuer: string | null;
}

export const oauthServerOptionsFromEnv = (
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void = console.warn,
): OAuthServerOptions => ({ issuer: publicBaseUrlFromEnv(env, warn) });

// Kept in step with OAUTH_PREFIX of functions/oauth-provider.ts, which is loaded on the first OAuth request only.
const isOAuthPath = (path: string): boolean => path.startsWith('/oauth/') || path === RFC8414_PATH || path === OIDC_DISCOVERY_PATH;

/**
 * oidc-provider (with Koa) and light-my-request are loaded on the first OAuth request, not at start: a cold
 * start of the API for anything else (a turn) never pays for them.
 */
const loadServer = async () => {
  const [{ default: inject }, provider, interactions] = await Promise.all([
    import('light-my-request'),
    import('./oauth-provider.js'),
    import('./oauth-interactions.js'),
  ]);
  return { inject, ...provider, ...interactions };
};

type Loaded = Awaited<ReturnType<typeof loadServer>>;

interface Served {
  readonly loaded: Loaded;
  readonly provider: Provider;
  readonly dispatch: ReturnType<Provider['callback']>;
}

const nodeHeaders = (request: Request, url: URL): IncomingHttpHeaders => {
  const headers: IncomingHttpHeaders = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // What the outer request really was (oidc-provider trusts X-Forwarded-* with provider.proxy): never the client's own.
  headers['x-forwarded-proto'] = url.protocol.replace(/:$/, '');
  headers['x-forwarded-host'] = url.host;
  delete headers['x-forwarded-for'];
  return headers;
};

const toResponse = (res: inject.Response): Response => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
  }
  const empty = res.statusCode === 204 || res.statusCode === 304;
  return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
};

export const useOAuth = (services: AppServices, options: OAuthServerOptions): Plugin => {
  const ownCors = new WeakMap<Request, [string, string][]>();
  let served: Promise<Served> | undefined;
  let secrets: readonly Uint8Array[] = [];
  const make = async (origin: string): Promise<Served> => {
    const loaded = await loadServer();
    const signing = await loaded.jwtSecretsOf(services.jwt, new Date());
    const provider = loaded.createOAuthProvider({ db: services.db, issuer: options.issuer ?? origin, signingSecret: signing[0]! });
    provider.use(loaded.interactionPages(services, provider, () => secrets));
    return { loaded, provider, dispatch: provider.callback() };
  };
  const serve = async (origin: string): Promise<Served> => {
    const starting = (served ??= make(origin));
    starting.catch(() => {
      if (served === starting) served = undefined; // a failed start is tried again by the next request
    });
    const s = await starting;
    secrets = await s.loaded.jwtSecretsOf(services.jwt, new Date());
    // The cookie keys follow the JWT secret's rotation (Secrets Manager on AWS, the data directory locally).
    s.provider.keys = s.loaded.cookieKeysOf(secrets);
    return s;
  };
  return {
    onRequest: async ({ request, url, serverContext, endResponse }) => {
      if (!isOAuthPath(url.pathname)) return;
      const path = url.pathname === RFC8414_PATH ? OIDC_DISCOVERY_PATH : url.pathname;
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
      const address = clientAddress({ ...(serverContext as object), request } as ServerContextLike, services.trustedProxies);
      if (request.method === 'POST' && path === TOKEN_PATH) {
        // Before oidc-provider (and before loading it): a refused request costs two statements and no more.
        const limit = await checkOAuthTokenLimit(services.rateLimits, { clientId: clientIdOf(request, body), address }, services.now());
        if (!limit.ok) {
          ownCors.set(request, []);
          endResponse(tokenLimited(limit.error));
          return;
        }
      }
      const { loaded, dispatch } = await serve(url.origin);
      const res = await loaded.requestAddress.run(address, () =>
        loaded.inject(dispatch, {
          method: request.method,
          url: path + url.search,
          headers: nodeHeaders(request, url),
          ...(body ? { payload: body } : {}),
        }),
      );
      const response = toResponse(res);
      ownCors.set(request, corsHeadersOf(response.headers));
      endResponse(response);
    },
    // Yoga's CORS (every origin, with credentials: right for the bearer-token API) must not reach these pages
    // and endpoints: put back what oidc-provider answered (clientBasedCORS), and let it answer the preflight.
    onResponse: async ({ request, response, setResponse }) => {
      const url = new URL(request.url);
      if (!isOAuthPath(url.pathname)) return;
      if (request.method === 'OPTIONS' && !ownCors.has(request)) {
        const { loaded, dispatch } = await serve(url.origin);
        const res = await loaded.inject(dispatch, {
          method: 'OPTIONS',
          url: url.pathname + url.search,
          headers: nodeHeaders(request, url),
        });
        return setResponse(toResponse(res));
      }
      const own = ownCors.get(request) ?? [];
      for (const name of [...response.headers.keys()]) if (name.startsWith('access-control-')) response.headers.delete(name);
      for (const [name, value] of own) response.headers.set(name, value);
    },
  };
};

/**
 * The client_id a token request names: HTTP Basic (RFC 6749 §2.3.1: form-encoded, then base64) for a
 * confidential app, the `client_id` field of the form for a public one. Null when there is none; whether
 * it is a real app is oidc-provider's question, asked after the limit.
 */
const clientIdOf = (request: Request, body: Buffer | undefined): string | null => {
  const basic = /^basic\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    try {
      return decodeURIComponent((colon < 0 ? decoded : decoded.slice(0, colon)).replace(/\+/g, ' '));
    } catch {
      return null;
    }
  }
  return body ? new URLSearchParams(body.toString('utf8')).get('client_id') : null;
};

/**
 * A refusal of the token endpoint's limit, in the shape of the endpoint's errors (RFC 6749 §5.2): 429 with
 * Retry-After and `temporarily_unavailable`. §5.2 defines no code for it; `temporarily_unavailable` is the
 * registered code that means "try again later" (§4.1.2.1), which a client library surfaces as it is, where
 * an `invalid_request` would tell the app its request was wrong.
 */
const tokenLimited = (e: RuleError): Response => {
  const retryAfter = Number(e.details?.['retryAfterSeconds'] ?? 1);
  metrics().inc('rate_limit_refusals_total', { field: 'oauthToken' });
  const scope = currentScope();
  if (scope) scope.outcome = 'RATE_LIMITED';
  return new Response(JSON.stringify({ error: 'temporarily_unavailable', error_description: e.message }), {
    status: 429,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'retry-after': String(retryAfter) },
  });
};

const corsHeadersOf = (headers: Headers): [string, string][] => [...headers].filter(([name]) => name.startsWith('access-control-'));
