import type { Db, Tx } from './context.js';
import { preferencesOf } from './notification-prefs.js';
import {
  isLobbyPayload,
  isTournamentPayload,
  parseWebhookOutboxPayload,
  WEBHOOK_EVENT_KINDS,
  type AnyWebhookPayload,
} from './webhook-events.js';
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
  game_id: string | null;
  tournament_id: string | null;
  player_id: string | null;
  kind: string;
  payload: unknown;
}

type Valid = { readonly row: OutboxCandidate; readonly payload: AnyWebhookPayload };

/**
 * The player ids each valid row goes to: a game's seated players (for `your-turn` the player to move); a
 * tournament's event directors and the players of the payload's division (narrowed by `entrants`); a lobby
 * row's one addressee.
 */
const recipientsOf = async (tx: Tx, valid: readonly Valid[]): Promise<Map<bigint, Set<string>>> => {
  const gameIds = [...new Set(valid.flatMap((v) => (v.row.game_id === null ? [] : [v.row.game_id])))];
  const seats = gameIds.length === 0 ? [] : await tx.seat.findMany({ where: { gameId: { in: gameIds }, playerId: { not: null } } });
  const tournamentIds = [...new Set(valid.flatMap((v) => (v.row.tournament_id === null ? [] : [v.row.tournament_id])))];
  const audience = await tournamentAudience(tx, tournamentIds);
  const out = new Map<bigint, Set<string>>();
  for (const { row, payload } of valid) {
    if (isLobbyPayload(payload)) {
      out.set(row.id, new Set([payload.playerId]));
      continue;
    }
    if (isTournamentPayload(payload) && row.tournament_id !== null) {
      const a = audience.get(row.tournament_id);
      const only = payload.entrants;
      const players = (a?.players ?? []).filter((p) => p.division === payload.division && (only === undefined || only.includes(p.entrant)));
      out.set(row.id, new Set([...(a?.directors ?? []), ...players.map((p) => p.playerId)]));
      continue;
    }
    const seated = seats.filter((s) => s.gameId === row.game_id);
    const recipients =
      payload.kind === 'your-turn'
        ? seated.filter((s) => (payload.playerId === undefined ? s.seat === payload.seat : s.playerId === payload.playerId))
        : seated;
    out.set(row.id, new Set(recipients.map((s) => s.playerId!)));
  }
  return out;
};

/** Each tournament's event directors and its players with an account (by division and entrant). */
const tournamentAudience = async (tx: Tx, ids: readonly string[]) => {
  if (ids.length === 0)
    return new Map<string, { directors: string[]; players: { division: string; entrant: number; playerId: string }[] }>();
  const rows = await tx.tournament.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, organization: { select: { directors: { select: { playerId: true } } } }, players: true },
  });
  return new Map(rows.map((t) => [t.id, { directors: t.organization.directors.map((d) => d.playerId), players: t.players }]));
};

/**
 * Turns unprocessed outbox rows of webhook kinds into one `pending` delivery per active subscription
 * (unrevoked key) that lists the kind and whose owner is a recipient ({@link recipientsOf}: a game's seated
 * players — for `your-turn`, only the player to move —, a tournament's directors and players), and marks
 * the rows processed (`delivered_at`), all in one transaction per batch. Rows are claimed with
 * `FOR UPDATE SKIP LOCKED`, so concurrent senders split the work; the unique (subscription, outbox row)
 * pair makes a repeat harmless. Outbox rows of other kinds are left alone.
 */
export const fanOutOutbox = async (db: Db, deps: FanOutDeps): Promise<FanOutResult> => {
  const batchSize = deps.batchSize ?? 100;
  const maxRows = deps.maxRows ?? 1000;
  const total = { outboxRows: 0, invalidRows: 0, deliveriesCreated: 0 };
  while (total.outboxRows < maxRows) {
    const batch = await db.transaction((tx) => fanOutBatch(tx, deps.now(), Math.min(batchSize, maxRows - total.outboxRows)));
    if (batch === null) break;
    total.outboxRows += batch.rows;
    total.invalidRows += batch.invalid;
    total.deliveriesCreated += batch.created;
    if (batch.rows < batchSize) break;
  }
  return total;
};

/** One batch of {@link fanOutOutbox} in the caller's transaction; null when no row is waiting. */
const fanOutBatch = async (tx: Tx, now: Date, limit: number): Promise<{ rows: number; invalid: number; created: number } | null> => {
  // Prisma's namespace loads with its client, which this function uses anyway (store/prisma-client.ts).
  const { Prisma } = await import('../generated/prisma/client.js');
  const rows = await tx.$queryRaw<OutboxCandidate[]>`
    SELECT "id", "game_id"::text AS "game_id", "tournament_id"::text AS "tournament_id", "player_id"::text AS "player_id", "kind", "payload"
      FROM "outbox"
     WHERE "delivered_at" IS NULL AND "kind" IN (${Prisma.join([...WEBHOOK_EVENT_KINDS])})
     ORDER BY "id"
     LIMIT ${limit}
     FOR UPDATE SKIP LOCKED`;
  if (rows.length === 0) return null;
  const parsed = rows.map((r) => ({
    row: r,
    payload: parseWebhookOutboxPayload({
      kind: r.kind,
      gameId: r.game_id,
      tournamentId: r.tournament_id,
      playerId: r.player_id,
      payload: r.payload,
    }),
  }));
  const valid = parsed.flatMap((p) => (p.payload.ok ? [{ row: p.row, payload: p.payload.value }] : []));
  const recipients = await recipientsOf(tx, valid);
  const players = [...new Set([...recipients.values()].flatMap((s) => [...s]))];
  const subscriptions =
    players.length === 0
      ? []
      : await tx.webhookSubscription.findMany({
          where: { ownerId: { in: players }, active: true, apiKey: { revokedAt: null } },
          select: { id: true, ownerId: true, kinds: true },
        });
  // A player who turned webhooks off for a kind (docs/notifications.md#preferences) gets no delivery of it.
  const prefs = await preferencesOf(tx, [...new Set(subscriptions.map((s) => s.ownerId))]);
  const deliveries = valid.flatMap(({ row, payload }) => {
    const owners = recipients.get(row.id) ?? new Set<string>();
    return subscriptions
      .filter(
        (s) => owners.has(s.ownerId) && s.kinds.includes(payload.kind) && prefs.get(s.ownerId)!.channels[payload.kind].includes('webhook'),
      )
      .map((s) => ({ subscriptionId: s.id, outboxId: row.id, kind: payload.kind, nextAttemptAt: now, createdAt: now, updatedAt: now }));
  });
  const created = deliveries.length === 0 ? { count: 0 } : await tx.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });
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
};
