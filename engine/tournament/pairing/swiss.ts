import { ok } from '../../result.js';
import { balancedGame, mayMeet, meetings, previousOpponent, roundPairing, validateRequest } from './common.js';
import { firstsClash } from './first-second.js';
import { pairWithBye } from './king-of-the-hill.js';
import { matchingFallback, matePairs, SEARCH_BUDGET, searchPairing } from './search.js';
import type { PairedGame, Pairer, PairingPlayer, PairingRequest } from './types.js';

/**
 * Swiss by wins then spread with repeat avoidance (TSH `NewSwiss`, its `RecursiveSwiss` in
 * TSH::Division; the players come in rank order, wins then spread). The field is cut into score
 * groups (equal wins, a tie counting ½) and paired from the top group down:
 *
 * - Within a group, top half against bottom half: player i's ideal opponent is half a group away
 *   (TSH's distance |n − 2·|i − j||: "closest to half a flight away"). That is TSH's default, and the
 *   point of a Swiss: leaders meet leaders of their group without the top two meeting at once, so a
 *   group is sorted out over several rounds (adjacent pairing is what King of the Hill is for). As in
 *   TSH, the opponent list puts fewer repeats first, then not last round's opponent, then one due to
 *   go first against one due to go second, then the distance.
 * - An odd group sends its lowest-ranked player down to the next group (float down), or the next one
 *   up if that leaves the group unpairable (TSH instead pulls the top of the next group up: the same
 *   one game crosses the boundary either way).
 * - When a group cannot be paired within `maxRepeats`, or leaves the groups below unpairable, it is
 *   merged with the next group and the two are paired as one (TSH's fallback too), down to the whole
 *   field as one group.
 * - If that search grows too long, a minimum-cost matching over the allowed pairs (wins difference
 *   first, then rank distance) settles it; REPEAT_LIMIT only when no pairing within `maxRepeats` exists.
 */

/** Consecutive players (rank order) with the same wins. */
export const scoreGroups = (players: readonly PairingPlayer[]): PairingPlayer[][] => {
  const groups: PairingPlayer[][] = [];
  for (const p of players) {
    const last = groups.at(-1);
    if (last && last[0]?.wins === p.wins) last.push(p);
    else groups.push([p]);
  }
  return groups;
};

type Pairs = [PairingPlayer, PairingPlayer][];
/** What a step of the search returns: pairs, null (impossible this way), or 'budget' (search abandoned). */
type Step = Pairs | null | 'budget';

/** Pairs one group by TSH's Swiss preferences; null when it cannot be paired within `maxRepeats`. */
const pairGroup = (request: PairingRequest, group: readonly PairingPlayer[], budget: { left: number }): Step => {
  const n = group.length;
  const at = (i: number): PairingPlayer => group[i] as PairingPlayer;
  const outcome = searchPairing(
    {
      size: n,
      allowed: (i, j) => mayMeet(request, at(i), at(j)),
      preference: (i, j) => [
        meetings(at(i), at(j).id),
        previousOpponent(at(i)) === at(j).id ? 1 : 0,
        firstsClash(at(i), at(j)),
        Math.abs(n - 2 * Math.abs(i - j)),
      ],
    },
    budget.left,
  );
  budget.left -= outcome.steps;
  if (outcome.kind === 'budget') return 'budget';
  return outcome.kind === 'paired' ? matePairs(outcome.mate).map(([i, j]) => [at(i), at(j)]) : null;
};

/** Pairs the groups from the top with `carry` (a floater from above) joining the first. */
const pairGroups = (
  request: PairingRequest,
  groups: readonly (readonly PairingPlayer[])[],
  carry: readonly PairingPlayer[],
  budget: { left: number },
): Step => {
  const [head, ...rest] = groups;
  if (!head) return carry.length === 0 ? [] : null;
  const group = [...carry, ...head];
  const next = rest[0];
  if (!next) return pairGroup(request, group, budget);
  const floaters = group.length % 2 === 1 ? group.map((_, i) => group.length - 1 - i) : [-1];
  for (const f of floaters) {
    if (--budget.left < 0) return 'budget';
    const pairs = pairGroup(
      request,
      group.filter((_, i) => i !== f),
      budget,
    );
    if (pairs === 'budget') return pairs;
    if (!pairs) continue;
    const below = pairGroups(request, rest, f >= 0 ? [group[f] as PairingPlayer] : [], budget);
    if (below === 'budget') return below;
    if (below) return [...pairs, ...below];
  }
  return pairGroups(request, [[...group, ...next], ...rest.slice(1)], [], budget);
};

/** The matching that settles a Swiss the search could not: wins difference first, rank distance second. */
const swissByMatching = (request: PairingRequest, players: readonly PairingPlayer[]): Pairs | null => {
  const n = players.length;
  const at = (i: number): PairingPlayer => players[i] as PairingPlayer;
  const mate = matchingFallback(
    n,
    (i, j) => mayMeet(request, at(i), at(j)),
    (i, j) => {
      const halfWins = Math.round(Math.abs(at(i).wins - at(j).wins) * 2);
      return halfWins * halfWins * n * n + (i - j) * (i - j);
    },
  );
  return mate ? matePairs(mate).map(([i, j]) => [at(i), at(j)]) : null;
};

/** Swiss pairing of an even list of players in rank order; null when no pairing within `maxRepeats` exists. */
export const swissPairs = (request: PairingRequest, players: readonly PairingPlayer[]): Pairs | null => {
  const pairs = pairGroups(request, scoreGroups(players), [], { left: SEARCH_BUDGET });
  return pairs === 'budget' ? swissByMatching(request, players) : pairs;
};

/** Swiss pairing (see the module comment); the bye first, by `byeChoice`. */
export const pairSwiss: Pairer = (request) => {
  const valid = validateRequest(request);
  if (!valid.ok) return valid;
  const paired = pairWithBye(request, (players): PairedGame[] | null => {
    const pairs = swissPairs(request, players);
    return pairs ? pairs.map(([a, b]) => balancedGame(request, a, b)) : null;
  });
  return paired.ok ? ok(roundPairing(paired.value.games, paired.value.bye)) : paired;
};
