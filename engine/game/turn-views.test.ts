import { describe, expect, test } from 'vitest';
import { NSA_2008 } from '../rules/presets.js';
import { openingEvents, run, start } from './game.fixtures.js';
import { turnViews } from './turn-views.js';

describe('turnViews: the game after the deal and after every score-sheet line', () => {
  const s0 = start(NSA_2008, ['CATSERO', 'QIZAXEO']);
  const play = run(s0, { kind: 'play', seat: 0, move: '8G CAT' });
  const swap = run(play.state, { kind: 'exchange', seat: 1, tiles: ['Q', 'Z'] });
  const events = [...openingEvents(NSA_2008, ['CATSERO', 'QIZAXEO']), ...play.events, ...swap.events];

  test('one position per line, each after the draws that followed it', () => {
    const r = turnViews(events, 0);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.map((t) => t.version)).toEqual([3, 3 + play.events.length, events.length]);
    expect(r.value.map((t) => t.view.history.length)).toEqual([0, 1, 2]);
    // Ann's rack after her play holds the three drawn tiles again.
    expect('rack' in r.value[1]!.view && r.value[1]!.view.rack).toHaveLength(7);
    expect(r.value[1]!.view.board.tileCount).toBe(3);
  });

  test('a seat never sees the other’s exchanged tiles; a spectator sees no rack', () => {
    const mine = turnViews(events, 0);
    const spectator = turnViews(events, null);
    if (!mine.ok || !spectator.ok) throw new Error('replay failed');
    expect(mine.value[2]!.view.lastMove).toMatchObject({ kind: 'exchange', move: '-2' });
    expect(JSON.stringify(mine.value)).not.toContain('-QZ');
    for (const t of spectator.value) expect('rack' in t.view).toBe(false);
  });

  test('a log that does not replay names the event', () => {
    const r = turnViews([events[1]!], null);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.index).toBe(0);
  });
});
