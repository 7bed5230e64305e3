import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { field, idsInRound, pairable, pairKeys, player, randomDivision, request } from './pairing.fixtures.js';
import { pairSwiss, scoreGroups } from './swiss.js';

describe('Swiss (TSH NewSwiss): top half against bottom half of each score group', () => {
  test('round 1, 8 players, one group: 1-5 2-6 3-7 4-8', () => {
    const r = pairSwiss(request(field(8)));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-5', '2-6', '3-7', '4-8']);
  });

  test('round 2: winners 1-3 2-4, losers 5-7 6-8 (hand-worked from round 1: 1-5 2-6 3-7 4-8, the seeds winning)', () => {
    const opp: Record<number, number> = { 1: 5, 2: 6, 3: 7, 4: 8, 5: 1, 6: 2, 7: 3, 8: 4 };
    const players = field(8).map((p) => player(p.id, { wins: p.id <= 4 ? 1 : 0, losses: p.id <= 4 ? 0 : 1, opponents: [opp[p.id]!] }));
    const r = pairSwiss(request(players, { round: 2 }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-3', '2-4', '5-7', '6-8']);
  });

  test('an odd group floats its lowest player down: [1 2 6] [3 4 5] → 1-2, then 6 heads [6 3 4 5]: 6-4, 3-5', () => {
    // Round 1 was 1-4, 2-5, 3-6 and 6 won; standings 1, 2, 6 (1 win), 3, 4, 5.
    const players = [
      player(1, { wins: 1, opponents: [4] }),
      player(2, { wins: 1, opponents: [5] }),
      player(6, { wins: 1, opponents: [3] }),
      player(3, { losses: 1, opponents: [6] }),
      player(4, { losses: 1, opponents: [1] }),
      player(5, { losses: 1, opponents: [2] }),
    ];
    const r = pairSwiss(request(players, { round: 2 }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-2', '3-5', '4-6']);
  });

  test('a group that cannot pair within maxRepeats merges with the next', () => {
    // 1 and 2 (the only 1-win players) have met; they must each play someone from the 0-win group.
    const players = [
      player(1, { wins: 1, opponents: [2] }),
      player(2, { wins: 1, opponents: [1] }),
      player(3, { opponents: [4] }),
      player(4, { opponents: [3] }),
    ];
    const r = pairSwiss(request(players, { round: 2 }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-3', '2-4']);
  });

  test('score groups: equal wins, a tie counting ½', () => {
    const groups = scoreGroups([player(1, { wins: 2 }), player(2, { wins: 1.5 }), player(3, { wins: 1.5 }), player(4, { wins: 1 })]);
    expect(groups.map((g) => g.map((p) => p.id))).toEqual([[1], [2, 3], [4]]);
  });

  test('the bye first, by byeChoice, then the Swiss', () => {
    const r = pairSwiss(request(field(5)));
    expect(r.ok && { bye: r.value.bye, pairs: pairKeys(r.value) }).toEqual({ bye: 5, pairs: ['1-3', '2-4'] });
  });

  test('pre-paired couples are honoured', () => {
    const r = pairSwiss(request(field(8), { prePaired: [[1, 2]] }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-2', '3-6', '4-7', '5-8']);
  });
});

describe('properties (fast-check): random histories, 2 to 12 players', () => {
  test('every player once or on the bye; no pair beyond maxRepeats; REPEAT_LIMIT only when no pairing exists', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer(),
        fc.integer({ min: 0, max: 1 }),
        (n, rounds, seed, maxRepeats) => {
          const division = randomDivision(n, Math.min(rounds, n), seed);
          const req = division.request({ maxRepeats });
          const r = pairSwiss(req);
          if (!r.ok) {
            expect(r.error.code).toBe('REPEAT_LIMIT');
            expect(pairable(req, req.players)).toBe(false);
            return;
          }
          expect(idsInRound(r.value).sort((a, b) => a - b)).toEqual(req.players.map((p) => p.id).sort((a, b) => a - b));
          expect(r.value.bye !== null).toBe(n % 2 === 1);
          for (const g of r.value.games) expect(g.repeats).toBeLessThanOrEqual(maxRepeats);
        },
      ),
      { numRuns: 300 },
    );
  });
});
