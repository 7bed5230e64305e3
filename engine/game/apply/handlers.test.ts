import { describe, expect, test } from 'vitest';
import { tileAt } from '../../board.js';
import { NSA_2008, ONLINE_VOID } from '../../rules/presets.js';
import { EVENT_HANDLERS } from '../apply.js';
import { GAME_EVENT_TYPES } from '../events.js';
import { run, start } from '../game.fixtures.js';
import { bagCount } from '../state.js';
import { foldChallenge, foldPhonyWithdrawn } from './challenge.js';
import { foldTilesReturned } from './tiles.js';
import { foldExchange, foldPass } from './turns.js';

// Single fold handlers, called without `apply`: they return the state the event leaves, before
// `apply` counts the event and advances the clock.

// Ann: C A T S E R O. Bob: Q I Z A X E O.
const opening = () => start(NSA_2008, ['CATSERO', 'QIZAXEO']);

test('every event kind has a handler, and the table holds nothing else', () => {
  expect(Object.keys(EVENT_HANDLERS).sort()).toEqual([...GAME_EVENT_TYPES].sort());
});

describe('foldPass', () => {
  test('passes the turn, counts a scoreless turn and writes "-" on the score sheet', () => {
    const s = opening();
    const r = foldPass(s, { type: 'pass', seat: 0 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.turn).toBe(1);
    expect(r.value.scorelessTurns).toBe(1);
    expect(r.value.consecutiveExchanges).toBe(0);
    expect(r.value.history).toEqual([{ seat: 0, kind: 'pass', move: '-', score: 0, cumulative: 0, event: s.eventCount + 1 }]);
    // The handler leaves counting the event to `apply`.
    expect(r.value.eventCount).toBe(s.eventCount);
  });

  test('the final pass after an out play does not count as a scoreless turn', () => {
    const s = { ...opening(), status: 'waiting-final' as const, scorelessTurns: 2 };
    const r = foldPass(s, { type: 'pass', seat: 0 });
    expect(r.ok && r.value.scorelessTurns).toBe(2);
  });

  test('a pass out of turn is refused, citing seed-003 rule 4', () => {
    const r = foldPass(opening(), { type: 'pass', seat: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('NOT_YOUR_TURN');
    expect(r.error.citation).toMatchObject({ source: 'seed-003', rule: 'rule 4' });
  });
});

describe('foldExchange', () => {
  test('named tiles leave the rack face down; the bag is untouched until they are returned', () => {
    const s = opening();
    const r = foldExchange(s, { type: 'exchange', seat: 0, tiles: ['C', 'O'], count: 2 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.racks[0].tiles).toEqual(['A', 'T', 'S', 'E', 'R']);
    expect(r.value.aside).toEqual({ seat: 0, tiles: ['C', 'O'] });
    expect(r.value.bag).toBe(s.bag);
    expect(r.value.turn).toBe(1);
    expect(r.value.consecutiveExchanges).toBe(1);
    expect(r.value.history.at(-1)).toEqual({
      seat: 0,
      kind: 'exchange',
      move: '-CO',
      score: 0,
      cumulative: 0,
      event: s.eventCount + 1,
      count: 2,
      tiles: ['C', 'O'],
    });
  });

  test('with only a count known (an import), the whole rack becomes unseen', () => {
    const s = opening();
    const r = foldExchange(s, { type: 'exchange', seat: 0, tiles: null, count: 3 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.racks[0]).toEqual({ tiles: [], hidden: 7 });
    expect(r.value.bag).toHaveLength(s.bag.length + 7);
    expect(bagCount(r.value)).toBe(bagCount(s));
    expect(r.value.history.at(-1)?.move).toBe('-3');
  });

  test('tiles not on the rack are refused (seed-003 rule 11)', () => {
    const r = foldExchange(opening(), { type: 'exchange', seat: 0, tiles: ['Q'], count: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('TILES_NOT_IN_RACK');
    expect(r.error.details).toMatchObject({ missing: ['Q'] });
    expect(r.error.citation).toMatchObject({ source: 'seed-003', rule: 'rule 11' });
  });
});

describe('foldTilesReturned', () => {
  test('tiles face down on the table go back into the bag', () => {
    const s = { ...opening(), aside: { seat: 0 as const, tiles: ['C', 'O'] } };
    const r = foldTilesReturned(s, { type: 'tiles-returned', seat: 0, tiles: ['C'], from: 'aside' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.aside).toEqual({ seat: 0, tiles: ['O'] });
    expect(r.value.bag).toHaveLength(s.bag.length + 1);
    expect(r.value.bag.filter((t) => t === 'C')).toHaveLength(s.bag.filter((t) => t === 'C').length + 1);
  });
});

describe('foldChallenge and foldPhonyWithdrawn', () => {
  // Ann plays 8G CAT for 10 (C3 A1 T1, the centre doubles); the play is pending, Bob to move.
  const afterCat = () => run(opening(), { kind: 'play', seat: 0, move: '8G CAT' }).state;
  const words = (valid: boolean) => [{ word: 'CAT', valid }];

  test('a challenge judged valid marks the play as standing', () => {
    const r = foldChallenge(afterCat(), { type: 'challenge', seat: 1, words: words(true), valid: true });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.pending?.challenged).toBe(true);
    expect(r.value.history.at(-1)).toMatchObject({ seat: 1, kind: 'challenge', move: 'challenge CAT', score: 0 });
  });

  test('a challenge judged invalid leaves the play pending, to be withdrawn', () => {
    const r = foldChallenge(afterCat(), { type: 'challenge', seat: 1, words: words(false), valid: false });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.pending?.challenged).toBe(false);
    expect(r.value.history.at(-1)?.move).toBe('challenge CAT*');
  });

  test('there is nothing to challenge before a play, and nothing at all under VOID', () => {
    const none = foldChallenge(opening(), { type: 'challenge', seat: 0, words: words(true), valid: true });
    expect(!none.ok && none.error.code).toBe('NO_PLAY_TO_CHALLENGE');
    const voided = foldChallenge(start(ONLINE_VOID, ['CATSERO', 'QIZAXEO']), {
      type: 'challenge',
      seat: 0,
      words: words(true),
      valid: true,
    });
    expect(!voided.ok && voided.error.code).toBe('NO_CHALLENGES');
  });

  test('a withdrawn phony leaves the board, gives its tiles back and takes its score away', () => {
    const s = afterCat();
    const r = foldPhonyWithdrawn(s, { type: 'phony-withdrawn', seat: 0, score: 10 });
    if (!r.ok) throw new Error(r.error.message);
    expect([6, 7, 8].map((col) => tileAt(r.value.board, 7, col))).toEqual([null, null, null]);
    expect(r.value.scores).toEqual([0, 0]);
    expect(r.value.racks[0].tiles.slice(-3)).toEqual(['C', 'A', 'T']);
    expect(r.value.pending).toBeNull();
    const wrongScore = foldPhonyWithdrawn(s, { type: 'phony-withdrawn', seat: 0, score: 9 });
    expect(!wrongScore.ok && wrongScore.error.code).toBe('WITHDRAWN_SCORE_MISMATCH');
  });
});
