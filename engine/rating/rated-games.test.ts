import { describe, expect, test } from 'vitest';
import { END_REASONS } from '../game/events.js';
import { RATING_PARAMS } from './params.js';
import { idlePeriods, newStanding, RATED_ENDINGS, rateGame, ratedScores, replayRatings, standingKey } from './rated-games.js';

const value = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};
const DAY = 24 * 60 * 60 * 1000;

describe('which endings rate', () => {
  test('every end reason has a decision; only an abort is unrated', () => {
    expect(Object.keys(RATED_ENDINGS).sort()).toEqual([...END_REASONS].sort());
    expect(END_REASONS.filter((r) => !RATED_ENDINGS[r].rates)).toEqual(['aborted']);
  });
  test('scores from the result: win 1, tie ½, loss 0; an abort has none', () => {
    expect(ratedScores({ reason: 'went-out', winner: 1 })).toEqual([0, 1]);
    expect(ratedScores({ reason: 'resigned', winner: 0 })).toEqual([1, 0]);
    expect(ratedScores({ reason: 'scoreless-turns', winner: null })).toEqual([0.5, 0.5]);
    expect(ratedScores({ reason: 'aborted', winner: null })).toBeNull();
  });
});

describe('one game', () => {
  test('two newcomers: 1662.31 / 290.32 and 1337.69, as worked out by hand from Glickman’s steps', () => {
    const [w, l] = value(rateGame([newStanding(), newStanding()], [1, 0], 0));
    expect(w.after.rating).toBeCloseTo(1662.3109, 3);
    expect(w.after.rd).toBeCloseTo(290.319, 3);
    expect(w.after.vol).toBeCloseTo(0.0599997, 6);
    expect(l.after.rating).toBeCloseTo(1337.6891, 3);
    expect([w.provisional, w.idlePeriods, w.before]).toEqual([true, 0, RATING_PARAMS.initial]);
  });
  test('the deviation grows for each whole idle period before the game', () => {
    expect(idlePeriods(null, 10 * DAY)).toBe(0);
    expect(idlePeriods(0, 3.9 * DAY)).toBe(0);
    expect(idlePeriods(0, 8 * DAY)).toBe(2);
    const settled = { rating: { rating: 1700, rd: 60, vol: 0.06 }, lastRatedAt: 0, games: 40 };
    const soon = value(rateGame([settled, settled], [0.5, 0.5], DAY));
    const late = value(rateGame([settled, settled], [0.5, 0.5], 40 * DAY));
    expect(late[0].idlePeriods).toBe(10);
    expect(late[0].after.rd).toBeGreaterThan(soon[0].after.rd);
  });
});

describe('replay', () => {
  test('replaying results gives each player’s standing, whatever order they are given in', () => {
    const results = [
      { gameId: 'g2', category: 'c', at: 2, players: ['b', 'c'] as const, scores: [1, 0] as const },
      { gameId: 'g1', category: 'c', at: 1, players: ['a', 'b'] as const, scores: [0, 1] as const },
    ];
    const { standings, games } = value(replayRatings(results));
    expect(games.map((g) => g.gameId)).toEqual(['g1', 'g2']);
    const b = standings.get(standingKey('b', 'c'))!;
    expect(b.games).toBe(2);
    expect(games[1]!.changes[0].before).toEqual(games[0]!.changes[1].after);
    expect(b.rating).toEqual(games[1]!.changes[0].after);
    expect(value(replayRatings([...results].reverse())).standings).toEqual(standings);
  });
});
