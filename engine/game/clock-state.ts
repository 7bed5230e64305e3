import type { Seat } from './events.js';

/**
 * The clock's part of the game state: plain data, kept apart from `clock.ts` (which reads whole
 * `GameState`s) so that `state.ts` can hold a clock without importing the code that advances it.
 */

export interface PauseState {
  /** An open request: `seat` asked for `seconds`; it lapses when the turn passes. */
  readonly requested: { readonly seat: Seat; readonly seconds: number } | null;
  /** The running pause: the clock stands still from `since` until `until`, or until resumed earlier. */
  readonly active: { readonly since: string; readonly until: string; readonly seconds: number } | null;
  /** Pauses accepted so far (the running one included). */
  readonly count: number;
  /** Seconds paused in pauses that have ended. */
  readonly usedSeconds: number;
}

/**
 * The clock stopped by open disputes (rule set `time.disputePausesClock`, issue 14): since when, for the
 * current turn; the disputes that hold it (it runs again when the last is ruled); and the part of the
 * stop a mutual pause already covered (that pause moves the turn's start itself, so it is not counted twice).
 */
export interface DisputeHold {
  readonly since: string;
  readonly disputes: readonly number[];
  readonly coveredMs: number;
}

/** The clock of a game, folded from the events' `at` stamps by `advanceClock` (`clock.ts`). */
export interface ClockState {
  /** When the player to move started their turn, shifted later by the time paused during it. */
  readonly turnStartedAt: string | null;
  /** Seconds left in each seat's bank (0 in untimed games). Public: both players see both banks. */
  readonly banks: readonly [number, number];
  /** The latest `at` seen; events without a stamp happen "then". */
  readonly lastAt: string | null;
  readonly pause: PauseState;
  /** Recorded games with a clock: each seat's last clock reading in seconds (negative = overtime); null before the first. */
  readonly readings?: readonly [number | null, number | null];
  /** Stopped by open disputes; null while none holds it. Time stopped is not taken from the pause allowance. */
  readonly disputeHold: DisputeHold | null;
}
