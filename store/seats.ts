import type { Tx } from './db.js';
import type { PlayerRow } from './players.js';

/**
 * Seats and the per-player game list: the queries the game service needs besides the game log
 * (store/games.ts). Plain reads and conditional writes; what they mean is the service's business.
 */

export interface SeatHolder {
  readonly seat: number;
  readonly player: PlayerRow | null;
}

/** The seats of a game in seat order, with their players (null = open). */
export const seatsOf = async (client: Tx, gameId: string): Promise<SeatHolder[]> => {
  const rows = await client.seat.findMany({ where: { gameId }, orderBy: { seat: 'asc' }, include: { player: true } });
  return rows.map((r) => ({ seat: r.seat, player: r.player }));
};

/**
 * Takes an open seat for `playerId`: true when this call took it, false when the seat was not open
 * (someone else got there first). One conditional UPDATE, so two joiners cannot both win.
 */
export const claimSeat = async (client: Tx, gameId: string, seat: number, playerId: string): Promise<boolean> => {
  const r = await client.seat.updateMany({ where: { gameId, seat, playerId: null }, data: { playerId } });
  return r.count === 1;
};

/** What ordering a player's game list needs, one row per game the player sits in or keeps the score of. */
export interface PlayerGameRow {
  readonly gameId: string;
  /** The player's seat; null on the row of a recorded game they keep the score of (docs/recorded.md). */
  readonly seat: number | null;
  readonly status: string;
  readonly turnSeat: number | null;
  readonly deadlineAt: Date | null;
  readonly updatedAt: Date;
}

/**
 * Every game `playerId` holds a seat in (a player playing both seats appears once per seat), and every
 * recorded game they keep the score of (seat null; a seated scorekeeper appears on both rows).
 */
export const gamesOfPlayer = async (client: Tx, playerId: string): Promise<PlayerGameRow[]> => {
  const game = { id: true, status: true, turnSeat: true, deadlineAt: true, updatedAt: true } as const;
  const seated = await client.seat.findMany({ where: { playerId }, select: { seat: true, game: { select: game } } });
  const kept = await client.game.findMany({ where: { scorekeeperId: playerId }, select: game });
  const row = (g: (typeof kept)[number], seat: number | null): PlayerGameRow => ({
    gameId: g.id,
    seat,
    status: g.status,
    turnSeat: g.turnSeat,
    deadlineAt: g.deadlineAt,
    updatedAt: g.updatedAt,
  });
  return [...seated.map((r) => row(r.game, r.seat)), ...kept.map((g) => row(g, null))];
};
