import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { foldChallenge, foldChallengePoints, foldPhonyWithdrawn, foldTurnLost } from './apply/challenge.js';
import { violation, type EventHandler, type EventHandlers } from './apply/common.js';
import {
  createState,
  foldAborted,
  foldEndMarker,
  foldGameCreated,
  foldGameEnded,
  foldPauseEvent,
  foldRulingApplied,
  foldTimePenalty,
  foldClockReading,
} from './apply/lifecycle.js';
import { foldRackRevealed, foldTilesDrawn, foldTilesReturned, foldTilesSetAside, foldTilesTakenBack } from './apply/tiles.js';
import { foldBlankSubstituted, foldExchange, foldFreeTrade, foldPass, foldPlay } from './apply/turns.js';
import { advanceClock } from './clock.js';
import type { GameEvent } from './events.js';
import type { GameState } from './state.js';

/**
 * The fold: `apply(state, event)` returns the next state or the rule the event violates. It checks
 * the invariants an event must keep (turn order, tiles where the event says they are, the game not
 * over); rule decisions that need a lexicon or the seed are `decide.ts`'s, which only emits events
 * this fold accepts. Each event kind has its handler in `apply/` (by family: tiles, turns,
 * challenge, lifecycle); this module dispatches and does what every event shares.
 */

/** The handler of each event kind; the type makes a missing kind a compile error. */
export const EVENT_HANDLERS: EventHandlers = {
  'game-created': foldGameCreated,
  'tiles-drawn': foldTilesDrawn,
  'rack-revealed': foldRackRevealed,
  'tiles-set-aside': foldTilesSetAside,
  'tiles-taken-back': foldTilesTakenBack,
  'tiles-returned': foldTilesReturned,
  play: foldPlay,
  exchange: foldExchange,
  pass: foldPass,
  challenge: foldChallenge,
  'phony-withdrawn': foldPhonyWithdrawn,
  'turn-lost': foldTurnLost,
  'challenge-points': foldChallengePoints,
  'blank-substituted': foldBlankSubstituted,
  'free-trade': foldFreeTrade,
  'time-penalty': foldTimePenalty,
  'clock-reading': foldClockReading,
  resigned: foldEndMarker,
  'timed-out': foldEndMarker,
  forfeited: foldEndMarker,
  'game-ended': foldGameEnded,
  aborted: foldAborted,
  'pause-requested': foldPauseEvent,
  'pause-accepted': foldPauseEvent,
  'pause-declined': foldPauseEvent,
  resumed: foldPauseEvent,
  'ruling-applied': foldRulingApplied,
  // The dispute is recorded for `disputesOf` (engine/adjudication/game-disputes.ts); its ruling is the `ruling-applied` after it.
  'dispute-filed': (s) => ok(s),
  // An appeal changes nothing until a director rules (engine/adjudication/director.ts).
  'dispute-appealed': (s) => ok(s),
};

/** The handler for this event's kind. */
const handlerFor = (event: GameEvent): EventHandler<GameEvent['type']> =>
  // TypeScript cannot tie `EVENT_HANDLERS[event.type]` to the event's own kind, so it sees a union
  // of handlers; the table's type already guarantees each takes exactly the events of its key.
  EVENT_HANDLERS[event.type] as EventHandler<GameEvent['type']>;

/** Applies one event; see the module comment. */
export function apply(state: GameState | null, event: GameEvent): Result<GameState> {
  if (state === null) {
    if (event.type !== 'game-created')
      return violation('GAME_NOT_CREATED', `The first event of a game must be game-created, not ${event.type}.`, { type: event.type });
    return createState(event);
  }
  const next = handlerFor(event)(state, event);
  return next.ok ? ok({ ...next.value, eventCount: state.eventCount + 1, clock: advanceClock(state, next.value, event) }) : next;
}

/** Error of a fold, with the index of the event that broke it. */
export interface ReplayError extends RuleError {
  readonly index: number;
}

/** Folds a whole log into its state (the store's read path). */
export function replay(events: readonly GameEvent[]): Result<GameState, ReplayError> {
  let state: GameState | null = null;
  for (let i = 0; i < events.length; i++) {
    const r = apply(state, events[i]!);
    if (!r.ok) return err({ ...r.error, index: i });
    state = r.value;
  }
  if (!state) return err({ ...ruleError('GAME_NOT_CREATED', 'An empty log holds no game.'), index: 0 });
  return ok(state);
}
