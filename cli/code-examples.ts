import type { RulingCode } from '../engine/adjudication/codes.js';
import type { RuleSetId } from '../engine/rules/ruleset.js';

/**
 * One dispute per ruling code that the code answers, for the code table of docs/adjudication.md (the
 * generator and test/cli/readme-rules.test.ts check that each still gives its code).
 */
export interface CodeExample {
  readonly rules: RuleSetId;
  readonly overrides?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly dispute: Readonly<Record<string, unknown>>;
}

export const CODE_EXAMPLES: { readonly [C in RulingCode]: CodeExample } = {
  NOT_APPLICABLE: { rules: 'FRIENDLY', dispute: { kind: 'overdraw', tilesOnRack: 5, drawn: 3, touchedRack: false } },
  NO_REMEDY_STATED: { rules: 'MATCH_VARIANT', dispute: { kind: 'illegal-exchange', bagCount: 3, stage: 'announced', exchangedCount: 5 } },
  NO_PENALTY: { rules: 'MATCH_VARIANT', dispute: { kind: 'illegal-exchange', bagCount: 5, stage: 'announced', exchangedCount: 3 } },
  TURN_IS_PASS: { rules: 'WESPA', dispute: { kind: 'exchange-unspecified' } },
  TURN_LOST: { rules: 'NSA_2008', dispute: { kind: 'exchange-unspecified' } },
  ZERO_TILE_EXCHANGE: { rules: 'MATCH_VARIANT', dispute: { kind: 'exchange-unspecified' } },
  TILES_SHOWN_AND_RETURNED: {
    rules: 'NSA_2008',
    dispute: { kind: 'return-from-challenge', playAcceptable: false, drawnTiles: 3, drawnTouchedRack: false },
  },
  OPPONENT_CHOOSES_TILES: {
    rules: 'NSA_2008',
    dispute: { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4, rackSize: 7 },
  },
  SCORE_PENALTY: { rules: 'NSA_2008', dispute: { kind: 'mistyped-challenge', causedBy: 'opponent', resultShown: 'unacceptable' } },
  FACE_DOWN_COUNT_EXCHANGED: { rules: 'NSA_2008', dispute: { kind: 'exchange-count-mismatch', announced: 5, placedFaceDown: 4 } },
  ALL_TILES_EXCHANGED: { rules: 'NSA_2008', dispute: { kind: 'exchange-count-mismatch', announced: 7, placedFaceDown: 0 } },
  BREAK_ALLOWANCE: { rules: 'NSA_2008', dispute: { kind: 'late-arrival', minutesLate: 8, announcedStart: false } },
  CLOCK_CHARGED: { rules: 'NSA_2008', dispute: { kind: 'late-arrival', minutesLate: 12, announcedStart: true } },
  GAME_FORFEITED: { rules: 'ONLINE_VOID', dispute: { kind: 'idle-opponent', answered: false, secondsUnanswered: 130 } },
  OVERTIME_PENALTY: { rules: 'NSA_2008', dispute: { kind: 'overtime', secondsOver: 125 } },
  PLAY_WITHDRAWN: { rules: 'NSA_2008', dispute: { kind: 'placement-challenge', fault: 'opening-misses-centre', playValid: true } },
  PLAY_AGAIN: { rules: 'FRIENDLY', dispute: { kind: 'challenge-outcome', playValid: false, wordsChallenged: 2 } },
  PLAY_STANDS: { rules: 'NSA_2008', dispute: { kind: 'return-from-challenge', playAcceptable: true } },
  CHALLENGER_LOSES_TURN: { rules: 'NSA_2008', dispute: { kind: 'challenge-outcome', playValid: true, wordsChallenged: 2 } },
  CHALLENGE_POINTS: { rules: 'WESPA', dispute: { kind: 'challenge-outcome', playValid: true, wordsChallenged: 2 } },
  CHALLENGER_LOSES_GAME: {
    rules: 'NSA_2008',
    overrides: { challenge: { mode: 'triple' } },
    dispute: { kind: 'challenge-outcome', playValid: true },
  },
  CHALLENGER_WINS_GAME: {
    rules: 'NSA_2008',
    overrides: { challenge: { mode: 'triple' } },
    dispute: { kind: 'challenge-outcome', playValid: false },
  },
  OVERDRAW_PROCEDURE: { rules: 'NSA_2008', dispute: { kind: 'overdraw', tilesOnRack: 5, drawn: 3, touchedRack: false } },
  DIRECTOR_MAY_ALLOW_CHALLENGE: {
    rules: 'NSA_2008',
    dispute: { kind: 'fast-bagging', secondsBeforeDraw: 2, scoreRecordedBeforeDraw: true },
  },
  CHALLENGE_ALLOWED: {
    rules: 'WESPA',
    dispute: { kind: 'challenge-after-draw', secondsBeforeDraw: 8, scoreRecordedBeforeDraw: false, drawnTiles: 2 },
  },
  PLAY_ACCEPTED: { rules: 'WESPA', dispute: { kind: 'fast-bagging', secondsBeforeDraw: 2, scoreRecordedBeforeDraw: true } },
  WINDOW_OPEN: {
    rules: 'ONLINE_VOID',
    dispute: { kind: 'abort-request', gameEvents: 3, receiverSecondsLeft: 900, reply: 'none', secondsWithoutReply: 30 },
  },
  HOLD_VALID: { rules: 'WESPA', dispute: { kind: 'long-hold', holderOvertimeSeconds: 120 } },
  CHALLENGE_VALID: { rules: 'WESPA', dispute: { kind: 'out-play-hold', secondsAfterNeutralise: 20, held: false, challenged: true } },
  GAME_OVER: { rules: 'NSA_2008', dispute: { kind: 'out-play-hold', secondsAfterNeutralise: 20, held: false, challenged: true } },
  OPPONENT_CLOCK_RESTARTS: {
    rules: 'WESPA',
    dispute: { kind: 'out-play-hold', secondsAfterNeutralise: 20, held: false, challenged: false },
  },
  OPPONENT_GIVES_TILES: { rules: 'WESPA', dispute: { kind: 'underdraw', missing: 1, discovered: 'before-next-turn-completed' } },
  NO_CORRECTION: {
    rules: 'NSA_2008',
    dispute: { kind: 'wrong-adjudication', ruledAcceptable: true, tilesTouchedRack: false, nextPlayMade: true },
  },
  SCORE_CORRECTED: { rules: 'NSA_2008', dispute: { kind: 'scoring-error', announced: 22, correct: 28, slip: 'signed' } },
  CORRECTION_ALLOWED: { rules: 'WESPA', dispute: { kind: 'tally-slip-change', slip: 'not-signed', slipMatchesAgreedScore: false } },
  SLIP_CORRECTED: {
    rules: 'NSA_2008',
    dispute: { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: false, substantiatedByScoreSheets: true },
  },
  RESULT_STANDS: { rules: 'WESPA', dispute: { kind: 'scoring-error', announced: 22, correct: 28, slip: 'signed' } },
  DIRECTOR_DISCRETION: { rules: 'WESPA', dispute: { kind: 'placement-challenge', fault: 'opening-misses-centre', playValid: true } },
  RECOUNT_ALLOWED: { rules: 'NSA_2008', dispute: { kind: 'recount-request', margin: 35, slip: 'not-signed' } },
  RECOUNT_REFUSED: { rules: 'WESPA', dispute: { kind: 'recount-request', margin: 35, slip: 'not-signed' } },
  GAME_ENDS: {
    rules: 'NSA_2008',
    dispute: {
      kind: 'scoreless-turns',
      turns: ['pass', 'exchange', 'lost-challenge', 'pass', 'pass', 'exchange'],
      rackValues: { player: 9, opponent: 4 },
    },
  },
  GAME_CONTINUES: {
    rules: 'WESPA',
    dispute: {
      kind: 'scoreless-turns',
      turns: ['pass', 'exchange', 'lost-challenge', 'pass', 'pass', 'exchange'],
      rackValues: { player: 9, opponent: 4 },
    },
  },
  GOING_OUT_BONUS: { rules: 'NSA_2008', dispute: { kind: 'going-out', opponentRackValue: 12 } },
  RESIGNATION_SCORED: { rules: 'WESPA', dispute: { kind: 'resignation', scores: { player: 200, opponent: 280 }, emergency: true } },
  GAME_RESIGNED: { rules: 'ONLINE_VOID', dispute: { kind: 'resignation', scores: { player: 200, opponent: 280 }, emergency: true } },
  FIRSTS_ASSIGNED: {
    rules: 'NSA_2008',
    dispute: {
      kind: 'forfeit-order',
      games: [
        { round: 1, role: 'forfeiter' },
        { round: 2, role: 'opponent' },
        { round: 3, role: 'forfeiter' },
        { round: 4, role: 'bye' },
        { round: 5, role: 'forfeiter' },
      ],
    },
  },
  TIE_STANDS: {
    rules: 'NSA_2008',
    dispute: { kind: 'tied-game', finalScores: { player: 350, opponent: 350 }, scoresBeforeAdjustments: { player: 340, opponent: 355 } },
  },
  TIE_BROKEN: {
    rules: 'MATCH_VARIANT',
    dispute: { kind: 'tied-game', finalScores: { player: 350, opponent: 350 }, scoresBeforeAdjustments: { player: 340, opponent: 355 } },
  },
  MATCH_DECIDED: {
    rules: 'MATCH_VARIANT',
    dispute: {
      kind: 'match-result',
      games: [
        { player: 400, opponent: 380 },
        { player: 350, opponent: 390 },
      ],
    },
  },
  MATCH_TIED: {
    rules: 'MATCH_VARIANT',
    dispute: {
      kind: 'match-result',
      games: [
        { player: 400, opponent: 380 },
        { player: 360, opponent: 380 },
      ],
    },
  },
  TILES_COUNT_AS_DRAWN: { rules: 'NSA_2008', dispute: { kind: 'spilled-tiles', exposed: 1, bagCount: 30, moment: 'during-draw' } },
  RULING_CORRECTED: {
    rules: 'WESPA',
    dispute: { kind: 'wrong-adjudication', ruledAcceptable: true, tilesTouchedRack: false, nextPlayMade: true },
  },
  CHALLENGE_REISSUED: { rules: 'WESPA', dispute: { kind: 'mistyped-challenge', causedBy: 'opponent', resultShown: 'unacceptable' } },
  RESULT_RECALCULATED: {
    rules: 'WESPA',
    dispute: {
      kind: 'tiles-found',
      found: 2,
      where: 'in-bag',
      racks: { player: 0, opponent: 5 },
      shouldHaveDrawnEarliest: 'opponent',
      slip: 'not-signed',
    },
  },
  BLANK_DECLARATION_DEMANDED: { rules: 'NSA_2008', dispute: { kind: 'blank-designation', designation: 'undeclared' } },
  DESIGNATION_STANDS: { rules: 'NSA_2008', dispute: { kind: 'blank-designation', designation: 'properly-declared', playsSince: 2 } },
  REQUEST_REFUSED: { rules: 'ONLINE_VOID', dispute: { kind: 'abort-request', gameEvents: 8, receiverSecondsLeft: 900, reply: 'accepted' } },
  GAME_ABORTED: {
    rules: 'ONLINE_VOID',
    dispute: { kind: 'abort-request', gameEvents: 4, receiverSecondsLeft: 900, reply: 'none', secondsWithoutReply: 75 },
  },
  SUBSTITUTION_ALLOWED: { rules: 'FRIENDLY', dispute: { kind: 'blank-substitution', blankLetter: 'E', tileGiven: 'E' } },
  SUBSTITUTION_REFUSED: { rules: 'NSA_2008', dispute: { kind: 'blank-substitution', blankLetter: 'E', tileGiven: 'E' } },
  FREE_TRADE_ALLOWED: { rules: 'FRIENDLY', dispute: { kind: 'free-trade', rack: 'AAAITUY' } },
  FREE_TRADE_REFUSED: { rules: 'NSA_2008', dispute: { kind: 'free-trade', rack: 'AAAITUY' } },
};
