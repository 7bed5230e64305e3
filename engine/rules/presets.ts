import { cite, type Citation } from '../errors.js';
import type { RuleSet, RuleSetId } from './ruleset.js';

const s = (...c: Citation[]): readonly Citation[] => c;

const STANDARD_BOARD = { layout: 'CrosswordGame', distribution: 'english', rackSize: 7, bingoBonus: 50 } as const;
const BOARD_SOURCES = {
  'board.layout': s(cite('seed-003', 'rule 3', 'Seed')),
  'board.rackSize': s(cite('seed-003', 'rule 2', 'Seed')),
  'board.bingoBonus': s(cite('seed-003', 'scoring 8', 'Seed')),
};

/**
 * NSA tournament rules as changed on 25 July 2008 (seed-001), with the exchange disputes of seed-000.
 * Numbers the seeds do not give come from NASPA practice (reference/rules, tagged [S]/[U]).
 */
export const NSA_2008: RuleSet = {
  id: 'NSA_2008',
  name: 'NSA tournament rules (2008)',
  description: 'Double challenge, exchanges only with 7 or more tiles in the bag, six scoreless turns end the game, going out earns twice the opponent\'s rack.',
  board: STANDARD_BOARD,
  exchange: { minBag: 7, allowEmpty: false, maxIsBagCount: false, lateDiscoveryPenalty: 30, opponentChoiceSeconds: 60 },
  challenge: { mode: 'double', points: 0, pointsRecipient: 'challenged-player', windowSeconds: 5, outPlayHoldSeconds: 15, courtesyDrawSeconds: 15, selfLookup: false },
  end: {
    scorelessTurns: 6,
    scorelessKinds: ['pass', 'exchange', 'challenged-off', 'lost-challenge'],
    consecutiveExchangesEach: null,
    goingOut: 'double-opponent-rack',
    tieBreak: 'none',
  },
  time: { overtimePenaltyPerMinute: 10, overtimeForfeitMinutes: 10, lateClockStartMinutes: 5, lateForfeitMinutes: 25, forfeitMargin: 100 },
  house: { blankSubstitution: false, freeTrades: false },
  match: { games: null, decidedBy: 'combined-points' },
  sources: {
    ...BOARD_SOURCES,
    'exchange.minBag': s(cite('seed-000', 'When Can You Swap?', 'Seed'), cite('seed-001', '§6', 'Seed')),
    'exchange.lateDiscoveryPenalty': s(cite('seed-000', 'Penalties', 'Seed')),
    'exchange.opponentChoiceSeconds': s(cite('seed-000', 'Penalties', 'Seed')),
    'challenge.mode': s(cite('seed-001', '§2', 'Seed'), cite('naspa', 'B3.1', 'S')),
    'challenge.windowSeconds': s(cite('seed-001', '§8', 'Seed')),
    'challenge.outPlayHoldSeconds': s(cite('seed-001', '§9', 'Seed')),
    'challenge.courtesyDrawSeconds': s(cite('naspa', 'B4.2', 'S')),
    'end.scorelessTurns': s(cite('naspa', 'B6.1', 'S')),
    'end.scorelessKinds': s(cite('naspa', 'B6.4', 'U')),
    'end.goingOut': s(cite('naspa', 'B6.5', 'S')),
    'time.overtimePenaltyPerMinute': s(cite('naspa', 'B7.1', 'S')),
    'time.overtimeForfeitMinutes': s(cite('naspa', 'B7.2', 'S')),
    'time.lateClockStartMinutes': s(cite('seed-001', '§1', 'Seed')),
    'time.lateForfeitMinutes': s(cite('seed-001', '§1', 'Seed')),
    'time.forfeitMargin': s(cite('naspa', 'B7.2', 'U')),
  },
};

/** WESPA Rules V3.0 (reference/rules/tournament-rules.md Part A, read in full). */
export const WESPA: RuleSet = {
  id: 'WESPA',
  name: 'WESPA tournament rules (V3.0)',
  description: '5 points per valid word unsuccessfully challenged, 10 points per minute of overtime, forfeit at 10 minutes over.',
  board: STANDARD_BOARD,
  exchange: { minBag: 7, allowEmpty: false, maxIsBagCount: false, lateDiscoveryPenalty: 30, opponentChoiceSeconds: 60 },
  challenge: { mode: 'points-per-word', points: 5, pointsRecipient: 'challenged-player', windowSeconds: 0, outPlayHoldSeconds: 5, courtesyDrawSeconds: 30, selfLookup: false },
  end: {
    scorelessTurns: 6,
    scorelessKinds: ['pass', 'exchange', 'challenged-off'],
    consecutiveExchangesEach: null,
    goingOut: 'double-opponent-rack',
    tieBreak: 'none',
  },
  time: { overtimePenaltyPerMinute: 10, overtimeForfeitMinutes: 10, lateClockStartMinutes: 0, lateForfeitMinutes: 25, forfeitMargin: 100 },
  house: { blankSubstitution: false, freeTrades: false },
  match: { games: null, decidedBy: 'combined-points' },
  sources: {
    ...BOARD_SOURCES,
    'exchange.minBag': s(cite('wespa-3.0', '3.2.1', 'V')),
    'exchange.lateDiscoveryPenalty': s(cite('wespa-3.0', '3.10.15(i)', 'V')),
    'exchange.opponentChoiceSeconds': s(cite('wespa-3.0', '3.10.15(i)', 'V')),
    'challenge.mode': s(cite('wespa-3.0', '3.10.13', 'V')),
    'challenge.points': s(cite('wespa-3.0', '3.10.13', 'V')),
    'challenge.pointsRecipient': s(cite('wespa-3.0', '3.10.13 (silent; Woogles credits the challenged player)', 'U')),
    'challenge.outPlayHoldSeconds': s(cite('wespa-3.0', '5.1.3', 'V')),
    'challenge.courtesyDrawSeconds': s(cite('wespa-3.0', '3.10.6', 'V')),
    'end.scorelessTurns': s(cite('wespa-3.0', '5.2', 'V')),
    'end.scorelessKinds': s(cite('wespa-3.0', '5.2', 'V')),
    'end.goingOut': s(cite('wespa-3.0', '5.1.4', 'V')),
    'time.overtimePenaltyPerMinute': s(cite('wespa-3.0', '5.3.2', 'V')),
    'time.overtimeForfeitMinutes': s(cite('wespa-3.0', '5.3.3', 'V')),
    'time.lateForfeitMinutes': s(cite('wespa-3.0', '2.3.3–2.3.6', 'V')),
    'time.forfeitMargin': s(cite('wespa-3.0', '2.3.6, 5.3.3', 'V')),
  },
};

/** Friendly (non-tournament) house rules rev4 (seed-002): blank substitution, free trades, free challenges. */
export const FRIENDLY: RuleSet = {
  id: 'FRIENDLY',
  name: 'Friendly house rules (rev4)',
  description: 'Blank substitution, free trades for bad racks, free challenges and self-lookup.',
  board: STANDARD_BOARD,
  exchange: { minBag: 7, allowEmpty: false, maxIsBagCount: false, lateDiscoveryPenalty: 0, opponentChoiceSeconds: 0 },
  challenge: { mode: 'free', points: 0, pointsRecipient: 'challenged-player', windowSeconds: 0, outPlayHoldSeconds: 0, courtesyDrawSeconds: 0, selfLookup: true },
  end: {
    scorelessTurns: 6,
    scorelessKinds: ['pass', 'exchange'],
    consecutiveExchangesEach: null,
    goingOut: 'transfer-opponent-rack',
    tieBreak: 'none',
  },
  time: { overtimePenaltyPerMinute: 0, overtimeForfeitMinutes: null, lateClockStartMinutes: 0, lateForfeitMinutes: 0, forfeitMargin: 0 },
  house: { blankSubstitution: true, freeTrades: true },
  match: { games: null, decidedBy: 'combined-points' },
  sources: {
    ...BOARD_SOURCES,
    'challenge.mode': s(cite('seed-002', 'Free Challenges & the Dictionary', 'Seed')),
    'challenge.selfLookup': s(cite('seed-002', 'Free Challenges & the Dictionary', 'Seed')),
    'house.blankSubstitution': s(cite('seed-002', 'Blank Substitution', 'Seed')),
    'house.freeTrades': s(cite('seed-002', 'Free Trades', 'Seed')),
    'end.scorelessTurns': s(cite('naspa', 'B6.1 (seed-002 is silent; tournament default kept)', 'U')),
    'end.goingOut': s(cite('seed-003', 'scoring 9 (seed-002 is silent; box-rule transfer kept)', 'U')),
  },
};

/** The two-game match variant (seed-003). */
export const MATCH_VARIANT: RuleSet = {
  id: 'MATCH_VARIANT',
  name: 'Two-game match variant',
  description: 'Exchange zero or more tiles (at most the pool), game ends on going out or after both players exchange twice in a row; matches of two games on combined points.',
  board: STANDARD_BOARD,
  exchange: { minBag: 0, allowEmpty: true, maxIsBagCount: true, lateDiscoveryPenalty: 0, opponentChoiceSeconds: 0 },
  challenge: { mode: 'double', points: 0, pointsRecipient: 'challenged-player', windowSeconds: 0, outPlayHoldSeconds: 0, courtesyDrawSeconds: 0, selfLookup: false },
  end: {
    scorelessTurns: null,
    scorelessKinds: [],
    consecutiveExchangesEach: 2,
    goingOut: 'transfer-opponent-rack',
    tieBreak: 'score-before-adjustments',
  },
  time: { overtimePenaltyPerMinute: 0, overtimeForfeitMinutes: null, lateClockStartMinutes: 0, lateForfeitMinutes: 0, forfeitMargin: 0 },
  house: { blankSubstitution: false, freeTrades: false },
  match: { games: 2, decidedBy: 'combined-points' },
  sources: {
    ...BOARD_SOURCES,
    'exchange.minBag': s(cite('seed-003', 'rule 11', 'Seed')),
    'exchange.allowEmpty': s(cite('seed-003', 'rule 11', 'Seed')),
    'exchange.maxIsBagCount': s(cite('seed-003', 'rule 11', 'Seed')),
    'challenge.mode': s(cite('seed-003', 'rule 9 (the seed is silent on challenges; double kept)', 'U')),
    'end.consecutiveExchangesEach': s(cite('seed-003', 'rule 12b', 'Seed')),
    'end.goingOut': s(cite('seed-003', 'scoring 9', 'Seed')),
    'end.tieBreak': s(cite('seed-003', 'scoring 10', 'Seed')),
    'match.games': s(cite('seed-003', 'rule 1', 'Seed')),
    'match.decidedBy': s(cite('seed-003', 'scoring 11', 'Seed')),
  },
};

/** Online play as on Woogles with the VOID rule: invalid words are rejected at submission. */
export const ONLINE_VOID: RuleSet = {
  id: 'ONLINE_VOID',
  name: 'Online, void challenge (Woogles)',
  description: 'Words are checked when the move is submitted; there are no challenges.',
  board: STANDARD_BOARD,
  exchange: { minBag: 7, allowEmpty: false, maxIsBagCount: false, lateDiscoveryPenalty: 0, opponentChoiceSeconds: 0 },
  challenge: { mode: 'void', points: 0, pointsRecipient: 'challenged-player', windowSeconds: 0, outPlayHoldSeconds: 0, courtesyDrawSeconds: 0, selfLookup: false },
  end: {
    scorelessTurns: 6,
    scorelessKinds: ['pass', 'exchange', 'challenged-off', 'lost-challenge'],
    consecutiveExchangesEach: null,
    goingOut: 'double-opponent-rack',
    tieBreak: 'none',
  },
  time: { overtimePenaltyPerMinute: 10, overtimeForfeitMinutes: 10, lateClockStartMinutes: 0, lateForfeitMinutes: 0, forfeitMargin: 0 },
  house: { blankSubstitution: false, freeTrades: false },
  match: { games: null, decidedBy: 'combined-points' },
  sources: {
    ...BOARD_SOURCES,
    'challenge.mode': s(cite('woogles', 'macondo game/challenge.go (VOID)', 'V')),
    'exchange.minBag': s(cite('woogles', 'macondo game/rules.go DefaultExchangeLimit', 'V')),
    'end.scorelessTurns': s(cite('woogles', 'macondo game/game.go DefaultMaxScorelessTurns', 'V')),
    'end.goingOut': s(cite('woogles', 'macondo game/game.go', 'V')),
    'time.overtimePenaltyPerMinute': s(cite('woogles', 'liwords pkg/gameplay/end.go', 'V')),
  },
};

export const PRESETS: Readonly<Record<RuleSetId, RuleSet>> = { NSA_2008, WESPA, FRIENDLY, MATCH_VARIANT, ONLINE_VOID };
