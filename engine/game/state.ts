import type { Board, Placement } from '../board.js';
import type { Citation } from '../errors.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ScoredWord } from '../scoring.js';
import type { Distribution } from '../tiles.js';
import type { ClockState } from './clock-state.js';
import type { Adjustment, EndReason, PlayerInfo, Seat, TimeControl } from './events.js';

/**
 * The read-only state of a game: a fold of its events (`apply.ts`). Hidden information lives here
 * (racks, the bag multiset); `view.ts` projects what one seat or a spectator may see. The bag's
 * order is never stored: it is derived from the secret seed at each draw (`bag.ts`).
 */

/** A rack: the tiles whose faces the log knows, plus `hidden` tiles it does not (imported games only). */
export interface RackState {
  readonly tiles: readonly string[];
  readonly hidden: number;
}

/** The last play while it can still be challenged (until the opponent's next turn starts). */
export interface PendingPlay {
  readonly seat: Seat;
  readonly move: string;
  readonly placements: readonly Placement[];
  readonly words: readonly ScoredWord[];
  readonly score: number;
  /** Tiles drawn after the play (returned to the bag if it is challenged off, seed-001 §2). */
  readonly drawn: readonly string[];
  readonly drawnHidden: number;
  /** Counters before the play, restored (and advanced) if it is withdrawn. */
  readonly scorelessBefore: number;
  readonly exchangesBefore: number;
  /** The play used the last tile with the bag empty (seed-003 rule 12a); the game waits for a final pass or challenge. */
  readonly wentOut: boolean;
  /** A challenge has been made and judged valid: the play stands and cannot be challenged again. */
  readonly challenged: boolean;
}

export const GAME_STATUSES = ['playing', 'waiting-final', 'ended'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

export interface GameResult {
  readonly reason: EndReason;
  readonly adjustments: readonly Adjustment[];
  readonly loser: Seat | null;
  /** Scores when the game ended, before end-of-game adjustments (seed-003 scoring 10 tie-break). */
  readonly scoresBeforeAdjustments: readonly [number, number];
  /** null = a tie. Recomputed when a time penalty or ruling lands after the end. */
  readonly winner: Seat | null;
  readonly seed: string | null;
}

/** One line of the history, as a score sheet would show it. */
export interface TurnRecord {
  readonly seat: Seat;
  readonly kind:
    | 'play'
    | 'exchange'
    | 'pass'
    | 'challenge'
    | 'phony-withdrawn'
    | 'turn-lost'
    | 'challenge-points'
    | 'time-penalty'
    | 'end-adjustment'
    | 'ruling';
  /** Notation (`8H WORD`, `-ABC`, `-3`, `-`), or a short description. */
  readonly move: string;
  readonly score: number;
  readonly cumulative: number;
  /**
   * The engine event that wrote this line, counted from 1 (`game-created`): the game's version of that
   * event, less the service events before it (a waiting game's `game-proposed`), which the service adds back.
   * A dispute about the line's act names that version in `concerns` (engine/adjudication/from-log.ts).
   */
  readonly event: number;
  readonly words?: readonly ScoredWord[];
  /** Tiles exchanged: private to `seat` (views hide them from others). */
  readonly tiles?: readonly string[];
  readonly count?: number;
  /** Recorded games with a clock: the mover's clock read after this move (seconds, negative = overtime). */
  readonly secondsLeft?: number;
  /** A time penalty's rule-set parameters with their sources (recorded games, recorded-clock.ts). */
  readonly citations?: readonly Citation[];
}

export interface GameState {
  readonly rules: RuleSet;
  readonly distribution: Distribution;
  readonly lexicon: { readonly name: string; readonly hash: string } | null;
  readonly players: readonly [PlayerInfo, PlayerInfo];
  readonly timeControl: TimeControl;
  readonly firstSeat: Seat;
  readonly bagKind: 'seeded' | 'imported';
  /** `sha256(seed)` for seeded games. */
  readonly commitment: string | null;
  readonly board: Board;
  readonly racks: readonly [RackState, RackState];
  /**
   * Tiles neither on the board nor in a known rack position, in canonical order. With no hidden rack
   * tiles (every seeded game) this is exactly the bag.
   */
  readonly bag: readonly string[];
  /** Tiles drawn so far by seed (the next draw's counter, `bag.ts`). */
  readonly drawCount: number;
  /** Tiles face down on the table during an exchange or a free trade. */
  readonly aside: { readonly seat: Seat; readonly tiles: readonly string[] } | null;
  readonly scores: readonly [number, number];
  readonly turn: Seat;
  /** Consecutive scoreless turns of the kinds in `rules.end.scorelessKinds`, both players together. */
  readonly scorelessTurns: number;
  /** Consecutive exchange turns, both players together (seed-003 rule 12b ends at 2 each = 4). */
  readonly consecutiveExchanges: number;
  readonly pending: PendingPlay | null;
  /** Blanks substituted this turn that must be replayed (seed-002). */
  readonly substitutedBlanks: number;
  /** A free trade was made this turn (one announcement per turn). */
  readonly freeTradeThisTurn: boolean;
  readonly status: GameStatus;
  readonly result: GameResult | null;
  readonly history: readonly TurnRecord[];
  readonly eventCount: number;
  /** Turn times, banks and pauses (clock.ts), folded from the events' `at` stamps. */
  readonly clock: ClockState;
}

/** Tiles in the bag: the unknown-to-the-log pool minus the racks' hidden tiles. */
export const bagCount = (state: GameState): number => state.bag.length - state.racks[0].hidden - state.racks[1].hidden;

export const rackSize = (rack: RackState): number => rack.tiles.length + rack.hidden;
