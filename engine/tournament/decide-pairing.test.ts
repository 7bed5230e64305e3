import { describe, expect, test } from 'vitest';
import { divisionOf, type TournamentState } from './state.js';
import { divisionSpec, override, playerActor, refusal, result, run, tournamentWith } from './tournament.fixtures.js';

const pair = (round: number, method: 'swiss' | 'round-robin' | 'king-of-the-hill' | null = null) => ({
  type: 'pair-round' as const,
  division: 'A',
  round,
  method,
  seed: 'seed-1',
});
const roundOf = (s: TournamentState, n: number) => divisionOf(s, 'A')!.rounds[n - 1]!;
const everyoneOnce = (s: TournamentState, n: number, players: number) => {
  const r = roundOf(s, n);
  const seen = [...r.games.flatMap((g) => [g.first, g.second]), ...r.byes.map((b) => b.player)].sort((a, b) => a - b);
  return seen.join(',') === Array.from({ length: players }, (_x, i) => i + 1).join(',');
};

describe('pairing a round', () => {
  test('a round robin may be paired ahead; its rounds pair everyone once', () => {
    let s = tournamentWith(6, divisionSpec({ roundCount: 5, method: 'round-robin' }));
    s = run(s, pair(1));
    s = run(s, pair(2));
    expect(everyoneOnce(s, 1, 6) && everyoneOnce(s, 2, 6)).toBe(true);
  });

  test('rounds are paired in order', () => {
    expect(refusal(tournamentWith(6, divisionSpec({ roundCount: 5 })), pair(2))).toBe('PREVIOUS_ROUND_NOT_PAIRED');
  });

  test('a method that pairs by results waits for the round before', () => {
    let s = tournamentWith(4, divisionSpec({ roundCount: 3, method: 'swiss' }));
    s = run(s, pair(1));
    expect(refusal(s, pair(2))).toBe('PREVIOUS_ROUND_NOT_FINISHED');
    for (const g of roundOf(s, 1).games) s = run(s, result('A', 1, g.first, g.second, 400, 300));
    s = run(s, pair(2));
    // Swiss by wins: the two winners meet, and nobody meets their round-1 opponent again.
    const winners = roundOf(s, 1).games.map((g) => g.first);
    const r2 = roundOf(s, 2).games.map((g) => [g.first, g.second].sort());
    expect(r2).toContainEqual([...winners].sort());
  });

  test('an odd division gets one bye, scored as the rule set says', () => {
    const s = run(tournamentWith(5, divisionSpec({ roundCount: 3, method: 'swiss' })), pair(1));
    expect(roundOf(s, 1).byes).toEqual([{ player: 5, spread: 50 }]);
    expect(everyoneOnce(s, 1, 5)).toBe(true);
  });

  test('re-paired until it starts; then the pairings stand', () => {
    let s = run(tournamentWith(4, divisionSpec({ roundCount: 3, method: 'swiss' })), pair(1));
    s = run(
      s,
      override('A', 1, [
        [1, 4],
        [2, 3],
      ]),
    );
    expect(roundOf(s, 1).history.map((h) => h.action)).toEqual(['paired', 'overridden']);
    s = run(s, { type: 'start-round', division: 'A', round: 1 });
    expect(refusal(s, pair(1))).toBe('ROUND_ALREADY_STARTED');
    expect(
      refusal(
        s,
        override('A', 1, [
          [1, 2],
          [3, 4],
        ]),
      ),
    ).toBe('ROUND_ALREADY_STARTED');
  });

  test('a pre-paired couple is honoured', () => {
    let s = tournamentWith(6, divisionSpec({ roundCount: 3, method: 'swiss' }));
    s = run(s, { type: 'pre-pair', division: 'A', round: 1, players: [1, 6] });
    expect(refusal(s, { type: 'pre-pair', division: 'A', round: 1, players: [6, 2] })).toBe('ALREADY_PREPAIRED');
    s = run(s, pair(1));
    expect(roundOf(s, 1).games.map((g) => [g.first, g.second].sort((a, b) => a - b))).toContainEqual([1, 6]);
  });

  test.each([
    [
      'a player paired twice',
      [
        [1, 2],
        [1, 3],
      ] as [number, number][],
      null,
    ],
    ['a player left out', [[1, 2]] as [number, number][], null],
    ['an even round with a bye', [[1, 2]] as [number, number][], 3],
  ])('an override with %s is refused', (_what, games, bye) => {
    expect(refusal(tournamentWith(4, divisionSpec({ roundCount: 3, method: 'manual' })), override('A', 1, games, bye))).not.toBe('OK');
  });

  test('an odd round without a bye is refused', () => {
    expect(
      refusal(
        tournamentWith(5, divisionSpec({ roundCount: 3, method: 'manual' })),
        override('A', 1, [
          [1, 2],
          [3, 4],
        ]),
      ),
    ).toBe('BYE_MISSING');
  });

  test('a repeat beyond the allowance is refused', () => {
    let s = tournamentWith(4, divisionSpec({ roundCount: 3, method: 'manual' }));
    s = run(
      s,
      override('A', 1, [
        [1, 2],
        [3, 4],
      ]),
    );
    s = run(s, result('A', 1, 1, 2, 400, 300));
    s = run(s, result('A', 1, 3, 4, 400, 300));
    expect(
      refusal(
        s,
        override('A', 2, [
          [2, 1],
          [4, 3],
        ]),
      ),
    ).toBe('REPEAT_LIMIT');
  });

  test('only a director pairs', () => {
    expect(refusal(tournamentWith(4, divisionSpec({ roundCount: 3 })), pair(1), playerActor(1))).toBe('NOT_ALLOWED');
  });

  test('a withdrawn player is not paired', () => {
    let s = tournamentWith(5, divisionSpec({ roundCount: 3, method: 'swiss' }));
    s = run(s, { type: 'withdraw-player', division: 'A', player: 3, fromRound: null, reason: 'ill' });
    s = run(s, pair(1));
    expect(
      roundOf(s, 1)
        .games.flatMap((g) => [g.first, g.second])
        .sort(),
    ).toEqual([1, 2, 4, 5]);
    expect(roundOf(s, 1).byes).toEqual([]);
  });

  test('a round robin keeps its table when a player withdraws: whoever was to meet them gets a bye too', () => {
    let s = tournamentWith(5, divisionSpec({ roundCount: 5, method: 'round-robin' }));
    s = run(s, { type: 'withdraw-player', division: 'A', player: 2, fromRound: 1, reason: 'ill' });
    s = run(s, pair(1));
    const r = roundOf(s, 1);
    expect(r.byes).toHaveLength(2);
    expect(r.byes.every((b) => b.spread === 50 && b.player !== 2)).toBe(true);
    expect(r.games).toHaveLength(1);
    expect([...r.games.flatMap((g) => [g.first, g.second]), ...r.byes.map((b) => b.player)].sort()).toEqual([1, 3, 4, 5]);
  });
});
