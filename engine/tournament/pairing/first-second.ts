import { createHash } from 'node:crypto';
import type { FirstReason, PairingPlayer } from './types.js';

/** Who goes first in one paired game, and why. */
export interface FirstSecondChoice {
  readonly first: number;
  readonly second: number;
  readonly firstReason: Exclude<FirstReason, 'schedule' | 'director'>;
}

/**
 * The seeded draw between two players whose firsts and seconds tie: one bit of
 * sha256(seed, round, lower entrant number, higher entrant number). The request's seed makes the draw
 * reproducible (the same request pairs the same way) and recordable; the round and the pair make draws
 * of different games independent.
 */
export const drawFirst = (seed: string, round: number, a: number, b: number): number => {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const digest = createHash('sha256').update(`${seed}\u0000${round}\u0000${lo}\u0000${hi}`, 'utf8').digest();
  return ((digest[0] ?? 0) & 1) === 0 ? lo : hi;
};

/**
 * Who goes first in a paired game (issue 30, item 3: "fewer firsts goes first; a tie decided by a
 * seeded draw, recorded"; the NASPA practice TSH follows with `track_firsts`): the player with fewer
 * firsts (`fewer-firsts`); with equal firsts, the one with more seconds (`more-seconds`, so a player
 * whose unplayed games counted as neither still catches up); still equal, {@link drawFirst} (`draw`).
 * Firsts and seconds are the counts seed-001 §4 gives (engine/game/forfeits.ts). Every method except the
 * fixed schedules (round robins, Initial Fontes: `schedule`) uses this one function.
 */
export const decideFirst = (a: PairingPlayer, b: PairingPlayer, seed: string, round: number): FirstSecondChoice => {
  const pick = (first: PairingPlayer, firstReason: FirstSecondChoice['firstReason']): FirstSecondChoice => ({
    first: first.id,
    second: first === a ? b.id : a.id,
    firstReason,
  });
  if (a.firsts !== b.firsts) return pick(a.firsts < b.firsts ? a : b, 'fewer-firsts');
  if (a.seconds !== b.seconds) return pick(a.seconds > b.seconds ? a : b, 'more-seconds');
  return pick(drawFirst(seed, round, a.id, b.id) === a.id ? a : b, 'draw');
};

/**
 * How badly two players clash over going first: 0 when one is due to go first and the other to go
 * second, 1 when one of them is balanced, 2 when both are due the same (TSH's `pairsvr` preference:
 * "pair those due to start vs those due to reply").
 */
export const firstsClash = (a: PairingPlayer, b: PairingPlayer): number =>
  2 - Math.abs(Math.sign(a.firsts - a.seconds) - Math.sign(b.firsts - b.seconds));
