import { err, ok, type Result } from '../result.js';
import { apply, type ReplayError } from './apply.js';
import type { GameEvent, Seat } from './events.js';
import type { GameState } from './state.js';
import { spectatorView, viewFor, type SeatView, type SpectatorView } from './view.js';

/** A game as one viewer saw it after `version` events. */
export interface TurnView {
  readonly version: number;
  readonly view: SeatView | SpectatorView;
}

/**
 * The game as `viewer` (a seat, or null for a spectator) saw it at the start and after every line of
 * the score sheet: one entry for the opening position (both racks drawn, nothing played) and one for
 * each turn record (a play, an exchange, a pass, a challenge and its outcome, the end adjustments; lines
 * that one event adds together share a position). The last entry is always the log's end.
 * A replay picture takes one frame from each. Built from views only (view.ts), so it holds nothing the
 * viewer may not see: the other rack and the bag's order never leave the fold.
 */
export const turnViews = (events: readonly GameEvent[], viewer: Seat | null): Result<TurnView[], ReplayError> => {
  const out: TurnView[] = [];
  const viewOf = (s: GameState) => (viewer === null ? spectatorView(s) : viewFor(s, viewer));
  // Each position is taken just before the event that starts the next score-sheet line (or at the end
  // of the log), so it includes what completed its turn: the draws, returned tiles, the end of the game.
  let state: GameState | null = null;
  for (let i = 0; i < events.length; i++) {
    const r = apply(state, events[i]!);
    if (!r.ok) return err({ ...r.error, index: i });
    if (state && r.value.history.length > state.history.length) out.push({ version: i, view: viewOf(state) });
    state = r.value;
  }
  if (state) out.push({ version: events.length, view: viewOf(state) });
  return ok(out);
};
