import type { Db } from './context.js';
import { writeNotifications, type Fact } from './notification-fan-out.js';

/**
 * `deadline-near` (docs/notifications.md#deadline-near): the player to move in a correspondence game
 * hears once per turn that their time runs out soon. Nothing in the game's log marks that moment, so the
 * notifier's run finds it: games whose `deadline_at` is within the window. The turn is named by the
 * `your-turn` outbox row that began it, so the unique (source, player, channel) of notifications makes
 * every later run (and a second notifier) add nothing; a pause that moves the deadline does not start a
 * new turn and does not warn twice.
 */

export const DEFAULT_DEADLINE_WINDOW_MS = 24 * 3600_000;

export interface DeadlineNoticeDeps {
  readonly now: () => Date;
  readonly publicBaseUrl: string;
  /**
   * How long before the deadline the warning goes (ARBITER_DEADLINE_NOTICE_HOURS; default 24 h). A game
   * whose turn time is shorter than twice this is warned at half its turn time instead, so a one-day
   * turn is not "near its deadline" from its first minute.
   */
  readonly windowMs?: number;
  /** Games looked at per run (default 500), soonest deadline first. */
  readonly limit?: number;
}

interface TurnRow extends Record<string, unknown> {
  game_id: string;
  outbox_id: bigint;
  version: number;
  seat: number;
}

/** The turn's length from the game's time control (`game-created`), in ms; null for a game without a turn time. */
const turnMs = (payload: unknown): number | null => {
  const tc = (payload as { timeControl?: { kind?: unknown; turnSeconds?: unknown } } | null)?.timeControl;
  return tc?.kind === 'correspondence' && typeof tc.turnSeconds === 'number' ? tc.turnSeconds * 1000 : null;
};

/** Writes the `deadline-near` notifications that are due; answers how many rows were new. */
export const noticeDeadlines = async (db: Db, deps: DeadlineNoticeDeps): Promise<{ games: number; pending: number; skipped: number }> => {
  const now = deps.now();
  const windowMs = deps.windowMs ?? DEFAULT_DEADLINE_WINDOW_MS;
  const games = await db.prisma.game.findMany({
    where: {
      status: { in: ['playing', 'waiting-final'] },
      turnSeat: { not: null },
      deadlineAt: { gt: now, lte: new Date(now.getTime() + windowMs) },
    },
    orderBy: [{ deadlineAt: 'asc' }, { id: 'asc' }],
    take: deps.limit ?? 500,
    select: { id: true, deadlineAt: true, turnSeat: true },
  });
  if (games.length === 0) return { games: 0, pending: 0, skipped: 0 };
  const ids = games.map((g) => g.id);
  const created = await db.prisma.gameEvent.findMany({
    where: { gameId: { in: ids }, type: 'game-created' },
    select: { gameId: true, payload: true },
  });
  const turnOf = new Map(created.map((e) => [e.gameId, turnMs(e.payload)]));
  // Prisma's namespace loads with its client, which this function uses anyway (store/prisma-client.ts).
  const { Prisma } = await import('../generated/prisma/client.js');
  // The row that began the current turn: the latest your-turn that is not a pause moving the deadline.
  const turns = await db.prisma.$queryRaw<TurnRow[]>`
    SELECT DISTINCT ON ("game_id") "game_id"::text AS "game_id", "id" AS "outbox_id",
           ("payload"->>'version')::int AS "version", ("payload"->>'seat')::int AS "seat"
      FROM "outbox"
     WHERE "kind" = 'your-turn' AND "game_id"::text IN (${Prisma.join(ids)}) AND "payload"->'paused' IS NULL
     ORDER BY "game_id", "id" DESC`;
  const facts: Fact[] = games.flatMap((g) => {
    const turn = turns.find((t) => t.game_id === g.id);
    const length = turnOf.get(g.id) ?? null;
    if (!turn || turn.seat !== g.turnSeat || length === null || g.deadlineAt === null) return [];
    if (g.deadlineAt.getTime() - now.getTime() > Math.min(windowMs, length / 2)) return [];
    const fact: Fact = {
      source: `deadline:${g.id}:${turn.version}`,
      outboxId: null,
      kind: 'deadline-near',
      gameId: g.id,
      tournamentId: null,
      version: turn.version,
      payload: { seat: g.turnSeat, deadlineAt: g.deadlineAt.toISOString() },
    };
    return [fact];
  });
  const written = await db.transaction((tx) => writeNotifications(tx, facts, now, deps.publicBaseUrl));
  return { games: facts.length, ...written };
};
