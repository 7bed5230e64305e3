import type { Db, Tx } from './context.js';
import { isNotificationKind, type NotificationKind } from './notification-channels.js';
import { preferencesOf, type NotificationPreferences } from './notification-prefs.js';
import { scheduleOf } from './notification-schedule.js';
import { noticeText, noticeUrl } from './notification-text.js';
import { isWebhookEventKind, parseWebhookOutboxPayload } from './webhook-events.js';

/**
 * The notifier's fan-out (docs/notifications.md#delivery): outbox rows → one `notifications` row per
 * recipient and channel (push, e-mail), with the time it may go (quiet hours, the digest) or `skipped`
 * when the player's preferences leave that channel out. It marks the outbox rows with its own
 * `notified_at`, in the transaction that writes their notifications, so a crash in between repeats the
 * batch and the unique (source, player, channel) makes the repeat add nothing. The webhook fan-out's
 * `delivered_at` is not touched: the two run apart and neither waits for the other.
 */

export interface NotifyFanOutDeps {
  readonly now: () => Date;
  /** Where the play page is (`ARBITER_PUBLIC_URL`); links in notices start with it. */
  readonly publicBaseUrl: string;
  /** Outbox rows per transaction (default 100). */
  readonly batchSize?: number;
  /** Stop after this many rows in one call (default 1000); the next call goes on. */
  readonly maxRows?: number;
}

export interface NotifyFanOutResult {
  /** Outbox rows marked notified (rows of kinds nobody is told about included). */
  readonly outboxRows: number;
  /** Notifications written waiting to be sent. */
  readonly pending: number;
  /** Notifications written as skipped (the player's preferences leave the channel out). */
  readonly skipped: number;
}

interface OutboxRow extends Record<string, unknown> {
  id: bigint;
  game_id: string | null;
  tournament_id: string | null;
  player_id?: string | null;
  kind: string;
  payload: unknown;
}

/** An outbox row the notifier tells people about. */
export interface Fact {
  readonly source: string;
  readonly outboxId: bigint | null;
  readonly kind: NotificationKind;
  readonly gameId: string | null;
  readonly tournamentId: string | null;
  /** A lobby row's one recipient (docs/lobby.md#announcements); absent or null for a game's or tournament's row. */
  readonly playerId?: string | null;
  readonly version: number | null;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** A person to tell: their seat in the game (null for tournament kinds). */
interface Recipient {
  readonly playerId: string;
  readonly seat: number | null;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The fact an outbox row announces, or null when nobody is told of it: a kind that is not a notification
 * kind, or a payload that breaks the webhook contract (the webhook fan-out records why in `last_error`).
 * Kinds outside the webhook vocabulary (`deadline-near`) need only name their game. A lobby row's game, when
 * it has one, is named in its payload: the notice links to it.
 */
export const factOf = (row: OutboxRow): Fact | null => {
  if (!isNotificationKind(row.kind)) return null;
  if (isWebhookEventKind(row.kind)) {
    const parsed = parseWebhookOutboxPayload({
      kind: row.kind,
      gameId: row.game_id,
      tournamentId: row.tournament_id,
      playerId: row.player_id ?? null,
      payload: row.payload,
    });
    if (!parsed.ok) return null;
  } else if (row.game_id === null || !isObject(row.payload)) {
    return null;
  }
  const payload = isObject(row.payload) ? row.payload : {};
  const version = typeof payload['version'] === 'number' ? payload['version'] : null;
  const lobbyGame = row.player_id && typeof payload['gameId'] === 'string' ? payload['gameId'] : null;
  return {
    source: `outbox:${row.id}`,
    outboxId: row.id,
    kind: row.kind,
    gameId: row.game_id ?? lobbyGame,
    tournamentId: row.tournament_id,
    playerId: row.player_id ?? null,
    version,
    payload,
  };
};

const isRobot = (handle: string): boolean => handle.includes(':');

interface Audience {
  readonly recipients: Map<string, Recipient[]>;
  /** Seated players' display names by game and seat, for "against Alice". */
  readonly names: Map<string, Map<number, string>>;
  readonly tournaments: Map<string, string>;
}

/** Who hears each fact: as the webhook fan-out decides (service/webhook-fan-out.ts), robots left out. */
const audienceOf = async (tx: Tx, facts: readonly Fact[]): Promise<Audience> => {
  const gameIds = [...new Set(facts.flatMap((f) => (f.gameId === null ? [] : [f.gameId])))];
  const seats =
    gameIds.length === 0
      ? []
      : await tx.seat.findMany({
          where: { gameId: { in: gameIds } },
          select: { gameId: true, seat: true, player: { select: { id: true, handle: true, displayName: true } } },
        });
  const tournamentIds = [...new Set(facts.flatMap((f) => (f.tournamentId === null ? [] : [f.tournamentId])))];
  const tournaments =
    tournamentIds.length === 0
      ? []
      : await tx.tournament.findMany({
          where: { id: { in: tournamentIds } },
          select: {
            id: true,
            name: true,
            players: { select: { division: true, entrant: true, player: { select: { id: true, handle: true } } } },
            organization: { select: { directors: { select: { player: { select: { id: true, handle: true } } } } } },
          },
        });
  const names = new Map<string, Map<number, string>>();
  for (const s of seats)
    if (s.player) names.set(s.gameId, (names.get(s.gameId) ?? new Map<number, string>()).set(s.seat, s.player.displayName));
  const recipients = new Map<string, Recipient[]>();
  for (const f of facts) {
    if (f.playerId) {
      // A lobby row: its addressee alone (a robot is never one: robots make and answer no offers).
      recipients.set(f.source, [{ playerId: f.playerId, seat: null }]);
      continue;
    }
    if (f.tournamentId !== null && f.gameId === null) {
      const t = tournaments.find((x) => x.id === f.tournamentId);
      const division = f.payload['division'];
      const only = Array.isArray(f.payload['entrants']) ? (f.payload['entrants'] as unknown[]) : null;
      const players = (t?.players ?? [])
        .filter((p) => p.division === division && (only === null || only.includes(p.entrant)))
        .map((p) => p.player);
      const everyone = [...(t?.organization.directors ?? []).map((d) => d.player), ...players].filter((p) => !isRobot(p.handle));
      recipients.set(
        f.source,
        [...new Set(everyone.map((p) => p.id))].map((playerId) => ({ playerId, seat: null })),
      );
      continue;
    }
    const seated = seats.filter((s) => s.gameId === f.gameId && s.player !== null && !isRobot(s.player.handle));
    const toMove = f.kind === 'your-turn' || f.kind === 'deadline-near';
    const chosen = toMove
      ? seated.filter((s) =>
          typeof f.payload['playerId'] === 'string' ? s.player!.id === f.payload['playerId'] : s.seat === f.payload['seat'],
        )
      : seated;
    recipients.set(
      f.source,
      chosen.map((s) => ({ playerId: s.player!.id, seat: s.seat })),
    );
  }
  return { recipients, names, tournaments: new Map(tournaments.map((t) => [t.id, t.name])) };
};

type NotificationRow = {
  playerId: string;
  channel: 'push' | 'email';
  kind: NotificationKind;
  source: string;
  outboxId: bigint | null;
  gameId: string | null;
  tournamentId: string | null;
  version: number | null;
  title: string;
  body: string;
  url: string;
  status: 'pending' | 'skipped';
  reason: string | null;
  digest: boolean;
  dueAt: Date;
  createdAt: Date;
  updatedAt: Date;
};

/** The rows for one fact and one recipient: push and e-mail, each scheduled or skipped by preference. */
const rowsFor = (
  fact: Fact,
  r: Recipient,
  prefs: NotificationPreferences,
  audience: Audience,
  now: Date,
  base: string,
): NotificationRow[] => {
  const seatNames = fact.gameId === null ? undefined : audience.names.get(fact.gameId);
  const { title, body } = noticeText({
    kind: fact.kind,
    payload: fact.payload,
    seat: r.seat,
    opponent: r.seat === null ? null : (seatNames?.get(1 - r.seat) ?? null),
    tournament: fact.tournamentId === null ? null : (audience.tournaments.get(fact.tournamentId) ?? null),
    timeZone: prefs.timeZone,
  });
  const deadline = typeof fact.payload['deadlineAt'] === 'string' ? new Date(fact.payload['deadlineAt']) : null;
  return (['push', 'email'] as const).map((channel) => {
    const wanted = prefs.channels[fact.kind].includes(channel);
    const when = wanted ? scheduleOf(fact.kind, channel, prefs, now, deadline) : { dueAt: now, digest: false };
    return {
      playerId: r.playerId,
      channel,
      kind: fact.kind,
      source: fact.source,
      outboxId: fact.outboxId,
      gameId: fact.gameId,
      tournamentId: fact.tournamentId,
      version: fact.version,
      title,
      body,
      url: noticeUrl(base, fact.gameId, fact.tournamentId),
      status: wanted ? 'pending' : 'skipped',
      reason: wanted ? null : 'preference',
      digest: when.digest,
      dueAt: when.dueAt,
      createdAt: now,
      updatedAt: now,
    };
  });
};

/** Writes the notifications of `facts` (a repeat adds nothing); answers how many were new, by status. */
export const writeNotifications = async (
  tx: Tx,
  facts: readonly Fact[],
  now: Date,
  base: string,
): Promise<{ pending: number; skipped: number }> => {
  if (facts.length === 0) return { pending: 0, skipped: 0 };
  const audience = await audienceOf(tx, facts);
  const players = [...new Set([...audience.recipients.values()].flatMap((rs) => rs.map((r) => r.playerId)))];
  const prefs = await preferencesOf(tx, players);
  const rows = facts.flatMap((f) =>
    (audience.recipients.get(f.source) ?? []).flatMap((r) => rowsFor(f, r, prefs.get(r.playerId)!, audience, now, base)),
  );
  const out = { pending: 0, skipped: 0 };
  for (const status of ['pending', 'skipped'] as const) {
    const data = rows.filter((r) => r.status === status);
    if (data.length > 0) out[status] = (await tx.notification.createMany({ data, skipDuplicates: true })).count;
  }
  return out;
};

/** One batch in the caller's transaction; null when no outbox row waits. */
const fanOutBatch = async (
  tx: Tx,
  now: Date,
  base: string,
  limit: number,
): Promise<{ rows: number; pending: number; skipped: number } | null> => {
  const rows = await tx.$queryRaw<OutboxRow[]>`
    SELECT "id", "game_id"::text AS "game_id", "tournament_id"::text AS "tournament_id", "player_id"::text AS "player_id", "kind", "payload"
      FROM "outbox"
     WHERE "notified_at" IS NULL
     ORDER BY "id"
     LIMIT ${limit}
     FOR UPDATE SKIP LOCKED`;
  if (rows.length === 0) return null;
  const facts = rows.flatMap((r) => factOf(r) ?? []);
  const written = await writeNotifications(tx, facts, now, base);
  await tx.outboxMessage.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { notifiedAt: now } });
  return { rows: rows.length, ...written };
};

/**
 * Turns every outbox row the notifier has not seen into notifications, in batches of one transaction
 * each. Rows are claimed with `FOR UPDATE SKIP LOCKED`, so two notifiers split the work.
 */
export const fanOutNotifications = async (db: Db, deps: NotifyFanOutDeps): Promise<NotifyFanOutResult> => {
  const batchSize = deps.batchSize ?? 100;
  const maxRows = deps.maxRows ?? 1000;
  const total = { outboxRows: 0, pending: 0, skipped: 0 };
  while (total.outboxRows < maxRows) {
    const batch = await db.transaction((tx) =>
      fanOutBatch(tx, deps.now(), deps.publicBaseUrl, Math.min(batchSize, maxRows - total.outboxRows)),
    );
    if (batch === null) break;
    total.outboxRows += batch.rows;
    total.pending += batch.pending;
    total.skipped += batch.skipped;
    if (batch.rows < batchSize) break;
  }
  return total;
};
