import { describe, expect, test } from 'vitest';
import { NSA_2008 } from '../rules/presets.js';
import { fold, withBag } from './game.fixtures.js';
import { recordedGameStart, recordedMoveEvents, type RecordedEntry } from './recorded.js';
import type { GameState } from './state.js';

const ctx = { lexicon: null, seed: null, now: '2026-11-27T00:00:00.000Z' };
const start = (): GameState =>
  fold(
    null,
    recordedGameStart({ rules: NSA_2008, lexicon: null, players: [{ name: 'Ann' }, { name: 'Ben' }], firstSeat: 0, createdAt: ctx.now }),
  );

/** Records the entry and folds its events; throws with the code when it is refused. */
const rec = (s: GameState, entry: RecordedEntry) => {
  const r = recordedMoveEvents(s, entry, ctx);
  if (!r.ok) throw new Error(r.error.code);
  return { state: fold(s, r.value), events: r.value };
};
const code = (s: GameState, entry: RecordedEntry) => {
  const r = recordedMoveEvents(s, entry, ctx);
  return r.ok ? 'accepted' : r.error.code;
};

describe('recorded over-the-board moves', () => {
  test('a play from an unknown rack reveals the tiles it needs, then scores as a live play', () => {
    const { state, events } = rec(start(), { move: { kind: 'play', move: '8H ZA' } });
    expect(events.map((e) => e.type)).toEqual(['rack-revealed', 'play', 'tiles-drawn']);
    expect(state.scores).toEqual([22, 0]);
    expect(state.racks[0]).toEqual({ tiles: [], hidden: 7 });
  });

  test('a challenged play that stands costs the challenger the turn under double challenge', () => {
    const played = rec(start(), { move: { kind: 'play', move: '8H ZA' } }).state;
    const { state, events } = rec(played, { move: { kind: 'challenge', result: 'play-stands' } });
    expect(events.map((e) => e.type)).toEqual(['challenge', 'turn-lost']);
    expect(state.turn).toBe(0);
    expect(state.scores).toEqual([22, 0]);
    expect(code(state, { move: { kind: 'challenge', result: 'play-removed' } })).toBe('NOTHING_TO_CHALLENGE');
  });

  test('an exchange by its faces checks them against the rack entered; a count more than the rack is refused', () => {
    const s = start();
    const { events } = rec(s, { move: { kind: 'exchange', count: 2, tiles: ['Q', 'U'] } });
    expect(events[0]).toEqual({ type: 'rack-revealed', seat: 0, tiles: ['Q', 'U'] });
    expect(events.some((e) => e.type === 'exchange')).toBe(true);
    expect(code(s, { move: { kind: 'exchange', count: 8 } })).toBe('EXCHANGE_TOO_MANY');
    expect(code(s, { move: { kind: 'exchange', count: 2, tiles: ['Q'] } })).toBe('BAD_INPUT');
  });

  test('a play-out ends the game at the final pass, counting the rack the scorekeeper enters', () => {
    // Fourteen unseen tiles left (AAAAAAAAABBCCD): both racks, an empty bag.
    const s = withBag(start(), 14);
    const out = rec(s, { move: { kind: 'play', move: '8H AAAAAAA' } }).state;
    expect(out.status).toBe('waiting-final');
    expect(code(out, { move: { kind: 'pass' } })).toBe('FINAL_RACKS_REQUIRED');
    expect(code(out, { move: { kind: 'pass' }, remainingRacks: [null, ['Z', 'A', 'B', 'B', 'C', 'C', 'D']] })).toBe('RACK_NOT_IN_BAG');
    const { state } = rec(out, { move: { kind: 'pass' }, remainingRacks: [null, ['A', 'A', 'B', 'B', 'C', 'C', 'D']] });
    expect(state.status).toBe('ended');
    expect(state.result?.reason).toBe('went-out');
    // 2 × (A A B B C C D = 1+1+3+3+3+3+2) to the player who went out.
    expect(state.result?.adjustments).toContainEqual(expect.objectContaining({ seat: 0, points: 32 }));
  });
});
