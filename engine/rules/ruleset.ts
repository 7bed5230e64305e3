import type { Citation } from '../errors.js';
import type { ByeChoice } from '../tournament/pairing/types.js';

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
export type MatchDecider = (typeof MATCH_DECIDERS)[number];

/** Over the board, or online where the server deals tiles (no overdraws, fast-bagging, tally slips). */
export const PLAY_MEDIA = ['over-the-board', 'online'] as const;
export type PlayMedium = (typeof PLAY_MEDIA)[number];

/** Staged remedy for an exchange with too few tiles in the bag: seed-000 "Penalties" or WESPA 3.10.15(i). */
export const ILLEGAL_EXCHANGE_PROCEDURES = ['seed-000', 'wespa-3.10.15', 'none'] as const;
export type IllegalExchangeProcedure = (typeof ILLEGAL_EXCHANGE_PROCEDURES)[number];

/** Exchange announced with no count and no tiles face down: lose the turn (seed-000), a pass (WESPA 3.10.15(b)), or a legal exchange of zero tiles (seed-003 rule 11). */
export const UNSPECIFIED_EXCHANGE_RULES = ['turn-lost', 'pass', 'zero-tile-exchange', 'none'] as const;
export type UnspecifiedExchangeRule = (typeof UNSPECIFIED_EXCHANGE_RULES)[number];

/** Announced count differs from the tiles face down: the face-down count is exchanged (seed-000 "Disputes", WESPA 3.10.15(e)). */
export const EXCHANGE_COUNT_MISMATCH_RULES = ['face-down-count', 'none'] as const;
export type ExchangeCountMismatchRule = (typeof EXCHANGE_COUNT_MISMATCH_RULES)[number];

/** Old tiles bagged before drawing: no penalty and no redraw (seed-000), or no penalty (WESPA 3.10.15(c)). */
export const EARLY_RETURN_RULES = ['no-penalty-no-redraw', 'no-penalty', 'none'] as const;
export type EarlyReturnRule = (typeof EARLY_RETURN_RULES)[number];

/** Drawing before the opponent could challenge: a window the director enforces (seed-001 §8) or flash-draw (WESPA 3.10.1–3.10.2). */
export const EARLY_DRAW_RULES = ['window-director-decides', 'flash-draw-challengeable', 'none'] as const;
export type EarlyDrawRule = (typeof EARLY_DRAW_RULES)[number];

/** What the end of the out-play window means: the game is over (seed-001 §9) or the player may restart the opponent's clock (WESPA 5.1.3). */
export const OUT_PLAY_WINDOW_RULES = ['game-over', 'restart-opponent-clock', 'none'] as const;
export type OutPlayWindowRule = (typeof OUT_PLAY_WINDOW_RULES)[number];

/** Tiles the losing player drew before the ruling: shown and returned (seed-001 §2), or overdraw if already on the rack (WESPA 3.10.6). */
export const DRAWN_TILES_ON_LOSS_RULES = ['show-and-return', 'show-and-return-unless-racked', 'none'] as const;
export type DrawnTilesOnLossRule = (typeof DRAWN_TILES_ON_LOSS_RULES)[number];

/** When the clock restarts after an acceptable play: after the first replenishment tile is seen (seed-001 §2). */
export const CLOCK_RESTART_RULES = ['after-first-replenishment-tile', 'none'] as const;
export type ClockRestartRule = (typeof CLOCK_RESTART_RULES)[number];

/**
 * Overdraw remedy: the opponent sees X + `overdrawExtraTiles` tiles (only new tiles if none touched the rack,
 * all of them when that is fewer) and returns X (WESPA 3.9.5; NSA as reported, reference B5.1).
 */
export const OVERDRAW_RULES = ['x-plus-extra', 'none'] as const;
export type OverdrawRule = (typeof OVERDRAW_RULES)[number];

/** Late-game underdraw: the opponent gives the missing tiles from their rack if found in time (WESPA 3.9.8). */
export const UNDERDRAW_RULES = ['opponent-gives-from-rack', 'none'] as const;
export type UnderdrawRule = (typeof UNDERDRAW_RULES)[number];

/** Overtime counted in whole seconds (WESPA 5.3.2: 0:00.9 over is free) or in milliseconds (Woogles). */
export const OVERTIME_COUNTING = ['whole-seconds', 'milliseconds'] as const;
export type OvertimeCounting = (typeof OVERTIME_COUNTING)[number];

/** Overtime forfeit: deduct the full penalty and record at least `forfeitMargin` (WESPA 5.3.3), or a loss with scores standing (Woogles). */
export const OVERTIME_FORFEIT_SCORING = ['deduct-then-margin', 'loss-scores-stand'] as const;
export type OvertimeForfeitScoring = (typeof OVERTIME_FORFEIT_SCORING)[number];

/** Late arrival: seed-001 §1 (clock from minute 5, forfeit at 25), WESPA 2.3 (clock from the start, forfeit when time runs out). */
export const LATE_ARRIVAL_RULES = ['seed-001', 'wespa-2.3', 'none'] as const;
export type LateArrivalRule = (typeof LATE_ARRIVAL_RULES)[number];

/** Resignation: emergency only, margin max(min, lead + min) (WESPA 5.7), or an immediate loss (Woogles). */
export const RESIGNATION_RULES = ['wespa-5.7', 'immediate-loss', 'none'] as const;
export type ResignationRule = (typeof RESIGNATION_RULES)[number];

/** Firsts and seconds for forfeited games: the forfeiter goes first, second, first… (seed-001 §4). */
export const FORFEIT_FIRST_SECOND_RULES = ['alternate-from-first', 'none'] as const;
export type ForfeitFirstSecondRule = (typeof FORFEIT_FIRST_SECOND_RULES)[number];

/** Tiebreaks after wins in a division's standings, in order (NASPA: spread; Swiss events: head-to-head, Buchholz, median). */
export const STANDING_TIEBREAKS = ['spread', 'head-to-head', 'buchholz', 'median', 'rating'] as const;
export type StandingTiebreak = (typeof STANDING_TIEBREAKS)[number];

/** After the result slip is signed and submitted: only a slip that differs from the agreed score (seed-001 §3) or only reversed scores (WESPA 5.4.1) may change. */
export const RESULT_SLIP_RULES = ['agreed-score-only', 'reversed-scores-only', 'none'] as const;
export type ResultSlipRule = (typeof RESULT_SLIP_RULES)[number];

/** Until when a scoring error may be corrected: until the slip is submitted (seed-001 §3) or signed (WESPA 3.5(d)). */
export const SCORING_CORRECTION_RULES = ['until-slip-submitted', 'until-slip-signed', 'none'] as const;
export type ScoringCorrectionRule = (typeof SCORING_CORRECTION_RULES)[number];

/** Face-down exchange tiles left out of the bag: if either player has drawn since, both see them, then they are bagged (WESPA 3.10.15(d)). */
export const UNBAGGED_EXCHANGE_RULES = ['show-then-bag-if-drawn', 'none'] as const;
export type UnbaggedExchangeRule = (typeof UNBAGGED_EXCHANGE_RULES)[number];

/**
 * Until when a wrong adjudication may be corrected: until a newly drawn or retracted tile touches the rack
 * (WESPA 3.10.11), or until tiles are mixed together or a later play is on the board with the clock
 * started (NASPA IV.J.1.n, 2015).
 */
export const WRONG_ADJUDICATION_RULES = ['until-tiles-touch-rack', 'until-tiles-mixed-or-next-play', 'none'] as const;
export type WrongAdjudicationRule = (typeof WRONG_ADJUDICATION_RULES)[number];

/**
 * Challenged words typed or written wrongly: the challenge is reissued, subject to the wrong-adjudication
 * deadline (WESPA 3.10.10), or a player who alone caused an "unacceptable" result is penalised (NASPA IV.J.2, 2012).
 */
export const MISTYPED_CHALLENGE_RULES = ['reissue', 'penalty-if-unacceptable', 'none'] as const;
export type MistypedChallengeRule = (typeof MISTYPED_CHALLENGE_RULES)[number];

/**
 * Illegal placement (centre missed, not in one line, diagonal, off the grid, wrong orientation): the TD
 * decides, an unsuccessful placement challenge is free, a missed centre keeps its premium (WESPA 3.10.14);
 * or the play is challenged off whatever its validity, as any challenge (NASPA, reference B3.1).
 */
export const ILLEGAL_PLACEMENT_RULES = ['wespa-3.10.14', 'challenge-off', 'none'] as const;
export type IllegalPlacementRule = (typeof ILLEGAL_PLACEMENT_RULES)[number];

/** How long a hold may last: until the holder reaches the overtime forfeit limit (WESPA 3.10.5). */
export const HOLD_LIMIT_RULES = ['until-overtime-forfeit', 'none'] as const;
export type HoldLimitRule = (typeof HOLD_LIMIT_RULES)[number];

/** Drawing out of order: overdraw if it leaves the opponent short, otherwise no penalty or show and return (WESPA 3.9.9). */
export const OUT_OF_ORDER_DRAW_RULES = ['wespa-3.9.9', 'none'] as const;
export type OutOfOrderDrawRule = (typeof OUT_OF_ORDER_DRAW_RULES)[number];

/** Tiles exposed or spilled: WESPA 4.4, or NASPA loose tiles (2015 IV.B.3, read only for more than 7 in the bag). */
export const EXPOSED_TILE_RULES = ['wespa-4.4', 'naspa-loose-tiles', 'none'] as const;
export type ExposedTileRule = (typeof EXPOSED_TILE_RULES)[number];

/**
 * Tiles exposed late in the game, when the bag holds fewer than `drawing.exposedTilesLateGameBelow`: the rack goes
 * face down, the opponent turns up 2 and gives the player any 2 of the face-up tiles (WESPA 4.4); NASPA refers
 * the case to IV.B.8, whose text was not read.
 */
export const EXPOSED_TILES_LATE_GAME_RULES = ['wespa-4.4', 'none'] as const;
export type ExposedTilesLateGameRule = (typeof EXPOSED_TILES_LATE_GAME_RULES)[number];

/** A tile that is not found after a search: play continues as if it had never existed (WESPA 4.6). */
export const MISSING_TILE_RULES = ['continue-without', 'none'] as const;
export type MissingTileRule = (typeof MISSING_TILE_RULES)[number];

/** Tiles found outside or in the bag after the game "ended": the player who should have drawn earliest takes them (WESPA 4.3, 4.5). */
export const TILES_FOUND_RULES = ['earliest-drawer-takes', 'none'] as const;
export type TilesFoundRule = (typeof TILES_FOUND_RULES)[number];

/** Clock pressed with a blank undeclared: the opponent restarts the player's clock and demands a declaration (WESPA 3.8(b); NASPA IV.F.1, 2015). */
export const UNDECLARED_BLANK_RULES = ['restart-clock-demand', 'none'] as const;
export type UndeclaredBlankRule = (typeof UNDECLARED_BLANK_RULES)[number];

/**
 * A blank's designation disputed later: WESPA 3.8(c)–(d) (the TD may let a reasonable misreading stand, or
 * allow a replay); fixed from the play after next (NASPA IV.F.2.b, 2009; IV.F.2.a not read); or fixed for
 * the rest of the game (seed-003 rule 10).
 */
export const BLANK_DISPUTE_RULES = ['wespa-3.8', 'fixed-after-next-play', 'fixed', 'none'] as const;
export type BlankDisputeRule = (typeof BLANK_DISPUTE_RULES)[number];

/**
 * A blank's designation disputed on the turn right after it was played: as on later turns (`play.blankDispute`),
 * or no rule known (NASPA IV.F.2.a treats that turn separately; its text was not read).
 */
export const BLANK_DISPUTE_NEXT_TURN_RULES = ['as-later-turns', 'none'] as const;
export type BlankDisputeNextTurnRule = (typeof BLANK_DISPUTE_NEXT_TURN_RULES)[number];

/**
 * Whether an open dispute stops the correspondence clock of the player to move (issue 14): never; while
 * a dispute awaits a director's ruling (the rule set left the matter to one); or also while an appealed
 * automatic ruling awaits the director. Over the board the clock is neutralised while an irregularity is
 * settled (WESPA 3.9.5(a), 3.10.15(i), 5.5); no source speaks of correspondence play or of appeals.
 */
export const DISPUTE_CLOCK_RULES = ['never', 'while-open', 'while-open-or-appealed'] as const;
export type DisputeClockRule = (typeof DISPUTE_CLOCK_RULES)[number];

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
  readonly play: {
    /** Over the board or online; online play has no physical irregularities (platform-differences §3.2). */
    readonly medium: PlayMedium;
    readonly undeclaredBlank: UndeclaredBlankRule;
    readonly blankDispute: BlankDisputeRule;
    readonly blankDisputeNextTurn: BlankDisputeNextTurnRule;
    /** Abort (cancel) requests each player may make; null = no abort rule (Woogles: 1). */
    readonly abortRequestsPerPlayer: number | null;
    /** An abort may not be requested after more game events than this (Woogles: 7). */
    readonly abortMaxEvents: number;
    /** An abort may not be requested when the receiver has less time than this, overtime included (Woogles: 120 s). */
    readonly abortMinReceiverSeconds: number;
    /** An unanswered abort request is accepted after this many seconds (Woogles: 60). */
    readonly abortAutoAcceptSeconds: number;
    /** Nudges (adjudication requests) each player may send an idle opponent; null = no nudge rule (Woogles: 2). */
    readonly nudgeRequestsPerPlayer: number | null;
    /** A nudge unanswered for this many seconds wins by forfeit (Woogles: 120). */
    readonly nudgeSeconds: number;
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
    readonly illegalExchangeProcedure: IllegalExchangeProcedure;
    readonly unspecifiedExchange: UnspecifiedExchangeRule;
    readonly countMismatch: ExchangeCountMismatchRule;
    readonly earlyReturn: EarlyReturnRule;
    /** A player exchanging the whole rack may leave the tiles on the rack instead of face down (seed-000, seed-001 §6.2). */
    readonly allTilesMayStayOnRack: boolean;
    readonly unbaggedTiles: UnbaggedExchangeRule;
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
    readonly earlyDraw: EarlyDrawRule;
    readonly outPlayWindowEnd: OutPlayWindowRule;
    readonly drawnTilesOnLoss: DrawnTilesOnLossRule;
    readonly clockRestart: ClockRestartRule;
    readonly wrongAdjudication: WrongAdjudicationRule;
    readonly mistypedChallenge: MistypedChallengeRule;
    /** Points a player who alone caused an improper lookup with an "unacceptable" result loses (NASPA IV.J.2, 2012: 10). */
    readonly improperLookupPenalty: number;
    readonly illegalPlacement: IllegalPlacementRule;
    readonly holdLimit: HoldLimitRule;
    /** No further tiles are drawn once a challenge is declared, even mid courtesy draw (WESPA 3.9.10; NASPA IV.I.2, 2015). */
    readonly drawStopsOnChallenge: boolean;
  };
  readonly drawing: {
    readonly overdraw: OverdrawRule;
    /** Extra tiles the opponent sees beyond the X overdrawn (X+2: WESPA 3.9.5, reference B5.1). */
    readonly overdrawExtraTiles: number;
    readonly underdraw: UnderdrawRule;
    readonly outOfOrder: OutOfOrderDrawRule;
    readonly exposedTiles: ExposedTileRule;
    readonly exposedTilesLateGame: ExposedTilesLateGameRule;
    /** The late-game exposed-tile rule applies when the bag holds fewer tiles than this (WESPA 4.4: 7; NASPA IV.B.3: more than 7 is ordinary, so 8). */
    readonly exposedTilesLateGameBelow: number;
    readonly missingTile: MissingTileRule;
  };
  readonly end: {
    /** Consecutive scoreless turns (both players together) that end the game; null = no such rule. */
    readonly scorelessTurns: number | null;
    readonly scorelessKinds: readonly ScorelessTurnKind[];
    /** Game ends when both players exchange this many times in a row (seed-003 rule 12b: 2); null = no such rule. */
    readonly consecutiveExchangesEach: number | null;
    readonly goingOut: GoingOutMode;
    readonly tieBreak: TieBreak;
    readonly resignation: ResignationRule;
    /** Smallest resignation margin; the margin is max(this, opponent's lead + this) (WESPA 5.7: 50). */
    readonly resignationMinMargin: number;
    readonly tilesFoundAfterEnd: TilesFoundRule;
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
    /** Minutes on each player's clock (WESPA 5.3.5, NASPA: 25); 0 = untimed. */
    readonly gameMinutes: number;
    readonly overtimeCounting: OvertimeCounting;
    readonly overtimeForfeitScoring: OvertimeForfeitScoring;
    readonly lateArrival: LateArrivalRule;
    /** A late player left with fewer minutes than this may choose to forfeit (WESPA 2.3: 15); null = may always choose. */
    readonly lateOptionalForfeitMinutesLeft: number | null;
    /** Break between games without an announced start (seed-001 §1: 10); null = no rule. */
    readonly breakMinutes: number | null;
    /** Shortest break the director may impose to keep the schedule (seed-001 §1: 5); null = no rule. */
    readonly shortBreakMinutes: number | null;
    /** Whether an open dispute stops the correspondence clock of the player to move (engine/game/clock.ts). */
    readonly disputePausesClock: DisputeClockRule;
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
    readonly decidedBy: MatchDecider;
  };
  readonly tournament: {
    readonly forfeitFirstSecond: ForfeitFirstSecondRule;
    readonly resultSlip: ResultSlipRule;
    readonly scoringCorrection: ScoringCorrectionRule;
    /** A recount may be requested only if the margin is at most this (WESPA 5.5: 20); null = no limit. */
    readonly recountMaxMargin: number | null;
    /** Spread a bye scores, counted as a win (NASPA practice: 50). */
    readonly byeSpread: number;
    /** Spread a forfeit win scores; the forfeiter loses by as much (NASPA practice: 50; WESPA 2.3.6: 100). */
    readonly forfeitSpread: number;
    /** Who gets the bye in an odd round (engine/tournament/pairing/byes.ts). */
    readonly byeChoice: ByeChoice;
    /** Tiebreaks after wins, in order; ties left after them go to the higher seed rating, then the lower entrant number. */
    readonly tiebreaks: readonly StandingTiebreak[];
    /** Whether a tied game stands (each player ½ a win); false: a tie is refused (TIE_NOT_ALLOWED). */
    readonly tiesAllowed: boolean;
  };
  /** Where each parameter's value comes from, keyed by dotted path (`challenge.mode`). */
  readonly sources: Readonly<Record<string, readonly Citation[]>>;
}

/** A partial rule set used to override fields of a preset. */
export type RuleSetOverrides = {
  readonly [K in keyof RuleSet]?: RuleSet[K] extends Readonly<Record<string, unknown>> ? Partial<RuleSet[K]> : RuleSet[K];
};
