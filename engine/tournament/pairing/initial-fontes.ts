import { err, ok } from '../../result.js';
import { pairingError } from './codes.js';
import { roundPairing, validateRequest } from './common.js';
import { checkRoster, cycleLength, roundFromSchedule, scheduledEntrantPairs, type ScheduledPair } from './round-robin.js';
import type { Pairer } from './types.js';

/**
 * Initial Fontes (TSH `InitFontes`, "if"; the first rounds of a NASPA event before Swiss or weighted
 * pairings take over). Source: TSH's `TSH::Command::InitFontes` (John Chew, 2005–2018), whose help
 * reads "the field is divided into equal parts by pretournament ranking, and round robin groups are
 * formed by drawing one group member from each part of the field"; each group then plays the rounds
 * of its Berger table (TSH `Berger::PairGroups`). Arbiter pairs the usual three rounds, so groups of
 * four, and differs from TSH in one respect, on purpose: TSH draws each group member at random from
 * its quarter; Arbiter takes the k-th player of every quarter for group k (Woogles' liwords does the
 * same), so the groups follow from the roster alone and rounds 2 and 3, paired separately, find the
 * groups of round 1 without storing a draw.
 */

/** Rounds an Initial Fontes start lasts (TSH's usual `InitFontes 3`; groups of 3 + 1 = 4). */
export const INITIAL_FONTES_ROUNDS = 3;
const GROUP = INITIAL_FONTES_ROUNDS + 1;

/**
 * The seed positions (0-based, ascending) of the players TSH sets apart in an odd-sized group when
 * the field does not divide into fours (its hard-coded three-round case): one from each sixth but the
 * top when one player is left over (a group of 5), one from each sixth when two are (a group of 6), one
 * from each quarter but the top when three are (a group of 3). TSH picks a random point of each part;
 * Arbiter its middle.
 */
export const oddGroupPositions = (players: number): number[] => {
  const residue = players % GROUP;
  const parts = residue === 3 ? 4 : 6;
  const from = residue === 2 ? 0 : 1;
  if (residue === 0) return [];
  const positions: number[] = [];
  for (let section = from; section < parts; section++) positions.push(Math.floor((players * (2 * section + 1)) / (2 * parts)));
  return positions;
};

/**
 * The Initial Fontes groups of a roster in seed order (TSH `ChooseGroupsRandomly` made deterministic):
 * a field of up to 6 is one group (TSH: "everyone is in one group"); otherwise the odd-sized group of
 * {@link oddGroupPositions} first, then, of the remaining players split in quarters of q, group k takes
 * the k-th of each quarter: {k, k+q, k+2q, k+3q}.
 */
export const fontesGroups = (roster: readonly number[]): number[][] => {
  if (roster.length <= 2 * INITIAL_FONTES_ROUNDS) return roster.length > 0 ? [[...roster]] : [];
  const oddPositions = new Set(oddGroupPositions(roster.length));
  const odd = roster.filter((_, i) => oddPositions.has(i));
  const rest = roster.filter((_, i) => !oddPositions.has(i));
  const q = rest.length / GROUP;
  const groups = Array.from({ length: q }, (_, k) => Array.from({ length: GROUP }, (_, part) => rest[part * q + k] ?? 0));
  return odd.length > 0 ? [odd, ...groups] : groups;
};

/**
 * The scheduled pairs of round `round` (1..3): each group's Berger round (FIDE C.05 Annex 1, firsts
 * as the table lists them); a group whose table is shorter than three rounds (2 players) starts it
 * again with firsts swapped, as TSH plays repeated round robins when the field is that small.
 */
export const fontesRound = (roster: readonly number[], round: number): ScheduledPair[] =>
  fontesGroups(roster).flatMap((group) => {
    const cycle = cycleLength(group.length);
    return scheduledEntrantPairs(group, ((round - 1) % cycle) + 1, Math.floor((round - 1) / cycle) % 2 === 1);
  });

/**
 * Initial Fontes pairing of round 1, 2 or 3 from the roster (seed order). As in a round robin, the
 * schedule is fixed: a player whose group opponent has withdrawn, or is pre-paired elsewhere, has a
 * bye that round, and the player facing an odd group's empty seat has the bye; `byeChoice` and
 * `maxRepeats` play no part. The roster should be the entrants at round 1 (anyone who withdrew before
 * it left out), so that the groups stay the same for the three rounds.
 */
export const pairInitialFontes: Pairer = (request) => {
  const valid = validateRequest(request);
  if (!valid.ok) return valid;
  const bad = checkRoster(request);
  if (bad) return err(bad);
  if (request.round > INITIAL_FONTES_ROUNDS)
    return err(
      pairingError('ROUND_NOT_IN_SCHEDULE', `round: Initial Fontes pairs rounds 1 to ${INITIAL_FONTES_ROUNDS}, not ${request.round}`, {
        round: request.round,
        rounds: INITIAL_FONTES_ROUNDS,
      }),
    );
  if (request.players.length === 0) return ok(roundPairing([], null));
  return roundFromSchedule(request, fontesRound(request.roster, request.round));
};
