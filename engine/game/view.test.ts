import { describe, expect, test } from 'vitest';
import { NSA_2008 } from '../rules/presets.js';
import { run, start } from './game.fixtures.js';
import { spectatorView, viewFor } from './view.js';

describe('views hide racks and the bag', () => {
  const s0 = start(NSA_2008, ['CATSERO', 'QIZAXEO']);
  const s = run(run(s0, { kind: 'play', seat: 0, move: '8G CAT' }).state, { kind: 'exchange', seat: 1, tiles: ['Q', 'Z'] }).state;

  test('a seat sees its own rack, the board, scores and the unseen pool (100 − board − own rack)', () => {
    const v = viewFor(s, 0);
    expect(v.rack).toEqual(s.racks[0].tiles);
    expect(v.unseen).toHaveLength(100 - 3 - 7);
    expect(v.scores).toEqual([10, 0]);
    expect(v.bagCount).toBe(100 - 14 - 3);
    expect(v.rackSizes).toEqual([7, 7]);
    expect(v.turn).toBe(0);
    expect(v.legalActions).toEqual(['play', 'exchange', 'pass', 'resign']);
    expect(v.history[0]).toMatchObject({ kind: 'play', move: '8G CAT', score: 10 });
    expect(v.lastMove).toMatchObject({ kind: 'exchange', move: '-2' });
  });

  test('neither view holds the other rack, the exchanged tiles, or the bag', () => {
    const mine = JSON.stringify(viewFor(s, 0));
    const spectator = JSON.stringify(spectatorView(s));
    for (const json of [mine, spectator]) {
      expect(json).not.toContain(JSON.stringify(s.racks[1].tiles));
      expect(json).not.toContain('"racks"');
      expect(json).not.toContain('"bag"');
      expect(json).not.toContain('"pending"');
      expect(json).not.toContain('-QZ');
    }
    expect(spectator).not.toContain(JSON.stringify(s.racks[0].tiles));
    expect(spectator).not.toContain('"rack"');
    // Bob sees his own exchange.
    expect(JSON.stringify(viewFor(s, 1))).toContain('-QZ');
  });

  test('the spectator unseen pool is everything not on the board', () => {
    expect(spectatorView(s).unseen).toHaveLength(97);
  });
});
