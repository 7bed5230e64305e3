import type { Db } from '../store/db.js';
import { loadLexiconRegistry } from '../service/lexicons.js';
import { emailChannel } from '../service/mail-channel.js';
import type { MailDeps } from '../service/mail-send.js';
import type { NotificationChannel } from '../service/notification-channels.js';
import { DEFAULT_DEADLINE_WINDOW_MS } from '../service/notification-deadlines.js';
import { runNotifier, type NotifierDeps, type NotifierResult } from '../service/notifications.js';
import { pushChannel, type PushSettings } from '../service/push-channel.js';
import { destinationPolicyFromEnv, type DestinationPolicy } from '../service/webhook-destination.js';
import { containerDb } from './container-db.js';
import { mailFromEnv } from './mail-settings.js';
import { observeRun, workerLog } from './observability/worker.js';
import { secretsManagerReader } from './secrets.js';
import { pushSettingsFromEnv } from './vapid-keys.js';
import { publicBaseUrlFromEnv } from './webhooks.js';

/**
 * The notifier (docs/notifications.md#delivery) as this process runs it: its settings from the
 * environment, its channels from the mail and push settings, and the scheduled Lambda (EventBridge, e.g.
 * every minute) that runs it once per invocation. Overlapping invocations are safe (each step claims its
 * rows), and a failed one loses nothing: the next picks up where it stopped.
 */

type Env = Readonly<Record<string, string | undefined>>;

export const NOTIFY_ENV = {
  /** Milliseconds between runs of the in-process notifier (npm start); default 30000. */
  SWEEP_MS: 'ARBITER_NOTIFY_SWEEP_MS',
  /** Hours before a correspondence deadline the player to move is warned; default 24 (at most half the turn time). */
  DEADLINE_HOURS: 'ARBITER_DEADLINE_NOTICE_HOURS',
} as const;

const positive = (raw: string | undefined, fallback: number, name: string, warn: (m: string) => void): number => {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (Number.isFinite(n) && n > 0) return n;
  warn(`${name} must be a positive number, not "${raw}": using ${fallback}`);
  return fallback;
};

export interface NotifierSettings {
  readonly sweepMs: number;
  readonly windowMs: number;
  readonly publicBaseUrl: string;
}

export const notifierSettingsFromEnv = (env: Env, warn: (m: string) => void = console.warn): NotifierSettings => ({
  sweepMs: positive(env[NOTIFY_ENV.SWEEP_MS], 30_000, NOTIFY_ENV.SWEEP_MS, warn),
  windowMs: positive(env[NOTIFY_ENV.DEADLINE_HOURS], DEFAULT_DEADLINE_WINDOW_MS / 3600_000, NOTIFY_ENV.DEADLINE_HOURS, warn) * 3600_000,
  publicBaseUrl: publicBaseUrlFromEnv(env, warn) ?? `http://localhost:${env['PORT'] ?? 4000}`,
});

/** The channels this process can send on: e-mail when mail is set up, push when it has VAPID keys. */
export const notificationChannels = (
  mail: MailDeps | null,
  push: PushSettings | null,
  destinations: DestinationPolicy,
  now: () => Date,
): NotificationChannel[] => [...(mail ? [emailChannel(mail)] : []), ...(push ? [pushChannel({ ...push, destinations, now })] : [])];

export interface NotificationHandlerDeps {
  readonly getDb: () => Promise<Db>;
  /** The channels, made once per container (their settings read at cold start). */
  readonly getChannels: () => Promise<readonly NotificationChannel[]>;
  readonly settings: NotifierSettings;
  readonly now?: () => Date;
  readonly log?: (line: string) => void;
  /** Anything else the run takes (batch sizes, back-off, an injected presence check). */
  readonly options?: Partial<Omit<NotifierDeps, 'now' | 'channels' | 'publicBaseUrl' | 'windowMs'>>;
}

/** One run per invocation; one JSON line with the counts (warn when something died). */
export const createNotificationHandler = (deps: NotificationHandlerDeps) => (): Promise<NotifierResult> =>
  observeRun('notifications', async () => {
    const now = deps.now ?? (() => new Date());
    const log = workerLog(deps.log);
    const started = Date.now();
    const db = await deps.getDb();
    const result = await runNotifier(db, {
      ...deps.options,
      now,
      channels: await deps.getChannels(),
      publicBaseUrl: deps.settings.publicBaseUrl,
      windowMs: deps.settings.windowMs,
    });
    log(result.dead > 0 ? 'warn' : 'info', { msg: 'notifications.run', ...result, ms: Date.now() - started });
    return result;
  });

let channels: Promise<readonly NotificationChannel[]> | undefined;

/** The Lambda entry point (scheduled event). The lexicons are loaded only for the boards in e-mails. */
export const handler = createNotificationHandler({
  getDb: () => containerDb(),
  getChannels: () =>
    (channels ??= (async () => {
      const mail = await mailFromEnv(process.env, { lexicons: loadLexiconRegistry() });
      const push = pushSettingsFromEnv(process.env, secretsManagerReader);
      return notificationChannels(mail, push, destinationPolicyFromEnv(), () => new Date());
    })()),
  settings: notifierSettingsFromEnv(process.env),
});
