import type { Prisma, Tournament } from '../generated/prisma/client.js';
import type { Tx } from './db.js';
import { isUuid } from './ids.js';
import { jsonOf, rowOf, type JsonObject, type JsonValue } from './json.js';
import { toJsonInput } from './prisma-json.js';

/**
 * The tournament repository (issue 30): a `tournaments` row per tournament and its append-only log in
 * `tournament_events` (seq 1, 2, …; `tournaments.version` = the number of events), the `tournament_players`
 * projection of its entrants with an account, its outbox rows and the league games linked to it. The store
 * never interprets events (engine/tournament does); every write takes the caller's transaction, so a
 * command's events, outbox rows, projection rows and games are written together or not at all.
 */

export type TournamentRow = Tournament;

export interface NewTournamentEvent {
  readonly type: string;
  readonly payload: JsonObject;
  /** The account that acted; null for the system or a name-only player. */
  readonly actorId: string | null;
}

export interface StoredTournamentEvent {
  readonly seq: number;
  readonly type: string;
  readonly payload: JsonValue;
  readonly actorId: string | null;
  readonly createdAt: Date;
}

/** A webhook announcing one of the events written with it (`eventIndex`: default the last one). */
export interface TournamentOutboxItem {
  readonly kind: string;
  readonly payload: JsonObject;
  readonly eventIndex?: number;
}

/** An entrant with an account: the `tournament_players` projection of a `player-added` event. */
export interface EntrantLink {
  readonly division: string;
  readonly entrant: number;
  readonly playerId: string;
}

/** What one command writes besides moving the version: its events, their outbox rows, new entrants. */
export interface TournamentAppend {
  readonly events: readonly NewTournamentEvent[];
  readonly outbox?: readonly TournamentOutboxItem[];
  readonly players?: readonly EntrantLink[];
}

export interface NewTournament {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly public: boolean;
  readonly createdBy: string | null;
}

/** Writes the events as seq `fromVersion + 1 …`, their outbox rows and the new entrants' links. */
const writeAppend = async (tx: Tx, tournamentId: string, fromVersion: number, append: TournamentAppend, now: Date): Promise<void> => {
  const { events, outbox = [], players = [] } = append;
  if (events.length > 0)
    await tx.tournamentEvent.createMany({
      data: events.map((e, i) => ({
        tournamentId,
        seq: fromVersion + 1 + i,
        type: e.type,
        payload: toJsonInput(e.payload),
        actorId: e.actorId,
        createdAt: now,
      })),
    });
  if (outbox.length > 0)
    await tx.outboxMessage.createMany({
      data: outbox.map((m) => {
        const index = m.eventIndex ?? events.length - 1;
        if (!Number.isInteger(index) || index < 0 || index >= events.length)
          throw new Error(`outbox message "${m.kind}" points at event ${index}, but ${events.length} event(s) are written`);
        return {
          tournamentId,
          tournamentSeq: fromVersion + 1 + index,
          kind: m.kind,
          payload: toJsonInput(m.payload),
          createdAt: now,
          nextAttemptAt: now,
        };
      }),
    });
  if (players.length > 0) await tx.tournamentPlayer.createMany({ data: players.map((p) => ({ tournamentId, ...p })) });
};

/** Creates the tournament with its first events (version = their number). Use a transaction. */
export const insertTournament = async (tx: Tx, t: NewTournament, append: TournamentAppend, now: Date): Promise<TournamentRow> => {
  const row = await tx.tournament.create({
    data: { ...t, version: append.events.length, createdAt: now, updatedAt: now },
  });
  await writeAppend(tx, t.id, 0, append, now);
  return row;
};

/** The tournament row, or null (also for an id that is not a uuid). */
export const findTournament = async (client: Tx, id: string): Promise<TournamentRow | null> =>
  isUuid(id) ? client.tournament.findUnique({ where: { id } }) : null;

/**
 * Locks the tournament's row for the rest of the caller's transaction (`SELECT … FOR UPDATE`) and returns
 * it as it stands then: a second command on the same tournament waits here until the first commits, then
 * reads the version that one left. Null when no tournament has the id.
 */
export const lockTournament = async (tx: Tx, id: string): Promise<TournamentRow | null> => {
  if (!isUuid(id)) return null;
  const rows = await tx.$queryRawUnsafe<{ row: unknown }[]>(
    `SELECT to_jsonb(t) AS row FROM tournaments t WHERE t.id = $1::uuid FOR UPDATE`,
    id,
  );
  const json = rows[0] ? (jsonOf(rows[0].row) as Record<string, unknown>) : null;
  return json ? rowOf<TournamentRow>(json) : null;
};

/** The log after version `after` (0: all of it), in order, up to `upTo` when given. */
export const tournamentEvents = async (client: Tx, tournamentId: string, after = 0, upTo?: number): Promise<StoredTournamentEvent[]> => {
  if (!isUuid(tournamentId)) return [];
  const rows = await client.tournamentEvent.findMany({
    where: { tournamentId, seq: { gt: after, ...(upTo === undefined ? {} : { lte: upTo }) } },
    orderBy: { seq: 'asc' },
  });
  return rows.map((r) => ({ seq: r.seq, type: r.type, payload: r.payload as JsonValue, actorId: r.actorId, createdAt: r.createdAt }));
};

/**
 * Appends a command's events at `fromVersion`: moves the row to `fromVersion + n` only if it is still at
 * `fromVersion` (the version check; a conditional UPDATE, which a concurrent one waits for and then no longer
 * matches), then writes the events, outbox rows and entrant links. False, with nothing written, when the
 * tournament is not at `fromVersion`.
 */
export const appendTournamentEvents = async (
  tx: Tx,
  tournamentId: string,
  fromVersion: number,
  append: TournamentAppend,
  now: Date,
): Promise<boolean> => {
  if (append.events.length === 0) return true;
  const moved = await tx.tournament.updateMany({
    where: { id: tournamentId, version: fromVersion },
    data: { version: fromVersion + append.events.length, updatedAt: now },
  });
  if (moved.count !== 1) return false;
  await writeAppend(tx, tournamentId, fromVersion, append, now);
  return true;
};

/** Whether the player plays in the tournament (any division). */
export const playsInTournament = async (client: Tx, tournamentId: string, playerId: string): Promise<boolean> =>
  isUuid(tournamentId) && isUuid(playerId) && (await client.tournamentPlayer.count({ where: { tournamentId, playerId } })) > 0;

export interface TournamentListQuery {
  readonly organizationId?: string | null;
  /** Null: an anonymous caller (public tournaments only). */
  readonly viewerId: string | null;
  /** A global director or admin: every tournament. */
  readonly seesAll: boolean;
  /** The last id of the previous page. */
  readonly afterId?: string | null;
  readonly take: number;
}

const visibleTo = (q: TournamentListQuery): Prisma.TournamentWhereInput => {
  const own: Prisma.TournamentWhereInput[] =
    q.viewerId && isUuid(q.viewerId)
      ? [{ organization: { directors: { some: { playerId: q.viewerId } } } }, { players: { some: { playerId: q.viewerId } } }]
      : [];
  return {
    ...(q.organizationId ? { organizationId: q.organizationId } : {}),
    ...(q.seesAll ? {} : { OR: [{ public: true }, ...own] }),
  };
};

/**
 * A page of the tournaments the viewer may see (public ones; private ones whose event they direct or in
 * which they play; all for a global director), newest first, after `afterId`; with how many there are in
 * all. Null when `afterId` names no tournament the viewer sees.
 */
export const listTournamentRows = async (
  client: Tx,
  q: TournamentListQuery,
): Promise<{ readonly rows: TournamentRow[]; readonly total: number; readonly before: number } | null> => {
  if (q.organizationId && !isUuid(q.organizationId)) return { rows: [], total: 0, before: 0 };
  const where = visibleTo(q);
  let page: Prisma.TournamentWhereInput = where;
  let before = 0;
  if (q.afterId) {
    const after = isUuid(q.afterId) ? await client.tournament.findFirst({ where: { AND: [where, { id: q.afterId }] } }) : null;
    if (!after) return null;
    const older: Prisma.TournamentWhereInput = {
      OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
    };
    page = { AND: [where, older] };
    before = await client.tournament.count({ where: { AND: [where, { NOT: older }] } });
  }
  const rows = await client.tournament.findMany({ where: page, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: q.take });
  return { rows, total: await client.tournament.count({ where }), before };
};

/** Points a league game at its tournament, division and round (in the transaction that wrote the game). */
export const linkLeagueGame = async (
  tx: Tx,
  gameId: string,
  link: { tournamentId: string; division: string; round: number },
): Promise<void> => {
  await tx.game.update({
    where: { id: gameId },
    data: { tournamentId: link.tournamentId, tournamentDivision: link.division, tournamentRound: link.round },
  });
};
