import { minCostPerfectMatching, type CostEdge } from './matching.js';

/**
 * The search TSH runs for its KOTH and Swiss commands (TSH `PairGRT`): the highest-placed unpaired
 * player takes the first still-unpaired opponent of their preference list, and the search backs up
 * to the last choice when someone is left without an allowed opponent. Players are indices 0..n-1.
 */
export interface PreferenceSearch {
  /** Number of players (even). */
  readonly size: number;
  /** Whether i and j may be paired (the repeat filter). */
  readonly allowed: (i: number, j: number) => boolean;
  /** i's preference for j: lower is better; compared element by element, like TSH's packed keys. */
  readonly preference: (i: number, j: number) => readonly number[];
}

/** Steps a search may take before it stops and lets the matching decide (a search can be exponential). */
export const SEARCH_BUDGET = 200_000;

const compareKeys = (a: readonly number[], b: readonly number[]): number => {
  for (let k = 0; k < Math.max(a.length, b.length); k++) {
    const d = (a[k] ?? 0) - (b[k] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};

const preferenceLists = (s: PreferenceSearch): number[][] =>
  Array.from({ length: s.size }, (_, i) => {
    const keyed: { j: number; key: readonly number[] }[] = [];
    for (let j = 0; j < s.size; j++) if (j !== i && s.allowed(i, j)) keyed.push({ j, key: s.preference(i, j) });
    keyed.sort((a, b) => compareKeys(a.key, b.key) || a.j - b.j);
    return keyed.map((k) => k.j);
  });

/** The outcome of a search: the mates, proof that none exists, or the budget spent first. */
export type SearchOutcome = (
  { readonly kind: 'paired'; readonly mate: readonly number[] } | { readonly kind: 'none' } | { readonly kind: 'budget' }
) & { readonly steps: number };

/** Runs the preference search of {@link PreferenceSearch}; an exhausted search proves no pairing exists. */
export const searchPairing = (s: PreferenceSearch, budget = SEARCH_BUDGET): SearchOutcome => {
  if (s.size % 2 === 1) return { kind: 'none', steps: 0 };
  const lists = preferenceLists(s);
  const mate = new Array<number>(s.size).fill(-1);
  let steps = 0;
  const place = (from: number): boolean | 'budget' => {
    let i = from;
    while (i < s.size && mate[i] !== -1) i++;
    if (i === s.size) return true;
    for (const j of lists[i] ?? []) {
      if (mate[j] !== -1) continue;
      if (++steps > budget) return 'budget';
      mate[i] = j;
      mate[j] = i;
      const r = place(i + 1);
      if (r !== false) return r;
      mate[i] = -1;
      mate[j] = -1;
    }
    return false;
  };
  const r = place(0);
  if (r === 'budget') return { kind: 'budget', steps };
  return r ? { kind: 'paired', mate, steps } : { kind: 'none', steps };
};

/**
 * The last resort of the searches: a minimum-cost perfect matching over the allowed pairs, costed by
 * `cost` (matching.ts). It either finds a pairing or proves there is none (null), whatever the size.
 */
export const matchingFallback = (
  size: number,
  allowed: (i: number, j: number) => boolean,
  cost: (i: number, j: number) => number,
): number[] | null => {
  const edges: CostEdge[] = [];
  for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) if (allowed(i, j)) edges.push([i, j, cost(i, j)]);
  return minCostPerfectMatching(size, edges);
};

/** Pairs of indices (i < j) from a mate array. */
export const matePairs = (mate: readonly number[]): [number, number][] => {
  const pairs: [number, number][] = [];
  mate.forEach((j, i) => {
    if (j > i) pairs.push([i, j]);
  });
  return pairs;
};
