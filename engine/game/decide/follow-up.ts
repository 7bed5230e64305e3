import { drawTiles } from '../bag.js';
import { CHALLENGE_EFFECTS } from '../challenge.js';
import { exchangeLimitReached, goingOutAdjustments, ownRackAdjustments, scorelessLimitReached } from '../end.js';
import { other, type GameEnded, type GameEvent, type Seat } from '../events.js';
import { bagCount, rackSize, type GameState } from '../state.js';

/** Events that follow a turn by rule rather than by anyone's choice: the draw, and the end of the game. */

/** The `tiles-drawn` event for `count` tiles (fewer if the bag runs low): seeded, or unseen tiles in an import. */
export const drawEvent = (state: GameState, seat: Seat, count: number, seed: string | null): GameEvent | null => {
  const n = Math.min(count, bagCount(state));
  if (n <= 0) return null;
  if (state.bagKind === 'imported') return { type: 'tiles-drawn', seat, tiles: [], hidden: n };
  if (seed === null) throw new Error('drawEvent: a seeded game needs its seed to draw');
  return { type: 'tiles-drawn', seat, tiles: drawTiles(seed, state.drawCount, state.bag, n).tiles };
};

/**
 * The game-ended event if the state has reached an end (seed-003 rule 12; NASPA B6): the out play
 * stands (final pass made, challenge lost, or no challenges), `end.scorelessTurns` scoreless turns,
 * or `end.consecutiveExchangesEach` exchanges by each player in a row. `null` while the game goes on.
 */
export const endIfOver = (state: GameState, seed: string | null): GameEnded | null => {
  if (state.status === 'ended') return null;
  const rules = state.rules;
  const racks = [state.racks[0].tiles, state.racks[1].tiles] as const;
  const revealed = state.bagKind === 'seeded' ? seed : null;
  if (state.status === 'waiting-final') {
    const resolved = state.pending === null || state.pending.challenged || !CHALLENGE_EFFECTS[rules.challenge.mode].challengeable;
    if (!resolved) return null;
    const outSeat: Seat = rackSize(state.racks[0]) === 0 ? 0 : 1;
    return {
      type: 'game-ended',
      reason: 'went-out',
      adjustments: goingOutAdjustments(rules, state.distribution, outSeat, racks[other(outSeat)]),
      loser: null,
      seed: revealed,
    };
  }
  if (scorelessLimitReached(rules, state.scorelessTurns)) {
    return {
      type: 'game-ended',
      reason: 'scoreless-turns',
      adjustments: ownRackAdjustments(state.distribution, racks),
      loser: null,
      seed: revealed,
    };
  }
  if (exchangeLimitReached(rules, state.consecutiveExchanges)) {
    return {
      type: 'game-ended',
      reason: 'consecutive-exchanges',
      adjustments: ownRackAdjustments(state.distribution, racks),
      loser: null,
      seed: revealed,
    };
  }
  return null;
};
