import { err, ok, type Result } from '../../result.js';
import type { RuleError } from '../../errors.js';
import { byeCandidates, byeTries } from './byes.js';
import {
  balancedGame,
  freePlayers,
  mayMeet,
  meetings,
  prePairedGames,
  previousOpponent,
  repeatLimitError,
  roundPairing,
  validateRequest,
} from './common.js';
import { firstsClash } from './first-second.js';
import { matchingFallback, matePairs, searchPairing } from './search.js';
import type { PairedGame, Pairer, PairingPlayer, PairingRequest } from './types.js';

/**
 * Pairs an even list of players with TSH's preference search (search.ts), or the matching when the
 * search runs out of budget; null when no pairing keeps every meeting within `maxRepeats`.
 * `preference(i, j)` orders i's opponents; `fallbackCost(i, j)` costs a pair for the matching.
 */
export const pairByPreference = (
  request: PairingRequest,
  players: readonly PairingPlayer[],
  preference: (i: number, j: number) => readonly number[],
  fallbackCost: (i: number, j: number) => number,
): PairedGame[] | null => {
  const allowed = (i: number, j: number): boolean => mayMeet(request, players[i] as PairingPlayer, players[j] as PairingPlayer);
  const outcome = searchPairing({ size: players.length, allowed, preference });
  const mate =
    outcome.kind === 'paired' ? outcome.mate : outcome.kind === 'budget' ? matchingFallback(players.length, allowed, fallbackCost) : null;
  if (!mate) return null;
  return matePairs(mate).map(([i, j]) => balancedGame(request, players[i] as PairingPlayer, players[j] as PairingPlayer));
};

/**
 * Pairs the players a method is free to pair (rank order): the bye first when they are odd, by
 * `byeChoice` (byes.ts), then `pairEven` on the rest; when the rest cannot be paired within
 * `maxRepeats`, the next bye candidate is tried (all of a small pool, the first few of a big one)
 * before REPEAT_LIMIT. Pre-paired couples are added as the director fixed them.
 */
export const pairWithBye = (
  request: PairingRequest,
  pairEven: (players: readonly PairingPlayer[]) => PairedGame[] | null,
): Result<{ games: PairedGame[]; bye: number | null }, RuleError> => {
  const pool = freePlayers(request);
  const fixed = prePairedGames(request);
  if (pool.length % 2 === 0) {
    const games = pairEven(pool);
    return games ? ok({ games: [...fixed, ...games], bye: null }) : err(repeatLimitError(request, pool));
  }
  for (const bye of byeCandidates(request, pool).slice(0, byeTries(pool.length))) {
    const games = pairEven(pool.filter((p) => p !== bye));
    if (games) return ok({ games: [...fixed, ...games], bye: bye.id });
  }
  return err(repeatLimitError(request, pool));
};

/**
 * King of the Hill (TSH `koth`): in rank order, 1 v 2, 3 v 4 … Following TSH's KOTH command, each
 * player, from the top, takes the opponent closest in rank, ties broken by avoiding last round's
 * opponent, then by pairing one due to go first with one due to go second, then by fewer repeats; a
 * pair beyond `maxRepeats` is skipped, so the player slides down to the next allowed opponent, and the
 * search backs up when the players left cannot be paired. The bye goes to the `byeChoice` player first.
 */
export const pairKingOfTheHill: Pairer = (request) => {
  const valid = validateRequest(request);
  if (!valid.ok) return valid;
  const paired = pairWithBye(request, (players) =>
    pairByPreference(
      request,
      players,
      (i, j) => {
        const a = players[i] as PairingPlayer;
        const b = players[j] as PairingPlayer;
        return [Math.abs(i - j), previousOpponent(a) === b.id ? 1 : 0, firstsClash(a, b), meetings(a, b.id)];
      },
      (i, j) => (i - j) * (i - j),
    ),
  );
  return paired.ok ? ok(roundPairing(paired.value.games, paired.value.bye)) : paired;
};
