import { describe, expect, test } from 'vitest';
import { pairKingOfTheHill } from './king-of-the-hill.js';
import { field, idsInRound, pairKeys, player, request } from './pairing.fixtures.js';

describe('King of the Hill (TSH koth)', () => {
  test('a fresh field: 1 v 2, 3 v 4, 5 v 6', () => {
    const r = pairKingOfTheHill(request(field(6)));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-2', '3-4', '5-6']);
  });

  test('the standings order, not entrant numbers', () => {
    const players = [4, 2, 6, 1, 3, 5].map((id, i) => player(id, { rank: i + 1 }));
    const r = pairKingOfTheHill(request(players));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-6', '2-4', '3-5']);
  });

  test('odd: the bye to the lowest-ranked player without one, then 1 v 2 …', () => {
    const players = [player(1), player(2), player(3), player(4), player(5, { byes: 1 })];
    const r = pairKingOfTheHill(request(players));
    expect(r.ok && { pairs: pairKeys(r.value), bye: r.value.bye }).toEqual({ pairs: ['1-2', '3-5'], bye: 4 });
  });

  test('maxRepeats 0: 1 and 2 have met, so 1 slides down to 3, and 2 takes 4', () => {
    // Hand-worked: 1's nearest allowed opponent is 3 (distance 2); then 2's nearest free one is 4.
    const players = [player(1, { opponents: [2] }), player(2, { opponents: [1] }), player(3), player(4), player(5), player(6)];
    const r = pairKingOfTheHill(request(players, { round: 2 }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-3', '2-4', '5-6']);
  });

  test('the search backs up: 1 v 2 would leave 3 and 4, who have met, so 1 v 3 and 2 v 4', () => {
    const players = [player(1), player(2), player(3, { opponents: [4] }), player(4, { opponents: [3] })];
    const r = pairKingOfTheHill(request(players, { round: 2 }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-3', '2-4']);
  });

  test('maxRepeats 1 allows a second meeting: 1 v 2 again', () => {
    const players = [player(1, { opponents: [2] }), player(2, { opponents: [1] }), player(3), player(4)];
    const r = pairKingOfTheHill(request(players, { round: 2, maxRepeats: 1 }));
    expect(r.ok && r.value.games.map((g) => [pairKeys({ ...r.value, games: [g] })[0], g.repeats])).toEqual([
      ['1-2', 1],
      ['3-4', 0],
    ]);
  });

  test('impossible within maxRepeats: REPEAT_LIMIT naming the players', () => {
    const players = [player(1, { opponents: [2] }), player(2, { opponents: [1] })];
    const r = pairKingOfTheHill(request(players, { round: 2 }));
    expect(!r.ok && r.error.code).toBe('REPEAT_LIMIT');
    expect(!r.ok && r.error.message).toMatch(/players 1, 2/);
  });

  test('a pre-paired couple is paired, the rest by King of the Hill', () => {
    const r = pairKingOfTheHill(request(field(6), { prePaired: [[2, 5]] }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-3', '2-5', '4-6']);
    expect(r.ok && idsInRound(r.value).length).toBe(6);
  });
});
