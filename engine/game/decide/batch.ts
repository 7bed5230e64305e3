import { ruleError, type Citation } from '../../errors.js';
import { err, ok, type Result } from '../../result.js';
import { apply } from '../apply.js';
import type { GameEvent } from '../events.js';
import type { GameState } from '../state.js';
import { endIfOver } from './follow-up.js';

/**
 * How a command handler builds its events: a `Batch` applies each to a working state as it goes, so
 * every later decision sees the effect of the earlier ones, and a command is never half-applied.
 */

/** Applies events one by one to a working state so every later decision sees their effect; stamps each with `at`. */
export class Batch {
  readonly events: GameEvent[] = [];
  constructor(
    public state: GameState,
    private readonly at?: string,
  ) {}
  push(event: GameEvent): Result<GameState> {
    const e = this.at !== undefined && event.at === undefined ? { ...event, at: this.at } : event;
    const r = apply(this.state, e);
    if (!r.ok) return r;
    this.state = r.value;
    this.events.push(e);
    return r;
  }
  pushAll(es: readonly GameEvent[]): Result<GameState> {
    for (const e of es) {
      const r = this.push(e);
      if (!r.ok) return r;
    }
    return ok(this.state);
  }
}

export const fail = (code: string, message: string, details?: Record<string, unknown>, c?: Citation) =>
  err(ruleError(code, message, details, c));

/** The batch's events, with the game's end appended when they brought it about (seed-003 rule 12). */
export const finish = (b: Batch, seed: string | null): Result<GameEvent[]> => {
  const end = endIfOver(b.state, seed);
  if (end) {
    const r = b.push(end);
    if (!r.ok) return r;
  }
  return ok(b.events);
};

/** Applies `events` and answers all the batch's events, or the first error (commands whose whole outcome is known up front). */
export const eventsAfter = (b: Batch, events: readonly GameEvent[]): Result<GameEvent[]> => {
  const r = b.pushAll(events);
  return r.ok ? ok(b.events) : r;
};
