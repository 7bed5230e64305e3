import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { minCostPerfectMatching, type CostEdge } from './matching.js';
import { perfectMatchings } from './pairing.fixtures.js';

/** The cheapest perfect matching by brute force, or null: the oracle for edmonds-blossom. */
const bruteForce = (size: number, edges: readonly CostEdge[]): number | null => {
  const cost = new Map(edges.map(([i, j, c]) => [`${Math.min(i, j)}-${Math.max(i, j)}`, c]));
  let best: number | null = null;
  for (const m of perfectMatchings(Array.from({ length: size }, (_, i) => i))) {
    let total = 0;
    let allowed = true;
    for (const [a, b] of m) {
      const c = cost.get(`${Math.min(a, b)}-${Math.max(a, b)}`);
      if (c === undefined) {
        allowed = false;
        break;
      }
      total += c;
    }
    if (allowed && (best === null || total < best)) best = total;
  }
  return best;
};

const graph = fc
  .integer({ min: 1, max: 5 })
  .chain((half) =>
    fc.record({
      size: fc.constant(half * 2),
      edges: fc.array(fc.tuple(fc.nat(half * 2 - 1), fc.nat(half * 2 - 1), fc.integer({ min: 0, max: 1_000_000 }), fc.boolean())),
    }),
  )
  .map(({ size, edges }) => {
    const seen = new Set<string>();
    const kept: CostEdge[] = [];
    for (const [i, j, c, keep] of edges) {
      const key = `${Math.min(i, j)}-${Math.max(i, j)}`;
      if (i !== j && keep && !seen.has(key)) {
        seen.add(key);
        kept.push([i, j, c]);
      }
    }
    return { size, edges: kept };
  });

describe('minCostPerfectMatching (edmonds-blossom)', () => {
  test('matches brute force on random graphs of up to 10 nodes: same cost, or both none', () => {
    fc.assert(
      fc.property(graph, ({ size, edges }) => {
        const mate = minCostPerfectMatching(size, edges);
        const best = bruteForce(size, edges);
        if (best === null) {
          expect(mate).toBeNull();
          return;
        }
        expect(mate).not.toBeNull();
        const cost = new Map(edges.map(([i, j, c]) => [`${Math.min(i, j)}-${Math.max(i, j)}`, c]));
        let total = 0;
        mate!.forEach((j, i) => {
          expect(mate![j]).toBe(i);
          if (i < j) total += cost.get(`${i}-${j}`)!;
        });
        expect(total).toBe(best);
      }),
      { numRuns: 400 },
    );
  });

  test.each([
    ['no nodes', 0, [], []],
    ['odd', 3, [[0, 1, 1]], null],
    ['no edges', 2, [], null],
    ['a node no edge reaches', 4, [[0, 1, 1]], null],
    [
      'the cheap pair wins',
      4,
      [
        [0, 1, 5],
        [2, 3, 5],
        [0, 2, 1],
        [1, 3, 1],
        [0, 3, 9],
        [1, 2, 9],
      ],
      [2, 3, 0, 1],
    ],
  ] as const)('%s', (_, size, edges, expected) => {
    expect(minCostPerfectMatching(size, edges as readonly CostEdge[])).toEqual(expected);
  });
});

describe('the matching package in strict mode (how the Lambda bundles run it: ES modules)', () => {
  // Odd cycles everywhere, so the algorithm forms and expands blossoms (the code paths edmonds-blossom
  // 1.0.0 ran with undeclared variables, a ReferenceError in strict mode).
  const edges: CostEdge[] = [];
  for (let i = 0; i < 30; i++) for (let j = i + 1; j < 30; j++) if ((i * 7 + j * 13) % 5 < 2) edges.push([i, j, ((i * j) % 17) + 1]);

  test('runs under "use strict" and leaks no globals', () => {
    const source = readFileSync(createRequire(import.meta.url).resolve('edmonds-blossom-fixed'), 'utf8');
    const module = { exports: {} as unknown };
    new Function('module', 'exports', `"use strict";\n${source}`)(module, module.exports);
    const strictBlossom = module.exports as (e: readonly CostEdge[], maxCardinality: boolean) => number[];
    const mate = strictBlossom(edges, true);
    expect(mate.filter((m) => m >= 0).length).toBeGreaterThan(20);
    expect(['b', 'path', 'v'].filter((name) => name in globalThis)).toEqual([]);
  });
});
