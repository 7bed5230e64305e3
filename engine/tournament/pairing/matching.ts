import blossom from 'edmonds-blossom-fixed';

/** An edge a matching may use: two node indices and the cost of pairing them (a non-negative integer). */
export type CostEdge = readonly [number, number, number];

/**
 * A minimum-cost perfect matching of nodes 0..size-1 over the given edges, or null when the edges admit
 * no perfect matching. It runs `edmonds-blossom-fixed` (van Rantwijk's O(n³) maximum-weight matching) with
 * maximum cardinality on weights `BIG - cost`, BIG above every cost: all perfect matchings have the same
 * number of edges, so the heaviest of them is the cheapest. Costs must stay integers well below 2^52 so
 * the duals stay exact.
 */
export const minCostPerfectMatching = (size: number, edges: readonly CostEdge[]): number[] | null => {
  if (size === 0) return [];
  if (size % 2 === 1 || edges.length === 0) return null;
  let maxCost = 0;
  for (const e of edges) if (e[2] > maxCost) maxCost = e[2];
  const big = maxCost + 1;
  const mate = blossom(
    edges.map(([i, j, cost]) => [i, j, big - cost] as const),
    true,
  );
  const result: number[] = [];
  for (let v = 0; v < size; v++) {
    const m = mate[v];
    if (m === undefined || m < 0) return null;
    result.push(m);
  }
  return result;
};
