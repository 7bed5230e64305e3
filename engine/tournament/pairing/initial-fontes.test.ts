import { describe, expect, test } from 'vitest';
import { fontesGroups, oddGroupPositions, pairInitialFontes } from './initial-fontes.js';
import { field, idsInRound, pairKeys, request } from './pairing.fixtures.js';
import type { RoundPairing } from './types.js';

/**
 * Hand-worked examples. TSH's InitFontes documents no table of its own (it draws each group member at
 * random from its quarter); these follow its rules with Arbiter's deterministic draw (the k-th of each
 * quarter, the middle of each sixth or quarter for the odd group) and the 4-, 6- and 8-player Berger
 * tables of FIDE C.05 Annex 1:
 *   4: 1-4 2-3 | 4-3 1-2 | 2-4 3-1      6: 1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5
 */
const round = (n: number, r: number): RoundPairing => {
  const result = pairInitialFontes(request(field(n), { round: r }));
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};
const lines = (r: RoundPairing): string => r.games.map((g) => `${g.first}-${g.second}`).join(' ');

describe('groups', () => {
  test.each([
    [
      8,
      [
        [1, 3, 5, 7],
        [2, 4, 6, 8],
      ],
    ],
    [
      12,
      [
        [1, 4, 7, 10],
        [2, 5, 8, 11],
        [3, 6, 9, 12],
      ],
    ],
    // 7 = 4 + 3: one from each quarter but the top (positions ⌊7·3/8⌋, ⌊7·5/8⌋, ⌊7·7/8⌋ = 2, 4, 6 → seeds 3, 5, 7).
    [
      7,
      [
        [3, 5, 7],
        [1, 2, 4, 6],
      ],
    ],
    // 9 = 4 + 5: one from each sixth but the top (⌊9·3/12⌋ … ⌊9·11/12⌋ = 2, 3, 5, 6, 8).
    [
      9,
      [
        [3, 4, 6, 7, 9],
        [1, 2, 5, 8],
      ],
    ],
    // 10 = 4 + 6: one from each sixth (⌊10·1/12⌋ … ⌊10·11/12⌋ = 0, 2, 4, 5, 7, 9).
    [
      10,
      [
        [1, 3, 5, 6, 8, 10],
        [2, 4, 7, 9],
      ],
    ],
    [6, [[1, 2, 3, 4, 5, 6]]],
    [2, [[1, 2]]],
  ])('%i players: %j', (n, groups) => {
    expect(fontesGroups(field(n).map((p) => p.id))).toEqual(groups);
  });

  test.each([[8], [11], [13], [14], [15], [101]])('%i players: distinct odd-group positions, every player in one group', (n) => {
    const positions = oddGroupPositions(n);
    expect(new Set(positions).size).toBe(positions.length);
    expect(positions.length).toBe([0, 5, 6, 3][n % 4]);
    const groups = fontesGroups(field(n).map((p) => p.id));
    expect(groups.flat().sort((a, b) => a - b)).toEqual(field(n).map((p) => p.id));
  });

  test('groups follow the roster’s seed order, not entrant numbers', () => {
    expect(fontesGroups([8, 7, 6, 5, 4, 3, 2, 1])).toEqual([
      [8, 6, 4, 2],
      [7, 5, 3, 1],
    ]);
  });
});

describe('hand-checked rounds', () => {
  test.each([
    [8, 1, '1-7 3-5 2-8 4-6', null],
    [8, 2, '7-5 1-3 8-6 2-4', null],
    [8, 3, '3-7 5-1 4-8 6-2', null],
    [12, 1, '1-10 4-7 2-11 5-8 3-12 6-9', null],
    [12, 2, '10-7 1-4 11-8 2-5 12-9 3-6', null],
    [12, 3, '4-10 7-1 5-11 8-2 6-12 9-3', null],
    [7, 1, '5-7 1-6 2-4', 3],
    [7, 2, '3-5 6-4 1-2', 7],
    [7, 3, '7-3 2-6 4-1', 5],
    [9, 1, '4-9 6-7 1-8 2-5', 3],
    [10, 1, '1-10 3-8 5-6 2-9 4-7', null],
    [2, 1, '1-2', null],
    [2, 2, '2-1', null],
    [2, 3, '1-2', null],
  ])('%i players, round %i: %s, bye %s', (n, r, expected, bye) => {
    const pairing = round(n, r);
    expect(lines(pairing)).toBe(expected);
    expect(pairing.bye).toBe(bye);
    expect(pairing.games.every((g) => g.firstReason === 'schedule')).toBe(true);
  });
});

describe('properties, 2 to 17 players', () => {
  const sizes = Array.from({ length: 16 }, (_, i) => i + 2);
  test.each(sizes)('%i players: everyone once a round; no pair twice in three rounds; only group-mates meet', (n) => {
    const groupOf = new Map(fontesGroups(field(n).map((p) => p.id)).flatMap((g, k) => g.map((id) => [id, k] as const)));
    const seen = new Set<string>();
    for (const r of [1, 2, 3]) {
      const pairing = round(n, r);
      expect(idsInRound(pairing).sort((a, b) => a - b)).toEqual(field(n).map((p) => p.id));
      expect(pairing.bye !== null).toBe(n % 2 === 1);
      for (const g of pairing.games) expect(groupOf.get(g.first)).toBe(groupOf.get(g.second));
      for (const key of pairKeys(pairing)) {
        if (n > 2) expect(seen.has(key)).toBe(false);
        seen.add(key);
      }
    }
  });
});

describe('the fixed schedule', () => {
  test('a withdrawn player’s group opponent has the bye', () => {
    const r = pairInitialFontes(
      request(
        field(8).filter((p) => p.id !== 7),
        { roster: [1, 2, 3, 4, 5, 6, 7, 8] },
      ),
    );
    expect(r.ok && { pairs: pairKeys(r.value), bye: r.value.bye }).toEqual({ pairs: ['2-8', '3-5', '4-6'], bye: 1 });
  });

  test('a pre-paired couple plays; their group opponents have byes', () => {
    const r = pairInitialFontes(request(field(8), { prePaired: [[1, 2]] }));
    expect(r.ok && { pairs: pairKeys(r.value), bye: r.value.bye, extra: r.value.extraByes }).toEqual({
      pairs: ['1-2', '3-5', '4-6'],
      bye: 7,
      extra: [8],
    });
  });

  test('round 4 is past Initial Fontes', () => {
    const r = pairInitialFontes(request(field(8), { round: 4 }));
    expect(!r.ok && r.error.code).toBe('ROUND_NOT_IN_SCHEDULE');
  });
});
