import { ruleError, type RuleError } from '../engine/errors.js';
import { decide, type Command, type DecideContext } from '../engine/game/decide.js';
import type { GameEvent, Seat } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import { timeoutOutcome } from '../engine/game/timeout.js';
import { err, ok, type Result } from '../engine/result.js';
import type { Db } from '../store/db.js';
import { seatsOf } from '../store/seats.js';
import type { ServiceDeps } from './context.js';
import { fail } from './game-errors.js';
import type { GameSnapshot } from './game-reads.js';
import { gameAfterTurn, runGameCommand, seatedGame } from './turns.js';

/**
 * The life of a correspondence game around its turns (issue 5): claiming a timeout, pauses by mutual
 * agreement, aborting before the first turn, resigning, and the deadline sweeper. Each write is one
 * `runGameCommand` transaction at a version (the caller's, or the version read just before), so a turn
 * that commits first always wins: the loser of the race gets STALE_VERSION and writes nothing. The clock
 * is the injected `deps.now`; the engine decides (engine/game/clock.ts, timeout.ts) and stamps every
 * event with that time.
 */

export const LIFECYCLE_ERROR_CODES = [
  /** claimTimeout: the caller is the player to move; only the opponent can claim. */
  'OWN_TURN',
] as const;
export type LifecycleErrorCode = (typeof LIFECYCLE_ERROR_CODES)[number];

/** `expectedVersion`: the version the caller decided on (optional; default: the version now). */
export interface LifecycleOptions {
  readonly expectedVersion?: number | null;
}

type Decider = (seat: Seat, state: GameState, ctx: DecideContext) => Result<readonly GameEvent[], RuleError>;

const lifecycle = async (
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
  options: LifecycleOptions,
  decideFor: Decider,
): Promise<Result<GameSnapshot, RuleError>> => {
  const expected = options.expectedVersion ?? null;
  if (expected !== null && (!Number.isInteger(expected) || expected < 0)) {
    return err(
      ruleError('BAD_INPUT', `expectedVersion must be a game version (a whole number ≥ 0), not ${expected}.`, { field: 'expectedVersion' }),
    );
  }
  const g = await seatedGame(deps.db, playerId, gameId);
  if (!g.ok) return g;
  const { id, seat, seats, version, recorded } = g.value;
  // At a table nobody resigns, pauses or claims through Arbiter: the scorekeeper records what happened.
  if (recorded)
    return fail('RECORDED_GAME', 'This game is played over the board: its scorekeeper enters what happens at the table (recordMove).', {
      gameId: id,
    });
  const now = deps.now();
  const r = await runGameCommand({ db: deps.db, lexicons: deps.lexicons, now }, id, expected ?? version, null, seats, (state, ctx) =>
    decideFor(seat, state, ctx),
  );
  if (!r.ok) return r;
  // Answer from the state the command just computed, as submitTurn does; only a replay has none.
  const { after, receipt } = r.value;
  return after ? ok(after.snapshotFor(playerId, now)) : gameAfterTurn(deps, playerId, receipt);
};

const command =
  (make: (seat: Seat) => Command): Decider =>
  (seat, state, ctx) =>
    decide(state, make(seat), ctx);

/**
 * The opponent of the player to move claims the game on time: allowed once the deadline (turn time +
 * the mover's bank, clock.ts) has passed by the injected clock. Errors: NOT_OVERDUE (details.deadline),
 * OWN_TURN, NOT_TIMED, GAME_OVER, NOT_SEATED, GAME_NOT_FOUND, GAME_NOT_STARTED, STALE_VERSION.
 */
export const claimTimeout = (
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
  options: LifecycleOptions = {},
): Promise<Result<GameSnapshot, RuleError>> =>
  lifecycle(deps, playerId, gameId, options, (seat, state, ctx) => {
    if (state.status !== 'ended' && state.turn === seat) {
      return err(ruleError('OWN_TURN', 'It is your own turn: only your opponent can claim a timeout against you.', { seat }));
    }
    return timeoutOutcome(state, ctx.now!, ctx.seed);
  });

/** Asks the opponent to pause the clock for `seconds` (clock.ts limits: PAUSE_LIMIT_REACHED, PAUSE_TOO_SHORT, ALREADY_PAUSED …). */
export const requestPause = (
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
  seconds: number,
  options: LifecycleOptions = {},
): Promise<Result<GameSnapshot, RuleError>> =>
  lifecycle(
    deps,
    playerId,
    gameId,
    options,
    command((seat) => ({ kind: 'request-pause', seat, seconds })),
  );

/** The opponent of the requester accepts (the clock stops now) or declines. NO_PAUSE_REQUESTED, OWN_PAUSE_REQUEST. */
export const respondToPause = (
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
  accept: boolean,
  options: LifecycleOptions = {},
): Promise<Result<GameSnapshot, RuleError>> =>
  lifecycle(
    deps,
    playerId,
    gameId,
    options,
    command((seat) => (accept ? { kind: 'accept-pause', seat } : { kind: 'decline-pause', seat })),
  );

/** Either player ends a running pause early; the clock runs again now. NOT_PAUSED. */
export const resumeGame = (
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
  options: LifecycleOptions = {},
): Promise<Result<GameSnapshot, RuleError>> =>
  lifecycle(
    deps,
    playerId,
    gameId,
    options,
    command((seat) => ({ kind: 'resume', seat })),
  );

/** Either player cancels the game before its first turn: it ends with no winner. ABORT_TOO_LATE after. */
export const abortGame = (
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
  options: LifecycleOptions = {},
): Promise<Result<GameSnapshot, RuleError>> =>
  lifecycle(
    deps,
    playerId,
    gameId,
    options,
    command((seat) => ({ kind: 'abort', seat })),
  );

/** Resigns, on either player's turn (the same as the `resign` turn action, without an idempotency key). */
export const resignGame = (
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
  options: LifecycleOptions = {},
): Promise<Result<GameSnapshot, RuleError>> =>
  lifecycle(
    deps,
    playerId,
    gameId,
    options,
    command((seat) => ({ kind: 'resign', seat })),
  );

// ---------------------------------------------------------------------------------------------
// The deadline sweeper

export interface SweepDeps {
  readonly db: Db;
  readonly now: () => Date;
}

export interface SweepOptions {
  /** The moment to sweep at (default `deps.now()`). */
  readonly now?: Date;
  /** Overdue games settled per run, soonest deadline first (default 100); the next run takes the rest. */
  readonly limit?: number;
}

export interface SweepResult {
  /** Overdue games found (`deadline_at ≤ now`, game on). */
  readonly scanned: number;
  /** Ended by a timeout loss. */
  readonly timedOut: number;
  /** Passed for (the opponent had played out), which ended the game. */
  readonly autoPassed: number;
  /** A turn (or another sweeper) committed after the game was read: skipped, nothing written. */
  readonly stale: number;
  /** Not overdue after all when decided (its deadline moved): skipped. */
  readonly notOverdue: number;
  /** Any other refusal, by game id and code (should not happen; logged by the caller). */
  readonly failed: readonly { readonly gameId: string; readonly code: string }[];
}

export const DEFAULT_SWEEP_LIMIT = 100;

export type SettleOutcome = 'timedOut' | 'autoPassed' | 'stale' | 'notOverdue' | { readonly failed: string };

/**
 * One overdue game as the sweeper read it (`id`, `version`), settled at `now` in one transaction at
 * that version: `timedOut` or `autoPassed` when written; `stale` when a move or another sweeper
 * committed since the read (nothing written); `notOverdue` when the deadline had moved.
 */
export async function settleOverdue(db: Db, game: { readonly id: string; readonly version: number }, now: Date): Promise<SettleOutcome> {
  const seats = await seatsOf(db.prisma, game.id);
  let autoPass = false;
  const r = await runGameCommand({ db, lexicons: null, now }, game.id, game.version, null, seats, (state, ctx) => {
    const out = timeoutOutcome(state, ctx.now!, ctx.seed);
    autoPass = out.ok && out.value.some((e) => e.type === 'pass');
    return out;
  });
  if (r.ok) return autoPass ? 'autoPassed' : 'timedOut';
  if (r.error.code === 'STALE_VERSION') return 'stale';
  if (r.error.code === 'NOT_OVERDUE' || r.error.code === 'GAME_OVER') return 'notOverdue';
  return { failed: r.error.code };
}

/**
 * Settles every overdue correspondence game (issue 5): selects games by the indexed `deadline_at`
 * (`deadline_at ≤ now` and the game on), then for each runs `timeoutOutcome` in a `runGameCommand`
 * transaction at the version it read. A move (or a concurrent sweeper) that committed in between makes
 * that STALE_VERSION: the game is skipped, so a move that arrives first always wins, and two sweepers
 * at once end a game exactly once. Safe to run late: the decision is made at `now`, against the
 * deadline folded from the log.
 */
export async function sweepDeadlines(deps: SweepDeps, options: SweepOptions = {}): Promise<SweepResult> {
  const now = options.now ?? deps.now();
  const limit = options.limit ?? DEFAULT_SWEEP_LIMIT;
  const due = await deps.db.prisma.game.findMany({
    where: { deadlineAt: { lte: now }, status: { in: ['playing', 'waiting-final'] } },
    orderBy: [{ deadlineAt: 'asc' }, { id: 'asc' }],
    take: limit,
    select: { id: true, version: true },
  });
  const counts = { timedOut: 0, autoPassed: 0, stale: 0, notOverdue: 0 };
  const failed: { gameId: string; code: string }[] = [];
  for (const game of due) {
    const outcome = await settleOverdue(deps.db, game, now);
    if (typeof outcome === 'object') failed.push({ gameId: game.id, code: outcome.failed });
    else counts[outcome] += 1;
  }
  return { scanned: due.length, ...counts, failed };
}
