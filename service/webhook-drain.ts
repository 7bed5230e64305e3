import type { Db } from './context.js';
import { deliverDue, type DeliverDeps, type DeliverResult } from './webhook-delivery.js';
import { fanOutOutbox, type FanOutDeps, type FanOutResult } from './webhook-fan-out.js';

/**
 * The webhook sender's run (functions/webhooks.ts): fan the outbox out into deliveries
 * (service/webhook-fan-out.ts), then send what is due (service/webhook-delivery.ts).
 *
 * Guarantee: at least once. An outbox row is written in the turn's transaction; fan-out marks it processed
 * in the transaction that creates its deliveries; a delivery is final only after a 2xx is recorded.
 * A crash anywhere in between leaves work that the next run picks up; receivers de-duplicate on
 * `Arbiter-Event-Id` (= the delivery id, the same on every retry).
 */

export type DrainDeps = FanOutDeps & DeliverDeps;
export type DrainResult = FanOutResult & DeliverResult;

/** One sender run: {@link fanOutOutbox}, then {@link deliverDue}. */
export const drain = async (db: Db, deps: DrainDeps): Promise<DrainResult> => {
  const fanOut = await fanOutOutbox(db, deps);
  const delivered = await deliverDue(db, deps);
  return { ...fanOut, ...delivered };
};
