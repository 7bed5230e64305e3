import type { Move } from '../move.js';
import type { GcgEncoding } from './decode.js';

/**
 * The GCG syntax tree: what a record says, line by line, before any rule is applied
 * (reference/gcg-format.md). Plain, JSON-safe data; it is also the import format of the API.
 * Line numbers are 1-based and count lines as an editor does (CRLF is one line end).
 */
export interface GcgDocument {
  /** `#player1` is index 0, `#player2` index 1; events refer to players by this index. */
  readonly players: readonly [GcgPlayer, GcgPlayer];
  /** Header pragmas in file order: everything before the first event except players and the encoding. */
  readonly pragmas: readonly GcgPragma[];
  readonly events: readonly GcgEvent[];
  /** `#rack1` / `#rack2`: the last known racks of an unfinished record (gcg §2). */
  readonly lastRacks: readonly [GcgLastRack | null, GcgLastRack | null];
  /** `#incomplete [RACK]`: the record is unfinished (Quackle). */
  readonly incomplete: GcgIncomplete | null;
  /**
   * The encoding the record was read in (declared on line 1, or ISO-8859-1 for bytes without a
   * declaration); `formatGcg` writes it back. Absent or null: UTF-8.
   */
  readonly encoding?: GcgEncoding | null;
}

export interface GcgPlayer {
  /** One token, no spaces or colons; events name the player by it (`>NICK:`). */
  readonly nickname: string;
  /** The rest of the line; may be empty. */
  readonly name: string;
  readonly line: number;
}

/**
 * Header pragmas the parser knows by name. macondo and Woogles write the tile set, board and variant
 * as header notes (`#note LetterDistribution: polish`); those are kept as `note` pragmas. `tile` may repeat (one per digraph tile); the others
 * may appear once. Unknown keywords are kept as written and may repeat.
 */
export const GCG_HEADER_KEYWORDS = [
  'title',
  'description',
  'id',
  'lexicon',
  'game-type',
  'board-layout',
  'tile-distribution',
  'letterdistribution',
  'tile-set',
  'tile',
] as const;
export type GcgHeaderKeyword = (typeof GCG_HEADER_KEYWORDS)[number];

export interface GcgPragma {
  /** `lexicon` for `#lexicon CSW21`; an unknown keyword is kept as written. */
  readonly keyword: string;
  /** The rest of the line, trimmed (`CSW21`; `io.woogles p6QRjJHG` for `#id`). */
  readonly value: string;
  readonly line: number;
}

export interface GcgLastRack {
  readonly rack: string;
  readonly line: number;
}

export interface GcgIncomplete {
  /** The rack given after `#incomplete`, or `''`. */
  readonly rack: string;
  readonly line: number;
}

/** Event kinds, one per GCG event shape (reference/gcg-format.md §3 rows 1–9). */
export const GCG_EVENT_KINDS = [
  /** A turn: tile placement, exchange (by tiles or by count) or pass. */
  'move',
  /** `--`: the preceding play was withdrawn (phony challenged off). */
  'phony-returned',
  /** `(challenge)`: bonus to the player whose valid play was challenged. */
  'challenge-bonus',
  /** `(RACK) +N` with an empty own rack: points for the opponent's remaining tiles. */
  'end-rack-points',
  /** `RACK (RACK) -N`: points lost for one's own remaining tiles. */
  'end-rack-penalty',
  /** `(time) -N`: overtime penalty. */
  'time-penalty',
  /** `(ruling) ±N`: a score change by an adjudicator's ruling on a dispute (Arbiter's extension; a `#note` names the ruling). */
  'ruling-adjustment',
] as const;
export type GcgEventKind = (typeof GCG_EVENT_KINDS)[number];

interface GcgEventBase {
  readonly line: number;
  /** Index into `players`. */
  readonly player: 0 | 1;
  /** The rack as written (`?` blank, `[CH]` digraph), syntax-checked; `''` when the line leaves it out. */
  readonly rack: string;
  /** The signed score of the line (`+24`, `-80`, `+0`). */
  readonly score: number;
  /** The player's running total after the event; may be negative. */
  readonly cumulative: number;
  /** Free text after the cumulative score in old records (`BE, ET, DO`), or `''`. */
  readonly annotation: string;
  /** `#note` lines after this event, in order; continuation lines are joined with `\n`. */
  readonly notes: readonly string[];
}

export interface GcgMoveEvent extends GcgEventBase {
  readonly kind: 'move';
  readonly move: Move;
}
export interface GcgPhonyReturnedEvent extends GcgEventBase {
  readonly kind: 'phony-returned';
}
export interface GcgChallengeBonusEvent extends GcgEventBase {
  readonly kind: 'challenge-bonus';
}
export interface GcgEndRackPointsEvent extends GcgEventBase {
  readonly kind: 'end-rack-points';
  /** The opponent's remaining tiles, as written inside the parentheses. */
  readonly tiles: string;
}
export interface GcgEndRackPenaltyEvent extends GcgEventBase {
  readonly kind: 'end-rack-penalty';
  /** The penalised tiles, as written inside the parentheses (should equal `rack`; replay checks). */
  readonly tiles: string;
}
export interface GcgTimePenaltyEvent extends GcgEventBase {
  readonly kind: 'time-penalty';
}

export interface GcgRulingAdjustmentEvent extends GcgEventBase {
  readonly kind: 'ruling-adjustment';
}

export type GcgEvent =
  | GcgMoveEvent
  | GcgPhonyReturnedEvent
  | GcgChallengeBonusEvent
  | GcgEndRackPointsEvent
  | GcgEndRackPenaltyEvent
  | GcgTimePenaltyEvent
  | GcgRulingAdjustmentEvent;
