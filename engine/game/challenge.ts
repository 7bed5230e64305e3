import type { ChallengeMode } from '../rules/ruleset.js';

/**
 * What a challenge costs, per challenge mode, as data (RuleSet `challenge.mode`). `decide` and the
 * GCG import both turn a judged challenge into events through this table, and `apply` reads it for
 * who moves after a withdrawn play.
 */
export interface ChallengeEffect {
  /** Plays can be challenged at all (VOID rejects invalid words at submission instead). */
  readonly challengeable: boolean;
  /** After an invalid play is withdrawn, the same player plays again (seed-002 free challenges). */
  readonly withdrawnPlayerPlaysAgain: boolean;
  /** An invalid play loses the game for its player (Woogles TRIPLE). */
  readonly invalidLosesGame: boolean;
  /** What the challenger pays when every challenged word is valid. */
  readonly validCost: 'turn' | 'points' | 'nothing' | 'game';
}

export const CHALLENGE_EFFECTS: Readonly<Record<ChallengeMode, ChallengeEffect>> = {
  double: { challengeable: true, withdrawnPlayerPlaysAgain: false, invalidLosesGame: false, validCost: 'turn' },
  single: { challengeable: true, withdrawnPlayerPlaysAgain: false, invalidLosesGame: false, validCost: 'nothing' },
  'points-per-word': { challengeable: true, withdrawnPlayerPlaysAgain: false, invalidLosesGame: false, validCost: 'points' },
  'points-per-turn': { challengeable: true, withdrawnPlayerPlaysAgain: false, invalidLosesGame: false, validCost: 'points' },
  void: { challengeable: false, withdrawnPlayerPlaysAgain: false, invalidLosesGame: false, validCost: 'nothing' },
  triple: { challengeable: true, withdrawnPlayerPlaysAgain: false, invalidLosesGame: true, validCost: 'game' },
  free: { challengeable: true, withdrawnPlayerPlaysAgain: true, invalidLosesGame: false, validCost: 'nothing' },
};

/** Points for an unsuccessful challenge of `wordCount` valid words (WESPA 3.10.13: per word or per turn). */
export const challengePoints = (mode: ChallengeMode, points: number, wordCount: number): number =>
  mode === 'points-per-word' ? points * wordCount : mode === 'points-per-turn' ? points : 0;
