import type { Challenge, PairingRequest, Seek } from '../generated/prisma/client.js';
import type { Tx } from './db.js';
import { isUuid } from './ids.js';
import { jsonOf, rowOf, type JsonObject } from './json.js';
import { toJsonInput } from './prisma-json.js';

/**
 * The lobby's repository (issue 33): seeks, challenges and pairing requests. Plain reads and conditional
 * writes; what an offer means, and who may close it, is the business of service/seeks.ts,
 * service/challenges.ts and service/pairing-requests.ts. Every close is one conditional UPDATE whose
 * WHERE says the row is still open: on Postgres a second closer waits on the row's lock and then finds the
 * condition false, so of any number of racers exactly one wins.
 */

export type SeekRow = Seek;
export type ChallengeRow = Challenge;
export type PairingRequestRow = PairingRequest;

export interface NewSeek {
  readonly id: string;
  readonly authorId: string;
  readonly ruleSetId: string;
  readonly ruleOverrides: JsonObject;
  readonly lexiconName: string;
  /** `correspondence` (with `daysPerMove`) or `recorded` (with `clockMinutes`, null for no clock). */
  readonly pace: 'correspondence' | 'recorded';
  readonly daysPerMove: number | null;
  readonly clockMinutes: number | null;
  readonly rated: boolean;
  readonly category: string;
  readonly ratingMin: number | null;
  readonly ratingMax: number | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

export const insertSeek = (client: Tx, seek: NewSeek): Promise<SeekRow> =>
  client.seek.create({ data: { ...seek, ruleOverrides: toJsonInput(seek.ruleOverrides) } });

export const findSeek = (client: Tx, id: string): Promise<SeekRow | null> =>
  isUuid(id) ? client.seek.findUnique({ where: { id } }) : Promise.resolve(null);

/** Closes an open, unexpired seek as accepted by `acceptorId`: true when this call closed it (one UPDATE by primary key). */
export const claimSeek = async (tx: Tx, id: string, acceptorId: string, now: Date): Promise<boolean> => {
  const r = await tx.seek.updateMany({
    where: { id, status: 'open', expiresAt: { gt: now } },
    data: { status: 'accepted', acceptorId, closedAt: now },
  });
  return r.count === 1;
};

export const setSeekGame = async (tx: Tx, id: string, gameId: string): Promise<void> => {
  await tx.seek.update({ where: { id }, data: { gameId } });
};

/** Withdraws the author's open seek: true when this call did (an accepted one stays accepted). */
export const withdrawSeekRow = async (client: Tx, id: string, authorId: string, now: Date): Promise<boolean> => {
  const r = await client.seek.updateMany({ where: { id, authorId, status: 'open' }, data: { status: 'withdrawn', closedAt: now } });
  return r.count === 1;
};

/** An open seek as listed: the row, its author's handle and name, and the author's rating in its category (null: none yet). */
export interface ListedSeek {
  readonly seek: SeekRow;
  readonly authorHandle: string;
  readonly authorName: string;
  /** Null when the author has no rating in the category yet, or hides their page. */
  readonly authorRating: { readonly rating: number; readonly deviation: number; readonly provisional: boolean } | null;
}

export interface SeekFilter {
  readonly ruleSetId?: string | null;
  readonly lexiconName?: string | null;
  readonly rated?: boolean | null;
  readonly daysPerMove?: number | null;
  readonly pace?: string | null;
  readonly authorId?: string | null;
}

interface ListedRow {
  readonly seek: unknown;
  readonly handle: string;
  readonly display_name: string;
  readonly profile_hidden: boolean;
  readonly rating: number | null;
  readonly deviation: number | null;
  readonly provisional: boolean | null;
}

/**
 * The SQL of the open seeks' page: newest first by (created_at, id), read from the index
 * `seeks_status_created_at_id_idx` (status = 'open', then the order); expired seeks and deleted authors left out.
 * Exported so the bench can show its plan.
 */
export const openSeeksSql = (filter: SeekFilter, hasCursor: boolean): { sql: string; extra: unknown[] } => {
  const where: string[] = [];
  const extra: unknown[] = [];
  // $1 now, $2 limit, $3/$4 the cursor; filters from $5 on.
  const param = (v: unknown): string => {
    extra.push(v);
    return `$${4 + extra.length}`;
  };
  if (filter.ruleSetId) where.push(`s.rule_set_id = ${param(filter.ruleSetId)}`);
  if (filter.lexiconName) where.push(`s.lexicon_name = ${param(filter.lexiconName)}`);
  if (typeof filter.rated === 'boolean') where.push(`s.rated = ${param(filter.rated)}`);
  if (filter.daysPerMove) where.push(`s.days_per_move = ${param(filter.daysPerMove)}`);
  if (filter.pace) where.push(`s.pace = ${param(filter.pace)}`);
  if (filter.authorId) where.push(`s.author_id = ${param(filter.authorId)}::uuid`);
  // The page is cut from the seeks alone (the index's order, stopping at the limit); the authors are joined after.
  // A deleted author is a scalar subquery per row, which the planner cannot turn into a hash join over every seek.
  const sql = `SELECT to_jsonb(s) AS seek, p.handle, p.display_name, p.profile_hidden, r.rating, r.deviation, r.provisional
    FROM (
      SELECT * FROM seeks s
      WHERE s.status = 'open' AND s.expires_at > $1
        ${hasCursor ? 'AND (s.created_at, s.id) < ($3::timestamptz, $4::uuid)' : 'AND $3::text IS NULL AND $4::text IS NULL'}
        ${where.map((w) => `AND ${w}`).join(' ')}
        AND (SELECT d.deleted_at FROM players d WHERE d.id = s.author_id) IS NULL
      ORDER BY s.created_at DESC, s.id DESC
      LIMIT $2
    ) s
    JOIN players p ON p.id = s.author_id
    LEFT JOIN player_ratings r ON r.player_id = s.author_id AND r.category = s.category
    ORDER BY s.created_at DESC, s.id DESC`;
  return { sql, extra };
};

/** One page of open seeks (newest first) after the cursor `(createdAt, id)`; `limit` rows at most. */
export const openSeeks = async (
  client: Tx,
  now: Date,
  limit: number,
  after: { readonly createdAt: Date; readonly id: string } | null,
  filter: SeekFilter,
): Promise<ListedSeek[]> => {
  const { sql, extra } = openSeeksSql(filter, after !== null);
  const rows = await client.$queryRawUnsafe<ListedRow[]>(sql, now, limit, after?.createdAt ?? null, after?.id ?? null, ...extra);
  return rows.map((r) => ({
    seek: rowOf<SeekRow>(jsonOf(r.seek) as Record<string, unknown>),
    authorHandle: r.handle,
    authorName: r.display_name,
    authorRating:
      r.rating === null || r.profile_hidden
        ? null
        : { rating: Number(r.rating), deviation: Number(r.deviation), provisional: r.provisional === true },
  }));
};

/** A player's stored rating row in a category, or null when they have none yet. */
export const ratingRowOf = (client: Tx, playerId: string, category: string) =>
  client.playerRating.findUnique({ where: { playerId_category: { playerId, category } } });

/** A player's rating in a category, or null when they have none yet. */
export const ratingOf = async (client: Tx, playerId: string, category: string): Promise<number | null> => {
  const rows = await client.$queryRawUnsafe<{ rating: number }[]>(
    'SELECT rating FROM player_ratings WHERE player_id = $1::uuid AND category = $2',
    playerId,
    category,
  );
  return rows[0] ? Number(rows[0].rating) : null;
};

export interface NewChallenge {
  readonly challengerId: string;
  readonly challengedId: string;
  readonly ruleSetId: string;
  readonly ruleOverrides: JsonObject;
  readonly lexiconName: string;
  readonly timeControl: JsonObject;
  readonly rated: boolean;
  readonly category: string | null;
  readonly challengerSeat: number;
  readonly firstSeat: number;
  readonly rematchOf: string | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

/** Writes a challenge; null when the game already has an open rematch (the partial unique index said no). */
export const insertChallenge = async (client: Tx, c: NewChallenge): Promise<ChallengeRow | null> => {
  try {
    return await client.challenge.create({
      data: { ...c, ruleOverrides: toJsonInput(c.ruleOverrides), timeControl: toJsonInput(c.timeControl) },
    });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'P2002') return null;
    throw e;
  }
};

export const findChallenge = (client: Tx, id: string): Promise<ChallengeRow | null> =>
  isUuid(id) ? client.challenge.findUnique({ where: { id } }) : Promise.resolve(null);

/** The open rematch of a game, if any. */
export const openRematchOf = (client: Tx, gameId: string): Promise<ChallengeRow | null> =>
  client.challenge.findFirst({ where: { rematchOf: gameId, status: 'open' } });

/**
 * Closes an open, unexpired challenge with `status`, as long as `by` is the player who may do so
 * (`challengedId` to accept or decline, `challengerId` to withdraw): true when this call closed it.
 */
export const closeChallenge = async (
  client: Tx,
  id: string,
  status: 'accepted' | 'declined' | 'withdrawn',
  by: { readonly challengedId: string } | { readonly challengerId: string },
  now: Date,
): Promise<boolean> => {
  const r = await client.challenge.updateMany({
    where: { id, status: 'open', expiresAt: { gt: now }, ...by },
    data: { status, closedAt: now },
  });
  return r.count === 1;
};

export const setChallengeGame = async (tx: Tx, id: string, gameId: string): Promise<void> => {
  await tx.challenge.update({ where: { id }, data: { gameId } });
};

/** A player's challenges, sent and received, newest first (open ones and the last closed ones). */
export const challengesOf = (client: Tx, playerId: string, limit: number): Promise<ChallengeRow[]> =>
  client.challenge.findMany({
    where: { OR: [{ challengerId: playerId }, { challengedId: playerId }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
  });

export interface NewPairingRequest {
  readonly playerId: string;
  readonly ruleSetId: string;
  readonly lexiconName: string;
  readonly daysPerMove: number;
  readonly rated: boolean;
  readonly category: string;
  readonly rating: number;
  readonly ratingRange: number;
  readonly waitUntil: Date;
  readonly createdAt: Date;
}

/** Writes a pairing request; null when the player already has one waiting (or offered a robot) in the category. */
export const insertPairingRequest = async (client: Tx, r: NewPairingRequest): Promise<PairingRequestRow | null> => {
  try {
    return await client.pairingRequest.create({ data: r });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'P2002') return null;
    throw e;
  }
};

export const findPairingRequest = (client: Tx, id: string): Promise<PairingRequestRow | null> =>
  isUuid(id) ? client.pairingRequest.findUnique({ where: { id } }) : Promise.resolve(null);

/**
 * The waiting requests `r` may be paired with, nearest rating first (then the oldest): same category, rule set,
 * lexicon and pace, another player, still inside their wait, and each rating inside the other's range.
 */
export const pairingCandidates = (client: Tx, r: PairingRequestRow, now: Date, limit: number): Promise<PairingRequestRow[]> =>
  client
    .$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT to_jsonb(c) AS row FROM pairing_requests c
      WHERE c.status = 'waiting' AND c.category = $1 AND c.rule_set_id = $2 AND c.lexicon_name = $3
        AND c.days_per_move = $4 AND c.rated = $5 AND c.player_id <> $6::uuid AND c.wait_until > $7
        AND abs(c.rating - $8) <= least(c.rating_range, $9)
      ORDER BY abs(c.rating - $8), c.created_at, c.id
      LIMIT $10`,
      r.category,
      r.ruleSetId,
      r.lexiconName,
      r.daysPerMove,
      r.rated,
      r.playerId,
      now,
      r.rating,
      r.ratingRange,
      limit,
    )
    .then((rows) => rows.map((x) => rowOf<PairingRequestRow>(jsonOf(x['row']) as Record<string, unknown>)));

/** Closes both requests as paired with each other: true when this call closed both (else nothing changed, in the caller's transaction). */
export const claimPair = async (tx: Tx, a: PairingRequestRow, b: PairingRequestRow, now: Date): Promise<boolean> => {
  const r = await tx.pairingRequest.updateMany({
    where: { id: { in: [a.id, b.id] }, status: 'waiting', waitUntil: { gt: now } },
    data: { status: 'paired', closedAt: now },
  });
  return r.count === 2;
};

export const setPairingGame = async (tx: Tx, id: string, gameId: string, opponentId: string | null): Promise<void> => {
  await tx.pairingRequest.update({ where: { id }, data: { gameId, opponentId } });
};

/** Marks every waiting request whose wait has ended as offered a robot; answers how many. */
export const offerRobots = (tx: Tx, now: Date): Promise<{ id: string; playerId: string }[]> =>
  // RETURNING names the requests this statement moved, so the caller announces each in the same transaction.
  tx.$queryRaw<{ id: string; playerId: string }[]>`
    UPDATE "pairing_requests" SET "status" = 'robot-offered'
     WHERE "status" = 'waiting' AND "wait_until" <= ${now}
     RETURNING "id"::text AS "id", "player_id"::text AS "playerId"`;

/** The oldest waiting requests still inside their wait (the sweep pairs them). */
export const waitingRequests = (client: Tx, now: Date, limit: number): Promise<PairingRequestRow[]> =>
  client.pairingRequest.findMany({ where: { status: 'waiting', waitUntil: { gt: now } }, orderBy: { createdAt: 'asc' }, take: limit });

/**
 * Moves the player's request from `from` to `to` (withdrawn, robot-accepted): true when this call did.
 * `waitEnded`: only once its wait has ended (a robot is offered only then).
 */
export const moveRequest = async (
  client: Tx,
  id: string,
  playerId: string,
  from: readonly string[],
  to: string,
  now: Date,
  waitEnded = false,
): Promise<boolean> => {
  const r = await client.pairingRequest.updateMany({
    where: { id, playerId, status: { in: [...from] }, ...(waitEnded ? { waitUntil: { lte: now } } : {}) },
    data: { status: to, closedAt: now },
  });
  return r.count === 1;
};

/** A player's pairing requests, newest first. */
export const pairingRequestsOf = (client: Tx, playerId: string, limit: number): Promise<PairingRequestRow[]> =>
  client.pairingRequest.findMany({ where: { playerId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });

/** One lobby announcement for the outbox (docs/lobby.md#announcements): addressed to `playerId`, tied to no log. */
export interface LobbyOutboxRow {
  readonly playerId: string;
  readonly kind: string;
  readonly payload: JsonObject;
}

/** Writes lobby announcements in the caller's transaction (the one that makes or closes the offer). */
export const insertLobbyOutbox = async (tx: Tx, rows: readonly LobbyOutboxRow[]): Promise<void> => {
  if (rows.length === 0) return;
  await tx.outboxMessage.createMany({ data: rows.map((r) => ({ playerId: r.playerId, kind: r.kind, payload: toJsonInput(r.payload) })) });
};

/** One public announcement of the seek list (`seek-opened`, `seek-closed`): no addressee, tied to no log. */
export interface PublicOutboxRow {
  readonly kind: 'seek-opened' | 'seek-closed';
  readonly payload: JsonObject;
}

/** Writes the seek list's announcements in the caller's transaction (migration 20270104100000_seek_stream). */
export const insertPublicOutbox = async (tx: Tx, rows: readonly PublicOutboxRow[]): Promise<void> => {
  if (rows.length === 0) return;
  await tx.outboxMessage.createMany({ data: rows.map((r) => ({ kind: r.kind, payload: toJsonInput(r.payload) })) });
};

/**
 * Closes every open seek whose expiry has passed, naming the ones this statement moved: a concurrent sweep
 * waits on the rows' locks and then finds them no longer open, so each expired seek is named once.
 */
export const expireSeeks = (tx: Tx, now: Date): Promise<{ id: string }[]> =>
  tx.$queryRaw<{ id: string }[]>`
    UPDATE "seeks" SET "status" = 'expired', "closed_at" = ${now}
     WHERE "status" = 'open' AND "expires_at" <= ${now}
     RETURNING "id"::text AS "id"`;
