import { ruleError, type Citation, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { GameEvent, Seat } from './events.js';
import type { GameState } from './state.js';

/**
 * The clocks of a recorded over-the-board game (docs/recorded.md "Clocks"). The table's clocks count
 * down from the game's minutes and on into overtime as negative time, as NASPA and WESPA clocks do; the
 * scorekeeper reads the mover's clock after each move. At the end each seat's last reading is charged
 * the rule set's overtime penalty, and a reading at the rule set's overtime limit ends the game on time.
 */

/** A reading more than a day into overtime is a typing error, not a clock. */
export const MAX_OVERTIME_SECONDS = 86_400;

/** The table's clock reading that comes with a recorded move: whose clock, and what it showed. */
export interface ClockEntry {
  readonly seat: Seat;
  readonly secondsLeft: number;
}

const sourcesOf = (rules: RuleSet, ...paths: string[]): Citation[] => paths.flatMap((p) => rules.sources[p] ?? []);

/** `time.overtimePenaltyPerMinute` per started minute of `secondsOver` (WESPA 5.3.2), counted as `time.overtimeCounting` says. */
export const overtimePenalty = (time: RuleSet['time'], secondsOver: number): { readonly minutes: number; readonly points: number } => {
  const counted = time.overtimeCounting === 'whole-seconds' ? Math.floor(secondsOver) : secondsOver;
  const minutes = counted > 0 ? Math.ceil(counted / 60) : 0;
  return { minutes, points: minutes * time.overtimePenaltyPerMinute };
};

/** Overtime that reaches `time.overtimeForfeitMinutes` forfeits the game (WESPA 5.3.3); never when the rule set has no limit. */
export const overtimeForfeits = (time: RuleSet['time'], secondsOver: number): boolean =>
  time.overtimeForfeitMinutes !== null &&
  (time.overtimeCounting === 'whole-seconds' ? Math.floor(secondsOver) : secondsOver) >= time.overtimeForfeitMinutes * 60;

const refuse = (code: string, message: string, details: Record<string, unknown>): Result<never, RuleError> =>
  err(ruleError(code, message, details));

/**
 * The reading a fold accepts: the game has a clock, the reading is whole seconds between the game's
 * minutes and a day over, and a seat's clock does not go up (nothing in a recorded game gives time back).
 */
export const checkClockReading = (s: GameState, e: ClockEntry): Result<true, RuleError> => {
  const tc = s.timeControl;
  if (tc.kind !== 'clock')
    return refuse('NOT_TIMED', 'This game has no clock: it was recorded without clockMinutes, so it takes no clock readings.', {
      field: 'time',
    });
  const full = tc.minutes * 60;
  if (!Number.isInteger(e.secondsLeft) || e.secondsLeft > full || e.secondsLeft < -MAX_OVERTIME_SECONDS)
    return refuse(
      'CLOCK_READING_INVALID',
      `A clock reading is whole seconds from ${full} (the game's ${tc.minutes} minutes) down to −${MAX_OVERTIME_SECONDS} (overtime is negative), not ${e.secondsLeft}.`,
      { field: 'time.secondsLeft', min: -MAX_OVERTIME_SECONDS, max: full, secondsLeft: e.secondsLeft },
    );
  const last = s.clock.readings?.[e.seat] ?? null;
  if (last !== null && e.secondsLeft > last)
    return refuse(
      'CLOCK_WENT_UP',
      `${s.players[e.seat].name}'s clock read ${last} seconds after their last move; it cannot show more (${e.secondsLeft}) now.`,
      { field: 'time.secondsLeft', previous: last, secondsLeft: e.secondsLeft },
    );
  return ok(true);
};

/** The clock-reading event of a move by `mover`: the reading must be the mover's own clock. */
export const clockReadingOf = (mover: Seat, entry: ClockEntry | null | undefined): Result<GameEvent[], RuleError> => {
  if (!entry) return ok([]);
  if (entry.seat !== mover)
    return refuse(
      'CLOCK_NOT_MOVER',
      `The clock read with a move is the mover's (seat ${mover}), not seat ${entry.seat}'s: a seat's clock runs only on its own turn.`,
      { field: 'time.seat', seat: entry.seat, mover },
    );
  return ok([{ type: 'clock-reading', seat: mover, secondsLeft: entry.secondsLeft }]);
};

/** The seat whose last reading reaches the overtime limit (the game is forfeited on time), or null. */
export const flagFallen = (s: GameState): Seat | null => {
  const r = s.clock.readings;
  if (!r) return null;
  for (const seat of [0, 1] as const) {
    const left = r[seat];
    if (left !== null && left < 0 && overtimeForfeits(s.rules.time, -left)) return seat;
  }
  return null;
};

const RATE = ['time.overtimePenaltyPerMinute', 'time.overtimeCounting'];
const FORFEIT = [...RATE, 'time.overtimeForfeitMinutes', 'time.overtimeForfeitScoring'];

const penaltyOf = (s: GameState, seat: Seat, secondsOver: number, points: number, forfeit: boolean): GameEvent => ({
  type: 'time-penalty',
  seat,
  points,
  secondsOver,
  citations: sourcesOf(s.rules, ...(forfeit ? FORFEIT : RATE)),
});

/**
 * The overtime penalties at the end of the game: each seat's last reading below zero costs the rule
 * set's points per started minute; a forfeiter (`loser` on time) is charged the full limit (WESPA 5.3.3).
 */
export const endOfGamePenalties = (s: GameState, forfeiter: Seat | null): GameEvent[] => {
  const r = s.clock.readings;
  if (!r) return [];
  const out: GameEvent[] = [];
  const t = s.rules.time;
  for (const seat of [0, 1] as const) {
    const left = r[seat];
    if (left === null || left >= 0) continue;
    const forfeit = seat === forfeiter && t.overtimeForfeitMinutes !== null;
    const points = forfeit ? t.overtimeForfeitMinutes! * t.overtimePenaltyPerMinute : overtimePenalty(t, -left).points;
    if (points > 0) out.push(penaltyOf(s, seat, -left, points, forfeit));
  }
  return out;
};

/** The game ended on time for `seat`: the marker and the end, the scores standing (the penalty follows the end). */
export const timeForfeitEvents = (seat: Seat): GameEvent[] => [
  { type: 'timed-out', seat },
  { type: 'game-ended', reason: 'timed-out', adjustments: [], loser: seat, seed: null },
];
