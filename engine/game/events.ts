import type { Citation } from '../errors.js';
import type { Layout, Placement } from '../board.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { ScoredWord } from '../scoring.js';

/**
 * A game is a list of events (issue 3); its state is a fold over them (`apply.ts`). Every event is
 * plain JSON data and self-contained: the fold needs no secret and no lexicon (a draw carries the
 * tiles drawn, a play carries its placements and score). The store persists each as `type` + payload.
 */

/** Two players per game (seed-003 rule 1). */
export const SEATS = [0, 1] as const;
export type Seat = (typeof SEATS)[number];
export const other = (seat: Seat): Seat => (seat === 0 ? 1 : 0);

export const TIME_CONTROL_KINDS = ['untimed', 'correspondence', 'clock'] as const;
/**
 * How a game is timed (validated by `validateTimeControl`, clock.ts). `correspondence`: each turn has
 * `turnSeconds`; time beyond it is drawn from the mover's `bankSeconds` (platform-differences §2.1,
 * Woogles correspondence); pauses by mutual agreement up to `maxPauses` per game and `maxPauseSeconds`
 * in total (defaults in clock.ts when absent). `clock`: minutes per player, kept by the clients.
 */
export type TimeControl =
  | { readonly kind: 'untimed' }
  | {
      readonly kind: 'correspondence';
      readonly turnSeconds: number;
      readonly bankSeconds: number;
      readonly maxPauses?: number;
      readonly maxPauseSeconds?: number;
    }
  | { readonly kind: 'clock'; readonly minutes: number };

export interface PlayerInfo {
  readonly name: string;
  readonly id?: string;
}

/**
 * `seeded`: the server holds a secret seed, commits to `sha256(seed)` here and reveals the seed in
 * `game-ended` (a provably fair bag, see `bag.ts`). `imported`: a record of a game played elsewhere;
 * draws are what the record shows, and racks may be partly unknown.
 */
export type BagCommitment = { readonly kind: 'seeded'; readonly commitment: string } | { readonly kind: 'imported' };

export const GAME_EVENT_TYPES = [
  'game-created',
  'tiles-drawn',
  'rack-revealed',
  'tiles-set-aside',
  'tiles-returned',
  'tiles-taken-back',
  'play',
  'exchange',
  'pass',
  'challenge',
  'phony-withdrawn',
  'turn-lost',
  'challenge-points',
  'blank-substituted',
  'free-trade',
  'time-penalty',
  'clock-reading',
  'resigned',
  'timed-out',
  'forfeited',
  'game-ended',
  'ruling-applied',
  'pause-requested',
  'pause-accepted',
  'pause-declined',
  'resumed',
  'aborted',
  'dispute-filed',
  'dispute-appealed',
] as const;
export type GameEventType = (typeof GAME_EVENT_TYPES)[number];

export interface GameCreated {
  readonly type: 'game-created';
  /** The fully resolved rule set, so a stored game keeps its rules even if a preset changes. */
  readonly rules: RuleSet;
  /** The word list that judges the game; `null` when nothing judges words (imported, unknown lexicon). */
  readonly lexicon: { readonly name: string; readonly hash: string } | null;
  readonly players: readonly [PlayerInfo, PlayerInfo];
  readonly timeControl: TimeControl;
  /** Who moves first (seed-003 rule 1: in a match each player goes first once). */
  readonly firstSeat: Seat;
  readonly bag: BagCommitment;
  /** ISO timestamp supplied by the caller (the engine never reads the clock). */
  readonly createdAt: string;
  /**
   * A board given as data (issue 21: rows, start square, hash), stored whole so the game keeps it; its
   * name is `rules.board.layout`. Absent for a named layout, which `rules.board.layout` names.
   */
  readonly layout?: Layout;
}

/** Tiles from the bag to a rack. `hidden` counts tiles whose faces the log does not know (imports only). */
export interface TilesDrawn {
  readonly type: 'tiles-drawn';
  readonly seat: Seat;
  readonly tiles: readonly string[];
  readonly hidden?: number;
}

/** Imported games: a record shows a rack; its unknown tiles become known (they must be drawable). */
export interface RackRevealed {
  readonly type: 'rack-revealed';
  readonly seat: Seat;
  readonly tiles: readonly string[];
}

/** Tiles put face down on the table (an exchange, a free trade, a rejected free-trade draw). */
export interface TilesSetAside {
  readonly type: 'tiles-set-aside';
  readonly seat: Seat;
  readonly tiles: readonly string[];
}

/**
 * Tiles back into the bag: from the face-down pile (end of an exchange, seed-001 §6 step 5) or from
 * the rack (tiles drawn after a play that was challenged off are shown and returned, seed-001 §2).
 */
export interface TilesReturned {
  readonly type: 'tiles-returned';
  readonly seat: Seat;
  readonly tiles: readonly string[];
  readonly from: 'aside' | 'rack';
  readonly hidden?: number;
}

/** Face-down tiles back onto the rack (a free trade that found no curing tile keeps the original, seed-002). */
export interface TilesTakenBack {
  readonly type: 'tiles-taken-back';
  readonly seat: Seat;
  readonly tiles: readonly string[];
}

export interface PlayEvent {
  readonly type: 'play';
  readonly seat: Seat;
  /** The move in notation (`8H WORD`), for people and exports. */
  readonly move: string;
  readonly placements: readonly Placement[];
  /** Main word first, with the score breakdown (seed-003 scoring 1–7). */
  readonly words: readonly ScoredWord[];
  readonly bingoBonus: number;
  readonly score: number;
}

/** The turn's exchange: the tiles go face down (then `tiles-drawn`, then `tiles-returned`). `tiles` null = unknown faces (imports). */
export interface ExchangeEvent {
  readonly type: 'exchange';
  readonly seat: Seat;
  readonly tiles: readonly string[] | null;
  readonly count: number;
}

export interface PassEvent {
  readonly type: 'pass';
  readonly seat: Seat;
  /** `timeout`: the pass was made for a player whose time ran out while only the final pass was pending (clock.ts). */
  readonly auto?: 'timeout';
}

/** `seat` challenges the pending play; `valid` is the judgement (every challenged word valid). */
export interface ChallengeEvent {
  readonly type: 'challenge';
  readonly seat: Seat;
  readonly words: readonly { readonly word: string; readonly valid: boolean | null }[];
  readonly valid: boolean;
}

/** The pending play of `seat` is taken back: tiles return to the rack, its score is removed. */
export interface PhonyWithdrawn {
  readonly type: 'phony-withdrawn';
  readonly seat: Seat;
  readonly score: number;
}

/** `seat` loses its turn for an unsuccessful challenge (double challenge, seed-001 §2). */
export interface TurnLost {
  readonly type: 'turn-lost';
  readonly seat: Seat;
  readonly reason: 'lost-challenge';
}

/** Points for an unsuccessful challenge: + to the challenged player, or − from the challenger. */
export interface ChallengePoints {
  readonly type: 'challenge-points';
  readonly seat: Seat;
  readonly points: number;
}

/** seed-002 Blank Substitution: `seat` gives `letter` for the blank on (row, col) and takes the blank. */
export interface BlankSubstituted {
  readonly type: 'blank-substituted';
  readonly seat: Seat;
  readonly row: number;
  readonly col: number;
  readonly letter: string;
}

/** seed-002 Free Trades: the announced trades, in order, with the reading of Y chosen. */
export interface FreeTradeAnnounced {
  readonly type: 'free-trade';
  readonly seat: Seat;
  readonly tiles: readonly string[];
  readonly yAs: 'vowel' | 'consonant' | null;
}

export interface TimePenalty {
  readonly type: 'time-penalty';
  readonly seat: Seat;
  /** Points deducted (positive). */
  readonly points: number;
  /** Recorded games: the overtime the penalty counts, from the seat's last clock reading (recorded-clock.ts). */
  readonly secondsOver?: number;
  /** The rule-set parameters the penalty follows, with their sources. */
  readonly citations?: readonly Citation[];
}

/**
 * Recorded games with a clock (recorded-clock.ts): `seat`'s clock as the scorekeeper read it after
 * that seat's move. Negative = overtime, as the clocks of NASPA and WESPA tournaments count it.
 */
export interface ClockReading {
  readonly type: 'clock-reading';
  readonly seat: Seat;
  readonly secondsLeft: number;
}

export interface Resigned {
  readonly type: 'resigned';
  readonly seat: Seat;
}
export interface TimedOut {
  readonly type: 'timed-out';
  readonly seat: Seat;
}
export interface Forfeited {
  readonly type: 'forfeited';
  readonly seat: Seat;
  readonly reason: string;
}

/** `seat` asks the opponent to pause the game's clock for up to `seconds` (a vacation, clock.ts). */
export interface PauseRequested {
  readonly type: 'pause-requested';
  readonly seat: Seat;
  readonly seconds: number;
}
/** The opponent of the requester agrees: the clock stops from this event's `at` for the seconds asked. */
export interface PauseAccepted {
  readonly type: 'pause-accepted';
  readonly seat: Seat;
}
export interface PauseDeclined {
  readonly type: 'pause-declined';
  readonly seat: Seat;
}
/** Either player ends a pause early; the clock runs again from this event's `at`. */
export interface Resumed {
  readonly type: 'resumed';
  readonly seat: Seat;
}
/** `seat` cancelled the game before its first turn (followed by `game-ended`, reason `aborted`, no winner). */
export interface Aborted {
  readonly type: 'aborted';
  readonly seat: Seat;
}

export const END_REASONS = [
  'went-out',
  'scoreless-turns',
  'consecutive-exchanges',
  'resigned',
  'timed-out',
  'forfeited',
  'challenge-lost',
  'ruling',
  'aborted',
] as const;
export type EndReason = (typeof END_REASONS)[number];

export const ADJUSTMENT_KINDS = ['opponent-rack', 'own-rack'] as const;
export interface Adjustment {
  readonly seat: Seat;
  readonly points: number;
  readonly kind: (typeof ADJUSTMENT_KINDS)[number];
  /** The rack the adjustment counts. */
  readonly tiles: readonly string[];
}

export interface GameEnded {
  readonly type: 'game-ended';
  readonly reason: EndReason;
  /** End-of-game adjustments (seed-003 scoring 9; NASPA/WESPA 2× or 1× transfer). */
  readonly adjustments: readonly Adjustment[];
  /** The seat that lost regardless of score (resignation, timeout, forfeit, triple challenge); else null. */
  readonly loser: Seat | null;
  /** The bag seed, revealed so anyone can re-derive every draw (`verifyDraws`); null for imports. */
  readonly seed: string | null;
}

/** An adjudicator's ruling applied to the game (`engine/adjudication` decides; this records). */
export interface RulingApplied {
  readonly type: 'ruling-applied';
  readonly ruling: string;
  readonly citation?: Citation;
  readonly scoreChanges: readonly { readonly seat: Seat; readonly points: number }[];
  readonly note: string;
  /** The dispute ruled on (`DisputeFiled.dispute`); absent for a ruling not filed as a dispute. */
  readonly dispute?: number;
  readonly verdict?: string;
  readonly citations?: readonly Citation[];
  /** The ruling's effects as the adjudicator states them (engine/adjudication/ruling.ts `Effect`). */
  readonly effects?: readonly unknown[];
  /** Tiles the ruling shows to both players (tiles shown and returned): only these leave the hidden information. */
  readonly revealed?: readonly { readonly seat: Seat; readonly tiles: readonly string[] }[];
  /** The director (player id) who ruled; absent or null = the automatic ruling of the rule set. */
  readonly by?: string | null;
  /** The club or event (organization id) by whose director role `by` ruled; absent = a global director. */
  readonly organization?: string;
}

/**
 * A seated player appeals the automatic ruling of dispute `dispute` (once per dispute): it stays as
 * applied until a director rules (`ruling-applied` with `by`), which replaces it.
 */
export interface DisputeAppealed {
  readonly type: 'dispute-appealed';
  readonly dispute: number;
  readonly seat: Seat;
  /** The appellant's player id. */
  readonly by: string;
  readonly note?: string;
}

/** Where a fact of a filed dispute comes from: the game log (at `version`) or the claimant's word. */
export const DISPUTE_FACT_SOURCES = ['log', 'claimant'] as const;
export interface DisputeFact {
  readonly name: string;
  readonly value: unknown;
  readonly source: (typeof DISPUTE_FACT_SOURCES)[number];
  /** For a log fact: the version (event number) it was read at. */
  readonly version?: number;
  /** A fact only `privateTo` may see (a rack): others see that it exists, not its value. */
  readonly privateTo?: Seat;
}

/**
 * A dispute filed on this game (engine/adjudication/on-game.ts): its number in the game, its kind, the
 * version it concerns and the seat whose act is disputed, who filed it, every fact with its source,
 * and the automatic ruling of the game's rule set (applied by a `ruling-applied` that follows, unless it
 * leaves the matter to a director).
 */
export interface DisputeFiled {
  readonly type: 'dispute-filed';
  readonly dispute: number;
  readonly kind: string;
  readonly concerns: number;
  readonly player: Seat;
  /** The claimant's seat; null when a director filed it. */
  readonly seat: Seat | null;
  /** The claimant's player id. */
  readonly by: string | null;
  readonly facts: readonly DisputeFact[];
  /** The automatic ruling: verdict, code, effects, citations, explanation. */
  readonly ruling: {
    readonly verdict: string;
    readonly ruling: string;
    readonly effects: readonly unknown[];
    readonly citations: readonly Citation[];
    readonly explanation: string;
  };
  readonly note?: string;
}

/**
 * When an event was recorded (ISO 8601), stamped by `decide` from `DecideContext.now`. The clock
 * (clock.ts) folds turn times from it; events without it (imports, engine tests) leave the clock
 * where the last stamped event put it.
 */
export interface Stamped {
  readonly at?: string;
}

export type GameEvent = (
  | GameCreated
  | TilesDrawn
  | RackRevealed
  | TilesSetAside
  | TilesReturned
  | TilesTakenBack
  | PlayEvent
  | ExchangeEvent
  | PassEvent
  | ChallengeEvent
  | PhonyWithdrawn
  | TurnLost
  | ChallengePoints
  | BlankSubstituted
  | FreeTradeAnnounced
  | TimePenalty
  | ClockReading
  | Resigned
  | TimedOut
  | Forfeited
  | GameEnded
  | RulingApplied
  | PauseRequested
  | PauseAccepted
  | PauseDeclined
  | Resumed
  | Aborted
  | DisputeFiled
  | DisputeAppealed
) &
  Stamped;

export const isGameEventType = (s: string): s is GameEventType => (GAME_EVENT_TYPES as readonly string[]).includes(s);
