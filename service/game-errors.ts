import { ruleError } from '../engine/errors.js';
import { err } from '../engine/result.js';

/**
 * The game service's own error codes. Expected failures of the game use cases come back as `RuleError`
 * values with stable codes: the engine's, the store's, and these.
 */

export const GAME_SERVICE_ERROR_CODES = [
  /** The caller holds no seat in the game, so cannot act in it. */
  'NOT_SEATED',
  /** The game waits for a player to take its open seat. */
  'GAME_NOT_STARTED',
  /** joinGame: the game has no open seat (any more). */
  'SEAT_TAKEN',
  /** joinGame / createGame: a player cannot hold both seats. */
  'ALREADY_SEATED',
  /** joinGame: the game belongs to a match (details.matchId): take its place with joinMatch. */
  'JOIN_THE_MATCH',
  /** createGame: no player has the opponent's handle. */
  'PLAYER_NOT_FOUND',
  /** An input the engine never sees is malformed (details.field names it). */
  'BAD_INPUT',
  /** myGames: `after` is not a cursor this service handed out. */
  'CURSOR_INVALID',
  /** importGame: the record does not replay under the rules (details list the mismatches and errors). */
  'GCG_REPLAY_FAILED',
  /** importGame: the record stops before the game ended. */
  'GCG_INCOMPLETE',
  /** createGame: no robot can play this game (its lexicon has no move-generation graph here). */
  'ROBOT_UNAVAILABLE',
  /** recordMove: the game is not a recorded over-the-board game (its players take turns themselves). */
  'NOT_RECORDED',
  /** recordMove: only the recorded game's scorekeeper enters its moves. */
  'NOT_SCOREKEEPER',
  /** joinGame / submitTurn / resign, pauses, abort, claimTimeout: a recorded game is neither joined nor played here: its scorekeeper records it. */
  'RECORDED_GAME',
  /** ruleOnDispute: the caller is no director of this game: neither globally (store/roles.ts) nor of its club or event (details.reason). */
  'NOT_DIRECTOR',
  /** grantDirector / revokeDirector / createOrganization: the caller is not an admin. */
  'NOT_ADMIN',
  /** No club or event has this id (details.field names the argument). */
  'ORGANIZATION_NOT_FOUND',
  /** createOrganization: a club (or an event) of that name exists already. */
  'ORGANIZATION_EXISTS',
] as const;
export type GameServiceErrorCode = (typeof GAME_SERVICE_ERROR_CODES)[number];

export const fail = (code: GameServiceErrorCode, message: string, details: Record<string, unknown> = {}) =>
  err(ruleError(code, message, details));

export const gameNotFound = (gameId: string) => err(ruleError('GAME_NOT_FOUND', `No game has the id "${gameId}".`, { gameId }));
