import { describe, expect, test } from 'vitest';
import { MATCH_VARIANT, NSA_2008 } from '../rules/presets.js';
import { parseMove, type PlayMove } from '../move.js';
import { playEvent } from './decide.js';
import { fold, LEX, run, start } from './game.fixtures.js';
import { matchGames, matchResult, matchStanding } from './match.js';

// Game 1: Ann first plays 8G CAT (10), Bob resigns. Game 2: Bob first plays 8G CAT (10) or CATS
// ((3 + 1 + 1 + 1) × 2 = 12), Ann resigns.
const game1 = () =>
  run(run(start(MATCH_VARIANT, ['CATSERO', 'CATSERO']), { kind: 'play', seat: 0, move: '8G CAT' }).state, { kind: 'resign', seat: 1 })
    .state;
const game2 = (word: string) =>
  run(run(start(MATCH_VARIANT, ['CATSERO', 'CATSERO'], 1), { kind: 'play', seat: 1, move: `8G ${word}` }).state, {
    kind: 'resign',
    seat: 0,
  }).state;

describe('matches (seed-003 rule 1, scoring 11)', () => {
  test('two games, each player first once', () => {
    expect(matchGames(MATCH_VARIANT)).toEqual({ ok: true, value: [{ firstSeat: 0 }, { firstSeat: 1 }] });
    expect(matchGames(NSA_2008).ok).toBe(false);
  });

  test('combined points decide the match even when each player won a game', () => {
    const r = matchResult(MATCH_VARIANT, [game1(), game2('CATS')]);
    expect(r).toEqual({ ok: true, value: { totals: { Ann: 10, Bob: 12 }, winner: 'Bob', gameWinners: ['Ann', 'Bob'] } });
  });

  test('equal totals: the match is a tie', () => {
    const r = matchResult(MATCH_VARIANT, [game1(), game2('CAT')]);
    expect(r.ok && r.value).toMatchObject({ totals: { Ann: 10, Bob: 10 }, winner: null });
  });

  test('the same player first twice is not a match', () => {
    const r = matchResult(MATCH_VARIANT, [game1(), game1()]);
    expect(r.ok ? 'ok' : r.error.code).toBe('MATCH_FIRST_PLAYER');
  });
});

/** Ann first: CAT (10), draws QZJ; four empty exchanges end it at −22 each; Ann wins on 10–0 before adjustments. */
const tieBreakGame = () => {
  let s = start(MATCH_VARIANT, ['CATSERO', 'XKWDAEI']);
  const m = parseMove('8G CAT');
  const play = playEvent(s, 0, (m.ok ? m.value : null) as PlayMove, LEX);
  if (!play.ok) throw new Error(play.error.message);
  s = fold(s, [play.value, { type: 'tiles-drawn', seat: 0, tiles: ['Q', 'Z', 'J'] }]);
  for (let i = 0; i < 4; i++) s = run(s, { kind: 'exchange', seat: ((i + 1) % 2) as 0 | 1, tiles: [] }).state;
  return s;
};

test('a match whose first game is won on the tie-break (seed-003 scoring 10) is still decided on total points', () => {
  const g1 = tieBreakGame();
  expect(g1.scores).toEqual([-22, -22]);
  const r = matchResult(MATCH_VARIANT, [g1, game2('CAT')]);
  // Ann −22 + 0, Bob −22 + 10.
  expect(r).toEqual({ ok: true, value: { totals: { Ann: -22, Bob: -12 }, winner: 'Bob', gameWinners: ['Ann', 'Bob'] } });
});

describe('an aborted game in a match (no result: the match cannot be decided on combined points)', () => {
  const aborted = () => run(start(MATCH_VARIANT, ['CATSERO', 'CATSERO'], 1), { kind: 'abort', seat: 0 }).state;

  test('matchResult refuses it', () => {
    const r = matchResult(MATCH_VARIANT, [game1(), aborted()]);
    expect(r.ok ? 'ok' : [r.error.code, r.error.details]).toEqual(['MATCH_ABORTED', { game: 2 }]);
  });

  test.each([
    ['the other game still on', () => start(MATCH_VARIANT, ['CATSERO', 'CATSERO'])],
    ['the other game over', game1],
  ])('matchStanding: the match is aborted, with no result (%s)', (_, other) => {
    const r = matchStanding(MATCH_VARIANT, [other(), aborted()]);
    expect(r.ok && [r.value.status, r.value.result]).toEqual(['aborted', null]);
  });

  test('without an abort the standing is unchanged: both games over → ended', () => {
    const r = matchStanding(MATCH_VARIANT, [game1(), game2('CAT')]);
    expect(r.ok && r.value.status).toBe('ended');
  });
});
