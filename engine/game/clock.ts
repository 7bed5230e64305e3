import { cite, ruleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { other, type GameEvent, type Seat, type TimeControl } from './events.js';
import type { ClockState, DisputeHold, PauseState } from './clock-state.js';
import type { GameState } from './state.js';

/**
 * Correspondence time (issue 5): a time per turn plus an optional time bank, pauses by mutual
 * agreement, and the deadline that follows from them — all folded from the events' `at` stamps, so
 * the engine never reads a clock. The rules follow Woogles' correspondence mode
 * (platform-differences §2.1: a per-turn time, a bank of up to 30 days, a player whose turn time plus
 * bank runs out loses) with Arbiter's own range for the turn time (1 hour to 14 days) and a vacation
 * pause, which Woogles does not have.
 */

const WOOGLES_CORRESPONDENCE = cite('woogles', 'liwords pkg/bus/gameplay.go, pkg/entity/game.go (correspondence)', 'V');

/** Shortest time per turn: 1 hour (Woogles' correspondence minimum). */
export const MIN_TURN_SECONDS = 3_600;
/** Longest time per turn: 14 days (Arbiter; Woogles stops at 5 days). */
export const MAX_TURN_SECONDS = 1_209_600;
/** Largest time bank: 30 days (Woogles: 43,200 minutes). */
export const MAX_BANK_SECONDS = 2_592_000;
/** Pauses per game when the time control does not say: 2. */
export const DEFAULT_MAX_PAUSES = 2;
/** Total paused time per game when the time control does not say: 14 days. */
export const DEFAULT_MAX_PAUSE_SECONDS = 1_209_600;
/** Upper bounds a time control may set for pauses: 10 pauses, 60 days in all. */
export const MAX_PAUSES_LIMIT = 10;
export const MAX_PAUSE_SECONDS_LIMIT = 5_184_000;
/** Shortest pause one may ask for: 1 hour. */
export const MIN_PAUSE_SECONDS = 3_600;

export type CorrespondenceControl = Extract<TimeControl, { readonly kind: 'correspondence' }>;

const invalid = (field: string, message: string, details: Record<string, unknown> = {}) =>
  err(ruleError('TIME_CONTROL_INVALID', message, { field: `timeControl.${field}`, ...details }, WOOGLES_CORRESPONDENCE));

const wholeIn = (n: unknown, min: number, max: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/**
 * Checks a time control and fills in the pause defaults, so the stored `game-created` carries every
 * number. Errors: TIME_CONTROL_INVALID with `details.field` (`timeControl.turnSeconds` …) and the
 * allowed range.
 */
export const validateTimeControl = (tc: TimeControl): Result<TimeControl> => {
  switch (tc.kind) {
    case 'untimed':
      return ok({ kind: 'untimed' });
    case 'clock':
      if (!wholeIn(tc.minutes, 1, 24 * 60))
        return invalid('minutes', `A clock game needs 1–1440 whole minutes per player, not ${String(tc.minutes)}.`, { min: 1, max: 1440 });
      return ok({ kind: 'clock', minutes: tc.minutes });
    case 'correspondence': {
      if (!wholeIn(tc.turnSeconds, MIN_TURN_SECONDS, MAX_TURN_SECONDS)) {
        return invalid(
          'turnSeconds',
          `The time per turn must be ${MIN_TURN_SECONDS}–${MAX_TURN_SECONDS} whole seconds (1 hour to 14 days), not ${String(tc.turnSeconds)}.`,
          {
            min: MIN_TURN_SECONDS,
            max: MAX_TURN_SECONDS,
          },
        );
      }
      if (!wholeIn(tc.bankSeconds, 0, MAX_BANK_SECONDS)) {
        return invalid(
          'bankSeconds',
          `The time bank must be 0–${MAX_BANK_SECONDS} whole seconds (up to 30 days), not ${String(tc.bankSeconds)}.`,
          { min: 0, max: MAX_BANK_SECONDS },
        );
      }
      const maxPauses = tc.maxPauses ?? DEFAULT_MAX_PAUSES;
      if (!wholeIn(maxPauses, 0, MAX_PAUSES_LIMIT)) {
        return invalid('maxPauses', `A game may allow 0–${MAX_PAUSES_LIMIT} pauses, not ${String(maxPauses)}.`, {
          min: 0,
          max: MAX_PAUSES_LIMIT,
        });
      }
      const maxPauseSeconds = tc.maxPauseSeconds ?? DEFAULT_MAX_PAUSE_SECONDS;
      if (!wholeIn(maxPauseSeconds, 0, MAX_PAUSE_SECONDS_LIMIT)) {
        return invalid(
          'maxPauseSeconds',
          `The total pause time must be 0–${MAX_PAUSE_SECONDS_LIMIT} whole seconds (up to 60 days), not ${String(maxPauseSeconds)}.`,
          {
            min: 0,
            max: MAX_PAUSE_SECONDS_LIMIT,
          },
        );
      }
      return ok({ kind: 'correspondence', turnSeconds: tc.turnSeconds, bankSeconds: tc.bankSeconds, maxPauses, maxPauseSeconds });
    }
    default:
      return invalid(
        'kind',
        `The time control kind must be untimed, correspondence or clock, not ${String((tc as { kind?: unknown }).kind)}.`,
      );
  }
};

export const isCorrespondence = (tc: TimeControl): tc is CorrespondenceControl => tc.kind === 'correspondence';
const pauseLimits = (tc: CorrespondenceControl) => ({
  count: tc.maxPauses ?? DEFAULT_MAX_PAUSES,
  seconds: tc.maxPauseSeconds ?? DEFAULT_MAX_PAUSE_SECONDS,
});

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();
const setAt = <T>(pair: readonly [T, T], seat: Seat, value: T): [T, T] => (seat === 0 ? [value, pair[1]] : [pair[0], value]);

/** The clock of a new game: the first turn starts at `createdAt`, both banks full. */
export const initialClock = (tc: TimeControl, createdAt: string): ClockState => {
  const bank = isCorrespondence(tc) ? tc.bankSeconds : 0;
  return {
    turnStartedAt: createdAt,
    banks: [bank, bank],
    lastAt: createdAt,
    pause: { requested: null, active: null, count: 0, usedSeconds: 0 },
    disputeHold: null,
  };
};

/** Ends the running pause at `endAt` (or at its planned end, if earlier): the turn's start moves later by the time paused. */
const settlePause = (c: ClockState, endAt: number): ClockState => {
  const active = c.pause.active;
  if (!active) return c;
  const end = Math.min(endAt, ms(active.until));
  const paused = Math.max(0, end - ms(active.since));
  const hold = c.disputeHold;
  return {
    ...c,
    turnStartedAt: c.turnStartedAt === null ? null : iso(ms(c.turnStartedAt) + paused),
    pause: { ...c.pause, active: null, usedSeconds: c.pause.usedSeconds + Math.ceil(paused / 1000) },
    disputeHold: hold && { ...hold, coveredMs: hold.coveredMs + Math.max(0, end - Math.max(ms(active.since), ms(hold.since))) },
  };
};

/**
 * Ends the dispute hold at `end`: the turn's start moves later by the time the clock stood still for it,
 * less what a mutual pause covered (settled, or still running: it moves the start itself when it ends).
 */
const releaseHold = (c: ClockState, end: number): ClockState => {
  const hold = c.disputeHold;
  if (!hold) return c;
  const a = c.pause.active;
  const running = a ? Math.max(0, Math.min(end, ms(a.until)) - Math.max(ms(a.since), ms(hold.since))) : 0;
  const stopped = Math.max(0, end - ms(hold.since) - hold.coveredMs - running);
  return { ...c, turnStartedAt: c.turnStartedAt === null ? null : iso(ms(c.turnStartedAt) + stopped), disputeHold: null };
};

/**
 * The dispute events' effect on the clock (rule set `time.disputePausesClock`): a dispute filed (or, with
 * `while-open-or-appealed`, appealed) stops the clock of a correspondence game that is on; its ruling
 * takes it off the hold, and the clock runs again when no dispute holds it. An automatic ruling comes in
 * the same transaction as its filing, at the same time, so it stops nothing. Logs written before the
 * parameter existed have no value: they never stop.
 */
const disputeClock = (c: ClockState, s: GameState, e: GameEvent, now: number | null): ClockState => {
  const rule = s.rules.time.disputePausesClock ?? 'never';
  const hold = (n: number): ClockState => {
    if (now === null || !isCorrespondence(s.timeControl) || s.status === 'ended' || rule === 'never') return c;
    const h: DisputeHold = c.disputeHold ?? { since: iso(now), disputes: [], coveredMs: 0 };
    return h.disputes.includes(n) ? c : { ...c, disputeHold: { ...h, disputes: [...h.disputes, n] } };
  };
  if (e.type === 'dispute-filed') return hold(e.dispute);
  if (e.type === 'dispute-appealed') return rule === 'while-open-or-appealed' ? hold(e.dispute) : c;
  if (e.type !== 'ruling-applied' || e.dispute === undefined || !c.disputeHold) return c;
  const left = c.disputeHold.disputes.filter((n) => n !== e.dispute);
  if (left.length > 0) return { ...c, disputeHold: { ...c.disputeHold, disputes: left } };
  return now === null ? { ...c, disputeHold: null } : releaseHold(c, now);
};

/** Seconds beyond the turn's allowance, charged to the bank (a started second counts). */
const overage = (tc: CorrespondenceControl, startedAt: string, endedAt: number): number =>
  Math.max(0, Math.ceil((endedAt - ms(startedAt) - tc.turnSeconds * 1000) / 1000));

/**
 * The clock after `event` took `before` to `after` (called by `apply`). A turn that passes the move
 * charges the mover's time beyond `turnSeconds` to their bank and starts the opponent's turn; it also
 * ends a running pause and lets an open pause request lapse. A pause past its planned end is settled
 * at that end first.
 */
export const advanceClock = (before: GameState, after: GameState, event: GameEvent): ClockState => {
  const at = event.at ?? before.clock.lastAt;
  let c: ClockState = { ...before.clock, lastAt: at };
  const now = at === null ? null : ms(at);
  if (now !== null && c.pause.active && ms(c.pause.active.until) <= now) c = settlePause(c, now);
  switch (event.type) {
    case 'pause-requested':
      return { ...c, pause: { ...c.pause, requested: { seat: event.seat, seconds: event.seconds } } };
    case 'pause-declined':
      return { ...c, pause: { ...c.pause, requested: null } };
    case 'pause-accepted': {
      const asked = c.pause.requested;
      if (!asked || now === null) return c;
      return {
        ...c,
        pause: {
          ...c.pause,
          requested: null,
          count: c.pause.count + 1,
          active: { since: at!, until: iso(now + asked.seconds * 1000), seconds: asked.seconds },
        },
      };
    }
    case 'resumed':
      return now === null ? c : settlePause(c, now);
    case 'timed-out':
      return { ...c, banks: setAt(c.banks, event.seat, 0) };
    case 'clock-reading':
      return { ...c, readings: setAt(c.readings ?? [null, null], event.seat, event.secondsLeft) };
    case 'dispute-filed':
    case 'dispute-appealed':
    case 'ruling-applied':
      c = disputeClock(c, before, event, now);
      break;
    default:
      break;
  }
  if (before.turn === after.turn || after.status === 'ended') return c;
  // A turn passed while disputes hold the clock: the mover's time is counted up to the hold, and the
  // next turn starts stopped, held by the same disputes.
  const held = c.disputeHold;
  if (now !== null && held) c = releaseHold(c, now);
  if (now !== null) c = settlePause(c, now);
  const tc = before.timeControl;
  const mover = before.turn;
  const banks =
    isCorrespondence(tc) && c.turnStartedAt !== null && now !== null
      ? setAt(c.banks, mover, Math.max(0, c.banks[mover] - overage(tc, c.turnStartedAt, now)))
      : c.banks;
  const disputeHold = held && at !== null ? { since: at, disputes: held.disputes, coveredMs: 0 } : null;
  return { ...c, banks, turnStartedAt: at, pause: { ...c.pause, requested: null }, disputeHold };
};

/** The running pause at `now`: null when there is none or it has run out. */
export const activePause = (state: GameState, now: string): PauseState['active'] => {
  const a = state.clock.pause.active;
  return a && ms(a.until) > ms(now) ? a : null;
};

/**
 * When the player to move loses on time (issue 5): the turn's start + `turnSeconds` + the mover's
 * bank, moved later by a running pause's planned length. Null for untimed and clock games, once
 * the game is over, and while open disputes stop the clock (nobody knows when a director will rule, so
 * there is no deadline: the sweeper skips the game and no timeout can be claimed). While paused it is
 * frozen: it does not move until the pause ends.
 */
export const deadline = (state: GameState): string | null => {
  const tc = state.timeControl;
  const c = state.clock;
  if (!isCorrespondence(tc) || state.status === 'ended' || c.turnStartedAt === null || c.disputeHold) return null;
  const paused = c.pause.active ? ms(c.pause.active.until) - ms(c.pause.active.since) : 0;
  return iso(ms(c.turnStartedAt) + paused + (tc.turnSeconds + c.banks[state.turn]) * 1000);
};

/** When the turn's own allowance ends and the bank starts to run (null as for {@link deadline}). */
export const turnAllowanceEnds = (state: GameState): string | null => {
  const d = deadline(state);
  return d === null ? null : iso(ms(d) - state.clock.banks[state.turn] * 1000);
};

/** Whether the player to move has run out of turn time and bank at `now` (platform-differences §2.1). */
export const isOverdue = (state: GameState, now: string): boolean => {
  const d = deadline(state);
  return d !== null && ms(now) >= ms(d);
};

/** The bank of each seat as it stands at `now`: the mover's bank shrinks once their turn time is used. */
export const banksAt = (state: GameState, at: string): readonly [number, number] => {
  const tc = state.timeControl;
  const c = state.clock;
  // While disputes hold the clock, the banks stand as they stood when it stopped.
  const now = c.disputeHold && ms(c.disputeHold.since) < ms(at) ? c.disputeHold.since : at;
  if (!isCorrespondence(tc) || state.status === 'ended' || c.turnStartedAt === null || activePause(state, now)) return c.banks;
  const settled = c.pause.active ? settlePause(c, ms(now)) : c;
  const over = overage(tc, settled.turnStartedAt!, ms(now));
  return setAt(c.banks, state.turn, Math.max(0, c.banks[state.turn] - over));
};

/** The open disputes that stop the clock now, and since when (clock-state.ts `DisputeHold`); null when none does. */
export const disputeHold = (state: GameState): { readonly since: string; readonly disputes: readonly number[] } | null => {
  const h = state.status === 'ended' ? null : state.clock.disputeHold;
  return h ? { since: h.since, disputes: h.disputes } : null;
};

/** Pauses still allowed: how many, and how many seconds in all (null: the game has no clock to pause). */
export const pauseAllowance = (state: GameState): { readonly count: number; readonly seconds: number } | null => {
  const tc = state.timeControl;
  if (!isCorrespondence(tc)) return null;
  const limits = pauseLimits(tc);
  const running = state.clock.pause.active?.seconds ?? 0;
  return {
    count: Math.max(0, limits.count - state.clock.pause.count),
    seconds: Math.max(0, limits.seconds - state.clock.pause.usedSeconds - running),
  };
};

const refuse = (code: string, message: string, details: Record<string, unknown> = {}) => err(ruleError(code, message, details));

/**
 * The invariants of the pause events (checked by `apply`): a correspondence game that is on; a request
 * within the game's limits with no pause running or asked for; an answer only by the requester's
 * opponent; a resume only while paused.
 */
export const checkPauseEvent = (
  s: GameState,
  e: GameEvent & { readonly type: 'pause-requested' | 'pause-accepted' | 'pause-declined' | 'resumed' },
): Result<true> => {
  if (s.status === 'ended') return refuse('GAME_OVER', `The game is over: no ${e.type} after its end.`, { seat: e.seat });
  const allowance = pauseAllowance(s);
  if (allowance === null) return refuse('NOT_TIMED', 'Only a correspondence game has a clock to pause.', { kind: s.timeControl.kind });
  const p = s.clock.pause;
  const at = e.at ?? s.clock.lastAt;
  const running = at !== null && p.active !== null && ms(p.active.until) > ms(at);
  switch (e.type) {
    case 'pause-requested': {
      if (running) return refuse('ALREADY_PAUSED', `The game is already paused until ${p.active!.until}.`, { until: p.active!.until });
      if (p.requested)
        return refuse(
          'PAUSE_ALREADY_REQUESTED',
          `${s.players[p.requested.seat].name} has already asked for a pause; it must be answered first.`,
          { seat: p.requested.seat },
        );
      if (allowance.count === 0) {
        const limit = pauseLimits(s.timeControl as CorrespondenceControl).count;
        return refuse(
          'PAUSE_LIMIT_REACHED',
          `This game allows ${limit} pause(s), and ${limit === 0 ? 'none may be asked for' : 'all have been used'}.`,
          { field: 'seconds', limit, used: p.count },
        );
      }
      if (!Number.isInteger(e.seconds) || e.seconds < MIN_PAUSE_SECONDS || e.seconds > allowance.seconds) {
        return refuse(
          e.seconds > allowance.seconds && e.seconds >= MIN_PAUSE_SECONDS ? 'PAUSE_LIMIT_REACHED' : 'PAUSE_TOO_SHORT',
          `A pause must be ${MIN_PAUSE_SECONDS}–${allowance.seconds} whole seconds (what is left of this game's pause time), not ${e.seconds}.`,
          { field: 'seconds', min: MIN_PAUSE_SECONDS, max: allowance.seconds },
        );
      }
      return ok(true);
    }
    case 'pause-accepted':
    case 'pause-declined':
      if (!p.requested) return refuse('NO_PAUSE_REQUESTED', 'Nobody has asked for a pause that could be answered.', { seat: e.seat });
      if (p.requested.seat !== other(e.seat))
        return refuse('OWN_PAUSE_REQUEST', 'A pause request is answered by the opponent, not by the player who made it.', { seat: e.seat });
      return ok(true);
    case 'resumed':
      if (!running) return refuse('NOT_PAUSED', 'The game is not paused.', { seat: e.seat });
      return ok(true);
  }
};
