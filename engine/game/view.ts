import type { Board } from '../board.js';
import { BLANK, fullBag } from '../tiles.js';
import { CHALLENGE_EFFECTS } from './challenge.js';
import {
  activePause,
  deadline,
  disputeHold,
  isCorrespondence,
  isOverdue,
  MIN_PAUSE_SECONDS,
  pauseAllowance,
  turnAllowanceEnds,
} from './clock.js';
import { other, type PlayerInfo, type Seat } from './events.js';
import { freeTradeOptions } from './free-trade.js';
import { canonical, without } from './multiset.js';
import { bagCount, rackSize, type GameResult, type GameState, type GameStatus, type TurnRecord } from './state.js';

/**
 * What one seat, or a spectator, may see of a game (issue 3: racks and the bag order are hidden).
 * A view is built only from public fields and the viewer's own rack: it never holds the other
 * rack, the bag's contents as such, or anything derived from the seed.
 */

/**
 * What a seat may do: the turn actions, then the game-level ones (abort before the first turn,
 * claiming a correspondence timeout, and the pause handshake of clock.ts).
 */
export const ACTION_KINDS = [
  'play',
  'exchange',
  'pass',
  'challenge',
  'resign',
  'free-trade',
  'blank-substitution',
  'abort',
  'claim-timeout',
  'request-pause',
  'accept-pause',
  'decline-pause',
  'resume',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/**
 * A correspondence game's clock as the log stands (issue 5). Both banks are public, as on a chess
 * clock: the time a player has is no secret. `banks` are as of the last turn; the mover's bank runs
 * down once `allowanceEndsAt` has passed (`banksAt` in clock.ts gives them at a given time).
 */
export interface ClockView {
  readonly turnSeconds: number;
  readonly bankSeconds: number;
  readonly banks: readonly [number, number];
  readonly turnStartedAt: string | null;
  /** When the turn's own time ends and the mover's bank starts to run. */
  readonly allowanceEndsAt: string | null;
  /** When the mover loses on time; frozen (moved by the pause's length) while paused. */
  readonly deadline: string | null;
  readonly pauseRequest: { readonly seat: Seat; readonly seconds: number } | null;
  /** The pause as accepted: it runs until `until` unless resumed earlier (whether it still runs depends on the time). */
  readonly pause: { readonly since: string; readonly until: string } | null;
  readonly pausesUsed: number;
  readonly pausesLeft: number;
  readonly pauseSecondsLeft: number;
  /** Open disputes that stop the clock (rule set `time.disputePausesClock`), and since when; null when none does. */
  readonly disputeHold: { readonly since: string; readonly disputes: readonly number[] } | null;
}

interface CommonView {
  readonly players: readonly [PlayerInfo, PlayerInfo];
  readonly ruleSet: string;
  readonly board: Board;
  readonly scores: readonly [number, number];
  readonly rackSizes: readonly [number, number];
  readonly bagCount: number;
  readonly turn: Seat;
  readonly status: GameStatus;
  /** The last turn and its score breakdown (words with letter and word multipliers). */
  readonly lastMove: TurnRecord | null;
  readonly history: readonly TurnRecord[];
  readonly result: GameResult | null;
  /** The bag commitment (a hash: reveals nothing about the order). */
  readonly commitment: string | null;
  /** Correspondence games only; null otherwise. */
  readonly clock: ClockView | null;
  /** Games with a table clock (recorded games): each seat's last reading in seconds, negative = overtime; null for other games. */
  readonly clockReadings: readonly [number | null, number | null] | null;
}

export interface SeatView extends CommonView {
  readonly seat: Seat;
  readonly rack: readonly string[];
  /** Tiles this seat has not seen: the full distribution minus the board minus its own rack (canonical order). */
  readonly unseen: readonly string[];
  readonly legalActions: readonly ActionKind[];
}

export interface SpectatorView extends CommonView {
  /** The full distribution minus the board: the bag and both racks together. */
  readonly unseen: readonly string[];
}

const boardTiles = (board: Board): string[] => {
  const out: string[] = [];
  for (const c of board.cells) if (c) out.push(c.blank ? BLANK : c.letter);
  return out;
};

/** Exchanged tiles are private to the exchanger; challenged-off draws and end racks are shown to all. */
const hideFor = (history: readonly TurnRecord[], viewer: Seat | null): TurnRecord[] =>
  history.map((t) => {
    if (t.kind !== 'exchange' || t.seat === viewer || t.tiles === undefined) return t;
    const { tiles: _hidden, ...rest } = t;
    return { ...rest, move: `-${t.count ?? t.tiles.length}` };
  });

const common = (s: GameState, viewer: Seat | null): CommonView => {
  const history = hideFor(s.history, viewer);
  return {
    players: s.players,
    ruleSet: s.rules.id,
    board: s.board,
    scores: s.scores,
    rackSizes: [rackSize(s.racks[0]), rackSize(s.racks[1])],
    bagCount: bagCount(s),
    turn: s.turn,
    status: s.status,
    lastMove: history.length ? history[history.length - 1]! : null,
    history,
    result: s.result,
    commitment: s.commitment,
    clock: clockView(s),
    clockReadings: s.timeControl.kind === 'clock' ? (s.clock.readings ?? [null, null]) : null,
  };
};

/** The public clock of a correspondence game; null for other time controls. */
export const clockView = (s: GameState): ClockView | null => {
  const tc = s.timeControl;
  if (!isCorrespondence(tc)) return null;
  const c = s.clock;
  const left = pauseAllowance(s)!;
  return {
    turnSeconds: tc.turnSeconds,
    bankSeconds: tc.bankSeconds,
    banks: c.banks,
    turnStartedAt: s.status === 'ended' ? null : c.turnStartedAt,
    allowanceEndsAt: turnAllowanceEnds(s),
    deadline: deadline(s),
    pauseRequest: c.pause.requested,
    pause: c.pause.active ? { since: c.pause.active.since, until: c.pause.active.until } : null,
    pausesUsed: c.pause.count,
    pausesLeft: left.count,
    pauseSecondsLeft: left.seconds,
    disputeHold: disputeHold(s),
  };
};

/**
 * The action kinds open to `seat` at `now` (what a client should offer), in `ACTION_KINDS` order:
 * the turn actions (seed-003 rules 3–4; challenges as the rule set's mode allows; seed-002 house
 * rules), `resign`, then `abort` before the first turn (apply.ts `aborted`), `claim-timeout` for the
 * opponent of an overdue mover (timeout.ts), and the pauses of a correspondence game as
 * `checkPauseEvent` (clock.ts) allows them: `request-pause` while no pause runs or is asked for and
 * the allowance has at least `MIN_PAUSE_SECONDS` left, `accept-pause`/`decline-pause` to the
 * requester's opponent, `resume` while a pause runs. `now` (ISO) defaults to the time of the last
 * event, as `checkPauseEvent` does: then `claim-timeout` is never offered, since only a clock can
 * tell that a deadline has passed.
 */
export const legalActions = (s: GameState, seat: Seat, now?: string): ActionKind[] => {
  if (s.status === 'ended') return [];
  const out: ActionKind[] = [];
  const onTurn = s.turn === seat;
  const challengeable = CHALLENGE_EFFECTS[s.rules.challenge.mode].challengeable;
  const canChallenge = onTurn && challengeable && s.pending !== null && s.pending.seat === other(seat) && !s.pending.challenged;
  if (onTurn && s.status === 'waiting-final') {
    out.push('pass');
    if (canChallenge) out.push('challenge');
  } else if (onTurn) {
    const rack = s.racks[seat].tiles;
    const inBag = bagCount(s);
    out.push('play');
    if (inBag >= s.rules.exchange.minBag && (inBag > 0 || s.rules.exchange.allowEmpty)) out.push('exchange');
    out.push('pass');
    if (canChallenge) out.push('challenge');
    if (s.rules.house.freeTrades && !s.freeTradeThisTurn && freeTradeOptions(s.distribution, rack).length > 0) out.push('free-trade');
    if (s.rules.house.blankSubstitution && s.board.cells.some((c) => c?.blank && rack.includes(c.letter))) out.push('blank-substitution');
  }
  out.push('resign');
  if (s.history.length === 0) out.push('abort');
  if (now !== undefined && !onTurn && isOverdue(s, now)) out.push('claim-timeout');
  out.push(...pauseActions(s, seat, now ?? s.clock.lastAt));
  return out;
};

/** The pause commands `checkPauseEvent` would accept from `seat` at `at` (none for a game without a correspondence clock). */
const pauseActions = (s: GameState, seat: Seat, at: string | null): ActionKind[] => {
  const allowance = pauseAllowance(s);
  if (allowance === null) return [];
  const p = s.clock.pause;
  const running = at !== null && activePause(s, at) !== null;
  const out: ActionKind[] = [];
  if (!running && !p.requested && allowance.count > 0 && allowance.seconds >= MIN_PAUSE_SECONDS) out.push('request-pause');
  if (p.requested && p.requested.seat === other(seat)) out.push('accept-pause', 'decline-pause');
  if (running) out.push('resume');
  return out;
};

/**
 * The game as `seat` sees it: own rack, board, scores, unseen tiles, bag count, legal actions (at
 * `now`, ISO; default the time of the last event, see {@link legalActions}).
 */
export const viewFor = (s: GameState, seat: Seat, now?: string): SeatView => {
  const rack = s.racks[seat].tiles;
  const unseen = without(without(fullBag(s.distribution), boardTiles(s.board)) ?? [], rack) ?? [];
  return { ...common(s, seat), seat, rack: [...rack], unseen: canonical(s.distribution, unseen), legalActions: legalActions(s, seat, now) };
};

/** The game as a spectator sees it: no racks. */
export const spectatorView = (s: GameState): SpectatorView => ({
  ...common(s, null),
  unseen: canonical(s.distribution, without(fullBag(s.distribution), boardTiles(s.board)) ?? []),
});
