import { deadline } from '../engine/game/clock.js';
import type { GameEvent } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import type { GameUpdate, OutboxItem } from '../store/games.js';
import type { SeatHolder } from '../store/seats.js';
import { webhookOutboxItem } from './webhook-events.js';

/**
 * What a write derives from the state it leaves besides the events: the game row's projection columns
 * (status, turn seat, deadline) and the webhook announcements for the outbox.
 */

/** `open` (a seat is free), then the engine's statuses. */
export const GAME_ROW_STATUSES = ['open', 'playing', 'waiting-final', 'ended'] as const;
export type GameRowStatus = (typeof GAME_ROW_STATUSES)[number];

/**
 * The game row's projection columns. `deadline_at` is the engine's `deadline(state)` (clock.ts): the
 * turn's start + turn time + the mover's bank, frozen while paused; null when untimed or over. Every
 * write that changes the clock rewrites it, and the deadline sweeper scans it.
 */
export const projection = (state: GameState): Required<GameUpdate> => {
  const d = deadline(state);
  return { status: state.status, turnSeat: state.status === 'ended' ? null : state.turn, deadlineAt: d === null ? null : new Date(d) };
};

/** The webhook announcements of a turn (contract: service/webhook-events.ts). */
export const outboxFor = (
  gameId: string,
  version: number,
  before: GameState | null,
  after: GameState,
  decided: readonly GameEvent[],
  seats: readonly SeatHolder[],
  deadline: Date | null,
): OutboxItem[] => {
  const out: OutboxItem[] = [];
  const challengeAt = decided.findIndex((e) => e.type === 'challenge');
  const challenge = decided[challengeAt];
  if (challenge && challenge.type === 'challenge') {
    out.push(
      webhookOutboxItem(
        {
          kind: 'challenge-resolved',
          gameId,
          version,
          challengerSeat: challenge.seat,
          challengedSeat: challenge.seat === 0 ? 1 : 0,
          valid: challenge.valid,
          words: challenge.words.map((w) => w.word),
        },
        challengeAt,
      ),
    );
  }
  // The first state of a game: both seats are filled and its first turn begins (created with both, or joined).
  if (before === null && after.status !== 'ended') out.push(webhookOutboxItem({ kind: 'game-started', gameId, version, turn: after.turn }));
  // A pause that starts or ends moves the deadline: the player to move hears it as a fresh your-turn.
  const clockMoved = decided.find((e) => e.type === 'pause-accepted' || e.type === 'resumed');
  if (after.status === 'ended') {
    const r = after.result!;
    out.push(
      webhookOutboxItem({
        kind: 'game-ended',
        gameId,
        version,
        reason: r.reason,
        winnerSeat: r.winner,
        loserSeat: r.loser,
        scores: [...after.scores],
      }),
    );
  } else if (before === null || before.turn !== after.turn || before.status === 'ended' || clockMoved) {
    const playerId = seats.find((s) => s.seat === after.turn)?.player?.id;
    const pause = after.clock.pause.active;
    out.push(
      webhookOutboxItem({
        kind: 'your-turn',
        gameId,
        version,
        seat: after.turn,
        ...(playerId ? { playerId } : {}),
        ...(deadline ? { deadlineAt: deadline.toISOString() } : {}),
        ...(clockMoved
          ? {
              paused: clockMoved.type === 'pause-accepted',
              ...(clockMoved.type === 'pause-accepted' && pause ? { pausedUntil: pause.until } : {}),
            }
          : {}),
      }),
    );
  }
  return out;
};
