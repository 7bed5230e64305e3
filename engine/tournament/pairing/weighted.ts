import { ok } from '../../result.js';
import { balancedGame, mayMeet, meetings, roundPairing, validateRequest } from './common.js';
import { clinchedLeader, contendsForFirst, outOfContention } from './gibson.js';
import { pairWithBye } from './king-of-the-hill.js';
import { minCostPerfectMatching, type CostEdge } from './matching.js';
import { matePairs } from './search.js';
import type { PairedGame, Pairer, PairingPlayer, PairingRequest } from './types.js';

/**
 * The weighted-matching method, in the spirit of Woogles' COP (woogles-io/liwords `pkg/pair/cop`):
 * the round's pairing is a minimum-cost perfect matching (edmonds-blossom, matching.ts) over every
 * allowed pair, the cost of a pair being the sum of its policies:
 *
 * - rank difference d (positions in the standings): d³ when the higher-ranked of the two can still
 *   finish first, d² otherwise (COP's "RD": cubed for prize contenders, squared below, so contenders
 *   play close to their rank and the rest are paired more loosely);
 * - first/second balance: when both are due the same (both more firsts than seconds, or both fewer),
 *   {@link FIRSTS_WEIGHT} × the smaller imbalance (TSH's `pairsvr` as a cost);
 * - repeats: a pair that has met m times (m ≤ `maxRepeats`; more is forbidden, the edge left out) costs
 *   (2^m − 1) × a unit larger than all other costs of a whole round together, so the matching minimizes
 *   that repeat weight before anything else: no repeat where a pairing without one exists, and two second
 *   meetings rather than one third (COP's "RE" doubling: an n-peat costs more than two (n−1)-peats).
 *
 * Gibsonization (COP "GG"/"GC"; NASPA): a leader no one can catch any more (gibson.ts, wins then spread
 * with `gibsonSpreadPerGame` per game left) is paired first, against the highest-ranked player out of
 * contention for every prize place (`prizePlaces`, default 1), and reported in `gibsonized`. The bye is
 * chosen before all this, by `byeChoice`.
 *
 * Speed: edmonds-blossom on the complete graph of 500 players (124,750 edges) takes about 2 s here, so
 * the edges are first limited to pairs at most {@link WINDOW_START} places apart in the standings; the
 * window doubles while the matching is not perfect, and opens to the complete graph at once when the
 * matching uses a repeat (an allowed pair further apart might avoid it). Rank costs grow as d³, so the optimum seldom uses a longer pair
 * unless repeats force it: the window is a heuristic, exact whenever it reaches the complete graph.
 */

/** Weight of one unit of first/second imbalance on a pair whose players are due the same. */
export const FIRSTS_WEIGHT = 8;
/** First rank window of the matching (see the module comment). */
export const WINDOW_START = 48;
/** Repeat costs double per meeting up to this many meetings, so costs stay exact integers in a double. */
const MAX_REPEAT_DOUBLINGS = 8;

/** What the pair costs depend on: standings positions, who can still finish first, the repeat unit. */
export interface CostModel {
  readonly position: ReadonlyMap<number, number>;
  readonly contenders: ReadonlySet<number>;
  readonly repeatUnit: number;
}

/** The cost model of a round whose matched pool has `poolSize` players. */
export const costModel = (request: PairingRequest, poolSize: number): CostModel => {
  const n = request.players.length;
  const worstBase = Math.max(1, n - 1) ** 3 + FIRSTS_WEIGHT * (request.totalRounds + 1);
  return {
    position: new Map(request.players.map((p, i) => [p.id, i])),
    contenders: new Set(request.players.filter((p) => contendsForFirst(request, p)).map((p) => p.id)),
    repeatUnit: Math.ceil(poolSize / 2) * worstBase + 1,
  };
};

/** The cost of pairing a and b (see the module comment); forbidden pairs never reach it. */
export const pairCost = (request: PairingRequest, model: CostModel, a: PairingPlayer, b: PairingPlayer): number => {
  const pa = model.position.get(a.id) ?? 0;
  const pb = model.position.get(b.id) ?? 0;
  const d = Math.abs(pa - pb);
  const higher = pa < pb ? a : b;
  const rank = model.contenders.has(higher.id) ? d ** 3 : d ** 2;
  const ba = a.firsts - a.seconds;
  const bb = b.firsts - b.seconds;
  const firsts = Math.sign(ba) !== 0 && Math.sign(ba) === Math.sign(bb) ? FIRSTS_WEIGHT * Math.min(Math.abs(ba), Math.abs(bb)) : 0;
  const m = Math.min(meetings(a, b.id), MAX_REPEAT_DOUBLINGS);
  return rank + firsts + (2 ** m - 1) * model.repeatUnit;
};

/** The minimum-cost pairing of an even pool (rank order) within a growing rank window; null when none exists. */
export const matchPool = (
  request: PairingRequest,
  model: CostModel,
  pool: readonly PairingPlayer[],
): [PairingPlayer, PairingPlayer][] | null => {
  const at = (i: number): PairingPlayer => pool[i] as PairingPlayer;
  for (let window = WINDOW_START; ;) {
    const complete = window >= pool.length - 1;
    const edges: CostEdge[] = [];
    for (let i = 0; i < pool.length; i++)
      for (let j = i + 1; j < pool.length && j - i <= window; j++)
        if (mayMeet(request, at(i), at(j))) edges.push([i, j, pairCost(request, model, at(i), at(j))]);
    const mate = minCostPerfectMatching(pool.length, edges);
    const pairs = mate ? matePairs(mate).map(([i, j]): [PairingPlayer, PairingPlayer] => [at(i), at(j)]) : null;
    if (complete) return pairs;
    if (pairs && pairs.every(([a, b]) => meetings(a, b.id) === 0)) return pairs;
    // Only the complete graph can show a repeat is needed, so a repeat goes straight there.
    window = pairs ? pool.length : window * 2;
  }
};

/** How many Gibson opponents to try before pairing the leader like anyone else. */
const GIBSON_TRIES = 3;

/** Pairs an even pool, the clinched leader first against the highest-ranked allowed non-contender. */
const pairPool = (request: PairingRequest, pool: readonly PairingPlayer[]): { games: PairedGame[]; gibsonized: number[] } | null => {
  const model = costModel(request, pool.length);
  const leader = clinchedLeader(request);
  if (leader && pool.includes(leader)) {
    const opponents = pool.filter((p) => p !== leader && outOfContention(request, p) && mayMeet(request, leader, p));
    for (const opponent of opponents.slice(0, GIBSON_TRIES)) {
      const rest = matchPool(
        request,
        model,
        pool.filter((p) => p !== leader && p !== opponent),
      );
      if (rest) return { games: toGames(request, [[leader, opponent], ...rest]), gibsonized: [leader.id] };
    }
  }
  const pairs = matchPool(request, model, pool);
  return pairs ? { games: toGames(request, pairs), gibsonized: [] } : null;
};

const toGames = (request: PairingRequest, pairs: readonly (readonly [PairingPlayer, PairingPlayer])[]): PairedGame[] =>
  pairs.map(([a, b]) => balancedGame(request, a, b));

/** Weighted-matching pairing (see the module comment). */
export const pairWeighted: Pairer = (request) => {
  const valid = validateRequest(request);
  if (!valid.ok) return valid;
  let gibsonized: number[] = [];
  const paired = pairWithBye(request, (pool) => {
    const result = pairPool(request, pool);
    if (!result) return null;
    gibsonized = result.gibsonized;
    return result.games;
  });
  return paired.ok ? ok(roundPairing(paired.value.games, paired.value.bye, gibsonized)) : paired;
};
