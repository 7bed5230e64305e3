import { describe, expect, test } from 'vitest';
import { MATCH_VARIANT, NSA_2008 } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { run, start } from './game.fixtures.js';
import { firstSecondTally, forfeitedBeforeStart, forfeiterOf, recordedScores, type PlayerGame } from './forfeits.js';
import { matchStanding } from './match.js';

const F: PlayerGame = { kind: 'unplayed', role: 'forfeiter' };
const O: PlayerGame = { kind: 'unplayed', role: 'opponent' };
const BYE: PlayerGame = { kind: 'unplayed', role: 'bye' };
const P1: PlayerGame = { kind: 'played', first: true };
const P2: PlayerGame = { kind: 'played', first: false };

describe('seed-001 §4: firsts and seconds for forfeits and byes', () => {
  test.each<[string, PlayerGame[], string[], number, number]>([
    // "considered to have gone first for that game, second for the next forfeited game, first for the third"
    ['three forfeits in a row: first, second, first', [F, F, F], ['first', 'second', 'first'], 2, 1],
    ['four forfeits: first, second, first, second', [F, F, F, F], ['first', 'second', 'first', 'second'], 2, 2],
    // "The opponents of such games, and all players who receive byes, are assigned neither"
    ['opponent of a forfeit and a bye: neither', [O, BYE], ['neither', 'neither'], 0, 0],
    // Unplayed games between forfeits do not advance the alternation; played games count as played.
    [
      'forfeits interleaved with a bye, an opponent role and played games',
      [P2, F, BYE, O, F, P1, F],
      ['second', 'first', 'neither', 'neither', 'second', 'first', 'first'],
      3,
      2,
    ],
  ])('%s', (_name, games, positions, firsts, seconds) => {
    expect(firstSecondTally('alternate-from-first', games)).toEqual({ positions, firsts, seconds });
  });

  test('without the rule (tournament.forfeitFirstSecond none) unplayed games count as neither', () => {
    expect(firstSecondTally('none', [F, P1, F])).toEqual({ positions: ['neither', 'first', 'neither'], firsts: 1, seconds: 0 });
  });
});

// Ann (seat 0) first: 8G CAT = (3 + 1 + 1) × 2 = 10 on the centre double word square.
const playedThenForfeit = (rules: RuleSet, reason: 'timeout' | 'forfeit') => {
  const s = run(start(rules, ['CATSERO', 'CATSERO']), { kind: 'play', seat: 0, move: '8G CAT' }).state;
  return run(s, reason === 'timeout' ? { kind: 'timeout', seat: 1 } : { kind: 'forfeit', seat: 1, reason: 'left' }).state;
};
const forfeitAtStart = (rules: RuleSet, firstSeat: 0 | 1, forfeiter: 0 | 1) =>
  run(start(rules, ['CATSERO', 'CATSERO'], firstSeat), { kind: 'forfeit', seat: forfeiter, reason: 'did not arrive' }).state;

describe('forfeited games', () => {
  test('a forfeit before the first turn has not begun; one after a play has', () => {
    const early = forfeitAtStart(MATCH_VARIANT, 0, 1);
    expect([forfeiterOf(early), forfeitedBeforeStart(early)]).toEqual([1, true]);
    const late = playedThenForfeit(MATCH_VARIANT, 'timeout');
    expect([forfeiterOf(late), forfeitedBeforeStart(late)]).toEqual([1, false]);
    const resigned = run(start(MATCH_VARIANT, ['CATSERO', 'CATSERO']), { kind: 'resign', seat: 0 }).state;
    expect(forfeiterOf(resigned)).toBeNull();
  });

  test('loss-scores-stand (MATCH_VARIANT): the scores stand as played', () => {
    expect(recordedScores(MATCH_VARIANT, playedThenForfeit(MATCH_VARIANT, 'forfeit'))).toEqual([10, 0]);
  });

  test.each<[string, () => ReturnType<typeof forfeitAtStart>, [number, number]]>([
    // 10–0 with the forfeiter (Bob) on 0: 0 → min(0, 10 − 100) = −90 < 0, so +100 each: 110–10.
    ['after a 10-point play', () => playedThenForfeit(NSA_2008, 'timeout'), [110, 10]],
    // 0–0, Ann forfeits: min(0, 0 − 100) = −100 < 0, so +100 each: Ann 0, Bob 100.
    ['before any turn', () => forfeitAtStart(NSA_2008, 0, 0), [0, 100]],
  ])('deduct-then-margin (NSA_2008, margin 100): %s', (_name, game, expected) => {
    expect(recordedScores(NSA_2008, game())).toEqual(expected);
  });
});

describe('match standing (seed-003 rule 1, scoring 11; seed-001 §4)', () => {
  const NSA_MATCH: RuleSet = { ...NSA_2008, match: { games: 2, decidedBy: 'combined-points' } };

  test('a match with a game not begun is open; one in progress counts its scores so far', () => {
    const g1 = run(start(MATCH_VARIANT, ['CATSERO', 'CATSERO']), { kind: 'play', seat: 0, move: '8G CAT' }).state;
    expect(matchStanding(MATCH_VARIANT, [g1, null])).toMatchObject({
      ok: true,
      value: { status: 'open', totals: { Ann: 10, Bob: 0 }, result: null },
    });
    const g2 = start(MATCH_VARIANT, ['CATSERO', 'CATSERO'], 1);
    expect(matchStanding(MATCH_VARIANT, [g1, g2])).toMatchObject({
      ok: true,
      value: { status: 'playing', totals: { Ann: 10, Bob: 0 }, result: null },
    });
  });

  test('both games forfeited by Ann before they began: under seed-001 §4 she goes first then second, Bob neither; margins decide', () => {
    const r = matchStanding(NSA_MATCH, [forfeitAtStart(NSA_MATCH, 0, 0), forfeitAtStart(NSA_MATCH, 1, 0)]);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.firsts).toEqual({
      Ann: { positions: ['first', 'second'], firsts: 1, seconds: 1 },
      Bob: { positions: ['neither', 'neither'], firsts: 0, seconds: 0 },
    });
    // Each forfeit is recorded 0–100 for Bob.
    expect(r.value).toMatchObject({
      status: 'ended',
      totals: { Ann: 0, Bob: 200 },
      result: { winner: 'Bob', gameWinners: ['Bob', 'Bob'] },
    });
  });

  test('MATCH_VARIANT has no forfeit rule: a game forfeited before it began counts neither first nor second, and the scores stand', () => {
    const g2 = run(run(start(MATCH_VARIANT, ['CATSERO', 'CATSERO'], 1), { kind: 'play', seat: 1, move: '8G CAT' }).state, {
      kind: 'resign',
      seat: 0,
    }).state;
    const r = matchStanding(MATCH_VARIANT, [forfeitAtStart(MATCH_VARIANT, 0, 1), g2]);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.firsts).toEqual({
      Ann: { positions: ['neither', 'second'], firsts: 0, seconds: 1 },
      Bob: { positions: ['neither', 'first'], firsts: 1, seconds: 0 },
    });
    // Game 1: 0–0 (Bob forfeited, Ann wins); game 2: Bob 10, Ann resigned. Totals Ann 0, Bob 10.
    expect(r.value).toMatchObject({ status: 'ended', totals: { Ann: 0, Bob: 10 }, result: { winner: 'Bob', gameWinners: ['Ann', 'Bob'] } });
  });
});
