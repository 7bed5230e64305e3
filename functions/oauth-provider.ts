import { createHmac, createPrivateKey, type JsonWebKey } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { JwtConfig } from '../graph/auth.js';
import { OAUTH_SCOPES } from '../service/oauth-access.js';
import type { Db } from '../store/db.js';
import { oauthAdapterClass } from '../store/oauth-adapter.js';
import { logger } from './observability/log.js';

/**
 * The OAuth 2.0 authorization server for third-party apps (docs/apps.md#the-authorization-server), made
 * of `oidc-provider` (OpenID-certified, maintained) rather than our own: authorization code with PKCE
 * (S256 only, always required), exact redirect URIs, `state` required, refresh tokens rotated on every use
 * with reuse detection (a refresh token or code used twice revokes its whole grant: oidc-provider does it),
 * revocation (RFC 7009), introspection (RFC 7662, for confidential clients) and metadata (RFC 8414).
 * Its routes live under /oauth; functions/oauth-server.ts serves them through Yoga.
 */

export const OAUTH_PREFIX = '/oauth';
export const INTERACTION_PATH = `${OAUTH_PREFIX}/interaction`;

/** How long things live, in seconds (docs/apps.md#token-lifetimes). */
export const OAUTH_TTL = {
  /** An access token: short, so a revoked grant or a deleted app stops being usable soon even where cached. */
  AccessToken: 60 * 60,
  /** A code is exchanged within seconds by a working client. */
  AuthorizationCode: 60,
  /** A refresh token: 30 days from its issue; each use gives a new one, so an app in use stays signed in. */
  RefreshToken: 30 * 24 * 60 * 60,
  /** A grant (the player's consent): a year at most, then the player approves again. */
  Grant: 365 * 24 * 60 * 60,
  /** The login and consent pages. */
  Interaction: 60 * 60,
  /** The player's sign-in on the authorization server (its cookie), so a second app need not ask the password. */
  Session: 24 * 60 * 60,
} as const;

export interface OAuthProviderOptions {
  readonly db: Db;
  readonly issuer: string;
  /** The JWT key material: the cookie keys and the signing key are derived from it (one kept secret, functions/jwt-keys.ts). */
  readonly signingSecret: Uint8Array;
}

/** A key for one purpose derived from the JWT secret, so that no other secret needs keeping and rotating. */
export const derivedKey = (secret: Uint8Array, purpose: string): Buffer =>
  createHmac('sha256', secret).update(`arbiter oauth ${purpose}`).digest();

/** The JWT secrets a request may meet now: the current one first (it signs), then the previous ones. */
export const jwtSecretsOf = async (jwt: JwtConfig, now: Date): Promise<Uint8Array[]> => {
  const keys = jwt.source ? await jwt.source.keys(now) : { current: jwt.secret, previous: jwt.previous ?? [] };
  return [keys.current, ...keys.previous.filter((p) => p.until === null || p.until > now).map((p) => p.secret)];
};

/** The cookie keys (Koa's keygrip: the first signs, every one verifies). */
export const cookieKeysOf = (secrets: readonly Uint8Array[]): string[] =>
  secrets.map((s) => derivedKey(s, 'cookies').toString('base64url'));

/** An Ed25519 key made from the secret, for ID tokens should a client ask `openid`: stable across processes, never the public development key. */
const signingJwks = (secret: Uint8Array): { keys: JsonWebKey[] } => {
  const seed = derivedKey(secret, 'ed25519');
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const jwk = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
  return { keys: [{ ...jwk, use: 'sig', alg: 'EdDSA' }] };
};

/** The browser origins of an app's redirect URIs: a browser app on those may call the token endpoints (CORS). */
const redirectOrigins = (redirectUris: readonly string[]): Set<string> =>
  new Set(redirectUris.flatMap((u) => (URL.canParse(u) ? [new URL(u).origin] : [])));

const stateRequired = async (_ctx: KoaContextWithOIDC, value: string | undefined): Promise<void> => {
  // RFC 6749 makes `state` optional; we require it (CSRF on the redirect back to the app), answered on the redirect URI.
  if (!value) throw new errors.InvalidRequest('the state parameter is required');
};

const configuration = (options: OAuthProviderOptions): Configuration => {
  const resource = new URL('/', options.issuer).href;
  return {
    adapter: oauthAdapterClass(options.db) as unknown as Configuration['adapter'],
    findAccount: async (_ctx, sub) => {
      const player = await options.db.prisma.player.findFirst({ where: { id: sub, deletedAt: null }, select: { id: true } });
      return player ? { accountId: player.id, claims: () => ({ sub: player.id }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    routes: {
      authorization: `${OAUTH_PREFIX}/authorize`,
      token: `${OAUTH_PREFIX}/token`,
      revocation: `${OAUTH_PREFIX}/revoke`,
      introspection: `${OAUTH_PREFIX}/introspect`,
      jwks: `${OAUTH_PREFIX}/jwks`,
      userinfo: `${OAUTH_PREFIX}/userinfo`,
      end_session: `${OAUTH_PREFIX}/logout`,
      pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      registration: `${OAUTH_PREFIX}/register`,
      code_verification: `${OAUTH_PREFIX}/device`,
      device_authorization: `${OAUTH_PREFIX}/device/auth`,
      backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
      challenge: `${OAUTH_PREFIX}/challenge`,
      credential: `${OAUTH_PREFIX}/credential`,
    },
    scopes: [...OAUTH_SCOPES],
    responseTypes: ['code'],
    pkce: { required: () => true },
    extraParams: { state: stateRequired },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientBasedCORS: (_ctx, origin, client) => redirectOrigins(client.redirectUris ?? []).has(origin),
    features: {
      devInteractions: { enabled: false },
      // RFC 7009: an app revokes its own tokens; another app's token is answered 200 and left alone (RFC 7009 §2.2).
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      // RFC 7662: only an app that can prove who it is (a confidential one), and only about its own tokens: the one
      // resource server, the API, reads the records itself (service/oauth-access.ts).
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => client.clientAuthMethod !== 'none' && token.clientId === client.clientId,
      },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // Every token is for the API itself: one resource, the API's scopes, opaque tokens we look up (service/oauth-access.ts).
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget('the only resource is this API');
          return { scope: OAUTH_SCOPES.join(' '), accessTokenFormat: 'opaque', accessTokenTTL: OAUTH_TTL.AccessToken };
        },
      },
    },
    ttl: { ...OAUTH_TTL },
    rotateRefreshToken: true,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // A token lives its own life, not the browser sign-in's on the authorization server.
    expiresWithSession: () => false,
    cookies: { keys: cookieKeysOf([options.signingSecret]) },
    jwks: signingJwks(options.signingSecret),
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    discovery: { service_documentation: `${new URL('/docs/apps.md', options.issuer).href}` },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.set('content-security-policy', "default-src 'none'; base-uri 'none'; frame-ancestors 'none'");
      const text = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
      ctx.body =
        `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Authorization failed</title></head><body><main>` +
        `<h1>Authorization failed</h1><p>${text(out.error_description ?? out.error)}</p><p><small>${text(out.error)}</small></p></main></body></html>\n`;
    },
  };
};

/** Events whose errors are worth a line; their error objects carry no token (oidc-provider's messages name none). */
const ERROR_EVENTS = ['server_error', 'authorization.error', 'grant.error', 'revocation.error', 'introspection.error', 'jwks.error'];

export const createOAuthProvider = (options: OAuthProviderOptions): Provider => {
  const provider = new Provider(options.issuer, configuration(options));
  // The bridge passes the outer request's scheme and host as X-Forwarded-*: cookies are Secure behind HTTPS.
  provider.proxy = true;
  // Koa's own error print (stderr, stack and all) stays off: the events below go to our logger instead.
  provider.silent = true;
  for (const event of ERROR_EVENTS)
    (provider.on as (e: string, listener: (ctx: unknown, err: Error & { error?: string; status?: number }) => void) => void)(
      event,
      (_ctx, err) => {
        const line = { msg: `oauth.${event}`, error: err.error ?? err.name, status: err.status ?? 500, description: err.message };
        if ((err.status ?? 500) >= 500) logger().error({ ...line, err });
        else logger().info(line);
      },
    );
  return provider;
};
