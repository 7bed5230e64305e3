import { randomUUID } from 'node:crypto';
import type { FetchLike } from '../../service/webhook-delivery.js';
import { logger, scrubCredentials } from './log.js';
import { flushEmf, metrics } from './metrics.js';
import { runInScope } from './scope.js';
import { withSpan } from './tracing.js';

/**
 * The scheduled functions' side of observability: each run in a scope and a span of its own, a
 * cold start counted once, the EMF metrics written out when the run ends; their log lines through the
 * shared logger, or through the `log` a test gives (scrubbed the same way).
 */
export type WorkerLog = (level: 'info' | 'warn' | 'error', line: Record<string, unknown>) => void;

export const workerLog =
  (custom?: (line: string) => void): WorkerLog =>
  (level, line) => {
    if (custom) custom(scrubCredentials(JSON.stringify(line)));
    else logger()[level](line);
  };

let started = false;

export const observeRun = <T>(fn: string, run: () => Promise<T>): Promise<T> =>
  runInScope(randomUUID(), async () => {
    if (!started) {
      started = true;
      metrics().inc('cold_starts_total', { function: fn });
    }
    try {
      return await withSpan(fn, {}, run);
    } finally {
      flushEmf();
    }
  });

/** `fetch` with a `webhook.delivery` span per attempt and a warn line per failed one (the receiver's host and status, never the body or the signature). */
export const observedFetch =
  (fetch: FetchLike, log: WorkerLog): FetchLike =>
  (url, init) => {
    const host = new URL(url).host;
    return withSpan('webhook.delivery', { 'server.address': host }, async () => {
      try {
        const res = await fetch(url, init);
        if (res.status < 200 || res.status >= 300) log('warn', { msg: 'webhooks.failure', host, status: res.status });
        return res;
      } catch (e) {
        log('warn', { msg: 'webhooks.failure', host, error: e instanceof Error ? e.name : 'error' });
        throw e;
      }
    });
  };
