import type { Citation } from '../errors.js';

/**
 * A rule set is plain data: every number the rules documents give is a field here, so a game can
 * override it and the CLI/API can print it with its source. Presets live in `presets.ts`;
 * `PARAMETERS` (params.ts) describes each field for validation and documentation.
 */

export const CHALLENGE_MODES = [
  /** Challenger loses the turn when every challenged word is valid (NSA 2008, seed-001 §2). */
  'double',
  /** No penalty for an unsuccessful challenge. */
  'single',
  /** Points for each valid word challenged (WESPA 3.10.13 (i)/(v)). */
  'points-per-word',
  /** Points once per unsuccessfully challenged turn (WESPA 3.10.13 (ii)/(v)). */
  'points-per-turn',
  /** Invalid words are rejected when submitted; there are no challenges (Woogles VOID). */
  'void',
  /** Whoever is wrong about a challenge loses the game (Woogles TRIPLE). */
  'triple',
  /** An invalid word is withdrawn and the same player plays again; challenging costs nothing (seed-002). */
  'free',
] as const;
export type ChallengeMode = (typeof CHALLENGE_MODES)[number];

export const CHALLENGE_POINTS_RECIPIENTS = ['challenged-player', 'deducted-from-challenger'] as const;
export type ChallengePointsRecipient = (typeof CHALLENGE_POINTS_RECIPIENTS)[number];

/** Turn kinds that can count toward the scoreless-turns ending. */
export const SCORELESS_TURN_KINDS = ['pass', 'exchange', 'challenged-off', 'lost-challenge', 'zero-point-play'] as const;
export type ScorelessTurnKind = (typeof SCORELESS_TURN_KINDS)[number];

/** 2× the opponent's rack to the player who went out (NASPA, WESPA 5.1.4(a)), or +1× / −1× (WESPA 5.1.4(b), seed-003 scoring 9). */
export const GOING_OUT_MODES = ['double-opponent-rack', 'transfer-opponent-rack'] as const;
export type GoingOutMode = (typeof GOING_OUT_MODES)[number];

export const TIE_BREAKS = ['none', 'score-before-adjustments'] as const;
export type TieBreak = (typeof TIE_BREAKS)[number];

export const MATCH_DECIDERS = ['combined-points'] as const;

export const RULE_SET_IDS = ['NSA_2008', 'WESPA', 'FRIENDLY', 'MATCH_VARIANT', 'ONLINE_VOID'] as const;
export type RuleSetId = (typeof RULE_SET_IDS)[number];

export interface RuleSet {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly board: {
    readonly layout: string;
    readonly distribution: string;
    readonly rackSize: number;
    readonly bingoBonus: number;
  };
  readonly exchange: {
    /** Fewest tiles that must be in the bag to exchange; 0 = any number. */
    readonly minBag: number;
    /** An exchange of zero tiles is a legal turn (seed-003 rule 11). */
    readonly allowEmpty: boolean;
    /** At most as many tiles as are in the bag may be exchanged (seed-003 rule 11). */
    readonly maxIsBagCount: boolean;
    /** Points deducted when an illegal exchange (bag < minBag) is discovered after the opponent's turn (seed-000; WESPA 3.10.15(i)). */
    readonly lateDiscoveryPenalty: number;
    /** Seconds the opponent has to choose tiles after an illegal exchange (seed-000: 60; WESPA: 1 min). */
    readonly opponentChoiceSeconds: number;
  };
  readonly challenge: {
    readonly mode: ChallengeMode;
    /** Points awarded for an unsuccessful challenge, per word or per turn (5 or 10). */
    readonly points: number;
    readonly pointsRecipient: ChallengePointsRecipient;
    /** Seconds the opponent must be allowed to consider a challenge before the player draws (seed-001 §8). */
    readonly windowSeconds: number;
    /** Seconds after the out play during which the opponent may hold or challenge (seed-001 §9). */
    readonly outPlayHoldSeconds: number;
    /** Seconds after pressing the clock before a courtesy draw during a hold (NASPA 15 s, WESPA 30 s). */
    readonly courtesyDrawSeconds: number;
    /** Players may look words up before playing them (seed-002). */
    readonly selfLookup: boolean;
  };
  readonly end: {
    /** Consecutive scoreless turns (both players together) that end the game; null = no such rule. */
    readonly scorelessTurns: number | null;
    readonly scorelessKinds: readonly ScorelessTurnKind[];
    /** Game ends when both players exchange this many times in a row (seed-003 rule 12b: 2); null = no such rule. */
    readonly consecutiveExchangesEach: number | null;
    readonly goingOut: GoingOutMode;
    readonly tieBreak: TieBreak;
  };
  readonly time: {
    /** Points per started minute of overtime (WESPA 5.3.2). */
    readonly overtimePenaltyPerMinute: number;
    /** Minutes of overtime after which the game is forfeited; null = no limit. */
    readonly overtimeForfeitMinutes: number | null;
    /** Minutes after the announced start before the director may start a late player's clock (seed-001 §1). */
    readonly lateClockStartMinutes: number;
    /** Minutes late after which the game is forfeited (seed-001 §1: 25). */
    readonly lateForfeitMinutes: number;
    /** Spread recorded for a forfeit win (WESPA 2.3.6 / 5.3.3: 100). */
    readonly forfeitMargin: number;
  };
  readonly house: {
    /** Take a played blank by giving its letter, then replay the blank the same turn (seed-002). */
    readonly blankSubstitution: boolean;
    /** Trade tiles free to cure two pair, three of a letter, < 2 vowels, < 2 consonants (seed-002). */
    readonly freeTrades: boolean;
  };
  readonly match: {
    /** Games in a match (seed-003 rule 1: 2, each player first once); null = single games. */
    readonly games: number | null;
    readonly decidedBy: (typeof MATCH_DECIDERS)[number];
  };
  /** Where each parameter's value comes from, keyed by dotted path (`challenge.mode`). */
  readonly sources: Readonly<Record<string, readonly Citation[]>>;
}

/** A partial rule set used to override fields of a preset. */
export type RuleSetOverrides = {
  readonly [K in keyof RuleSet]?: RuleSet[K] extends Readonly<Record<string, unknown>> ? Partial<RuleSet[K]> : RuleSet[K];
};
