import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import { findPlayerByHandle } from '../store/players.js';
import type { ServiceDeps } from './context.js';

/**
 * The account behind a handle, for a tournament's `add-player` command (issue 30): the API names a player
 * by handle, the engine's entrant by account id (and a name for the record). PLAYER_NOT_FOUND, field
 * `handle`, for a handle nobody has. A read only: adding the player is `runTournamentCommand`.
 */
export interface EntrantAccount {
  readonly id: string;
  readonly handle: string;
  readonly displayName: string;
}

export const entrantAccount = async (deps: ServiceDeps, handle: string): Promise<Result<EntrantAccount, RuleError>> => {
  const wanted = handle.trim().toLowerCase();
  const player = wanted === '' ? null : await findPlayerByHandle(deps.db.prisma, wanted);
  if (!player) return err(ruleError('PLAYER_NOT_FOUND', `No player has the handle "${handle}".`, { field: 'handle', handle }));
  return ok({ id: player.id, handle: player.handle, displayName: player.displayName });
};
