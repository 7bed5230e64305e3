import { createDb, type CreateDbOptions, type Db } from '../store/db.js';
import { scryptParamsFromEnv } from '../store/passwords.js';
import { createPrincipalCache, jwtConfigFromEnv, principalCacheMsFromEnv, type JwtConfig } from '../graph/auth.js';
import type { AppServices } from '../graph/context.js';
import { createArbiterYoga, type ArbiterYoga, type YogaOptions } from '../graph/yoga.js';
import { loadLexiconRegistry, registerLexicons, type LexiconRegistry } from '../service/lexicons.js';
import { useRestDeprecation } from '../rest/legacy.js';
import { useImageRoutes } from '../rest/images.js';
import { useRatingChartRoutes } from '../rest/rating-chart.js';
import { usePlayerPages } from '../graph/player-page.js';
import { LIVE_DEFAULTS, useEventStreams, type LiveOptions } from '../rest/events.js';
import { useTournamentPages } from '../graph/tournament-page.js';
import { useEmailPages } from '../rest/email-pages.js';
import { oauthServerOptionsFromEnv, useOAuth, type OAuthServerOptions } from './oauth-server.js';
import type { MailDeps } from '../service/mail-send.js';
import { mailFromEnv } from './mail-settings.js';
import type { PushSettings } from '../service/push-channel.js';
import { pushSettingsFromEnv } from './vapid-keys.js';
import { secretsManagerReader } from './secrets.js';
import { useRest } from '../rest/plugin.js';
import { trustedProxiesFromEnv } from '../graph/client-address.js';
import { rateLimitConfigFromEnv } from '../service/rate-limit-config.js';
import { createRateLimiter, postgresRateLimitStore, type RateLimitConfig } from '../service/rate-limits.js';
import { destinationPolicyFromEnv, type DestinationPolicy } from '../service/webhook-destination.js';
import { schema } from '../graph/schema.js';
import { useProbes } from './observability/health.js';
import { logUnexpectedError } from './observability/log.js';
import { observeRootFields } from './observability/root-fields.js';
import { observeDb, sqlObserver } from './observability/scope.js';
import { useRequestScope } from './observability/yoga-plugin.js';
import { createRobotWorker, type RobotWorker } from '../service/robot-worker.js';
import { STREAM_URL_ENV } from './stream-env.js';
import { createNotificationWorker, type NotificationWorker } from '../service/notifications.js';
import { notificationChannels, notifierSettingsFromEnv } from './notifications.js';

/**
 * The one place that wires the database, the lexicons and Yoga, for both runtimes (functions/server.ts
 * locally, functions/graphql.ts on Lambda) and for the API tests. Everything here is made once per
 * process and shared by all requests.
 */
export interface AppOptions extends YogaOptions {
  /** An open database to use (tests); otherwise one is opened with `dbOptions` (PGlite or DATABASE_URL). */
  readonly db?: Db;
  readonly dbOptions?: CreateDbOptions;
  /** Lexicons already loaded (tests); otherwise every lexicon in the search directories is loaded. */
  readonly lexicons?: LexiconRegistry;
  readonly jwt?: JwtConfig;
  readonly now?: () => Date;
  /** Where webhook subscriptions may point; default from the environment (ARBITER_WEBHOOK_ALLOW_LOCAL). Tests stub DNS here. */
  readonly webhookDestinations?: DestinationPolicy;
  /** Per-client limits; default from the environment (ARBITER_RATE_LIMITS, ARBITER_LOGIN_BACKOFF) over the defaults of service/rate-limits.ts. */
  readonly rateLimits?: RateLimitConfig;
  /** Proxies that append to X-Forwarded-For; default ARBITER_TRUST_PROXY, else 0. */
  readonly trustedProxies?: number;
  /** How long a verified token's player is kept (graph/auth.ts PrincipalCache); default ARBITER_AUTH_CACHE_MS, else 5000; 0: off. */
  readonly principalCacheMs?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly warn?: (message: string) => void;
  /**
   * Record the loaded lexicons in the database before serving (default true: the local server, tests).
   * The deployed API passes false: the migrate function registers the shipped lexicons once per
   * deployment (functions/migrate.ts), which keeps those queries out of every cold start.
   */
  readonly registerLexicons?: boolean;
  /** Serve the Prometheus text at GET /metrics (the self-hosted server; on Lambda metrics go out as EMF). */
  readonly metricsEndpoint?: boolean;
  /**
   * Who plays robot seats (issue 19): `in-process` (default: npm start, the tests) runs the worker of
   * service/robot-worker.ts here, sweeping every `robotSweepMs` (default ARBITER_ROBOT_SWEEP_MS, else
   * 30 s); a function is the wake-up hook of a deployment (the SQS sender); `off` leaves them to the sweep.
   */
  readonly robots?: 'in-process' | 'off' | ((gameId: string) => void | Promise<void>);
  readonly robotSweepMs?: number;
  /** The live event streams' heartbeats and limits (rest/events.ts, docs/live.md); defaults there. */
  readonly live?: LiveOptions;
  /**
   * Where e-mails go (functions/mail-settings.ts): given (tests), null (none), or `settings`: from the
   * settings with the mailbox folder as the fallback (npm start). Default: from the settings only when
   * ARBITER_SMTP_URL or ARBITER_MAIL is set, else none.
   */
  readonly mail?: MailDeps | null | 'settings';
  /** Web Push's keys and subject (functions/vapid-keys.ts); default from the environment (a key file in the data directory locally); null: off. */
  readonly push?: PushSettings | null;
  /**
   * The notifier (docs/notifications.md): `in-process` (npm start) runs service/notifications.ts here every
   * ARBITER_NOTIFY_SWEEP_MS (default 30 s) over this app's mail and push; `off` (default: the tests, Lambda,
   * where functions/notifications.ts runs on a schedule) leaves it to another process.
   */
  readonly notifications?: 'in-process' | 'off';
  /** The OAuth authorization server's issuer (functions/oauth-server.ts); default ARBITER_PUBLIC_URL, else the first request's origin. */
  readonly oauth?: OAuthServerOptions;
}

export interface App {
  readonly yoga: ArbiterYoga;
  readonly services: AppServices;
  /** The in-process robot worker; null when robots are played elsewhere. */
  readonly robots: RobotWorker | null;
  /** The in-process notifier; null when notifications are sent elsewhere. */
  readonly notifications: NotificationWorker | null;
  /** Closes the database (only when this app opened it). */
  close(): Promise<void>;
}

export const createApp = async (options: AppOptions = {}): Promise<App> => {
  const env = options.env ?? process.env;
  const warn = options.warn ?? console.warn;
  const jwt = options.jwt ?? jwtConfigFromEnv(env, warn);
  const webhookDestinations = options.webhookDestinations ?? destinationPolicyFromEnv(env);
  const rateLimitConfig = options.rateLimits ?? rateLimitConfigFromEnv(env);
  const trustedProxies = options.trustedProxies ?? trustedProxiesFromEnv(env);
  const lexicons = options.lexicons ?? loadLexiconRegistry(undefined, warn);
  if (lexicons.all.length === 0) warn('no lexicons loaded: run `npm run lexicons` (word checks will fail with LEXICON_NOT_FOUND)');
  const opened = options.db ?? (await createDb({ env, observer: sqlObserver, ...options.dbOptions }));
  const db = observeDb(opened);
  try {
    if (options.registerLexicons !== false) await registerLexicons(db.prisma, lexicons);
  } catch (e) {
    if (!options.db) await opened.close();
    throw e;
  }
  const robots = options.robots ?? 'in-process';
  const worker =
    robots === 'in-process'
      ? createRobotWorker(
          { db, lexicons, now: options.now ?? (() => new Date()) },
          { sweepMs: options.robotSweepMs ?? Number(env['ARBITER_ROBOT_SWEEP_MS'] ?? 30_000) },
        )
      : null;
  const robotTurns = typeof robots === 'function' ? robots : worker?.wake;
  // On Lambda (a buffered integration) a stream could never end: the route and the subscription say so instead (rest/events.ts).
  // Where the stack serves them instead (functions/stream-entry.ts behind a function URL), the 501 names it.
  const streamUrl = (env[STREAM_URL_ENV] ?? '').replace(/\/+$/, '');
  const live = { ...LIVE_DEFAULTS, enabled: !env['AWS_LAMBDA_FUNCTION_NAME'], streamUrl, ...options.live };
  const mail =
    options.mail === 'settings' || (options.mail === undefined && (env['ARBITER_SMTP_URL'] || env['ARBITER_MAIL']))
      ? await mailFromEnv(env, { lexicons, ...(options.now ? { now: options.now } : {}) })
      : (options.mail ?? null);
  // A bad ARBITER_SCRYPT_N stops the start, not the first sign-in (store/passwords.ts).
  scryptParamsFromEnv(env);
  const services: AppServices = {
    db,
    lexicons,
    ...(robotTurns ? { robotTurns } : {}),
    jwt,
    webhookDestinations,
    rateLimits: createRateLimiter(rateLimitConfig, postgresRateLimitStore(db)),
    trustedProxies,
    principals: createPrincipalCache(options.principalCacheMs ?? principalCacheMsFromEnv(env)),
    live,
    mail,
    push: options.push !== undefined ? options.push : pushSettingsFromEnv(env, secretsManagerReader, warn),
    now: options.now ?? (() => new Date()),
  };
  observeRootFields(schema);
  // The probes first; the /v1 REST edge runs its GraphQL operations through this Yoga; the old /rest routes say they are deprecated.
  const yoga = createArbiterYoga(services, {
    logError: logUnexpectedError,
    ...options,
    plugins: [
      useProbes(services, { metricsEndpoint: options.metricsEndpoint ?? false }),
      useRequestScope(),
      useImageRoutes(services),
      useRatingChartRoutes(services),
      usePlayerPages(services),
      useEventStreams(services, live),
      useTournamentPages(services),
      useEmailPages(services),
      useOAuth(services, options.oauth ?? oauthServerOptionsFromEnv(env, warn)),
      useRest(),
      useRestDeprecation(),
      ...(options.plugins ?? []),
    ],
  });
  const notifier = options.notifications === 'in-process' ? startNotifier(services, env, warn) : null;
  const close = async (): Promise<void> => {
    notifier?.stop();
    await notifier?.idle();
    worker?.stop();
    await worker?.idle();
    if (!options.db) await opened.close();
  };
  return { yoga, services, robots: worker, notifications: notifier, close };
};

const startNotifier = (
  services: AppServices,
  env: Readonly<Record<string, string | undefined>>,
  warn: (m: string) => void,
): NotificationWorker => {
  const settings = notifierSettingsFromEnv(env, warn);
  const channels = notificationChannels(services.mail ?? null, services.push ?? null, services.webhookDestinations, services.now);
  return createNotificationWorker(
    services.db,
    { now: services.now, channels, publicBaseUrl: settings.publicBaseUrl, windowMs: settings.windowMs },
    settings.sweepMs,
  );
};
