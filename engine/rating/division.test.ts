import { describe, expect, test } from 'vitest';
import { DIVISION_RATING_SYSTEMS, ESTABLISHED_RD, glicko2Division, ratingsByRound, type DivisionRatingInput } from './division.js';
import { rate } from './glicko2.js';
import { expectedScore, multiplier, naspa, segmentsOf } from './naspa.js';
import type { Rating } from './params.js';

const players = (...ratings: number[]) => ratings.map((ratingIn, i) => ({ id: i + 1, ratingIn, lifeGames: null }));

describe('Glicko-2 per round', () => {
  test('each round is one rating period, rated against the opponents’ ratings before it', () => {
    const input: DivisionRatingInput = {
      players: players(1500, 1700),
      rounds: [[{ a: 1, b: 2, score: 1 }], [{ a: 1, b: 2, score: 0 }]],
      plannedRounds: 2,
    };
    const byRound = ratingsByRound(DIVISION_RATING_SYSTEMS.glicko2, input);
    // By hand with the period function: round 1 both from their ratings in (RD 60), round 2 from round 1's.
    const r = (rating: number): Rating => ({ rating, rd: ESTABLISHED_RD, vol: 0.06 });
    const ok = (x: ReturnType<typeof rate>): Rating =>
      x.ok
        ? x.value
        : (() => {
            throw new Error('rate');
          })();
    const a1 = ok(rate(r(1500), [{ opponent: { rating: 1700, rd: ESTABLISHED_RD }, score: 1 }]));
    const b1 = ok(rate(r(1700), [{ opponent: { rating: 1500, rd: ESTABLISHED_RD }, score: 0 }]));
    const a2 = ok(rate(a1, [{ opponent: { rating: b1.rating, rd: b1.rd }, score: 0 }]));
    expect(byRound.get(1)![0]).toBeCloseTo(a1.rating, 9);
    expect(byRound.get(2)![0]).toBeCloseTo(b1.rating, 9);
    expect(byRound.get(1)![1]).toBeCloseTo(a2.rating, 9);
    expect(a1.rating).toBeGreaterThan(1500);
    expect(b1.rating).toBeLessThan(1700);
  });

  test('an unrated player (0) starts at the initial 1500/350 and moves far more than an established one', () => {
    const out = glicko2Division().rate({ players: players(0, 1500), rounds: [[{ a: 1, b: 2, score: 1 }]], plannedRounds: 1 });
    expect(out.get(1)! - 1500).toBeGreaterThan(100);
    expect(1500 - out.get(2)!).toBeLessThan(10);
  });

  test('a player without a game in a round keeps the rating (only the deviation grows)', () => {
    const out = glicko2Division().rate({ players: players(1600, 1500, 1400), rounds: [[{ a: 1, b: 2, score: 0.5 }]], plannedRounds: 1 });
    expect(out.get(3)).toBe(1400);
  });

  test(`RD ${ESTABLISHED_RD} for a rating brought in is where a player settles after about a hundred games, one a period`, () => {
    let r: Rating = { rating: 1500, rd: 350, vol: 0.06 };
    for (let i = 0; i < 100; i++) {
      const next = rate(r, [{ opponent: { rating: 1500, rd: ESTABLISHED_RD }, score: i % 2 === 0 ? 1 : 0 }]);
      if (next.ok) r = next.value;
    }
    expect(Math.abs(r.rd - ESTABLISHED_RD)).toBeLessThan(1);
  });
});

describe('NASPA (tsh nsa2008)', () => {
  test('the logistic expectation and the multiplier table', () => {
    expect(expectedScore(1500, 1500)).toBe(0.5);
    expect(expectedScore(1700, 1500) + expectedScore(1500, 1700)).toBeCloseTo(1, 12);
    expect(expectedScore(1700, 1500)).toBeCloseTo(1 - 1 / (1 + Math.exp(0.0031879 * 200)), 12);
    expect([multiplier(49, 1799), multiplier(49, 1800), multiplier(49, 2000)]).toEqual([30, 24, 15]);
    expect([multiplier(50, 1799), multiplier(50, 1999), multiplier(50, 2000)]).toEqual([20, 16, 10]);
  });

  test('events of 17 rounds or more are rated in two segments, of 36 or more in three', () => {
    expect(segmentsOf(16)).toEqual([[0, 15]]);
    expect(segmentsOf(17)).toEqual([
      [0, 8],
      [9, 16],
    ]);
    expect(segmentsOf(23)).toEqual([
      [0, 11],
      [12, 22],
    ]);
    expect(segmentsOf(36)).toEqual([
      [0, 11],
      [12, 23],
      [24, 35],
    ]);
  });

  test('one game between equals: +10 and an acceleration of 5 for the winner, −10 and ¼ of feedback for the loser', () => {
    const out = naspa.rate({ players: players(1500, 1500), rounds: [[{ a: 1, b: 2, score: 1 }]], plannedRounds: 1 });
    expect([out.get(1), out.get(2)]).toEqual([1515, 1490]);
  });

  test('a gain that crosses 1800 is prorated: 20 a win below it, 16 above', () => {
    // 1790 (100 games) beats 1790 four times: 2 excess wins. The first 10 points use ½ a win at 20,
    // the remaining 1½ wins earn 16 each: 1800 + 24 = 1824; then acceleration 34 − 20 = 14: 1838.
    const out = naspa.rate({
      players: players(1790, 1790),
      rounds: [1, 2, 3, 4].map(() => [{ a: 1, b: 2, score: 1 as const }]),
      plannedRounds: 4,
    });
    expect(out.get(1)).toBe(1838);
    // The loser: −2 × 20 = 1750, plus 14/20 for each of the four games: 1752.8 → 1753.
    expect(out.get(2)).toBe(1753);
  });

  test('a tie is half a win; a division with no rounds keeps every rating in', () => {
    const tie = naspa.rate({ players: players(1600, 1400), rounds: [[{ a: 1, b: 2, score: 0.5 }]], plannedRounds: 1 });
    const e = expectedScore(1600, 1400);
    expect(tie.get(1)).toBe(Math.floor(0.5 + 1600 + 20 * (0.5 - e)));
    expect(naspa.rate({ players: players(1600, 0), rounds: [], plannedRounds: 3 })).toEqual(
      new Map([
        [1, 1600],
        [2, 0],
      ]),
    );
  });

  test('an unrated player gets a performance rating, capped 400 × their win share above their best rated opponent', () => {
    const out = naspa.rate({
      players: players(0, 1500, 1500),
      rounds: [[{ a: 1, b: 2, score: 1 }], [{ a: 1, b: 3, score: 1 }]],
      plannedRounds: 2,
    });
    // Two wins of two: the performance search saturates, so the cap decides: 1500 + 400 × 2/2.
    expect(out.get(1)).toBe(1900);
  });
});
