import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { API_SCOPES, authenticateApiKey, isApiKeyText, type ApiScope, type PlayerRow } from '../service/accounts.js';
import type { Db } from '../service/context.js';
import { findSessionPlayer, SESSION_IDLE_MS, startSession } from '../service/sessions.js';
import { authenticateOAuthToken, isOAuthAccessTokenText } from './oauth-principal.js';

/**
 * Who is calling. Players sign in with a password, which opens a session (service/sessions.ts), and get a
 * short-lived JWT (HS256, `sub` = player id, `sid` = session id) renewable while the session lives; integrations send an API key (`arb_<prefix>_<secret>`) that acts for its owner with the
 * key's scopes. Both go in `Authorization: Bearer …`. A bad credential does not fail the request:
 * the caller is anonymous, with the reason kept for the UNAUTHENTICATED error of any field that
 * needs a player.
 */
export type Principal = AnonymousPrincipal | PlayerPrincipal;

export interface AnonymousPrincipal {
  readonly kind: 'anonymous';
  /** Why a presented credential was not accepted (expired token, revoked key …); null when none was sent. */
  readonly problem: string | null;
}

export interface PlayerPrincipal {
  readonly kind: 'player';
  readonly player: PlayerRow;
  /** How the caller signed in: a password session's JWT, an API key, or a third-party app's OAuth access token. */
  readonly via: 'jwt' | 'api-key' | 'oauth';
  /** The key used, for `via: 'api-key'`. */
  readonly apiKeyId: string | null;
  /**
   * The sign-in session (`sessions` row) the token belongs to, for `via: 'jwt'`; null for an API key or an
   * OAuth token. Account actions (password change, sessions) need one (graph/sessions.ts).
   */
  readonly sessionId: string | null;
  /** What this caller may do: every scope for a JWT, the key's scopes for an API key. */
  readonly scopes: readonly ApiScope[];
}

export const ANONYMOUS: AnonymousPrincipal = { kind: 'anonymous', problem: null };

export interface JwtConfig {
  /** Signs new tokens (and verifies). */
  readonly secret: Uint8Array;
  /** Earlier keys still accepted for verification during a rotation, each until `until` (null: as long as configured). */
  readonly previous?: readonly PreviousJwtSecret[];
  /**
   * Where the keys can change under a running process (Secrets Manager rotation, functions/jwt-keys.ts):
   * asked for the keys on every use (it caches), and asked to refresh when a token fails the signature
   * check, since another container may already sign with a newer key. Overrides `secret`/`previous`.
   */
  readonly source?: JwtKeySource;
  /** Token lifetime in seconds. */
  readonly ttlSeconds: number;
  readonly issuer: string;
}

export interface PreviousJwtSecret {
  readonly secret: Uint8Array;
  readonly until: Date | null;
}

export interface JwtKeys {
  readonly current: Uint8Array;
  readonly previous: readonly PreviousJwtSecret[];
}

export interface JwtKeySource {
  keys(now: Date, options?: { readonly refresh?: boolean }): Promise<JwtKeys>;
}

const keysOf = async (config: JwtConfig, now: Date, refresh = false): Promise<JwtKeys> =>
  config.source ? config.source.keys(now, { refresh }) : { current: config.secret, previous: config.previous ?? [] };

export const DEFAULT_TOKEN_TTL_SECONDS = 60 * 60;
const ISSUER = 'arbiter';
export const MIN_SECRET_LENGTH = 32;

/** `ARBITER_JWT_TTL_SECONDS` (default 3600). */
export const jwtTtlFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): number => {
  const ttl = Number(env['ARBITER_JWT_TTL_SECONDS'] ?? DEFAULT_TOKEN_TTL_SECONDS);
  if (!Number.isInteger(ttl) || ttl <= 0)
    throw new Error(`ARBITER_JWT_TTL_SECONDS must be a positive integer, not "${env['ARBITER_JWT_TTL_SECONDS']}"`);
  return ttl;
};

/** A configured secret's bytes; shorter than 32 characters stops the server (`name` says which setting). */
export const secretBytes = (value: string, name: string): Uint8Array => {
  if (value.length < MIN_SECRET_LENGTH) throw new Error(`${name} must be at least ${MIN_SECRET_LENGTH} characters long`);
  return new TextEncoder().encode(value);
};

/**
 * The JWT settings from the environment: `ARBITER_JWT_SECRET` (at least 32 characters), optionally
 * `ARBITER_JWT_SECRET_PREVIOUS` (the key before a rotation, still accepted until it is removed), and
 * `ARBITER_JWT_TTL_SECONDS` (default 3600). Without a secret a random one is made for this process
 * and `warn` is told: fine for tests, wrong for a server (tokens would not survive a restart nor cross
 * instances); the local server keeps one in its data directory instead (functions/jwt-keys.ts).
 */
export const jwtConfigFromEnv = (
  env: Readonly<Record<string, string | undefined>> = process.env,
  warn: (message: string) => void = console.warn,
): JwtConfig => {
  const configured = env['ARBITER_JWT_SECRET'];
  const ttl = jwtTtlFromEnv(env);
  const previous = env['ARBITER_JWT_SECRET_PREVIOUS'];
  if (configured === undefined) {
    warn('ARBITER_JWT_SECRET is not set: using a random secret for this process (tokens stop working on restart). Set it in production.');
  }
  const secret = configured === undefined ? new Uint8Array(randomBytes(32)) : secretBytes(configured, 'ARBITER_JWT_SECRET');
  return {
    secret,
    previous: previous ? [{ secret: secretBytes(previous, 'ARBITER_JWT_SECRET_PREVIOUS'), until: null }] : [],
    ttlSeconds: ttl,
    issuer: ISSUER,
  };
};

export interface IssuedToken {
  readonly token: string;
  readonly expiresAt: Date;
}

/**
 * A bearer token for `playerId`, valid `ttlSeconds` from `now`, of the session `sessionId` (`sid`). Only a token
 * with a session is accepted by {@link authenticate}; one without (`sessionId` omitted) verifies as a signature only.
 */
export const issuePlayerToken = async (config: JwtConfig, playerId: string, now: Date, sessionId?: string): Promise<IssuedToken> => {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + config.ttlSeconds;
  const token = await new SignJWT(sessionId === undefined ? {} : { sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(playerId)
    .setIssuer(config.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign((await keysOf(config, now)).current);
  return { token, expiresAt: new Date(exp * 1000) };
};

/**
 * Signs a player in: opens a session (`userAgent` naming the device) and issues its first token. Every password
 * sign-in (login, registerPlayer) comes through here.
 */
export const startSessionToken = async (
  deps: { readonly db: Db; readonly jwt: JwtConfig; readonly now: Date },
  playerId: string,
  userAgent: string | null,
): Promise<IssuedToken & { sessionId: string }> => {
  const session = await startSession(deps.db.prisma, playerId, userAgent, deps.now);
  return { ...(await issuePlayerToken(deps.jwt, playerId, deps.now, session.id)), sessionId: session.id };
};

/** The keys a token may be signed with now: the current one, then the previous ones still in their grace period. */
const acceptedKeys = (keys: JwtKeys, now: Date): Uint8Array[] => [
  keys.current,
  ...keys.previous.filter((p) => p.until === null || p.until.getTime() > now.getTime()).map((p) => p.secret),
];

const verifyWith = async (config: JwtConfig, token: string, now: Date, keys: JwtKeys, clockTolerance = 0) => {
  let lastError: unknown = new joseErrors.JWSSignatureVerificationFailed();
  for (const key of acceptedKeys(keys, now)) {
    try {
      return await jwtVerify(token, key, { algorithms: ['HS256'], issuer: config.issuer, currentDate: now, clockTolerance });
    } catch (e) {
      lastError = e;
      if (!(e instanceof joseErrors.JWSSignatureVerificationFailed)) break; // expired, malformed …: no other key changes that
    }
  }
  throw lastError;
};

/**
 * A valid token's player, session (null for a token minted before sessions) and expiry (ms since the epoch), or
 * why it is not valid. `clockTolerance` (seconds) accepts a token that expired that long ago (renewToken).
 */
const verifyToken = async (
  config: JwtConfig,
  token: string,
  now: Date,
  clockTolerance = 0,
): Promise<{ playerId: string; sessionId: string | null; expiresAtMs: number } | { problem: string }> => {
  try {
    let payload;
    try {
      ({ payload } = await verifyWith(config, token, now, await keysOf(config, now), clockTolerance));
    } catch (e) {
      if (!(e instanceof joseErrors.JWSSignatureVerificationFailed) || !config.source) throw e;
      ({ payload } = await verifyWith(config, token, now, await keysOf(config, now, true), clockTolerance));
    }
    if (!payload.sub) return { problem: 'The token names no player.' };
    const sessionId = typeof payload['sid'] === 'string' ? payload['sid'] : null;
    return { playerId: payload.sub, sessionId, expiresAtMs: payload.exp === undefined ? Infinity : payload.exp * 1000 };
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) return { problem: 'The token has expired: sign in again (login).' };
    return { problem: 'The token is not valid: sign in again (login).' };
  }
};

/**
 * The player id in a valid token, or why it is not valid. A token whose signature no known key matches
 * makes a rotating key source refresh once (another container may sign with a newer key already).
 */
export const verifyPlayerToken = async (
  config: JwtConfig,
  token: string,
  now: Date,
): Promise<{ playerId: string } | { problem: string }> => {
  const verified = await verifyToken(config, token, now);
  return 'problem' in verified ? verified : { playerId: verified.playerId };
};

/**
 * The player and session of a token presented for renewal (renewToken): its signature must hold, but it may
 * have expired, as long as its session could still be live (at most {@link SESSION_IDLE_MS} ago): a client
 * that slept past its token's hour renews without the password. Whether the session is live is the caller's
 * check (service/sessions.ts renewSession).
 */
export const verifyTokenForRenewal = async (
  config: JwtConfig,
  token: string,
  now: Date,
): Promise<{ playerId: string; sessionId: string } | { problem: string }> => {
  const verified = await verifyToken(config, token, now, SESSION_IDLE_MS / 1000);
  if ('problem' in verified) return verified;
  if (verified.sessionId === null) return { problem: OLD_TOKEN_PROBLEM };
  return { playerId: verified.playerId, sessionId: verified.sessionId };
};

const OLD_TOKEN_PROBLEM = 'The token was issued before sign-in sessions existed: sign in again (login).';

/**
 * Players behind recently verified tokens, so that a player's next requests skip the signature check
 * and the player lookup (one statement of every authenticated request; issue #17, bench/turnpath.ts).
 * An entry lives `ttlMs` at most, and never past its token's expiry. Only tokens are kept. A token's session
 * can be ended (endSession, signOutEverywhere, changePassword) in any process: this process forgets its
 * entries at once (`forgetSession`, `forgetPlayer`), the others refuse the token once their entry is older
 * than `ttlMs` — the bound on how long a revocation takes to reach every Lambda container. API keys are not
 * kept: revoking one (possibly in another process) must refuse its very next request. Whatever else comes to
 * invalidate a player's tokens (a deletion) must call `forgetPlayer` here the same way.
 */
export interface PrincipalCache {
  get(token: string, nowMs: number): PlayerPrincipal | null;
  set(token: string, principal: PlayerPrincipal, untilMs: number): void;
  /** Drops every cached token of `playerId`: their next request is checked against the database again. */
  forgetPlayer(playerId: string): void;
  /** Drops every cached token of the session `sessionId` (ended: its next request is refused). */
  forgetSession(sessionId: string): void;
  readonly ttlMs: number;
  /**
   * Checks under way, by token: requests that arrive with a token while it is being checked wait for that
   * check instead of each making their own (64 concurrent games whose entry expired at once made 64 checks).
   */
  readonly pending: Map<string, Promise<Principal>>;
}

export const DEFAULT_PRINCIPAL_CACHE_MS = 5_000;
const PRINCIPAL_CACHE_ENTRIES = 10_000;

/** `ARBITER_AUTH_CACHE_MS` (default 5000; 0 turns the cache off). */
export const principalCacheMsFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): number => {
  const ms = Number(env['ARBITER_AUTH_CACHE_MS'] ?? DEFAULT_PRINCIPAL_CACHE_MS);
  if (!Number.isInteger(ms) || ms < 0)
    throw new Error(`ARBITER_AUTH_CACHE_MS must be a whole number of milliseconds ≥ 0, not "${env['ARBITER_AUTH_CACHE_MS']}"`);
  return ms;
};

export const createPrincipalCache = (ttlMs: number, maxEntries = PRINCIPAL_CACHE_ENTRIES): PrincipalCache => {
  const entries = new Map<string, { principal: PlayerPrincipal; untilMs: number }>();
  return {
    ttlMs,
    pending: new Map(),
    get: (token, nowMs) => {
      const e = entries.get(token);
      if (!e) return null;
      if (e.untilMs > nowMs) return e.principal;
      entries.delete(token);
      return null;
    },
    set: (token, principal, untilMs) => {
      if (ttlMs <= 0) return;
      // Oldest first (a Map keeps insertion order): a flood of tokens costs memory no further than maxEntries.
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(token, { principal, untilMs });
    },
    forgetPlayer: (playerId) => {
      for (const [token, e] of entries) if (e.principal.player.id === playerId) entries.delete(token);
    },
    forgetSession: (sessionId) => {
      for (const [token, e] of entries) if (e.principal.sessionId === sessionId) entries.delete(token);
    },
  };
};

export interface AuthenticateDeps {
  readonly db: Db;
  readonly jwt: JwtConfig;
  readonly now: Date;
  readonly cache?: PrincipalCache;
}

/**
 * The principal for a request's `Authorization` header. Queries the database for the player (a
 * deleted player's token is worthless) or the key; a token seen in the last few seconds is answered
 * from `cache` (see {@link PrincipalCache}).
 */
export const authenticate = async (authorization: string | null, deps: AuthenticateDeps): Promise<Principal> => {
  if (!authorization) return ANONYMOUS;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) return { kind: 'anonymous', problem: 'The Authorization header must be "Bearer <token or API key>".' };
  const credential = m[1]!;
  if (isOAuthAccessTokenText(credential)) return authenticateOAuthToken(credential, deps);
  if (isApiKeyText(credential)) {
    const key = await authenticateApiKey(deps.db.prisma, credential, deps.now);
    if (!key.ok) return { kind: 'anonymous', problem: key.error.message };
    return {
      kind: 'player',
      player: key.value.owner,
      via: 'api-key',
      apiKeyId: key.value.key.id,
      sessionId: null,
      scopes: key.value.scopes,
    };
  }
  const cache = deps.cache;
  if (!cache || cache.ttlMs <= 0) return authenticateToken(credential, deps);
  const cached = cache.get(credential, deps.now.getTime());
  if (cached) return cached;
  const pending = cache.pending.get(credential);
  if (pending) return pending;
  const checking = authenticateToken(credential, deps).finally(() => cache.pending.delete(credential));
  cache.pending.set(credential, checking);
  return checking;
};

const SESSION_PROBLEMS = {
  revoked: 'The token’s session was ended (signed out, or the password changed): sign in again (login).',
  expired: 'The token’s session expired after 30 days without use: sign in again (login).',
  unknown: 'The token’s session does not exist: sign in again (login).',
} as const;

/**
 * A player token checked against the keys, then its player and session in one statement; a valid one goes into
 * `deps.cache`. A token without a session (minted before sessions, an hour at most) is refused.
 */
const authenticateToken = async (credential: string, deps: AuthenticateDeps): Promise<Principal> => {
  const nowMs = deps.now.getTime();
  const verified = await verifyToken(deps.jwt, credential, deps.now);
  if ('problem' in verified) return { kind: 'anonymous', problem: verified.problem };
  if (verified.sessionId === null) return { kind: 'anonymous', problem: OLD_TOKEN_PROBLEM };
  // On the driver, not Prisma: a token's request (a turn) then never needs Prisma (store/sessions.ts).
  const found = await findSessionPlayer(deps.db, verified.playerId, verified.sessionId, deps.now);
  if (!found || found.player.deletedAt) return { kind: 'anonymous', problem: 'The token names a player who no longer exists.' };
  if (found.session !== 'live') return { kind: 'anonymous', problem: SESSION_PROBLEMS[found.session] };
  const player = found.player;
  const principal: PlayerPrincipal = {
    kind: 'player',
    player,
    via: 'jwt',
    apiKeyId: null,
    sessionId: verified.sessionId,
    scopes: API_SCOPES,
  };
  if (deps.cache) deps.cache.set(credential, principal, Math.min(nowMs + deps.cache.ttlMs, verified.expiresAtMs));
  return principal;
};
