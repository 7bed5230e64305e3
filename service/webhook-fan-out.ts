import type { Db } from './context.js';
import { parseWebhookOutboxPayload, WEBHOOK_EVENT_KINDS } from './webhook-events.js';
import { truncateError } from './webhook-log.js';

/**
 * Webhook fan-out: outbox rows → deliveries. An outbox row is written in the turn's transaction; fan-out
 * marks it processed in the transaction that creates its deliveries, so a crash in between leaves the
 * row for the next run (at least once).
 */

export interface FanOutDeps {
  readonly now: () => Date;
  /** Outbox rows per transaction (default 100). */
  readonly batchSize?: number;
  /** Stop after this many rows in one call (default 1000); the next call goes on. */
  readonly maxRows?: number;
}

export interface FanOutResult {
  /** Outbox rows marked processed. */
  readonly outboxRows: number;
  /** Of those, rows set aside because their payload breaks the contract (reason in `outbox.last_error`). */
  readonly invalidRows: number;
  readonly deliveriesCreated: number;
}

interface OutboxCandidate extends Record<string, unknown> {
  id: bigint;
  game_id: string;
  kind: string;
  payload: unknown;
}

/**
 * Turns unprocessed outbox rows of webhook kinds into one `pending` delivery per active subscription
 * (unrevoked key) that lists the kind and whose owner holds a seat in the game — for `your-turn`, only the
 * player to move — and marks the rows processed (`delivered_at`), all in one transaction per batch.
 * Rows are claimed with `FOR UPDATE SKIP LOCKED`, so concurrent senders split the work; the unique
 * (subscription, outbox row) pair makes a repeat harmless. Outbox rows of other kinds are left alone.
 */
export const fanOutOutbox = async (db: Db, deps: FanOutDeps): Promise<FanOutResult> => {
  const batchSize = deps.batchSize ?? 100;
  const maxRows = deps.maxRows ?? 1000;
  const total = { outboxRows: 0, invalidRows: 0, deliveriesCreated: 0 };
  // Prisma's namespace loads with its client, which this function uses anyway (store/prisma-client.ts).
  const { Prisma } = await import('../generated/prisma/client.js');
  while (total.outboxRows < maxRows) {
    const batch = await db.transaction(async (tx) => {
      const now = deps.now();
      const rows = await tx.$queryRaw<OutboxCandidate[]>`
        SELECT "id", "game_id"::text AS "game_id", "kind", "payload" FROM "outbox"
         WHERE "delivered_at" IS NULL AND "kind" IN (${Prisma.join([...WEBHOOK_EVENT_KINDS])})
         ORDER BY "id"
         LIMIT ${Math.min(batchSize, maxRows - total.outboxRows)}
         FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return null;
      const parsed = rows.map((r) => ({
        row: r,
        payload: parseWebhookOutboxPayload({ kind: r.kind, gameId: r.game_id, payload: r.payload }),
      }));
      const valid = parsed.flatMap((p) => (p.payload.ok ? [{ row: p.row, payload: p.payload.value }] : []));
      const gameIds = [...new Set(valid.map((v) => v.row.game_id))];
      const seats = gameIds.length === 0 ? [] : await tx.seat.findMany({ where: { gameId: { in: gameIds }, playerId: { not: null } } });
      const players = [...new Set(seats.map((s) => s.playerId!))];
      const subscriptions =
        players.length === 0
          ? []
          : await tx.webhookSubscription.findMany({
              where: { ownerId: { in: players }, active: true, apiKey: { revokedAt: null } },
              select: { id: true, ownerId: true, kinds: true },
            });
      const deliveries = valid.flatMap(({ row, payload }) => {
        const seated = seats.filter((s) => s.gameId === row.game_id);
        const recipients =
          payload.kind === 'your-turn'
            ? seated.filter((s) => (payload.playerId === undefined ? s.seat === payload.seat : s.playerId === payload.playerId))
            : seated;
        const owners = new Set(recipients.map((s) => s.playerId));
        return subscriptions
          .filter((s) => owners.has(s.ownerId) && s.kinds.includes(payload.kind))
          .map((s) => ({ subscriptionId: s.id, outboxId: row.id, kind: payload.kind, nextAttemptAt: now, createdAt: now, updatedAt: now }));
      });
      const created =
        deliveries.length === 0 ? { count: 0 } : await tx.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });
      const validIds = valid.map((v) => v.row.id);
      if (validIds.length > 0) {
        await tx.outboxMessage.updateMany({ where: { id: { in: validIds } }, data: { deliveredAt: now, attempts: { increment: 1 } } });
      }
      const invalid = parsed.flatMap((p) => (p.payload.ok ? [] : [{ id: p.row.id, error: p.payload.error }]));
      for (const bad of invalid) {
        await tx.outboxMessage.update({
          where: { id: bad.id },
          data: { deliveredAt: now, attempts: { increment: 1 }, lastError: truncateError(`invalid webhook payload: ${bad.error}`) },
        });
      }
      return { rows: rows.length, invalid: invalid.length, created: created.count };
    });
    if (batch === null) break;
    total.outboxRows += batch.rows;
    total.invalidRows += batch.invalid;
    total.deliveriesCreated += batch.created;
    if (batch.rows < batchSize) break;
  }
  return total;
};
