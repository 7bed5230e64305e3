import { describe, expect, test } from 'vitest';
import { factsFromLog } from '../adjudication/from-log.js';
import { gameToGcg } from '../gcg/export.js';
import { formatGcg } from '../gcg/format.js';
import { FRIENDLY, NSA_2008, WESPA } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { recordedScores } from './forfeits.js';
import type { GameEvent } from './events.js';
import { fold } from './game.fixtures.js';
import { recordedGameStart, recordedMoveEvents, type RecordedEntry } from './recorded.js';
import { overtimePenalty } from './recorded-clock.js';
import type { GameState } from './state.js';
import { spectatorView } from './view.js';

const ctx = { lexicon: null, seed: null, now: '2026-11-27T00:00:00.000Z' };
const opening = (rules: RuleSet, clockMinutes: number | null): GameEvent[] =>
  recordedGameStart({ rules, lexicon: null, players: [{ name: 'Ann' }, { name: 'Ben' }], firstSeat: 0, createdAt: ctx.now, clockMinutes });
const start = (rules: RuleSet = WESPA, clockMinutes: number | null = 25): GameState => fold(null, opening(rules, clockMinutes));
const rec = (s: GameState, entry: RecordedEntry) => {
  const r = recordedMoveEvents(s, entry, ctx);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return { state: fold(s, r.value), events: r.value };
};
const refusal = (s: GameState, entry: RecordedEntry) => {
  const r = recordedMoveEvents(s, entry, ctx);
  return r.ok ? null : { code: r.error.code, field: r.error.details?.['field'] };
};
const pass = (seat: 0 | 1, secondsLeft?: number): RecordedEntry => ({
  move: { kind: 'pass' },
  ...(secondsLeft === undefined ? {} : { time: { seat, secondsLeft } }),
});

describe('clock readings of a recorded game', () => {
  test('a reading goes in the log after the move, on its score-sheet line and in the public view', () => {
    const { state, events } = rec(start(), { move: { kind: 'play', move: '8H ZA' }, time: { seat: 0, secondsLeft: 1450 } });
    expect(events.map((e) => e.type)).toEqual(['rack-revealed', 'play', 'tiles-drawn', 'clock-reading']);
    expect(state.history[0]).toMatchObject({ move: '8H ZA', secondsLeft: 1450 });
    expect(spectatorView(state).clockReadings).toEqual([1450, null]);
    expect(spectatorView(start(WESPA, null)).clockReadings).toBeNull();
  });

  test('a reading is refused, naming its field, when it is another seat’s, goes up, is beyond the game’s minutes, or the game has no clock', () => {
    const s = rec(start(), pass(0, 1200)).state;
    const more = rec(s, pass(1, 1300)).state;
    expect(refusal(more, pass(0, 1201))).toEqual({ code: 'CLOCK_WENT_UP', field: 'time.secondsLeft' });
    expect(refusal(more, { move: { kind: 'pass' }, time: { seat: 1, secondsLeft: 1000 } })).toEqual({
      code: 'CLOCK_NOT_MOVER',
      field: 'time.seat',
    });
    expect(refusal(start(), pass(0, 25 * 60 + 1))).toEqual({ code: 'CLOCK_READING_INVALID', field: 'time.secondsLeft' });
    expect(refusal(start(), pass(0, 12.5))).toEqual({ code: 'CLOCK_READING_INVALID', field: 'time.secondsLeft' });
    expect(refusal(start(WESPA, null), pass(0, 100))).toEqual({ code: 'NOT_TIMED', field: 'time' });
    // Overtime is a negative reading: accepted, and equal readings are fine (a clock stands still between moves).
    expect(refusal(more, pass(0, -30))).toBeNull();
    expect(refusal(more, pass(0, 1200))).toBeNull();
  });

  test('overtime costs the rule set’s points per started minute, counted as the rule set counts it', () => {
    expect(overtimePenalty(WESPA.time, 0)).toEqual({ minutes: 0, points: 0 });
    expect(overtimePenalty(WESPA.time, 0.9)).toEqual({ minutes: 0, points: 0 }); // WESPA 5.3.2: whole seconds
    expect(overtimePenalty(WESPA.time, 1)).toEqual({ minutes: 1, points: 10 });
    expect(overtimePenalty(WESPA.time, 61)).toEqual({ minutes: 2, points: 20 });
    expect(overtimePenalty(FRIENDLY.time, 300)).toEqual({ minutes: 5, points: 0 });
  });

  test('at the end each seat’s last reading below zero is charged, after the end, in the score and the GCG', () => {
    // Six scoreless turns end the game; each seat's last reading counts: Ann 61 s over, Ben 50 s over.
    const log = opening(NSA_2008, 25);
    let s = fold(null, log);
    for (const entry of [pass(0, 100), pass(1, -30), pass(0, -61), pass(1, -45), pass(0)]) {
      const r = rec(s, entry);
      log.push(...r.events);
      s = r.state;
    }
    const racks: RecordedEntry['remainingRacks'] = [
      ['A', 'E', 'I', 'N', 'R', 'S', 'T'],
      ['Q', 'X', 'J', 'K', 'V', 'W', 'Y'],
    ];
    const { state, events } = rec(s, { ...pass(1, -50), remainingRacks: racks });
    const types = events.map((e) => e.type);
    expect(types.slice(types.indexOf('pass'))).toEqual(['pass', 'clock-reading', 'game-ended', 'time-penalty', 'time-penalty']);
    const penalties = events.filter((e) => e.type === 'time-penalty');
    expect(penalties).toEqual([
      expect.objectContaining({ seat: 0, points: 20, secondsOver: 61 }),
      expect.objectContaining({ seat: 1, points: 10, secondsOver: 50 }),
    ]);
    const cited = penalties[0]!.type === 'time-penalty' ? penalties[0]!.citations : [];
    expect(cited).toEqual(NSA_2008.sources['time.overtimePenaltyPerMinute']!.concat(NSA_2008.sources['time.overtimeCounting']!));
    // Racks: Ann 7 (−7), Ben 43 (−43) under NSA 2008 (each loses their own rack), then overtime.
    expect(state.scores).toEqual([-7 - 20, -43 - 10]);
    expect(state.result).toMatchObject({ reason: 'scoreless-turns', winner: 0 });
    expect(state.history.slice(-2)).toEqual([
      expect.objectContaining({ seat: 0, kind: 'time-penalty', score: -20 }),
      expect.objectContaining({ seat: 1, kind: 'time-penalty', score: -10 }),
    ]);
    const gcg = formatGcg(gameToGcg([...log, ...events], { viewer: null, recorded: true }));
    expect(gcg).toMatch(/>Ann: +\(time\) -20 -27/);
    expect(gcg).toMatch(/>Ben: +\(time\) -10 -53/);
  });

  test('a reading at the overtime limit ends the game on time; out-of-time records it without a move', () => {
    const s = rec(start(WESPA), pass(0, 20)).state;
    // Ben moves 9:59 over: the game goes on (a penalty waits for the end).
    const late = rec(s, { move: { kind: 'play', move: '8H ZA' }, time: { seat: 1, secondsLeft: -599 } }).state;
    expect(late.status).toBe('playing');
    expect(refusal(late, { move: { kind: 'out-of-time' }, time: { seat: 0, secondsLeft: -599 } })).toEqual({
      code: 'NOT_OUT_OF_TIME',
      field: 'time.secondsLeft',
    });
    expect(refusal(late, { move: { kind: 'out-of-time' } })).toEqual({ code: 'CLOCK_READING_REQUIRED', field: 'time' });
    const { state, events } = rec(late, { move: { kind: 'out-of-time' }, time: { seat: 0, secondsLeft: -600 } });
    expect(events.map((e) => e.type)).toEqual(['clock-reading', 'timed-out', 'game-ended', 'time-penalty', 'time-penalty']);
    expect(state.result).toMatchObject({ reason: 'timed-out', loser: 0, winner: 1 });
    // The forfeiter pays the full 10 minutes (100), Ben his 10 started minutes (599 s: 100).
    expect(state.scores).toEqual([-100, -78]);
    // WESPA 5.3.3: the forfeiter is recorded 100 below the opponent (−178), below zero so 100 is added to both.
    expect(recordedScores(WESPA, state)).toEqual([-78, 22]);
    const forfeit = events.find((e) => e.type === 'time-penalty' && e.seat === 0);
    expect(forfeit).toMatchObject({ points: 100, secondsOver: 600 });
    expect(forfeit?.type === 'time-penalty' && forfeit.citations).toEqual(
      expect.arrayContaining([...WESPA.sources['time.overtimeForfeitMinutes']!]),
    );
  });

  test('a rule set with no overtime limit never ends the game on time', () => {
    const s = start(FRIENDLY);
    expect(refusal(s, { move: { kind: 'out-of-time' }, time: { seat: 0, secondsLeft: -3600 } })).toEqual({
      code: 'NO_OVERTIME_LIMIT',
      field: 'move.outOfTime',
    });
    expect(rec(s, pass(0, -3600)).state.status).toBe('playing');
  });

  test('an overtime dispute on a seat whose clock the log keeps is refused: the readings charge it at the end, once', () => {
    const first = opening(WESPA, 25);
    const one = rec(fold(null, first), pass(0, -30));
    const two = rec(one.state, pass(1));
    const log = { events: [...first, ...one.events, ...two.events], firstVersion: 1 };
    const kept = factsFromLog('overtime', log, first.length + 1, 0);
    expect(kept.ok).toBe(false);
    if (!kept.ok) {
      expect(kept.error.code).toBe('FACTS_CONTRADICT_LOG');
      expect(kept.error.message).toContain("seat 0's clock");
    }
    // Seat 1's clock has no reading in the log: its overtime may still be disputed.
    expect(factsFromLog('overtime', log, first.length + one.events.length + 1, 1).ok).toBe(true);
  });
});
