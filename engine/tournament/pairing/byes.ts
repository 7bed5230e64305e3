import type { PairingPlayer, PairingRequest } from './types.js';

/**
 * Who gets the bye in an odd round (issue 30, item 3; seed-001 §4 scores it, this module only chooses
 * it), for every method but the fixed schedules (round robins and Initial Fontes, where the player
 * scheduled against the empty seat has it). `pool` is the players the method pairs, in rank order
 * (rank 1 first); pre-paired players are never in it.
 *
 * - `lowest-ranked-without-bye` (NASPA practice): among the players with the fewest byes so far (none,
 *   until everyone has had one), the lowest ranked.
 * - `lowest-ranked`: the lowest-ranked player, however many byes they have had.
 * - `lowest-rated-without-bye`: among the players with the fewest byes so far, the lowest seed rating;
 *   equal ratings go to the lower ranked.
 *
 * Returns every candidate, best first, so a method that cannot pair the rest within `maxRepeats`
 * can try the next one before giving up.
 */
export const byeCandidates = (request: PairingRequest, pool: readonly PairingPlayer[]): PairingPlayer[] => {
  const position = new Map(pool.map((p, i) => [p.id, i]));
  const lower = (a: PairingPlayer, b: PairingPlayer): number => (position.get(b.id) ?? 0) - (position.get(a.id) ?? 0);
  const order: Record<PairingRequest['byeChoice'], (a: PairingPlayer, b: PairingPlayer) => number> = {
    'lowest-ranked-without-bye': (a, b) => a.byes - b.byes || lower(a, b),
    'lowest-ranked': lower,
    'lowest-rated-without-bye': (a, b) => a.byes - b.byes || a.rating - b.rating || lower(a, b),
  };
  return [...pool].sort(order[request.byeChoice]);
};

/** The bye of an odd pool by the request's `byeChoice` (see {@link byeCandidates}), or null when the pool is even. */
export const chooseBye = (request: PairingRequest, pool: readonly PairingPlayer[]): PairingPlayer | null =>
  pool.length % 2 === 0 ? null : (byeCandidates(request, pool)[0] ?? null);

/** How many bye candidates a method tries before reporting REPEAT_LIMIT: all of a small pool, the first few of a big one (each try is a full search). */
export const byeTries = (poolSize: number): number => (poolSize <= 64 ? poolSize : 4);
