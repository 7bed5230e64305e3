import type { Match } from '../generated/prisma/client.js';
import type { Tx } from './db.js';
import type { StoredEvent } from './games.js';
import type { JsonObject } from './json.js';
import type { PlayerRow } from './players.js';
import { toJsonInput } from './prisma-json.js';
import { isUuid } from './ids.js';

/**
 * The match repository: a `matches` row per match and its games' `match_id` / `match_index`. Plain
 * reads and conditional writes; what a match's games mean is service/matches.ts's business.
 */

export type MatchRow = Match;

export interface MatchWithPlayers extends MatchRow {
  readonly creator: PlayerRow;
  readonly opponent: PlayerRow | null;
  /** The match's games in match order. */
  readonly games: readonly { readonly id: string; readonly matchIndex: number | null }[];
}

export interface NewMatch {
  readonly id?: string;
  readonly ruleSetId: string;
  readonly ruleOverrides?: JsonObject;
  readonly gameCount: number;
  readonly creatorId: string;
  readonly opponentId: string | null;
  readonly status: string;
}

const WITH_PLAYERS = {
  creator: true,
  opponent: true,
  games: { select: { id: true, matchIndex: true }, orderBy: { matchIndex: 'asc' } },
} as const;

/** Writes the match row and points `gameIds` (in match order) at it, in the caller's transaction. */
export const insertMatch = async (tx: Tx, match: NewMatch, gameIds: readonly string[]): Promise<MatchRow> => {
  const row = await tx.match.create({
    data: {
      ...(match.id ? { id: match.id } : {}),
      ruleSetId: match.ruleSetId,
      ruleOverrides: toJsonInput(match.ruleOverrides ?? {}),
      gameCount: match.gameCount,
      creatorId: match.creatorId,
      opponentId: match.opponentId,
      status: match.status,
    },
  });
  for (const [matchIndex, id] of gameIds.entries()) await tx.game.update({ where: { id }, data: { matchId: row.id, matchIndex } });
  return row;
};

/** The match with its players and games, or null (also for a malformed id). */
export const findMatch = async (client: Tx, matchId: string): Promise<MatchWithPlayers | null> =>
  isUuid(matchId) ? client.match.findUnique({ where: { id: matchId }, include: WITH_PLAYERS }) : null;

/**
 * Takes the open second place of a match for `playerId`: true when this call took it. One conditional
 * UPDATE, so two joiners cannot both win.
 */
export const claimMatchOpponent = async (client: Tx, matchId: string, playerId: string): Promise<boolean> => {
  const r = await client.match.updateMany({
    where: { id: matchId, opponentId: null, creatorId: { not: playerId } },
    data: { opponentId: playerId, status: 'playing' },
  });
  return r.count === 1;
};

/** Sets the status projection when it differs (no write, and no `updated_at` change, otherwise). */
export const setMatchStatus = async (client: Tx, matchId: string, status: string): Promise<void> => {
  await client.match.updateMany({ where: { id: matchId, status: { not: status } }, data: { status } });
};

/** The ids of every match `playerId` plays in (either place), newest first. */
export const matchIdsOfPlayer = async (client: Tx, playerId: string): Promise<string[]> => {
  if (!isUuid(playerId)) return [];
  const rows = await client.match.findMany({
    where: { OR: [{ creatorId: playerId }, { opponentId: playerId }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true },
  });
  return rows.map((r) => r.id);
};

/**
 * Locks the match row for the rest of the caller's transaction (and touches `updated_at`): a turn that
 * ends a game takes it before reading the match's games, so two games ending at once are seen in turn
 * and the later one sees the earlier one's result. False when no match has that id.
 */
export const lockMatch = async (tx: Tx, matchId: string): Promise<boolean> => {
  const r = await tx.match.updateMany({ where: { id: matchId }, data: { updatedAt: new Date() } });
  return r.count === 1;
};

/** The event log of each game of the match, in match order (for the status projection inside a turn). */
export const matchGameLogs = async (
  tx: Tx,
  matchId: string,
): Promise<{ readonly gameId: string; readonly events: readonly StoredEvent[] }[]> => {
  const games = await tx.game.findMany({ where: { matchId }, orderBy: { matchIndex: 'asc' }, select: { id: true } });
  const rows = await tx.gameEvent.findMany({
    where: { gameId: { in: games.map((g) => g.id) } },
    orderBy: [{ gameId: 'asc' }, { seq: 'asc' }],
  });
  return games.map((g) => ({
    gameId: g.id,
    events: rows
      .filter((r) => r.gameId === g.id)
      .map((r) => ({ seq: r.seq, type: r.type, payload: r.payload as StoredEvent['payload'], createdAt: r.createdAt })),
  }));
};
