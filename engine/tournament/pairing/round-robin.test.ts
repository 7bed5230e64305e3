import { describe, expect, test } from 'vitest';
import { field, idsInRound, pairKeys, player, request } from './pairing.fixtures.js';
import {
  bergerRound,
  cycleLength,
  fullSchedule,
  pairDoubleRoundRobin,
  pairMatchRoundRobin,
  pairRoundRobin,
  type RoundRobinKind,
} from './round-robin.js';
import type { Pairer, RoundPairing } from './types.js';

/**
 * The Berger tables as published (FIDE Handbook C.05 Annex 1, "Berger Tables for Round-Robin
 * Tournaments"; copied here from the reproduction at c.w.fox.tripod.com/chess/berger.html), one line
 * per round, first-named player first. Typed in, not generated.
 */
const PUBLISHED: Record<number, string[]> = {
  4: ['1-4 2-3', '4-3 1-2', '2-4 3-1'],
  6: ['1-6 2-5 3-4', '6-4 5-3 1-2', '2-6 3-1 4-5', '6-5 1-4 2-3', '3-6 4-2 5-1'],
  8: ['1-8 2-7 3-6 4-5', '8-5 6-4 7-3 1-2', '2-8 3-1 4-7 5-6', '8-6 7-5 1-4 2-3', '3-8 4-2 5-1 6-7', '8-7 1-6 2-5 3-4', '4-8 5-3 6-2 7-1'],
  10: [
    '1-10 2-9 3-8 4-7 5-6',
    '10-6 7-5 8-4 9-3 1-2',
    '2-10 3-1 4-9 5-8 6-7',
    '10-7 8-6 9-5 1-4 2-3',
    '3-10 4-2 5-1 6-9 7-8',
    '10-8 9-7 1-6 2-5 3-4',
    '4-10 5-3 6-2 7-1 8-9',
    '10-9 1-8 2-7 3-6 4-5',
    '5-10 6-4 7-3 8-2 9-1',
  ],
  12: [
    '1-12 2-11 3-10 4-9 5-8 6-7',
    '12-7 8-6 9-5 10-4 11-3 1-2',
    '2-12 3-1 4-11 5-10 6-9 7-8',
    '12-8 9-7 10-6 11-5 1-4 2-3',
    '3-12 4-2 5-1 6-11 7-10 8-9',
    '12-9 10-8 11-7 1-6 2-5 3-4',
    '4-12 5-3 6-2 7-1 8-11 9-10',
    '12-10 11-9 1-8 2-7 3-6 4-5',
    '5-12 6-4 7-3 8-2 9-1 10-11',
    '12-11 1-10 2-9 3-8 4-7 5-6',
    '6-12 7-5 8-4 9-3 10-2 11-1',
  ],
  14: ['1-14 2-13 3-12 4-11 5-10 6-9 7-8', '14-8 9-7 10-6 11-5 12-4 13-3 1-2', '2-14 3-1 4-13 5-12 6-11 7-10 8-9'],
};

const format = (pairs: readonly { first: number; second: number }[]): string => pairs.map((p) => `${p.first}-${p.second}`).join(' ');

describe('Berger tables (FIDE C.05 Annex 1)', () => {
  const cases = Object.entries(PUBLISHED).flatMap(([n, rounds]) => rounds.map((line, i) => [Number(n), i + 1, line] as const));
  test.each(cases)('%i players, round %i: %s', (n, round, line) => {
    expect(format(bergerRound(n, round))).toBe(line);
  });

  test.each([
    [3, 1],
    [4, 0],
    [4, 4],
    [0, 1],
  ])('no round %i/%i: a broken invariant throws', (n, round) => {
    expect(() => bergerRound(n, round)).toThrow();
  });
});

const ROSTER_SIZES = Array.from({ length: 16 }, (_, i) => i + 2);

const pairersByKind: Record<RoundRobinKind, Pairer> = {
  'round-robin': pairRoundRobin,
  'double-round-robin': pairDoubleRoundRobin,
  'match-round-robin': pairMatchRoundRobin,
};

/** Every round of a schedule as the pairer returns it, for a fresh field 1..n (repeats allowed: the schedule decides). */
const playAll = (kind: RoundRobinKind, n: number): RoundPairing[] => {
  const rounds = (kind === 'round-robin' ? 1 : 2) * cycleLength(n);
  return Array.from({ length: rounds }, (_, i) => {
    const r = pairersByKind[kind](request(field(n), { round: i + 1, totalRounds: rounds, maxRepeats: 10 }));
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  });
};

const meetingsOf = (rounds: readonly RoundPairing[]): Map<string, { count: number; firsts: Map<number, number> }> => {
  const m = new Map<string, { count: number; firsts: Map<number, number> }>();
  for (const r of rounds)
    for (const g of r.games) {
      const key = g.first < g.second ? `${g.first}-${g.second}` : `${g.second}-${g.first}`;
      const entry = m.get(key) ?? { count: 0, firsts: new Map() };
      entry.count++;
      entry.firsts.set(g.first, (entry.firsts.get(g.first) ?? 0) + 1);
      m.set(key, entry);
    }
  return m;
};

describe.each(['round-robin', 'double-round-robin', 'match-round-robin'] as const)('%s', (kind) => {
  test.each(ROSTER_SIZES)('%i players: everyone once a round, the bye to the odd one out', (n) => {
    for (const r of playAll(kind, n)) {
      expect(idsInRound(r).sort((a, b) => a - b)).toEqual(field(n).map((p) => p.id));
      expect(r.bye !== null).toBe(n % 2 === 1);
      expect(r.extraByes ?? []).toEqual([]);
      expect(r.games.every((g) => g.firstReason === 'schedule')).toBe(true);
    }
  });

  test.each(ROSTER_SIZES)('%i players: every pair meets as the schedule says', (n) => {
    const met = meetingsOf(playAll(kind, n));
    expect(met.size).toBe((n * (n - 1)) / 2);
    for (const { count, firsts } of met.values()) {
      if (kind === 'round-robin') expect(count).toBe(1);
      else {
        expect(count).toBe(2);
        expect([...firsts.values()]).toEqual([1, 1]);
      }
    }
  });
});

describe('firsts in a Berger cycle', () => {
  test.each(ROSTER_SIZES.filter((n) => n % 2 === 0))('%i players: |firsts − seconds| ≤ 1 for everyone', (n) => {
    const balance = new Map<number, number>();
    for (const r of playAll('round-robin', n))
      for (const g of r.games) {
        balance.set(g.first, (balance.get(g.first) ?? 0) + 1);
        balance.set(g.second, (balance.get(g.second) ?? 0) - 1);
      }
    for (const b of balance.values()) expect(Math.abs(b)).toBeLessThanOrEqual(1);
  });

  test.each(ROSTER_SIZES)('%i players, double: every player first exactly as often as second', (n) => {
    const balance = new Map<number, number>();
    for (const r of playAll('double-round-robin', n))
      for (const g of r.games) {
        balance.set(g.first, (balance.get(g.first) ?? 0) + 1);
        balance.set(g.second, (balance.get(g.second) ?? 0) - 1);
      }
    for (const b of balance.values()) expect(b).toBe(0);
  });
});

describe('match round robin (seed-003): rounds 2k−1 and 2k hold the same pairs, firsts swapped', () => {
  test.each(ROSTER_SIZES)('%i players', (n) => {
    const rounds = playAll('match-round-robin', n);
    for (let k = 0; k < rounds.length; k += 2) {
      const [a, b] = [rounds[k]!, rounds[k + 1]!];
      expect(pairKeys(b)).toEqual(pairKeys(a));
      expect(b.bye).toBe(a.bye);
      const swapped = new Set(b.games.map((g) => `${g.second}>${g.first}`));
      expect(a.games.every((g) => swapped.has(`${g.first}>${g.second}`))).toBe(true);
    }
  });

  test('4 players, hand-checked from the 4-player Berger table: 1-4 2-3 twice, then 4-3 1-2 twice', () => {
    const lines = fullSchedule('match-round-robin', [1, 2, 3, 4]).map(format);
    expect(lines).toEqual(['1-4 2-3', '4-1 3-2', '4-3 1-2', '3-4 2-1', '2-4 3-1', '4-2 1-3']);
  });
});

describe('the roster fixes the table', () => {
  test('the roster in seed order, not entrant order, takes the table positions', () => {
    // Seeds: entrant 3 is seed 1, 1 is seed 2, 4 is seed 3, 2 is seed 4; round 1 is seed 1 v 4, 2 v 3.
    const r = pairRoundRobin(request(field(4), { roster: [3, 1, 4, 2] }));
    expect(r.ok && r.value.games.map((g) => `${g.first}-${g.second}`)).toEqual(['3-2', '1-4']);
  });

  test('a withdrawn player: the opponent the table gives them has the bye', () => {
    // 8 entrants, 5 withdrawn; round 1 of the 8-table pairs 4-5, so 4 has the bye.
    const players = field(8).filter((p) => p.id !== 5);
    const r = pairRoundRobin(request(players, { roster: [1, 2, 3, 4, 5, 6, 7, 8] }));
    expect(r.ok && { pairs: pairKeys(r.value), bye: r.value.bye, extra: r.value.extraByes }).toEqual({
      pairs: ['1-8', '2-7', '3-6'],
      bye: 4,
      extra: undefined,
    });
  });

  test('an odd roster with a withdrawn player: the empty seat’s opponent has the bye, the other orphan an extra bye', () => {
    // 7 entrants (seat 8 empty), 3 withdrawn; round 1: 1-(8) 2-7 3-6 4-5, so 1 has the bye and 6 an extra one.
    const players = field(7).filter((p) => p.id !== 3);
    const r = pairRoundRobin(request(players, { roster: [1, 2, 3, 4, 5, 6, 7] }));
    expect(r.ok && { pairs: pairKeys(r.value), bye: r.value.bye, extra: r.value.extraByes }).toEqual({
      pairs: ['2-7', '4-5'],
      bye: 1,
      extra: [6],
    });
  });

  test('a pre-paired couple plays; their scheduled opponents have byes', () => {
    // Round 1 of 6: 1-6 2-5 3-4; the director pre-pairs 1 with 2, so 6 and 5 have byes.
    const r = pairRoundRobin(request(field(6), { prePaired: [[1, 2]] }));
    expect(r.ok && { pairs: pairKeys(r.value), bye: r.value.bye, extra: r.value.extraByes }).toEqual({
      pairs: ['1-2', '3-4'],
      bye: 6,
      extra: [5],
    });
  });

  test('a pre-paired couple the schedule pairs anyway keeps the table’s firsts', () => {
    const r = pairRoundRobin(request(field(6), { prePaired: [[6, 1]] }));
    expect(r.ok && r.value.games.find((g) => g.first === 1 || g.second === 1)).toEqual({
      first: 1,
      second: 6,
      firstReason: 'schedule',
      repeats: 0,
    });
  });

  test('repeats are counted from the opponents lists', () => {
    const players = [player(1, { opponents: [2, 2] }), player(2, { opponents: [1, 1] })];
    const r = pairDoubleRoundRobin(request(players, { round: 2, maxRepeats: 5 }));
    expect(r.ok && r.value.games[0]).toEqual({ first: 2, second: 1, firstReason: 'schedule', repeats: 2 });
  });
});

describe('errors', () => {
  test.each([
    ['round-robin', 7, pairRoundRobin],
    ['double-round-robin', 14, pairDoubleRoundRobin],
    ['match-round-robin', 14, pairMatchRoundRobin],
  ] as const)('%s of 8 players ends at round %i', (_, last, pair) => {
    expect(pair(request(field(8), { round: last, totalRounds: 30 })).ok).toBe(true);
    const r = pair(request(field(8), { round: last + 1, totalRounds: 30 }));
    expect(!r.ok && r.error.code).toBe('ROUND_NOT_IN_SCHEDULE');
  });

  test.each([
    ['an active player missing from the roster', { roster: [1, 2, 3] }, 'PLAYER_NOT_IN_ROSTER'],
    ['a roster entrant twice', { roster: [1, 2, 3, 4, 4] }, 'DUPLICATE_PLAYER'],
    ['a round past totalRounds', { round: 13 }, 'ROUND_OUT_OF_RANGE'],
  ] as const)('%s', (_, over, code) => {
    const r = pairRoundRobin(request(field(4), over));
    expect(!r.ok && r.error.code).toBe(code);
    expect(!r.ok && r.error.message).toMatch(/^(roster|round):/);
  });

  test('no players: an empty round', () => {
    expect(pairRoundRobin(request([], { roster: [] }))).toEqual({ ok: true, value: { games: [], bye: null, gibsonized: [] } });
  });
});
