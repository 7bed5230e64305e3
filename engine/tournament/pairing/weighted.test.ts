import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { meetings } from './common.js';
import { canCatch, clinchedLeader } from './gibson.js';
import {
  Division,
  field,
  idsInRound,
  pairable,
  pairKeys,
  perfectMatchings,
  player,
  randomDivision,
  request,
  rng,
} from './pairing.fixtures.js';
import type { PairingPlayer, PairingRequest, RoundPairing } from './types.js';
import { costModel, pairCost, pairWeighted } from './weighted.js';

const pairOf = (req: PairingRequest, r: RoundPairing): [PairingPlayer, PairingPlayer][] => {
  const byId = new Map(req.players.map((p) => [p.id, p]));
  return r.games.map((g) => [byId.get(g.first)!, byId.get(g.second)!]);
};

describe('weighted matching: small hand-checked cases', () => {
  test('a fresh field pairs neighbours in rank: 1-2 3-4 5-6 (rank difference 1 is cheapest)', () => {
    const r = pairWeighted(request(field(6)));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-2', '3-4', '5-6']);
  });

  test('1 and 2 have met (maxRepeats 0): 1-3 2-4 costs 2³+2³ = 16, less than 1-4 2-3 (27+1)', () => {
    const players = [
      player(1, { opponents: [2] }),
      player(2, { opponents: [1] }),
      player(3, { opponents: [4] }),
      player(4, { opponents: [3] }),
    ];
    const r = pairWeighted(request(players, { round: 2 }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-3', '2-4']);
  });

  test('maxRepeats 1: a repeat is taken only when every pairing needs one', () => {
    // 1-2 and 3-4 have met; 1-3 2-4 repeats nothing, so no repeat although repeats are allowed.
    const players = [
      player(1, { opponents: [2] }),
      player(2, { opponents: [1] }),
      player(3, { opponents: [4] }),
      player(4, { opponents: [3] }),
    ];
    const r = pairWeighted(request(players, { round: 2, maxRepeats: 1 }));
    expect(r.ok && r.value.games.every((g) => g.repeats === 0)).toBe(true);
  });

  test('the bye first (lowest ranked without one), then the matching', () => {
    const r = pairWeighted(request([...field(4), player(5, { byes: 1 })]));
    expect(r.ok && { bye: r.value.bye, pairs: pairKeys(r.value) }).toEqual({ bye: 4, pairs: ['1-2', '3-5'] });
  });

  test('pre-paired couples are honoured, the rest matched', () => {
    const r = pairWeighted(request(field(6), { prePaired: [[1, 6]] }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-6', '2-3', '4-5']);
  });

  test('first/second balance: of two equal-rank-cost pairings, the one pairing due-first with due-second', () => {
    // 1 and 2 are due to go second (more firsts), 3 and 4 due first. Ranks: 1-2 3-4 costs 1+1 plus
    // 8·1 + 8·1 for the clashes = 18; 1-3 2-4 costs 8+8 = 16 with no clash. The balance tips it.
    const players = [player(1, { firsts: 1 }), player(2, { firsts: 1 }), player(3, { seconds: 1 }), player(4, { seconds: 1 })];
    const r = pairWeighted(request(players, { round: 2 }));
    expect(r.ok && pairKeys(r.value)).toEqual(['1-3', '2-4']);
    expect(r.ok && r.value.games.every((g) => g.firstReason === 'fewer-firsts' && g.first > 2)).toBe(true);
  });
});

describe('Gibsonization', () => {
  test.each([
    // games left, leader wins/spread, chaser wins/spread, spread per game → can catch
    [1, [4, 0], [2, 0], 300, false], // two wins behind with one game left
    [1, [3, 500], [2, 0], 300, true], // one win behind: spread gap 500 ≤ 2·300·1
    [1, [3, 500], [2, 0], 200, false], // 500 > 2·200·1
    [2, [5, 0], [3, 900], 300, true], // two wins behind with two games: level on wins at worst
    [2, [5, 1300], [3, 0], 300, false], // … and 1300 > 2·300·2
  ] as const)('%i game(s) left, leader %j, chaser %j, %i per game: catchable %s', (games, [lw, ls], [cw, cs], per, expected) => {
    expect(canCatch(player(1, { wins: lw, spread: ls }), player(2, { wins: cw, spread: cs }), games, per)).toBe(expected);
  });

  const standings = (): PairingPlayer[] => [
    player(1, { wins: 4, spread: 400 }), // clinched: everyone else is two or more wins behind with one game left
    player(2, { wins: 2, spread: 100, losses: 2 }),
    player(3, { wins: 2, spread: 50, losses: 2 }),
    player(4, { wins: 1, spread: 0, losses: 3 }), // can still reach 2nd: one win behind, spread gap 100 ≤ 600
    player(5, { wins: 0, spread: -200, losses: 4 }), // cannot reach 2nd
    player(6, { wins: 0, spread: -350, losses: 4 }),
  ];

  test('the clinched leader plays the highest-ranked player out of contention for a prize (prizePlaces 2): 1-5', () => {
    const req = request(standings(), { round: 5, totalRounds: 5, prizePlaces: 2 });
    expect(clinchedLeader(req)?.id).toBe(1);
    const r = pairWeighted(req);
    // The rest: positions 2,3,4,6 → 2-3 (1²) + 4-6 (2²) = 5, cheaper than 2-4 3-6 (4+9) or 2-6 3-4 (16+1).
    expect(r.ok && { pairs: pairKeys(r.value), gibsonized: r.value.gibsonized }).toEqual({ pairs: ['1-5', '2-3', '4-6'], gibsonized: [1] });
  });

  test('with one prize place, anyone who cannot finish first: 1-2', () => {
    const r = pairWeighted(request(standings(), { round: 5, totalRounds: 5 }));
    expect(r.ok && { pairs: pairKeys(r.value), gibsonized: r.value.gibsonized }).toEqual({ pairs: ['1-2', '3-4', '5-6'], gibsonized: [1] });
  });

  test('no Gibsonization while someone can still catch the leader (two games left)', () => {
    const req = request(standings(), { round: 4, totalRounds: 5, prizePlaces: 2 });
    expect(clinchedLeader(req)).toBeNull();
    const r = pairWeighted(req);
    expect(r.ok && r.value.gibsonized).toEqual([]);
  });

  test('the Gibson opponent skips a player the leader may not meet again', () => {
    const players = standings().map((p) => (p.id === 1 ? { ...p, opponents: [5] } : p.id === 5 ? { ...p, opponents: [1] } : p));
    const r = pairWeighted(request(players, { round: 5, totalRounds: 5, prizePlaces: 2 }));
    expect(r.ok && r.value.games.find((g) => g.first === 1 || g.second === 1)).toMatchObject({ repeats: 0 });
    expect(r.ok && pairKeys(r.value)).toContain('1-6');
  });
});

/** The cheapest cost and the fewest repeats over every pairing of the pool (brute force). */
const bestByBruteForce = (req: PairingRequest, pool: readonly PairingPlayer[]): { cost: number; repeats: number } | null => {
  const model = costModel(req, pool.length);
  let best: { cost: number; repeats: number } | null = null;
  for (const m of perfectMatchings(pool)) {
    if (!m.every(([a, b]) => meetings(a, b.id) <= req.maxRepeats)) continue;
    const cost = m.reduce((s, [a, b]) => s + pairCost(req, model, a, b), 0);
    const repeats = m.filter(([a, b]) => meetings(a, b.id) > 0).length;
    if (!best || cost < best.cost) best = { cost, repeats: best ? Math.min(best.repeats, repeats) : repeats };
    else best = { cost: best.cost, repeats: Math.min(best.repeats, repeats) };
  }
  return best;
};

describe('properties (fast-check): random histories, 2 to 10 players', () => {
  test('a minimum-cost pairing of the players left after the bye; no repeat when one is avoidable; everyone once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 10 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer(),
        fc.integer({ min: 0, max: 2 }),
        (n, rounds, seed, maxRepeats) => {
          // Many rounds left, so no one has clinched and the matching alone decides.
          const division = randomDivision(n, Math.min(rounds, n), seed, 40);
          const req = division.request({ maxRepeats });
          const r = pairWeighted(req);
          if (!r.ok) {
            expect(r.error.code).toBe('REPEAT_LIMIT');
            expect(pairable(req, req.players)).toBe(false);
            return;
          }
          expect(r.value.gibsonized).toEqual([]);
          expect(idsInRound(r.value).sort((a, b) => a - b)).toEqual(req.players.map((p) => p.id).sort((a, b) => a - b));
          const pool = req.players.filter((p) => p.id !== r.value.bye);
          const best = bestByBruteForce(req, pool)!;
          const model = costModel(req, pool.length);
          const pairs = pairOf(req, r.value);
          expect(pairs.reduce((s, [a, b]) => s + pairCost(req, model, a, b), 0)).toBe(best.cost);
          // No repeat where a pairing without one exists. (Fewest repeated pairs is not the aim: the doubling
          // repeat cost prefers two second meetings to one third, as COP's does.)
          if (best.repeats === 0) expect(pairs.every(([a, b]) => meetings(a, b.id) === 0)).toBe(true);
        },
      ),
      { numRuns: 250 },
    );
  });

  test('a 150-player division paired by weighted for 10 rounds: valid, no repeats (maxRepeats 0)', () => {
    const d = new Division(150, 10, rng(42));
    for (let round = 1; round <= 10; round++) {
      const req = d.request();
      const r = pairWeighted(req);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(idsInRound(r.value).length).toBe(150);
      expect(r.value.games.every((g) => g.repeats === 0)).toBe(true);
      d.play(r.value);
    }
  });
});
