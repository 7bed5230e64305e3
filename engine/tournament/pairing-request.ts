import type { PairingPlayer, PairingRequest } from './pairing/types.js';
import { standings } from './standings.js';
import { playsInRound, type DivisionState } from './state.js';

/**
 * The request a pairing method gets for round `round` of a division: the active players in the order of
 * the standings after the rounds before it (seed rating order before round 1), with their opponents so
 * far, firsts and seconds (seed-001 §4) and byes. Pure; the log's state is the only input.
 */

/** Entrants in seed order: highest rating first, then entrant number (what ranks players before round 1). */
export const seedOrder = (division: DivisionState): number[] =>
  [...division.entrants].sort((a, b) => b.rating - a.rating || a.number - b.number).map((e) => e.number);

export const pairingRequest = (division: DivisionState, round: number, seed: string): PairingRequest => {
  const rows = standings(division, round - 1);
  const byNumber = new Map(rows.map((r) => [r.entrant.number, r]));
  const ordered = round === 1 ? seedOrder(division).map((n) => byNumber.get(n)!) : rows;
  const players: PairingPlayer[] = ordered
    .filter((r) => playsInRound(division, r.entrant.number, round))
    .map((r, i) => ({
      id: r.entrant.number,
      rating: r.entrant.rating,
      wins: r.wins,
      losses: r.losses,
      spread: r.spread,
      rank: i + 1,
      opponents: r.outcomes.map((o) => o.opponent),
      firsts: r.firsts,
      seconds: r.seconds,
      byes: r.byes,
    }));
  const rules = division.spec.rules.tournament;
  return {
    round,
    totalRounds: division.rounds.length,
    players,
    prePaired: division.rounds[round - 1]?.prePaired ?? [],
    maxRepeats: division.spec.maxRepeats,
    byeChoice: rules.byeChoice,
    gibsonSpreadPerGame: division.spec.gibsonSpreadPerGame,
    seed,
    roster: seedOrder(division),
  };
};
