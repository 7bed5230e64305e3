import { ruleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import type { RuleError } from '../engine/errors.js';
import { replayTournament } from '../engine/tournament/apply.js';
import type { DecideContext, TournamentCommand } from '../engine/tournament/commands.js';
import { applyAll, decideTournament } from '../engine/tournament/decide.js';
import type { TournamentEvent } from '../engine/tournament/events.js';
import type { TournamentState } from '../engine/tournament/state.js';
import type { Tx } from '../store/db.js';
import type { Idempotency } from '../store/idempotency.js';
import type { JsonObject, JsonValue } from '../store/json.js';
import { toJsonInput } from '../store/prisma-json.js';
import {
  appendTournamentEvents,
  lockTournament,
  tournamentEvents,
  findTournament,
  type EntrantLink,
  type StoredTournamentEvent,
  type TournamentRow,
} from '../store/tournaments.js';
import { Refusal } from './tournament-errors.js';
import type { LexiconEdition } from './tournament-spec.js';
import { tournamentOutbox } from './tournament-webhooks.js';

/**
 * A tournament command's events inside its transaction (issue 30): the log read under the tournament's
 * row lock, folded with the engine; each command (the caller's, then what Arbiter does after it in a
 * league) decided on the state the ones before it left and added to a {@link Batch}; then the whole batch
 * written at once with its outbox rows and entrant links ({@link writeBatch}), after the version check.
 */

/** A tournament as read: its row, its stored log and the state the log folds to. */
export interface LoadedTournament {
  readonly row: TournamentRow;
  readonly stored: readonly StoredTournamentEvent[];
  readonly state: TournamentState;
}

export const engineEventsOf = (stored: readonly StoredTournamentEvent[]): TournamentEvent[] =>
  stored.map((s) => s.payload as unknown as TournamentEvent);

/** The state a stored log folds to; a log that does not fold is a broken invariant (thrown). */
export const replayStored = (id: string, stored: readonly StoredTournamentEvent[]): TournamentState => {
  const r = replayTournament(engineEventsOf(stored));
  if (!r.ok) throw new Error(`stored tournament log ${id} does not replay: ${r.error.code} ${r.error.message}`);
  return r.value;
};

/** The tournament locked for the caller's transaction with its whole log; null for an unknown id. */
export const loadLocked = async (tx: Tx, id: string): Promise<LoadedTournament | null> => {
  const row = await lockTournament(tx, id);
  if (!row) return null;
  const stored = await tournamentEvents(tx, row.id);
  return { row, stored, state: replayStored(row.id, stored) };
};

/** The tournament as it stands (or at version `upTo`), without a lock; null for an unknown id. */
export const loadTournament = async (client: Tx, id: string, upTo?: number): Promise<LoadedTournament | null> => {
  const row = await findTournament(client, id);
  if (!row) return null;
  const stored = await tournamentEvents(client, row.id, 0, upTo);
  return { row, stored, state: replayStored(row.id, stored) };
};

/** The lexicon edition of each division, as its `division-added` event keeps it (`lexiconHash`, service/tournament-spec.ts). */
export const lexiconsOf = (stored: readonly StoredTournamentEvent[]): Map<string, LexiconEdition> => {
  const out = new Map<string, LexiconEdition>();
  for (const s of stored) {
    const p = s.payload as { type?: string; spec?: { name: string; lexicon: string }; lexiconHash?: string };
    if (s.type === 'division-added' && p.spec && typeof p.lexiconHash === 'string')
      out.set(p.spec.name, { name: p.spec.lexicon, hash: p.lexiconHash });
  }
  return out;
};

/** A command's events so far, and the state they lead to. */
export interface Batch {
  readonly before: TournamentState;
  state: TournamentState;
  readonly events: TournamentEvent[];
  /** Payload fields stored with an event beyond the engine's (a `division-added`'s `lexiconHash`), by index in `events`. */
  readonly extras: Map<number, JsonObject>;
  /** Announce only `standings-changed` (an import: not a webhook per imported game). */
  readonly quiet?: boolean;
}

export const newBatch = (state: TournamentState, quiet = false): Batch => ({ before: state, state, events: [], extras: new Map(), quiet });

/** Decides `command` on the batch's state and adds its events; the engine's refusal otherwise (the batch unchanged). */
export const decideInto = (batch: Batch, command: TournamentCommand, ctx: DecideContext): Result<readonly TournamentEvent[], RuleError> => {
  const decided = decideTournament(batch.state, command, ctx);
  if (!decided.ok) return decided;
  return addEvents(batch, decided.value);
};

/** Adds already-decided events (e.g. `tournament-created`), folding them. */
export const addEvents = (batch: Batch, events: readonly TournamentEvent[]): Result<readonly TournamentEvent[], RuleError> => {
  const folded = applyAll(batch.state, events);
  if (!folded.ok) return folded;
  batch.state = folded.value;
  batch.events.push(...events);
  return ok(events);
};

/** The rows the batch writes: its events as stored, the outbox, the entrant links. */
export const batchRows = (tournamentId: string, fromVersion: number, batch: Batch) => {
  const events = batch.events.map((e, i) => ({
    type: e.type,
    payload: { ...(e as unknown as JsonObject), ...(batch.extras.get(i) ?? {}) },
    actorId: e.by.playerId,
  }));
  const players: EntrantLink[] = batch.events.flatMap((e) =>
    e.type === 'player-added' && e.entrant.playerId !== null
      ? [{ division: e.division, entrant: e.entrant.number, playerId: e.entrant.playerId }]
      : [],
  );
  const version = fromVersion + batch.events.length;
  const outbox = tournamentOutbox(tournamentId, version, batch.before, batch.state, batch.events).filter(
    (m) => !batch.quiet || m.kind === 'standings-changed',
  );
  return { events, players, outbox, version };
};

/** What a command stores for its idempotent retries. */
export interface CommandReceipt extends JsonObject {
  readonly tournamentId: string;
  readonly version: number;
}

/**
 * Writes the batch at the loaded version with its outbox rows, entrant links and (with `idem`) the
 * idempotency record of `receipt`; VERSION_CONFLICT (thrown as a {@link Refusal}) if the tournament moved
 * on, which under the row lock does not happen. Returns the version after.
 */
export const writeBatch = async (tx: Tx, loaded: LoadedTournament, batch: Batch, now: Date, idem: Idempotency | null): Promise<number> => {
  const from = loaded.row.version;
  const rows = batchRows(loaded.row.id, from, batch);
  if (!(await appendTournamentEvents(tx, loaded.row.id, from, rows, now)))
    throw new Refusal(
      ruleError('VERSION_CONFLICT', `Tournament "${loaded.row.id}" moved on from version ${from}: reload it and decide again.`, {
        tournamentId: loaded.row.id,
        expected: from,
      }),
    );
  if (idem) await storeReceipt(tx, idem, { tournamentId: loaded.row.id, version: rows.version }, now);
  return rows.version;
};

/** The idempotency record of a tournament use case (same table and scope as a game turn's). */
export const storeReceipt = async (tx: Tx, idem: Idempotency, receipt: JsonValue, now: Date): Promise<void> => {
  await tx.idempotencyKey.create({
    data: { scope: idem.scope, key: idem.key, requestHash: idem.requestHash, response: toJsonInput(receipt), createdAt: now },
  });
};
