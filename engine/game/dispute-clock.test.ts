import { describe, expect, test } from 'vitest';
import { NSA_2008 } from '../rules/presets.js';
import type { DisputeClockRule } from '../rules/ruleset.js';
import { banksAt, deadline, isOverdue, pauseAllowance } from './clock.js';
import { decide, type Command } from './decide.js';
import type { DisputeAppealed, DisputeFiled, GameEvent, RulingApplied, TimeControl } from './events.js';
import { fold, LEX, openingEvents, SEED } from './game.fixtures.js';
import type { GameState } from './state.js';
import { timeoutOutcome } from './timeout.js';
import { clockView, legalActions } from './view.js';

// An open dispute stops the correspondence clock where the rule set says so (issue 14, time.disputePausesClock).

const T0 = Date.parse('2024-01-01T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (msAfterT0: number): string => new Date(T0 + msAfterT0).toISOString();
const DAY = 24 * 3600;

/** 1 hour per turn, a 2-hour bank each: Ann's first deadline is 3:00. */
const TC: TimeControl = { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 7200 };

const start = (rule: DisputeClockRule, tc: TimeControl = TC): GameState => {
  const rules = { ...NSA_2008, time: { ...NSA_2008.time, disputePausesClock: rule } };
  const [created, ...draws] = openingEvents(rules, ['CATSERO', 'QIZAXEO']);
  return fold(null, [{ ...(created as GameEvent & { type: 'game-created' }), timeControl: tc, createdAt: at(0) }, ...draws]);
};

const act = (s: GameState, cmd: Command, when: number): GameState => {
  const r = decide(s, cmd, { lexicon: LEX, seed: SEED, now: at(when) });
  if (!r.ok) throw new Error(`${cmd.kind}: ${r.error.code} ${r.error.message}`);
  return fold(s, r.value);
};

const filed = (n: number, when: number): DisputeFiled & { at: string } => ({
  type: 'dispute-filed',
  dispute: n,
  kind: 'recount',
  concerns: 1,
  player: 0,
  seat: 1,
  by: 'bob',
  facts: [],
  ruling: { verdict: 'DIRECTOR_DECIDES', ruling: 'DIRECTOR_DECIDES', effects: [], citations: [], explanation: 'left to a director' },
  at: at(when),
});
const ruled = (n: number, when: number, by: string | null = 'director'): RulingApplied & { at: string } => ({
  type: 'ruling-applied',
  dispute: n,
  ruling: 'NO_PENALTY',
  scoreChanges: [],
  note: 'ruled',
  by,
  at: at(when),
});
const appealed = (n: number, when: number): DisputeAppealed & { at: string } => ({
  type: 'dispute-appealed',
  dispute: n,
  seat: 1,
  by: 'bob',
  at: at(when),
});

describe('an open dispute stops the clock (while-open)', () => {
  const s0 = start('while-open');
  // Bob files at 0:30 (Ann to move, deadline 3:00); a director rules at 5:00.
  const open = fold(s0, [filed(1, 30 * MIN)]);

  test('while open: no deadline, no timeout, the banks stand, the view says why', () => {
    expect(deadline(open)).toBeNull();
    expect(isOverdue(open, at(10 * HOUR))).toBe(false);
    expect(banksAt(open, at(10 * HOUR))).toEqual([7200, 7200]);
    expect(clockView(open)).toMatchObject({ deadline: null, allowanceEndsAt: null, disputeHold: { since: at(30 * MIN), disputes: [1] } });
    expect(legalActions(open, 1, at(10 * HOUR))).not.toContain('claim-timeout');
    const r = timeoutOutcome(open, at(10 * HOUR), SEED);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('NOT_OVERDUE');
      expect(r.error.details).toMatchObject({ deadline: null, pausedByDisputes: [1], since: at(30 * MIN) });
    }
  });

  test('ruled: the clock runs again, the deadline moved by the time stopped; the pause allowance is untouched', () => {
    const after = fold(open, [ruled(1, 5 * HOUR)]);
    // 4:30 stopped: 3:00 + 4:30 = 7:30.
    expect(deadline(after)).toBe(at(7 * HOUR + 30 * MIN));
    expect(clockView(after)?.disputeHold).toBeNull();
    expect(isOverdue(after, at(7 * HOUR + 30 * MIN - 1))).toBe(false);
    expect(isOverdue(after, at(7 * HOUR + 30 * MIN))).toBe(true);
    expect(pauseAllowance(after)).toEqual({ count: 2, seconds: 14 * DAY });
    expect(after.clock.pause).toMatchObject({ count: 0, usedSeconds: 0 });
  });

  test('an automatic ruling in the same transaction as its filing stops nothing', () => {
    const s = fold(s0, [filed(1, 30 * MIN), ruled(1, 30 * MIN, null)]);
    expect(deadline(s)).toBe(at(3 * HOUR));
  });

  test('two open disputes: the clock runs again when the last is ruled', () => {
    const s = fold(s0, [filed(1, 30 * MIN), filed(2, HOUR), ruled(1, 2 * HOUR)]);
    expect(deadline(s)).toBeNull();
    expect(clockView(s)?.disputeHold).toEqual({ since: at(30 * MIN), disputes: [2] });
    expect(deadline(fold(s, [ruled(2, 4 * HOUR)]))).toBe(at(6 * HOUR + 30 * MIN));
  });

  test('a turn played while the clock is stopped: the mover is charged up to the stop, the next turn starts stopped', () => {
    // Ann used 30 min before the stop; she plays at 2:00 (no bank drawn). Bob's turn starts stopped at 2:00; ruled at 4:00.
    const played = act(open, { kind: 'play', seat: 0, move: '8G CAT' }, 2 * HOUR);
    expect(played.clock.banks).toEqual([7200, 7200]);
    expect(clockView(played)?.disputeHold).toEqual({ since: at(2 * HOUR), disputes: [1] });
    expect(deadline(played)).toBeNull();
    expect(deadline(fold(played, [ruled(1, 4 * HOUR)]))).toBe(at(7 * HOUR));
  });

  test('with a mutual pause running, the time both cover counts once', () => {
    // Paused at 0:10 for 2 h (until 2:10). Disputed at 0:30, ruled at 1:00, inside the pause: nothing added.
    const paused = act(
      act(s0, { kind: 'request-pause', seat: 0, seconds: 2 * 3600 }, 5 * MIN),
      { kind: 'accept-pause', seat: 1 },
      10 * MIN,
    );
    expect(deadline(fold(paused, [filed(1, 30 * MIN), ruled(1, HOUR)]))).toBe(at(5 * HOUR));
    // Ruled at 3:00, after the pause ended at 2:10: the clock ran 0:00–0:10 only, so 2:50 are left at 3:00.
    const late = fold(paused, [filed(1, 30 * MIN), ruled(1, 3 * HOUR)]);
    expect(deadline(late)).toBe(at(5 * HOUR + 50 * MIN));
    // The pause counts its own 2 h against the allowance, the dispute nothing.
    expect(late.clock.pause.usedSeconds).toBe(7200);
  });
});

describe('the rule decides', () => {
  test('never: an open dispute leaves the clock running, and the timeout can be claimed', () => {
    const s = fold(start('never'), [filed(1, 30 * MIN)]);
    expect(deadline(s)).toBe(at(3 * HOUR));
    expect(clockView(s)?.disputeHold).toBeNull();
    expect(timeoutOutcome(s, at(3 * HOUR), SEED).ok).toBe(true);
  });

  test('an appeal stops the clock only under while-open-or-appealed', () => {
    const events = [filed(1, 0), ruled(1, 0, null), appealed(1, HOUR)];
    expect(deadline(fold(start('while-open'), events))).toBe(at(3 * HOUR));
    const held = fold(start('while-open-or-appealed'), events);
    expect(deadline(held)).toBeNull();
    expect(deadline(fold(held, [ruled(1, 2 * HOUR)]))).toBe(at(4 * HOUR));
  });

  test('an untimed game has no clock to stop', () => {
    const s = fold(start('while-open', { kind: 'untimed' }), [filed(1, 30 * MIN)]);
    expect(s.clock.disputeHold).toBeNull();
    expect(clockView(s)).toBeNull();
  });

  test('a log written before the parameter existed never stops', () => {
    const s0 = start('while-open');
    const { disputePausesClock: _gone, ...oldTime } = s0.rules.time;
    const old = { ...s0, rules: { ...s0.rules, time: oldTime as typeof s0.rules.time } };
    expect(deadline(fold(old, [filed(1, 30 * MIN)]))).toBe(at(3 * HOUR));
  });
});
