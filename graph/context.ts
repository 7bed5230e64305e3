import type { ServiceDeps } from '../service/context.js';
import type { RateLimiter } from '../service/rate-limits.js';
import type { DestinationPolicy } from '../service/webhook-destination.js';
import type { PushSettings } from '../service/push-channel.js';
import type { MailDeps } from '../service/mail-send.js';
import { authenticate, type JwtConfig, type PlayerPrincipal, type Principal, type PrincipalCache } from './auth.js';
import type { ApiScope } from '../service/accounts.js';
import { clientAddress, type ServerContextLike } from './client-address.js';
import { ForbiddenError, UnauthenticatedError } from './error-classes.js';

/**
 * What the app holds once per process and hands to every request's context: the service's
 * dependencies (the database handle, the lexicons, the clock — tests pass a fixed clock; resolvers
 * never call `new Date()` themselves) and the JWT settings of the edge.
 */
export interface AppServices extends ServiceDeps {
  readonly jwt: JwtConfig;
  /** Where webhook subscriptions may point (service/webhook-destination.ts). */
  readonly webhookDestinations: DestinationPolicy;
  /** Web Push's VAPID keys and subject (functions/vapid-keys.ts); absent or null: this server sends no pushes (graph/push.ts). */
  readonly push?: PushSettings | null;
  /** Per-client limits and the login back-off (service/rate-limits.ts). */
  readonly rateLimits: RateLimiter;
  /** Proxies in front of the server that append to X-Forwarded-For (ARBITER_TRUST_PROXY; graph/client-address.ts). */
  readonly trustedProxies: number;
  /** Players behind recently verified tokens (graph/auth.ts; ARBITER_AUTH_CACHE_MS). */
  readonly principals: PrincipalCache;
  /**
   * The live streams' switch and limits, as `GET /v1/games/{id}/events` applies them (rest/events.ts
   * `LiveOptions`; functions/app.ts turns streams off on Lambda): the gameEvents subscription follows them
   * too. Absent: served, with the defaults.
   */
  readonly live?: LiveSettings;
  /** Where and how e-mails go (service/mail-send.ts, functions/mail-settings.ts); absent or null: this server sends none. */
  readonly mail?: MailDeps | null;
}

/** What the gameEvents subscription needs of the live options (graph/live.ts). */
export interface LiveSettings {
  /** Serve streams at all (false on Lambda: 501 STREAMS_UNAVAILABLE). */
  readonly enabled: boolean;
  /** Open streams per caller in this process, REST streams and subscriptions together. */
  readonly streamsPerCaller: number;
  /** The safety-net re-read of the log when no notification comes (ms). */
  readonly pollMs: number;
  /** The heartbeat (ms): a seated player's presence at a game is refreshed at it (service/presence.ts). Default 20 000. */
  readonly heartbeatMs?: number;
  /** How long an unfilled outbox id holds back the later ones (ms; service/my-events.ts). Default 10 000. */
  readonly outboxSettleMs?: number;
  /** Where the streams are served when not here (ARBITER_STREAM_URL: the streaming function's URL on AWS); empty: nowhere. */
  readonly streamUrl?: string;
}

/** What every resolver gets: the shared services of the app, and who is calling. */
export interface Context extends AppServices {
  readonly principal: Principal;
  /** The caller's address key (IPv6 by /64), null when unknown (an in-process call). */
  readonly clientAddress: string | null;
  /** The request's User-Agent, null when none: the device a sign-in session shows (graph/sessions.ts). */
  readonly userAgent: string | null;
}

/** The context of a field that requires `loggedIn` (scope-auth `AuthContexts`). */
export interface PlayerContext extends Context {
  readonly principal: PlayerPrincipal;
}

/**
 * Builds a request's context from Yoga's server context (the request, and the Lambda event or Node's
 * request): the services, the principal from the `Authorization` header, the client's address.
 */
export const createContext = async (services: AppServices, server: ServerContextLike): Promise<Context> => ({
  ...services,
  principal: await authenticate(server.request.headers.get('authorization'), {
    db: services.db,
    jwt: services.jwt,
    now: services.now(),
    cache: services.principals,
  }),
  clientAddress: clientAddress(server, services.trustedProxies),
  userAgent: server.request.headers.get('user-agent'),
});

/**
 * The calling player, or UNAUTHENTICATED (carrying why a presented credential failed). For
 * resolvers; fields should also declare `authScopes: { loggedIn: true }` so the schema says so.
 */
export const requirePlayer = (ctx: Context): PlayerPrincipal => {
  if (ctx.principal.kind === 'player') return ctx.principal;
  throw new UnauthenticatedError(ctx.principal.problem ?? undefined);
};

/** FORBIDDEN for `principal`, saying what it lacks (`needs`: "the API scope keys:manage"). */
export const forbiddenFor = (principal: PlayerPrincipal, needs: string): ForbiddenError =>
  new ForbiddenError(
    `This ${{ 'api-key': 'API key', oauth: 'app token', jwt: 'player' }[principal.via]} is not allowed here: it needs ${needs}.`,
    { needs },
  );

/**
 * The calling player if they hold `scope`: what a field's `authScopes: { scope }` checks, for code that
 * no field guards (a node loaded by node(id:) must be refused exactly as its own query refuses it).
 */
export const requireScope = (ctx: Context, scope: ApiScope): PlayerPrincipal => {
  const me = requirePlayer(ctx);
  if (!me.scopes.includes(scope)) throw forbiddenFor(me, `the API scope ${scope}`);
  return me;
};
