import { describe, expect, test } from 'vitest';
import { NSA_2008 } from '../rules/presets.js';
import { banksAt, deadline, DEFAULT_MAX_PAUSE_SECONDS, DEFAULT_MAX_PAUSES, isOverdue, validateTimeControl } from './clock.js';
import { decide, type Command } from './decide.js';
import type { GameEvent, TimeControl } from './events.js';
import { fold, LEX, openingEvents, SEED, withBag } from './game.fixtures.js';
import type { GameState } from './state.js';
import { timeoutOutcome } from './timeout.js';
import { clockView } from './view.js';

const T0 = Date.parse('2024-01-01T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (msAfterT0: number): string => new Date(T0 + msAfterT0).toISOString();

/** 1 hour per turn, a 2-hour bank each. */
const TC: TimeControl = { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 7200 };

const startTimed = (racks: readonly [string, string], tc: TimeControl = TC): GameState => {
  const [created, ...draws] = openingEvents(NSA_2008, racks);
  return fold(null, [{ ...(created as GameEvent & { type: 'game-created' }), timeControl: tc, createdAt: at(0) }, ...draws]);
};

/** Decides `cmd` at `when` (ms after T0) and folds its events; throws on a refusal. */
const act = (s: GameState, cmd: Command, when: number): GameState => {
  const r = decide(s, cmd, { lexicon: LEX, seed: SEED, now: at(when) });
  if (!r.ok) throw new Error(`${cmd.kind}: ${r.error.code} ${r.error.message}`);
  return fold(s, r.value);
};
const refusal = (s: GameState, cmd: Command, when: number): string => {
  const r = decide(s, cmd, { lexicon: LEX, seed: SEED, now: at(when) });
  if (r.ok) throw new Error(`${cmd.kind} was accepted`);
  return r.error.code;
};

describe('validateTimeControl', () => {
  test.each([
    [{ kind: 'correspondence', turnSeconds: 3599, bankSeconds: 0 }, 'timeControl.turnSeconds'],
    [{ kind: 'correspondence', turnSeconds: 1_209_601, bankSeconds: 0 }, 'timeControl.turnSeconds'],
    [{ kind: 'correspondence', turnSeconds: 3600.5, bankSeconds: 0 }, 'timeControl.turnSeconds'],
    [{ kind: 'correspondence', turnSeconds: 3600, bankSeconds: -1 }, 'timeControl.bankSeconds'],
    [{ kind: 'correspondence', turnSeconds: 3600, bankSeconds: 2_592_001 }, 'timeControl.bankSeconds'],
    [{ kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0, maxPauses: 11 }, 'timeControl.maxPauses'],
    [{ kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0, maxPauseSeconds: 5_184_001 }, 'timeControl.maxPauseSeconds'],
    [{ kind: 'clock', minutes: 0 }, 'timeControl.minutes'],
  ] as [TimeControl, string][])('%o is refused, naming %s', (tc, field) => {
    const r = validateTimeControl(tc);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('TIME_CONTROL_INVALID');
      expect(r.error.details?.['field']).toBe(field);
    }
  });

  test('the bounds themselves are allowed, and the pause defaults are filled in', () => {
    expect(validateTimeControl({ kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0 })).toEqual({
      ok: true,
      value: { kind: 'correspondence', turnSeconds: 3600, bankSeconds: 0, maxPauses: 2, maxPauseSeconds: 1_209_600 },
    });
    expect(
      validateTimeControl({ kind: 'correspondence', turnSeconds: 1_209_600, bankSeconds: 2_592_000, maxPauses: 0, maxPauseSeconds: 0 }).ok,
    ).toBe(true);
    expect(validateTimeControl({ kind: 'untimed' })).toEqual({ ok: true, value: { kind: 'untimed' } });
    expect([DEFAULT_MAX_PAUSES, DEFAULT_MAX_PAUSE_SECONDS]).toEqual([2, 14 * 24 * 3600]);
  });
});

describe('turn time and bank', () => {
  // Ann plays at 0:30 (inside her hour), Bob passes at 1:55 (1 h 25 min used: 25 min = 1500 s from his bank).
  const s0 = startTimed(['CATSERO', 'QIZAXEO']);
  const s1 = act(s0, { kind: 'play', seat: 0, move: '8G CAT' }, 30 * MIN);
  const s2 = act(s1, { kind: 'pass', seat: 1 }, 115 * MIN);

  test('the first deadline is the start + 1 h + the 2 h bank', () => {
    expect(deadline(s0)).toBe(at(3 * HOUR));
    expect(clockView(s0)).toMatchObject({ banks: [7200, 7200], turnStartedAt: at(0), allowanceEndsAt: at(HOUR), deadline: at(3 * HOUR) });
  });

  test('a turn inside the allowance leaves the bank alone; the next deadline counts from the move', () => {
    expect(s1.clock.banks).toEqual([7200, 7200]);
    expect(deadline(s1)).toBe(at(30 * MIN + 3 * HOUR));
  });

  test('time beyond the allowance comes out of the mover’s bank: 7200 − 1500 = 5700', () => {
    expect(s2.clock.banks).toEqual([7200, 5700]);
    // Ann to move from 1:55 with her full bank: 1:55 + 1 h + 2 h = 4:55.
    expect(deadline(s2)).toBe(at(4 * HOUR + 55 * MIN));
    // At 3:25 Ann has used 1 h 30 min: 30 min (1800 s) off her bank so far, not yet recorded.
    expect(banksAt(s2, at(3 * HOUR + 25 * MIN))).toEqual([5400, 5700]);
  });

  test('overdue from the deadline on: before it NOT_OVERDUE with the deadline, at it a timeout loss', () => {
    const before = timeoutOutcome(s2, at(4 * HOUR + 55 * MIN - 1000), SEED);
    expect(before.ok).toBe(false);
    if (!before.ok) expect(before.error).toMatchObject({ code: 'NOT_OVERDUE', details: { deadline: at(4 * HOUR + 55 * MIN), seat: 0 } });
    expect(isOverdue(s2, at(4 * HOUR + 55 * MIN))).toBe(true);
    const r = timeoutOutcome(s2, at(4 * HOUR + 55 * MIN), SEED);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.map((e) => [e.type, e.at])).toEqual([
      ['timed-out', at(4 * HOUR + 55 * MIN)],
      ['game-ended', at(4 * HOUR + 55 * MIN)],
    ]);
    const end = fold(s2, r.value);
    expect(end.result).toMatchObject({ reason: 'timed-out', loser: 0, winner: 1, adjustments: [] });
    // The scores stand (Woogles): Ann's 10 points do not win.
    expect(end.scores).toEqual([10, 0]);
    expect(end.clock.banks).toEqual([0, 5700]);
    expect(deadline(end)).toBeNull();
  });

  test('an untimed game has no deadline and cannot time out', () => {
    const u = startTimed(['CATSERO', 'QIZAXEO'], { kind: 'untimed' });
    expect(deadline(u)).toBeNull();
    expect(clockView(u)).toBeNull();
    const r = timeoutOutcome(u, at(1000 * HOUR), SEED);
    expect(!r.ok && r.error.code).toBe('NOT_TIMED');
  });
});

describe('the auto-pass special case', () => {
  test('when the opponent has played out and only the final pass is pending, a timeout passes instead of forfeiting', () => {
    // Ann plays out with CAT and an empty bag; Bob holds QIZ (10 + 1 + 10 = 21).
    const s0 = withBag(startTimed(['CAT', 'QIZ']), 0);
    const out = act(s0, { kind: 'play', seat: 0, move: '8G CAT' }, 10 * MIN);
    expect(out.status).toBe('waiting-final');
    // Bob's turn from 0:10: 1 h + 2 h bank = 3:10.
    const r = timeoutOutcome(out, at(3 * HOUR + 10 * MIN), SEED);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.map((e) => e.type)).toEqual(['pass', 'game-ended']);
    expect(r.value[0]).toMatchObject({ type: 'pass', seat: 1, auto: 'timeout' });
    const end = fold(out, r.value);
    // NSA: the player who went out gets twice the opponent's rack: 10 + 2 × 21 = 52.
    expect(end.result).toMatchObject({ reason: 'went-out', loser: null, winner: 0 });
    expect(end.scores).toEqual([10 + 42, 0]);
  });
});

describe('pauses', () => {
  const s0 = startTimed(['CATSERO', 'QIZAXEO']);
  const DAY = 24 * 3600;

  test('requested, accepted: the deadline moves by the pause; resumed early, only the time paused counts', () => {
    // Ann's turn from 0:00 (deadline 3:00). She asks for a day at 0:05; Bob accepts at 0:10.
    const asked = act(s0, { kind: 'request-pause', seat: 0, seconds: DAY }, 5 * MIN);
    expect(clockView(asked)?.pauseRequest).toEqual({ seat: 0, seconds: DAY });
    expect(deadline(asked)).toBe(at(3 * HOUR));
    const paused = act(asked, { kind: 'accept-pause', seat: 1 }, 10 * MIN);
    expect(clockView(paused)).toMatchObject({
      pause: { since: at(10 * MIN), until: at(10 * MIN + 24 * HOUR) },
      pausesUsed: 1,
      pausesLeft: 1,
      pauseSecondsLeft: 14 * DAY - DAY,
    });
    // Frozen: 3:00 + 24 h, whatever the time now.
    expect(deadline(paused)).toBe(at(27 * HOUR));
    expect(timeoutOutcome(paused, at(26 * HOUR), SEED).ok).toBe(false);
    // Resumed at 8:10: 8 h paused, so the deadline is 3:00 + 8 h = 11:00 and 8 h of the 14 days are used.
    const resumed = act(paused, { kind: 'resume', seat: 1 }, 8 * HOUR + 10 * MIN);
    expect(deadline(resumed)).toBe(at(11 * HOUR));
    expect(clockView(resumed)).toMatchObject({ pause: null, pauseSecondsLeft: 14 * DAY - 8 * 3600, pausesLeft: 1 });
  });

  test('a pause runs out by itself; a move during a pause ends it', () => {
    const paused = act(act(s0, { kind: 'request-pause', seat: 1, seconds: 2 * 3600 }, 0), { kind: 'accept-pause', seat: 0 }, 0);
    // The pause ended at 2:00; Ann plays at 2:30: 30 min of her turn used, no bank drawn; Bob's turn from 2:30.
    const played = act(paused, { kind: 'play', seat: 0, move: '8G CAT' }, 150 * MIN);
    expect(played.clock.banks).toEqual([7200, 7200]);
    expect(played.clock.pause).toMatchObject({ active: null, usedSeconds: 7200, count: 1 });
    expect(deadline(played)).toBe(at(150 * MIN + 3 * HOUR));
    expect(refusal(played, { kind: 'resume', seat: 0 }, 151 * MIN)).toBe('NOT_PAUSED');
  });

  test('limits: two pauses per game by default, within the total time; answered only by the opponent', () => {
    expect(refusal(s0, { kind: 'request-pause', seat: 0, seconds: 15 * DAY }, 0)).toBe('PAUSE_LIMIT_REACHED');
    expect(refusal(s0, { kind: 'request-pause', seat: 0, seconds: 60 }, 0)).toBe('PAUSE_TOO_SHORT');
    expect(refusal(s0, { kind: 'accept-pause', seat: 1 }, 0)).toBe('NO_PAUSE_REQUESTED');
    const asked = act(s0, { kind: 'request-pause', seat: 0, seconds: 3600 }, 0);
    expect(refusal(asked, { kind: 'accept-pause', seat: 0 }, 0)).toBe('OWN_PAUSE_REQUEST');
    expect(refusal(asked, { kind: 'request-pause', seat: 1, seconds: 3600 }, 0)).toBe('PAUSE_ALREADY_REQUESTED');
    const declined = act(asked, { kind: 'decline-pause', seat: 1 }, MIN);
    expect(clockView(declined)).toMatchObject({ pauseRequest: null, pausesUsed: 0 });
    let s = declined;
    for (const h of [1, 3])
      s = act(act(s, { kind: 'request-pause', seat: 0, seconds: 3600 }, h * HOUR), { kind: 'accept-pause', seat: 1 }, h * HOUR);
    expect(clockView(s)).toMatchObject({ pausesUsed: 2, pausesLeft: 0 });
    expect(refusal(s, { kind: 'request-pause', seat: 0, seconds: 3600 }, 10 * HOUR)).toBe('PAUSE_LIMIT_REACHED');
  });

  test('an untimed game has nothing to pause', () => {
    expect(refusal(startTimed(['CATSERO', 'QIZAXEO'], { kind: 'untimed' }), { kind: 'request-pause', seat: 0, seconds: 3600 }, 0)).toBe(
      'NOT_TIMED',
    );
  });
});

describe('abort', () => {
  test('before the first turn either player may abort: the game ends with no winner', () => {
    const s0 = startTimed(['CATSERO', 'QIZAXEO']);
    const end = act(s0, { kind: 'abort', seat: 1 }, MIN);
    expect(end.status).toBe('ended');
    expect(end.result).toMatchObject({ reason: 'aborted', winner: null, loser: null });
    expect(deadline(end)).toBeNull();
  });

  test('after the first turn it is refused (resign instead)', () => {
    const s1 = act(startTimed(['CATSERO', 'QIZAXEO']), { kind: 'pass', seat: 0 }, MIN);
    expect(refusal(s1, { kind: 'abort', seat: 1 }, 2 * MIN)).toBe('ABORT_TOO_LATE');
    expect(refusal(s1, { kind: 'abort', seat: 0 }, 2 * MIN)).toBe('ABORT_TOO_LATE');
  });
});
