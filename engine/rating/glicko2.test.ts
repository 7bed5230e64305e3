import { describe, expect, test } from 'vitest';
import { CATEGORIES, categoryOf, FAMILY_OF } from './categories.js';
import { rate, rateInactive, type PeriodResult } from './glicko2.js';
import { isProvisional, RATING_PARAMS, type Rating, type RatingParams } from './params.js';
import { RULE_SET_IDS } from '../rules/ruleset.js';

// Glickman, "Example of the Glicko-2 system": the inputs as printed there.
const EXAMPLE_PARAMS: RatingParams = { ...RATING_PARAMS, tau: 0.5, initial: { rating: 1500, rd: 350, vol: 0.06 } };
const PLAYER: Rating = { rating: 1500, rd: 200, vol: 0.06 };
const RESULTS: readonly PeriodResult[] = [
  { opponent: { rating: 1400, rd: 30 }, score: 1 },
  { opponent: { rating: 1550, rd: 100 }, score: 0 },
  { opponent: { rating: 1700, rd: 300 }, score: 0 },
];
const SCALE = 173.7178; // Glickman step 2: the Glicko-2 scale factor

const value = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};

describe('Glickman’s worked example', () => {
  const out = value(rate(PLAYER, RESULTS, EXAMPLE_PARAMS));

  test('RD 151.52 and σ 0.05999 to the printed digits', () => {
    expect(out.rd.toFixed(2)).toBe('151.52');
    // The paper prints σ' = 0.05999; exactly it is 0.0599960, which the printed figure truncates.
    expect(Math.floor(out.vol * 1e5) / 1e5).toBe(0.05999);
    expect(Math.abs(out.vol - 0.05999)).toBeLessThan(1e-5);
  });

  test('rating 1464.06 as the paper computes it: μ′ rounded to four places (−0.2069), then × 173.7178 + 1500', () => {
    const mu = (out.rating - 1500) / SCALE;
    expect(mu.toFixed(4)).toBe('-0.2069');
    expect((Number(mu.toFixed(4)) * SCALE + 1500).toFixed(2)).toBe('1464.06');
    // Unrounded, the same update is 1464.0507: the printed 1464.06 comes from the paper's rounding of μ′.
    expect(out.rating).toBeCloseTo(1464.05, 2);
  });
});

describe('inactivity', () => {
  test('one idle period grows only the deviation, by step 6: √(200² + (0.06 × 173.7178)²)', () => {
    const out = value(rateInactive(PLAYER, 1, EXAMPLE_PARAMS));
    expect(out.rating).toBe(1500);
    expect(out.vol).toBe(0.06);
    expect(out.rd).toBeCloseTo(Math.sqrt(200 ** 2 + (0.06 * SCALE) ** 2), 9);
    expect(value(rate(PLAYER, [], EXAMPLE_PARAMS)).rd).toBeCloseTo(out.rd, 9);
  });

  test('the deviation grows with each idle period and stops at the initial deviation', () => {
    const rds = [0, 1, 2, 10].map((n) => value(rateInactive({ rating: 1720, rd: 60, vol: 0.06 }, n)).rd);
    expect(rds[0]).toBe(60);
    expect(rds[1]! > rds[0]! && rds[2]! > rds[1]! && rds[3]! > rds[2]!).toBe(true);
    const long = value(rateInactive({ rating: 1720, rd: 340, vol: 0.06 }, 1000));
    expect(long).toEqual({ rating: 1720, rd: RATING_PARAMS.initial.rd, vol: 0.06 });
  });

  test('bad period counts are errors', () => {
    const r = rateInactive(PLAYER, -1);
    expect(r.ok ? null : r.error.code).toBe('BAD_PERIODS');
  });
});

describe('checks', () => {
  test('a zero deviation (which the package would replace by its default) is refused', () => {
    const r = rate({ rating: 1500, rd: 0, vol: 0.06 }, RESULTS);
    expect(r.ok ? null : r.error.code).toBe('BAD_RATING');
  });
  test('a score other than 0, 0.5 or 1 is refused', () => {
    const r = rate(PLAYER, [{ opponent: { rating: 1500, rd: 50 }, score: 2 as 1 }]);
    expect(r.ok ? null : r.error.code).toBe('BAD_RESULT');
  });
});

describe('provisional', () => {
  test('provisional from RD 110 up (lichess: deviation >= 110)', () => {
    expect(isProvisional({ rating: 1500, rd: 350, vol: 0.06 })).toBe(true);
    expect(isProvisional({ rating: 1500, rd: 110, vol: 0.06 })).toBe(true);
    expect(isProvisional({ rating: 1500, rd: 109.9, vol: 0.06 })).toBe(false);
  });
  test('a new player is provisional and becomes established after enough games', () => {
    let r: Rating = RATING_PARAMS.initial;
    const opponent = { rating: 1500, rd: 60 };
    for (let i = 0; i < 30 && isProvisional(r); i++) r = value(rate(r, [{ opponent, score: i % 2 === 0 ? 1 : 0 }]));
    expect(isProvisional(r)).toBe(false);
  });
});

describe('categories', () => {
  test('every preset has a family; categories are family × pace', () => {
    expect(Object.keys(FAMILY_OF).sort()).toEqual([...RULE_SET_IDS].sort());
    expect(CATEGORIES).toHaveLength(8);
  });
  test('a game maps to its category', () => {
    expect(value(categoryOf('WESPA', 'correspondence')).id).toBe('tournament/correspondence');
    expect(value(categoryOf('NSA_2008', 'correspondence')).id).toBe('tournament/correspondence');
    expect(value(categoryOf('ONLINE_VOID', 'recorded'))).toEqual({ id: 'void/recorded', family: 'void', pace: 'recorded' });
    expect(value(categoryOf('FRIENDLY', 'recorded')).id).toBe('friendly/recorded');
  });
  test('unknown rule sets and paces are errors', () => {
    const a = categoryOf('SCRABBLE_1938', 'recorded');
    const b = categoryOf('WESPA', 'blitz');
    expect(a.ok ? null : a.error.code).toBe('UNKNOWN_PRESET');
    expect(b.ok ? null : b.error.code).toBe('UNKNOWN_PACE');
  });
});

describe('purity', () => {
  test('same input twice gives the same output, and the inputs are unchanged', () => {
    const player = structuredClone(PLAYER);
    const results = structuredClone(RESULTS);
    const first = rate(player, results, EXAMPLE_PARAMS);
    const second = rate(player, results, EXAMPLE_PARAMS);
    expect(second).toEqual(first);
    expect(player).toEqual(PLAYER);
    expect(results).toEqual(RESULTS);
    expect(rateInactive(player, 3)).toEqual(rateInactive(player, 3));
    expect(player).toEqual(PLAYER);
  });
});
