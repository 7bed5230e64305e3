import { describe, expect, test } from 'vitest';
import { decideFirst, drawFirst, firstsClash } from './first-second.js';
import { player } from './pairing.fixtures.js';

describe('who goes first', () => {
  test.each([
    ['fewer firsts goes first', { firsts: 2, seconds: 1 }, { firsts: 1, seconds: 2 }, 2, 'fewer-firsts'],
    ['fewer firsts even with fewer seconds', { firsts: 3, seconds: 3 }, { firsts: 2, seconds: 0 }, 2, 'fewer-firsts'],
    ['equal firsts: more seconds goes first', { firsts: 1, seconds: 3 }, { firsts: 1, seconds: 2 }, 1, 'more-seconds'],
  ] as const)('%s', (_, a, b, first, reason) => {
    const choice = decideFirst(player(1, a), player(2, b), 'seed', 3);
    expect(choice).toEqual({ first, second: first === 1 ? 2 : 1, firstReason: reason });
    // The order the two are given in does not matter.
    expect(decideFirst(player(2, b), player(1, a), 'seed', 3)).toEqual(choice);
  });

  test('equal firsts and seconds: the seeded draw, the same whichever order the pair is given in', () => {
    const a = player(4, { firsts: 2, seconds: 2 });
    const b = player(9, { firsts: 2, seconds: 2 });
    const choice = decideFirst(a, b, 'event-7', 5);
    expect(choice.firstReason).toBe('draw');
    expect(decideFirst(b, a, 'event-7', 5)).toEqual(choice);
    expect(choice.first).toBe(drawFirst('event-7', 5, 9, 4));
  });

  test('the draw is deterministic and not always the same player', () => {
    const winners = Array.from({ length: 64 }, (_, i) => drawFirst(`seed-${i}`, 1, 1, 2));
    expect(winners).toEqual(Array.from({ length: 64 }, (_, i) => drawFirst(`seed-${i}`, 1, 2, 1)));
    expect(new Set(winners)).toEqual(new Set([1, 2]));
    const perRound = new Set(Array.from({ length: 32 }, (_, r) => drawFirst('one-seed', r + 1, 1, 2)));
    expect(perRound.size).toBe(2);
  });
});

describe('first/second clash (TSH pairsvr)', () => {
  test.each([
    [{ firsts: 2, seconds: 1 }, { firsts: 1, seconds: 2 }, 0],
    [{ firsts: 1, seconds: 1 }, { firsts: 1, seconds: 2 }, 1],
    [{ firsts: 1, seconds: 1 }, { firsts: 0, seconds: 0 }, 2],
    [{ firsts: 3, seconds: 1 }, { firsts: 2, seconds: 1 }, 2],
  ])('%j v %j: %i', (a, b, clash) => {
    expect(firstsClash(player(1, a), player(2, b))).toBe(clash);
  });
});
