import { describe, expect, test } from 'vitest';
import { byeCandidates, chooseBye } from './byes.js';
import { player, request } from './pairing.fixtures.js';
import type { ByeChoice } from './types.js';

// Rank order 1..5. Byes so far: 5 has had one; ratings: 3 is the lowest rated.
const pool = [
  player(1, { rating: 1900 }),
  player(2, { rating: 1800 }),
  player(3, { rating: 1200 }),
  player(4, { rating: 1500, byes: 0 }),
  player(5, { rating: 1600, byes: 1 }),
];

describe('who gets the bye', () => {
  test.each([
    // NASPA: the lowest-ranked player who has not had one: 5 has, so 4.
    ['lowest-ranked-without-bye', [4, 3, 2, 1, 5]],
    ['lowest-ranked', [5, 4, 3, 2, 1]],
    // Fewest byes first, then lowest rating: 3 (1200), 4 (1500), 2, 1; 5 last (one bye).
    ['lowest-rated-without-bye', [3, 4, 2, 1, 5]],
  ] as const)('%s: candidates %j', (choice, order) => {
    expect(byeCandidates(request(pool, { byeChoice: choice as ByeChoice }), pool).map((p) => p.id)).toEqual(order);
  });

  test('when everyone has had a bye, the fewest byes decide, then rank', () => {
    const all = [player(1, { byes: 1 }), player(2, { byes: 2 }), player(3, { byes: 1 })];
    expect(chooseBye(request(all), all)?.id).toBe(3);
    const again = [player(1, { byes: 1 }), player(2, { byes: 1 }), player(3, { byes: 2 })];
    expect(chooseBye(request(again), again)?.id).toBe(2);
  });

  test('equal ratings go to the lower ranked', () => {
    const tied = [player(1, { rating: 1500 }), player(2, { rating: 1500 }), player(3, { rating: 1700 })];
    expect(chooseBye(request(tied, { byeChoice: 'lowest-rated-without-bye' }), tied)?.id).toBe(2);
  });

  test('an even pool has no bye', () => {
    expect(chooseBye(request(pool.slice(0, 4)), pool.slice(0, 4))).toBeNull();
  });
});
