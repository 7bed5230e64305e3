import { createHash } from 'node:crypto';
import { disputesOf, type GameDispute } from '../engine/adjudication/game-disputes.js';
import type { GameLog } from '../engine/adjudication/from-log.js';
import { fileDisputeOnGame, type DisputeClaim } from '../engine/adjudication/on-game.js';
import type { RuleError } from '../engine/errors.js';
import { apply } from '../engine/game/apply.js';
import { isGameEventType, type GameEvent, type Seat } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import { err, ok, type Result } from '../engine/result.js';
import { directorAuthority } from './organizations.js';
import { gameSeating, loadGame, runTurn, type GameRow, type OutboxItem, type StoredEvent } from '../store/games.js';
import type { ServiceDeps, Tx } from './context.js';
import { fail, gameNotFound } from './game-errors.js';
import { fold, toStored } from './game-log.js';
import { outboxFor, projection } from './game-projection.js';
import { seatOf, type SeatHolder } from './game-reads.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH, type TurnReceipt } from './turns.js';
import { recordLeagueGameEnd } from './tournament-league.js';
import { ratingStep } from './ratings.js';
import { webhookOutboxItem } from './webhook-events.js';

/**
 * Disputes on a stored game (issue 14): `fileDispute` takes the facts the log holds from the log
 * (engine/adjudication/from-log.ts), rules under the game's own rule set, and appends `dispute-filed`
 * and `ruling-applied` (with the events that carry the ruling out) in one `runTurn` transaction — the
 * same version check and idempotency as a turn, so a dispute raced by a turn or another dispute loses
 * with STALE_VERSION. `gameDisputes` lists them as the caller may see them.
 */

export interface DisputeRequest extends DisputeClaim {
  readonly gameId: string;
  readonly expectedVersion: number;
  readonly idempotencyKey: string;
}

export interface DisputeReceipt extends TurnReceipt {
  /** The dispute's number in the game. */
  readonly dispute: number;
}

/** The engine log of a stored game and the version of its first event (a proposed game starts with a service event). */
export const logOf = (stored: readonly StoredEvent[]): GameLog => {
  const engine = stored.filter((e) => isGameEventType(e.type));
  return { events: engine.map((e) => e.payload as unknown as GameEvent), firstVersion: engine[0]?.seq ?? 1 };
};

const requestHash = (req: DisputeRequest): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        req.gameId,
        req.expectedVersion,
        req.kind,
        req.concerns,
        req.player,
        req.note ?? null,
        Object.entries(req.facts).sort(),
      ]),
      'utf8',
    )
    .digest('hex');

/** GAME_NOT_FOUND / NOT_SEATED / BAD_INPUT before the transaction; the caller's seat (null for a director). */
const claimantOf = async (deps: ServiceDeps, playerId: string, req: DisputeRequest) => {
  if (!Number.isInteger(req.expectedVersion) || req.expectedVersion < 0)
    return fail('BAD_INPUT', `expectedVersion must be a game version (a whole number ≥ 0), not ${req.expectedVersion}.`, {
      field: 'expectedVersion',
    });
  const key = req.idempotencyKey.trim();
  if (key === '' || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    return fail('BAD_INPUT', `idempotencyKey must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, { field: 'idempotencyKey' });
  const row = await gameSeating(deps.db.prisma, req.gameId);
  if (!row) return gameNotFound(req.gameId);
  if (row.status === 'open') return fail('GAME_NOT_STARTED', 'The game waits for a second player: there is nothing to dispute yet.');
  const seat = seatOf(row.seats as readonly SeatHolder[], playerId);
  if (seat === null && !(await directorAuthority(deps, playerId, row.id)).ok)
    return fail(
      'NOT_SEATED',
      'Only a player seated in the game, or a director (of its club or event, or global), may file a dispute on it.',
      {
        gameId: row.id,
      },
    );
  return ok({ row, seat, key });
};

/** The outbox of a dispute's events: `dispute-filed`, `dispute-ruled`, and what the game's end announces. */
const disputeOutbox = (
  game: GameRow,
  version: number,
  before: GameState,
  after: GameState,
  events: readonly GameEvent[],
  seats: readonly SeatHolder[],
  deadlineAt: Date | null,
): OutboxItem[] => {
  const out: OutboxItem[] = [];
  events.forEach((e, i) => {
    if (e.type === 'dispute-filed')
      out.push(
        webhookOutboxItem(
          { kind: 'dispute-filed', gameId: game.id, version, dispute: e.dispute, disputeKind: e.kind, concerns: e.concerns },
          i,
        ),
      );
    if (e.type === 'ruling-applied' && e.dispute !== undefined)
      out.push(
        webhookOutboxItem(
          {
            kind: 'dispute-ruled',
            gameId: game.id,
            version,
            dispute: e.dispute,
            verdict: e.verdict ?? null,
            ruling: e.ruling,
            director: e.by !== null,
          },
          i,
        ),
      );
  });
  // The game's own announcements only when the ruling ended it (not again for a game already over).
  if (before.status !== after.status) out.push(...outboxFor(game.id, version, before, after, events, seats, deadlineAt));
  return out;
};

/**
 * Appends the events `decideOn` returns for the game's log, stamped `now`, in one `runTurn` transaction
 * (version check, idempotency); shared by filing and ruling.
 */
export async function runDisputeCommand(
  deps: ServiceDeps,
  gameId: string,
  expectedVersion: number,
  idem: { scope: string; key: string; requestHash: string },
  seats: readonly SeatHolder[],
  decideOn: (log: GameLog, state: GameState, seed: string | null) => Result<readonly GameEvent[], RuleError>,
): Promise<Result<DisputeReceipt, RuleError>> {
  const now = deps.now().toISOString();
  const outcome = await runTurn<DisputeReceipt, RuleError>(deps.db, gameId, expectedVersion, idem, (game, stored, secrets) => {
    const log = logOf(stored);
    const state = fold(log.events);
    const decided = decideOn(log, state, state.bagKind === 'seeded' ? secrets.bagSeed : null);
    if (!decided.ok) return decided;
    const events = decided.value.map((e) => ({ ...e, at: now }) as GameEvent);
    let after = state;
    for (const e of events) {
      const r = apply(after, e);
      if (!r.ok) return err(r.error);
      after = r.value;
    }
    const update = projection(after);
    // A ruling that ends a rated game rates it; one that changes an ended game's result recomputes (service/ratings.ts).
    const rating = ratingStep(game, seats, state, after, new Date(now));
    const version = game.version + events.length + (rating ? 1 : 0);
    const filed = events.find((e) => e.type === 'dispute-filed' || e.type === 'ruling-applied' || e.type === 'dispute-appealed');
    const dispute = filed && 'dispute' in filed ? (filed.dispute ?? 0) : 0;
    return ok({
      events: events.map(toStored),
      response: { gameId: game.id, version, deadlineAt: update.deadlineAt?.toISOString() ?? null, dispute },
      game: update,
      outbox: disputeOutbox(game, version, state, after, events, seats, update.deadlineAt),
      // A ruling that ends a league game records its result in the tournament (service/tournament-league.ts).
      ...(game.tournamentId !== null && state.status !== 'ended' && after.status === 'ended'
        ? { alsoWrite: (tx: Tx) => recordLeagueGameEnd(tx, game, after, new Date(now)) }
        : {}),
      ...(rating ? { lastEvent: rating.lastEvent } : {}),
    });
  });
  if (!outcome.ok) return outcome;
  return ok(outcome.value.response);
}

/**
 * Files a dispute on a stored game for the caller (a seated player, or a director: store/roles.ts).
 * Errors: GAME_NOT_FOUND, NOT_SEATED, GAME_NOT_STARTED, BAD_INPUT, UNKNOWN_DISPUTE_KIND, INVALID_DISPUTE,
 * FACTS_CONTRADICT_LOG (details: field, version), NOT_YOUR_DISPUTE, STALE_VERSION, IDEMPOTENCY_KEY_REUSED.
 */
export async function fileDispute(deps: ServiceDeps, playerId: string, req: DisputeRequest): Promise<Result<DisputeReceipt, RuleError>> {
  const c = await claimantOf(deps, playerId, req);
  if (!c.ok) return c;
  const { row, seat, key } = c.value;
  const idem = { scope: `player:${playerId}`, key, requestHash: requestHash(req) };
  return runDisputeCommand(deps, row.id, req.expectedVersion, idem, row.seats as readonly SeatHolder[], (log, _state, seed) =>
    fileDisputeOnGame(log, req, { seat, by: playerId }, seed),
  );
}

/** The disputes of a game as the viewer's seat (null: a spectator or director) may see them, up to `version`. */
export async function gameDisputes(
  deps: ServiceDeps,
  gameId: string,
  viewer: Seat | null,
  version: number,
): Promise<Result<GameDispute[], RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const log = logOf(loaded.value.events.slice(0, version));
  return ok(disputesOf(log.events, log.firstVersion, viewer));
}
