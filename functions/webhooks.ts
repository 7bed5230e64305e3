import type { Db } from '../store/db.js';
import { destinationPolicyFromEnv, pinnedFetch } from '../service/webhook-destination.js';
import { drain, type DrainDeps, type DrainResult } from '../service/webhook-drain.js';
import { oldestDueDeliveryAgeSeconds } from '../service/webhook-log.js';
import { containerDb } from './container-db.js';
import { metrics } from './observability/metrics.js';
import { observedFetch, observeRun, workerLog } from './observability/worker.js';

/**
 * The webhook sender Lambda, invoked on a schedule (EventBridge, e.g. every minute): drains the outbox
 * (fan-out + due deliveries) and logs the counts as one JSON line. Overlapping invocations are safe
 * (rows are claimed), and a failed invocation loses nothing: the next one picks up where it stopped.
 */

export interface WebhookHandlerDeps {
  /** The database, opened once per container. */
  readonly getDb: () => Promise<Db>;
  readonly now?: () => Date;
  readonly fetch?: DrainDeps['fetch'];
  readonly log?: (line: string) => void;
  /** Where deliveries may go; default from the environment (strict; the development setting is refused on Lambda). */
  readonly destinations?: DrainDeps['destinations'];
  /** Everything else `drain` takes (timeouts, batch sizes, back-off, the public address). */
  readonly options?: Omit<DrainDeps, 'now' | 'fetch' | 'destinations'>;
}

/**
 * `ARBITER_PUBLIC_URL`, the address clients reach the API at (`https://arbiter.example.org`; the CDK
 * stack sets the HTTP API's own URL): deliveries then link the game's pictures. Anything but an
 * absolute http(s) URL is ignored with a warning rather than sent to receivers.
 */
export const publicBaseUrlFromEnv = (
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void = console.warn,
): string | null => {
  const raw = env['ARBITER_PUBLIC_URL']?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash && !url.username)
      return url.href.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  warn(`ARBITER_PUBLIC_URL must be an absolute http(s) URL without query or credentials, not "${raw}": webhooks go without picture links`);
  return null;
};

export interface WebhookRunLog extends DrainResult {
  readonly msg: 'webhooks.drain';
  /** Age of the oldest delivery still due after this run, in seconds (0: none). */
  readonly oldestDueSeconds: number;
  readonly ms: number;
}

/** One line per run (the batch's counts and the backlog's age), one per failed attempt; the delivery metrics. */
export const createWebhookHandler = (deps: WebhookHandlerDeps) => (): Promise<DrainResult> =>
  observeRun('webhooks', async () => {
    const now = deps.now ?? (() => new Date());
    const log = workerLog(deps.log);
    const started = Date.now();
    const db = await deps.getDb();
    const result = await drain(db, {
      ...deps.options,
      now,
      fetch: observedFetch(deps.fetch ?? pinnedFetch, log),
      destinations: deps.destinations ?? destinationPolicyFromEnv(),
    });
    const oldestDueSeconds = await oldestDueDeliveryAgeSeconds(db, now());
    for (const status of ['succeeded', 'retrying', 'dead'] as const) metrics().inc('webhook_deliveries_total', { status }, result[status]);
    metrics().set('webhook_oldest_pending_age_seconds', oldestDueSeconds);
    const line: WebhookRunLog = { msg: 'webhooks.drain', ...result, oldestDueSeconds, ms: Date.now() - started };
    log(result.dead > 0 ? 'warn' : 'info', { ...line });
    return result;
  });

/** The Lambda entry point (scheduled event; the event itself carries nothing we need). The sender needs neither lexicons nor GraphQL. */
export const handler = createWebhookHandler({
  getDb: () => containerDb(),
  // Read at cold start, so that the development setting (refused on Lambda) stops the container at once.
  destinations: destinationPolicyFromEnv(),
  options: { publicBaseUrl: publicBaseUrlFromEnv(process.env) },
});
