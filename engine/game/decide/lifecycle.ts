import type { Result } from '../../result.js';
import { other, type GameEvent } from '../events.js';
import type { GameState } from '../state.js';
import { Batch, eventsAfter, fail, finish } from './batch.js';
import type { CommandHandler, CommandOf, DecideContext } from './command.js';

/** Command handlers outside the turns: losing the game (resign, timeout, forfeit), abort, pauses. */

/** The marker event that records how the game was lost. */
const lossMarker = (command: CommandOf<'resign' | 'timeout' | 'forfeit'>): GameEvent =>
  command.kind === 'resign'
    ? { type: 'resigned', seat: command.seat }
    : command.kind === 'timeout'
      ? { type: 'timed-out', seat: command.seat }
      : { type: 'forfeited', seat: command.seat, reason: command.reason };

const LOSS_REASONS = { resign: 'resigned', timeout: 'timed-out', forfeit: 'forfeited' } as const;

/**
 * The seat loses the game: by resigning, running out of time, or forfeiting. A timeout while the
 * opponent's out play awaits its final pass is that pass instead (Woogles, platform-differences
 * §2.1 "Timeout").
 */
export const decideLoss = (
  state: GameState,
  command: CommandOf<'resign' | 'timeout' | 'forfeit'>,
  ctx: DecideContext,
): Result<GameEvent[]> => {
  const seat = command.seat;
  if (state.status === 'ended') return fail('GAME_OVER', 'The game is over.', { seat });
  const b = new Batch(state, ctx.now);
  if (
    command.kind === 'timeout' &&
    state.status === 'waiting-final' &&
    state.turn === seat &&
    state.pending?.wentOut &&
    state.pending.seat === other(seat)
  ) {
    // The opponent has played out and only the final pass or challenge is pending, so the player
    // who ran out of time is passed for, not forfeited.
    const r = b.push({ type: 'pass', seat, auto: 'timeout' });
    if (!r.ok) return r;
    return finish(b, ctx.seed);
  }
  return eventsAfter(b, [
    lossMarker(command),
    {
      type: 'game-ended',
      reason: LOSS_REASONS[command.kind],
      adjustments: [],
      loser: seat,
      seed: state.bagKind === 'seeded' ? ctx.seed : null,
    },
  ]);
};

/** Cancel the game before its first turn: no winner (platform-differences §2.1 "Abort"). */
export const decideAbort: CommandHandler<'abort'> = (state, { seat }, ctx) =>
  eventsAfter(new Batch(state, ctx.now), [
    { type: 'aborted', seat },
    { type: 'game-ended', reason: 'aborted', adjustments: [], loser: null, seed: state.bagKind === 'seeded' ? ctx.seed : null },
  ]);

/** The clock event for a pause command; the fold checks it against the pause limits (clock.ts). */
const pauseEvent = (command: CommandOf<'request-pause' | 'accept-pause' | 'decline-pause' | 'resume'>): GameEvent =>
  command.kind === 'request-pause'
    ? { type: 'pause-requested', seat: command.seat, seconds: command.seconds }
    : command.kind === 'accept-pause'
      ? { type: 'pause-accepted', seat: command.seat }
      : command.kind === 'decline-pause'
        ? { type: 'pause-declined', seat: command.seat }
        : { type: 'resumed', seat: command.seat };

/** Ask for, accept or decline a pause, or resume early (correspondence games, clock.ts). */
export const decidePause = (
  state: GameState,
  command: CommandOf<'request-pause' | 'accept-pause' | 'decline-pause' | 'resume'>,
  ctx: DecideContext,
): Result<GameEvent[]> => eventsAfter(new Batch(state, ctx.now), [pauseEvent(command)]);
