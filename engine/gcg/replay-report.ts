import type { EndReason, GameEvent } from '../game/events.js';
import type { Lexicon } from '../lexicon/lexicon.js';
import type { RuleSet } from '../rules/ruleset.js';

/** What a GCG replay reports (`replayGcg`, replay.ts): its findings line by line and the game it built. */

export interface ReplayMismatch {
  /** 1-based index of the event line in the record. */
  readonly turn: number;
  readonly player: string;
  /** What the record says. */
  readonly expected: number | string;
  /** What the engine computed. */
  readonly actual: number | string;
  readonly reason: string;
  readonly code: string;
  readonly line: number;
}

/**
 * Oddities that do not make a record wrong. `SCORE_FIELD_DISAGREES`: a line's score field differs
 * from what its running total adds (old spellings such as `-- +0`), and the total agrees with the
 * engine, so the total is believed. `WITHDRAWN_PLAY_MISSCORED`: a play taken back at once was
 * mis-scored, which never counted.
 */
export const REPLAY_WARNING_CODES = ['SCORE_FIELD_DISAGREES', 'WITHDRAWN_PLAY_MISSCORED'] as const;
export type ReplayWarningCode = (typeof REPLAY_WARNING_CODES)[number];

export interface ReplayWarning {
  readonly code: ReplayWarningCode;
  readonly line: number;
  /** 1-based index of the event line in the record. */
  readonly turn: number;
  /** Starts with `Line N:`. */
  readonly message: string;
}

export interface ReplayErrorItem {
  readonly code: string;
  readonly message: string;
  readonly line: number | null;
  readonly turn: number | null;
}

export interface ReplayReport {
  readonly ok: boolean;
  /** Turns in the record (plays, exchanges, passes). */
  readonly moves: number;
  readonly mismatches: readonly ReplayMismatch[];
  /** The engine's final scores by nickname. */
  readonly finalScores: Readonly<Record<string, number>>;
  /** Violations that stopped the replay (at most one) and problems with the record as a whole. */
  readonly errors: readonly ReplayErrorItem[];
  /** True when the game reached its end in the engine. */
  readonly complete: boolean;
  readonly result: { readonly winner: string | null; readonly reason: EndReason } | null;
  /** Words not in the lexicon that stood (only with a lexicon). */
  readonly phonies: readonly { readonly turn: number; readonly player: string; readonly words: readonly string[] }[];
  /** Oddities that do not make the record wrong, with their line. */
  readonly warnings: readonly ReplayWarning[];
  /** The rule set inferred from the record. */
  readonly rules: RuleSet;
  /** The imported game's event log. */
  readonly events: readonly GameEvent[];
  /** The id of the tile set the record was replayed with (`english`, `polish` …). */
  readonly tileSet: string;
  /** The lexicon that judged the words, or null: then only placement and scores were checked. */
  readonly wordsJudgedBy: string | null;
  /** Why the lexicon given was not used (its language is not the record's), or null. */
  readonly lexiconSetAside: string | null;
}

export interface ReplayOptions {
  /**
   * Judges words (phonies are reported, not rejected); without one only geometry and scores are
   * checked. A lexicon whose name says it is in another language than the record's tile set is set
   * aside (`lexiconSetAside`): an English list would call every Polish word a phony.
   */
  readonly lexicon?: Lexicon | null;
  /** The tile set by id (`polish`), ahead of anything the record says; see `chooseTileSet`. */
  readonly tileSet?: string | null;
}
