import { describe, expect, test } from 'vitest';
import { NSA_2008 } from '../rules/presets.js';
import { decide, type Command } from './decide.js';
import type { GameEvent, TimeControl } from './events.js';
import { fold, LEX, openingEvents, run, SEED, start } from './game.fixtures.js';
import type { GameState } from './state.js';
import { legalActions, spectatorView, viewFor } from './view.js';

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

describe('legalActions lists the game-level actions where they are open', () => {
  const T0 = Date.parse('2024-01-01T00:00:00.000Z');
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const at = (msAfterT0: number): string => new Date(T0 + msAfterT0).toISOString();
  /** 1 hour per turn and a 2-hour bank each: seat 0's first deadline is T0 + 3 h. */
  const timed = (tc: TimeControl = { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 7200 }): GameState => {
    const [created, ...draws] = openingEvents(NSA_2008, ['CATSERO', 'QIZAXEO']);
    return fold(null, [{ ...(created as GameEvent & { type: 'game-created' }), timeControl: tc, createdAt: at(0) }, ...draws]);
  };
  const act = (s: GameState, cmd: Command, when: number): GameState => {
    const r = decide(s, cmd, { lexicon: LEX, seed: SEED, now: at(when) });
    if (!r.ok) throw new Error(`${cmd.kind}: ${r.error.code}`);
    return fold(s, r.value);
  };

  test('abort: to either seat before the first turn, to neither after it', () => {
    const s = start(NSA_2008, ['CATSERO', 'QIZAXEO']);
    expect(legalActions(s, 0)).toEqual(['play', 'exchange', 'pass', 'resign', 'abort']);
    expect(legalActions(s, 1)).toEqual(['resign', 'abort']);
    const after = run(s, { kind: 'play', seat: 0, move: '8G CAT' }).state;
    expect(legalActions(after, 0)).toEqual(['resign']);
    expect(legalActions(after, 1)).toEqual(['play', 'exchange', 'pass', 'challenge', 'resign']);
  });

  test('an untimed game offers no timeout and no pause, whatever the time', () => {
    const s = run(start(NSA_2008, ['CATSERO', 'QIZAXEO']), { kind: 'play', seat: 0, move: '8G CAT' }).state;
    expect(legalActions(s, 0, '2999-01-01T00:00:00.000Z')).toEqual(['resign']);
  });

  test('claim-timeout: to the opponent of the mover once the deadline (turn time + bank) has passed', () => {
    const s = timed();
    expect(legalActions(s, 1)).toEqual(['resign', 'abort', 'request-pause']);
    expect(legalActions(s, 1, at(3 * HOUR - 1))).not.toContain('claim-timeout');
    expect(legalActions(s, 1, at(3 * HOUR))).toEqual(['resign', 'abort', 'claim-timeout', 'request-pause']);
    // The mover cannot claim against themself.
    expect(legalActions(s, 0, at(3 * HOUR))).toEqual(['play', 'exchange', 'pass', 'resign', 'abort', 'request-pause']);
    expect(viewFor(s, 1, at(3 * HOUR)).legalActions).toContain('claim-timeout');
  });

  test('the pause handshake: request, then accept or decline for the other seat only, then resume while it runs', () => {
    const requested = act(timed(), { kind: 'request-pause', seat: 0, seconds: 3600 }, MIN);
    expect(legalActions(requested, 0, at(2 * MIN))).toEqual(['play', 'exchange', 'pass', 'resign', 'abort']);
    expect(legalActions(requested, 1, at(2 * MIN))).toEqual(['resign', 'abort', 'accept-pause', 'decline-pause']);

    const paused = act(requested, { kind: 'accept-pause', seat: 1 }, 2 * MIN);
    expect(legalActions(paused, 0, at(3 * MIN))).toEqual(['play', 'exchange', 'pass', 'resign', 'abort', 'resume']);
    expect(legalActions(paused, 1, at(3 * MIN))).toEqual(['resign', 'abort', 'resume']);
    // Without a time, as of the last event (the acceptance): the pause runs.
    expect(legalActions(paused, 1)).toEqual(['resign', 'abort', 'resume']);
    // Once the hour is over the pause has ended by itself: one pause of two is left to ask for.
    expect(legalActions(paused, 1, at(2 * MIN + HOUR))).toEqual(['resign', 'abort', 'request-pause']);

    const declined = act(requested, { kind: 'decline-pause', seat: 1 }, 2 * MIN);
    expect(legalActions(declined, 1, at(3 * MIN))).toEqual(['resign', 'abort', 'request-pause']);
  });

  test('no request-pause when the game allows no pauses or less than the shortest pause is left', () => {
    expect(legalActions(timed({ kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0, maxPauses: 0 }), 1)).toEqual([
      'resign',
      'abort',
    ]);
    expect(legalActions(timed({ kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0, maxPauseSeconds: 3599 }), 1)).toEqual([
      'resign',
      'abort',
    ]);
    expect(legalActions(timed({ kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0, maxPauseSeconds: 3600 }), 1)).toEqual([
      'resign',
      'abort',
      'request-pause',
    ]);
  });
});
