import type { Layout } from '../engine/board.js';
import type { RuleError } from '../engine/errors.js';
import { apply, replay } from '../engine/game/apply.js';
import { isGameEventType, type GameEvent, type Seat, type TimeControl } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import { ok, type Result } from '../engine/result.js';
import type { RuleSet } from '../engine/rules/ruleset.js';
import { loadGame, type NewEvent, type StoredEvent } from '../store/games.js';
import type { JsonObject } from '../store/json.js';
import { seatsOf, type SeatHolder } from '../store/seats.js';
import type { ServiceDeps } from './context.js';

/**
 * A game's log as the store keeps it: engine events, preceded for a game that waited for its second
 * player by the service's own `game-proposed`; and the fold of the engine events into a state.
 */

/**
 * A game whose second seat is open starts with this service event (not an engine event): the
 * settings the engine's `game-created` will carry once both players sit. It is skipped by the fold.
 */
export interface GameProposed {
  readonly type: 'game-proposed';
  readonly rules: RuleSet;
  readonly lexicon: { readonly name: string; readonly hash: string };
  readonly timeControl: TimeControl;
  readonly firstSeat: Seat;
  readonly createdAt: string;
  /** A board given as data (issue 21), passed on to `game-created`. */
  readonly layout?: Layout;
}

/** An event as the store keeps it: its type, and the whole event as the payload. */
export const toStored = (e: GameEvent | GameProposed): NewEvent => ({ type: e.type, payload: e as unknown as JsonObject });
export const engineEvents = (stored: readonly StoredEvent[]): GameEvent[] =>
  stored.filter((e) => isGameEventType(e.type)).map((e) => e.payload as unknown as GameEvent);
export const proposalOf = (stored: readonly StoredEvent[]): GameProposed | null => {
  const first = stored[0];
  return first && first.type === 'game-proposed' ? (first.payload as unknown as GameProposed) : null;
};

/**
 * How far engine event numbers are from game versions: the service events before the first engine event
 * (a waiting game's `game-proposed`). Service events later in the log (a rated game's `rating-changed`
 * after its end) do not move the numbers of the engine events, so a score-sheet line's `event` and a
 * dispute's `concerns` stay what they were when the line was written (docs/rated-play.md). `fallback`
 * when `stored` holds no engine event.
 */
export const engineOffset = (stored: readonly StoredEvent[], fallback: number): number => {
  const first = stored.find((e) => isGameEventType(e.type));
  return first ? first.seq - 1 : fallback;
};

/** Folds a stored log; a log the fold rejects is a broken invariant (only `decide`d events are stored). */
export const fold = (events: readonly GameEvent[]): GameState => {
  const r = replay(events);
  if (!r.ok) throw new Error(`stored game log does not replay at event ${r.error.index}: ${r.error.code} ${r.error.message}`);
  return r.value;
};

/** `state` with `events` applied, as {@link fold} would have reached it from the start (service/log-cache.ts). */
export const foldOn = (state: GameState, events: readonly GameEvent[]): GameState => {
  let s = state;
  for (const e of events) {
    const r = apply(s, e);
    if (!r.ok) throw new Error(`stored game log does not apply on its known prefix: ${r.error.code} ${r.error.message}`);
    s = r.value;
  }
  return s;
};

/** The engine log and seats of a game, for the record export (no secrets: the seed is only in game_secrets). */
export async function loadGameLog(
  deps: ServiceDeps,
  gameId: string,
): Promise<
  Result<
    { readonly events: readonly GameEvent[]; readonly seats: readonly SeatHolder[]; readonly version: number; readonly recorded: boolean },
    RuleError
  >
> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  return ok({
    events: engineEvents(loaded.value.events),
    seats: await seatsOf(deps.db.prisma, gameId),
    version: loaded.value.game.version,
    recorded: loaded.value.game.scorekeeperId !== null,
  });
}
