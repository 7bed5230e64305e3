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
  /** Oddities that do not make the record wrong (a withdrawn play that was mis-scored). */
  readonly warnings: readonly string[];
  /** The rule set inferred from the record. */
  readonly rules: RuleSet;
  /** The imported game's event log. */
  readonly events: readonly GameEvent[];
}

export interface ReplayOptions {
  /** Judges words (phonies are reported, not rejected); without one only geometry and scores are checked. */
  readonly lexicon?: Lexicon | null;
}
