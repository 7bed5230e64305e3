import type { PairingPlayer, PairingRequest } from './types.js';

/**
 * Gibsonization (NASPA practice; as Woogles liwords computes it in `pkg/pair/standings`, `CanCatch`):
 * whether a player can still catch another with the games left, wins first, then spread. With g games
 * left (this round's included), the chaser can gain at most g wins, and the spread gap can close by at
 * most 2·S·g (the leader losing by S and the chaser winning by S each game, S = `gibsonSpreadPerGame`).
 */

/** Games left for every player, this round's included. */
export const gamesLeft = (request: PairingRequest): number => request.totalRounds - request.round + 1;

/** Whether `chaser` can still finish level with or above `leader` (a tie counts as caught). */
export const canCatch = (leader: PairingPlayer, chaser: PairingPlayer, games: number, spreadPerGame: number): boolean => {
  const gap = leader.wins - chaser.wins;
  if (gap < games) return true;
  if (gap > games) return false;
  return leader.spread - chaser.spread <= 2 * spreadPerGame * games;
};

/**
 * The leader (rank 1) when no other active player can catch them: clinched first place, so paired
 * apart (weighted.ts). Null when first place is still open, or with fewer than two players.
 */
export const clinchedLeader = (request: PairingRequest): PairingPlayer | null => {
  const [leader, ...others] = request.players;
  if (!leader || others.length === 0) return null;
  const games = gamesLeft(request);
  return others.some((p) => canCatch(leader, p, games, request.gibsonSpreadPerGame)) ? null : leader;
};

/**
 * Whether a player is out of contention for every prize place (`prizePlaces`, default 1): they cannot
 * catch the player now in the last prize place. With one prize place, whoever cannot catch the leader.
 */
export const outOfContention = (request: PairingRequest, p: PairingPlayer): boolean => {
  const places = request.prizePlaces ?? 1;
  const index = request.players.indexOf(p);
  if (index < places) return false;
  const lastPrize = request.players[places - 1];
  return lastPrize !== undefined && !canCatch(lastPrize, p, gamesLeft(request), request.gibsonSpreadPerGame);
};

/** Whether a player can still finish first (the leader included): the players whose pairings weigh rank most (weighted.ts). */
export const contendsForFirst = (request: PairingRequest, p: PairingPlayer): boolean => {
  const leader = request.players[0];
  return leader === undefined || p === leader || canCatch(leader, p, gamesLeft(request), request.gibsonSpreadPerGame);
};
