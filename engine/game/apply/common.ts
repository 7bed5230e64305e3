import { cite, ruleError, type Citation } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';
import { decideWinner } from '../end.js';
import type { GameEvent, Seat } from '../events.js';
import type { GameState, TurnRecord } from '../state.js';

/**
 * What every fold handler shares: the handler types that make `EVENT_HANDLERS` (apply.ts) cover every
 * event kind, and the small helpers the handlers use to refuse an event or record a turn.
 */

/** The event of kind `K`, as the union narrows it. */
export type EventOf<K extends GameEvent['type']> = Extract<GameEvent, { readonly type: K }>;

/**
 * Folds one event of kind `K` into the state, or names the invariant it breaks. Handlers see the
 * state as it was; `apply` then counts the event and advances the clock.
 */
export type EventHandler<K extends GameEvent['type']> = (state: GameState, event: EventOf<K>) => Result<GameState>;

/** One handler per event kind: a kind added to `GameEvent` without a handler fails to compile. */
export type EventHandlers = { readonly [K in GameEvent['type']]: EventHandler<K> };

export const violation = (code: string, message: string, details?: Record<string, unknown>, rule?: Citation): Result<never> =>
  err(ruleError(code, message, details, rule));

export const setAt = <T>(pair: readonly [T, T], seat: Seat, value: T): [T, T] => (seat === 0 ? [value, pair[1]] : [pair[0], value]);

export const seatName = (s: GameState, seat: Seat): string => s.players[seat].name;

/** The number of the event being applied to `s` (counted from 1, `game-created`): a history line's `event`. */
export const nextEvent = (s: GameState): number => s.eventCount + 1;

/** The history with one more line, its running total taken from `scores`, written by the event being applied. */
export const record = (s: GameState, r: Omit<TurnRecord, 'cumulative' | 'event'>, scores: readonly [number, number]): TurnRecord[] => [
  ...s.history,
  { ...r, cumulative: scores[r.seat], event: nextEvent(s) },
];

/** Scores changed after the end (time penalty, ruling): the winner follows the new scores. */
export const rescore = (s: GameState, scores: [number, number]): GameState['result'] =>
  s.result && s.result.reason !== 'aborted'
    ? { ...s.result, winner: decideWinner(s.rules, scores, s.result.scoresBeforeAdjustments, s.result.loser) }
    : s.result;

/** A turn action must come from the player to move, in a game not over (seed-003 rule 4). */
export const mustBeOnTurn = (s: GameState, seat: Seat, what: string): Result<true> => {
  if (s.status === 'ended')
    return violation('GAME_OVER', `The game is over: ${what} by ${seatName(s, seat)} comes after its end.`, { seat });
  if (s.turn !== seat) {
    return violation(
      'NOT_YOUR_TURN',
      `It is ${seatName(s, s.turn)}'s turn, not ${seatName(s, seat)}'s (${what}).`,
      { seat, turn: s.turn },
      cite('seed-003', 'rule 4'),
    );
  }
  return ok(true);
};
