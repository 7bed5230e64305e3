import type { Game, Seat } from '../generated/prisma/client.js';
import type { JsonObject, JsonValue } from './json.js';
import type { SeatHolder } from './seats.js';

/** The rows and values the game-log repository (games.ts) and its turn statements (turn-statements.ts) share. */

export type GameRow = Game;
export type SeatRow = Seat;

export interface NewEvent {
  readonly type: string;
  readonly payload: JsonObject;
}

export interface StoredEvent {
  readonly seq: number;
  readonly type: string;
  readonly payload: JsonValue;
  readonly createdAt: Date;
}

/** A message for the outbox, announcing one of the events written with it. */
export interface OutboxItem {
  readonly kind: string;
  readonly payload: JsonObject;
  /** Index into the events written in the same call; default: the last one. */
  readonly eventIndex?: number;
}

/** Projection columns a turn may change along with appending its events. */
export interface GameUpdate {
  readonly status?: string;
  readonly turnSeat?: number | null;
  readonly deadlineAt?: Date | null;
}

/** What `decide` sees besides the game row and its events. Never part of ordinary reads. */
export interface GameSecrets {
  readonly bagSeed: string;
}

/**
 * A game as this process last committed it (service/log-cache.ts): the row at that version, its seats and
 * its secret. A turn at exactly that version decides on it and sends only its commit statement
 * (store/games.ts runTurn); the commit's version and created_at checks catch a game that moved on meanwhile.
 */
export interface HeldGame {
  readonly row: GameRow;
  readonly seats: readonly SeatHolder[];
  readonly secrets: GameSecrets;
}
