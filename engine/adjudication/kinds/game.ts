import { FORFEIT_ROLE, SLIP_STATE, TURN_RECORD_KIND } from './enums.js';
import { f, gate, ONLINE, type DisputeKindSpec } from './spec.js';

/** Time, scores and the end of the game (seed-001 §1–§4; WESPA 2.3, 3.5, 5.2–5.7; seed-003 rules 1, 12, scoring 9–11). */

const DAY_MINUTES = 24 * 60;

export const TIMING_AND_SCORING_KINDS: readonly DisputeKindSpec[] = [
  {
    kind: 'late-arrival',
    description: 'A player arrives late for a round.',
    act: 'arriving late',
    sources: ['seed-001 §1', 'WESPA 2.3'],
    parameters: [
      'play.medium',
      'time.lateArrival',
      'time.breakMinutes',
      'time.shortBreakMinutes',
      'time.lateForfeitMinutes',
      'time.forfeitMargin',
      'time.lateClockStartMinutes',
      'time.gameMinutes',
      'time.lateOptionalForfeitMinutesLeft',
    ],
    gates: [ONLINE, gate('time.lateArrival'), gate('time.breakMinutes')],
    facts: [
      f.number(
        'minutesLate',
        DAY_MINUTES,
        'Minutes after the start of the round when the player arrived.',
        'time.lateClockStartMinutes, time.lateForfeitMinutes',
        {
          unit: 'minutes',
        },
      ),
      f.bool('announcedStart', 'The round had an announced starting time.', 'time.lateArrival, time.breakMinutes'),
      f.number(
        'clockStartedAtMinute',
        DAY_MINUTES,
        'Minute after the start at which the late player’s clock was started; left out = when the rules allow.',
        'time.lateClockStartMinutes',
        {
          unit: 'minutes',
          optional: true,
        },
      ),
    ],
    example: { description: 'Arrived 12 minutes after an announced start.', kind: 'late-arrival', minutesLate: 12, announcedStart: true },
  },
  {
    kind: 'overtime',
    description: 'A player’s clock went past zero.',
    act: 'running over time',
    sources: ['WESPA 5.3', 'NASPA ref. B7', 'Woogles liwords pkg/gameplay/end.go'],
    parameters: [
      'time.overtimePenaltyPerMinute',
      'time.overtimeForfeitMinutes',
      'time.overtimeCounting',
      'time.overtimeForfeitScoring',
      'time.forfeitMargin',
    ],
    gates: [gate('time.overtimePenaltyPerMinute', 0), gate('time.overtimeForfeitMinutes')],
    facts: [
      f.number('secondsOver', 24 * 3600, 'Seconds over time (may be fractional).', 'time.overtimePenaltyPerMinute, time.overtimeCounting', {
        unit: 'seconds',
      }),
      f.scores('scores', 'Scores before any overtime penalty; needed to record a WESPA 5.3.3 forfeit.', 'time.overtimeForfeitScoring', {
        unit: 'points',
        optional: true,
      }),
    ],
    example: { description: '2:05 over time.', kind: 'overtime', secondsOver: 125 },
  },
  {
    kind: 'scoring-error',
    description: 'A turn of the player’s was scored wrongly.',
    act: 'the wrongly scored turn',
    sources: ['seed-001 §3', 'WESPA 3.5(d), 5.4.1'],
    parameters: ['play.medium', 'tournament.scoringCorrection', 'tournament.resultSlip'],
    gates: [ONLINE, gate('tournament.scoringCorrection')],
    facts: [
      f.int('announced', 0, 10_000, 'The score recorded.', 'the correction', { unit: 'points' }),
      f.int('correct', 0, 10_000, 'The right score (not equal to announced).', 'the correction', { unit: 'points' }),
      f.oneOf('slip', SLIP_STATE, 'Where the result slip is.', 'tournament.scoringCorrection'),
    ],
    example: {
      description: 'A turn recorded as 22 should have been 28; the slip is signed but not handed in.',
      kind: 'scoring-error',
      announced: 22,
      correct: 28,
      slip: 'signed',
    },
  },
  {
    kind: 'tally-slip-change',
    description: 'A change to the result slip is asked for.',
    act: 'the change asked for',
    sources: ['seed-001 §3', 'WESPA 5.4.1'],
    parameters: ['play.medium', 'tournament.resultSlip', 'tournament.scoringCorrection'],
    gates: [ONLINE, gate('tournament.resultSlip')],
    facts: [
      f.oneOf('slip', SLIP_STATE, 'Where the result slip is.', 'tournament.scoringCorrection, tournament.resultSlip'),
      f.bool('slipMatchesAgreedScore', 'The slip shows the score the players agreed.', 'tournament.resultSlip (agreed-score-only)'),
      f.bool(
        'scoresReversed',
        'The winner’s and loser’s scores were reversed (not with slipMatchesAgreedScore).',
        'tournament.resultSlip (WESPA 5.4.1)',
        {
          default: false,
        },
      ),
      f.bool('substantiatedByScoreSheets', 'The score sheets or cards show the agreed score.', 'tournament.resultSlip (seed-001 §3)', {
        default: false,
      }),
      f.bool('bothAgree', 'Both players agree to the correction before the slip is handed in.', 'tournament.resultSlip (WESPA 5.4.1)', {
        default: false,
      }),
      f.bool('unethicalConductProven', 'Unethical behaviour is proven or admitted after the fact.', 'seed-001 §3 (director’s discretion)', {
        default: false,
      }),
    ],
    example: {
      description: 'The submitted slip does not show the score agreed on the score sheets.',
      kind: 'tally-slip-change',
      slip: 'submitted',
      slipMatchesAgreedScore: false,
      substantiatedByScoreSheets: true,
    },
  },
  {
    kind: 'recount-request',
    description: 'A recount of the game is asked for.',
    act: 'the recount asked for',
    sources: ['seed-001 §3', 'WESPA 5.5'],
    parameters: ['play.medium', 'tournament.recountMaxMargin', 'tournament.scoringCorrection'],
    gates: [ONLINE, gate('tournament.scoringCorrection')],
    facts: [
      f.int('margin', 0, 10_000, 'The game’s margin.', 'tournament.recountMaxMargin', { unit: 'points' }),
      f.oneOf('slip', SLIP_STATE, 'Where the result slip is.', 'tournament.scoringCorrection'),
    ],
    example: {
      description: 'Recount asked for at a 35-point margin before signing.',
      kind: 'recount-request',
      margin: 35,
      slip: 'not-signed',
    },
  },
];

export const END_KINDS: readonly DisputeKindSpec[] = [
  {
    kind: 'scoreless-turns',
    description: 'Does a run of turns end the game? Turns oldest first; players alternate.',
    act: 'the run of turns',
    sources: ['WESPA 5.2', 'NASPA ref. B6.1', 'seed-003 rule 12b', 'Woogles macondo game/game.go'],
    parameters: ['end.scorelessTurns', 'end.scorelessKinds', 'end.consecutiveExchangesEach', 'end.goingOut'],
    gates: [gate('end.scorelessTurns'), gate('end.consecutiveExchangesEach')],
    facts: [
      {
        name: 'turns',
        type: 'enum-list',
        enum: TURN_RECORD_KIND,
        minItems: 1,
        description: 'The turns, oldest first.',
        feeds: 'end.scorelessTurns, end.scorelessKinds, end.consecutiveExchangesEach',
      },
      f.scores(
        'rackValues',
        'Value of each rack, player = who made the last turn; not negative.',
        'the rack deductions when the game ends (WESPA 5.2)',
        {
          unit: 'points',
          optional: true,
        },
      ),
    ],
    example: {
      description: 'Six scoreless turns in a row, one of them a lost double challenge.',
      kind: 'scoreless-turns',
      turns: ['pass', 'exchange', 'lost-challenge', 'pass', 'pass', 'exchange'],
      rackValues: { player: 9, opponent: 4 },
    },
  },
  {
    kind: 'going-out',
    description: 'The player went out.',
    act: 'going out',
    sources: ['NASPA ref. B6.5', 'WESPA 5.1.4', 'seed-003 scoring 9'],
    parameters: ['end.goingOut'],
    gates: [],
    facts: [
      f.int('opponentRackValue', 0, 1000, 'Face value of the tiles left on the opponent’s rack.', 'end.goingOut', { unit: 'points' }),
    ],
    example: { description: "Went out with 12 points left on the opponent's rack.", kind: 'going-out', opponentRackValue: 12 },
  },
  {
    kind: 'resignation',
    description: 'The player resigns.',
    act: 'resigning',
    sources: ['WESPA 5.7', 'Woogles liwords pkg/gameplay/game.go'],
    parameters: ['end.resignation', 'end.resignationMinMargin'],
    gates: [gate('end.resignation')],
    facts: [
      f.scores('scores', 'Scores when the player resigns.', 'end.resignationMinMargin (WESPA 5.7 margin)', { unit: 'points' }),
      f.bool('emergency', 'The resignation is for an emergency.', 'end.resignation (WESPA 5.7)'),
    ],
    example: {
      description: 'Emergency resignation 80 points behind.',
      kind: 'resignation',
      scores: { player: 200, opponent: 280 },
      emergency: true,
    },
  },
  {
    kind: 'forfeit-order',
    description: 'Firsts and seconds for unplayed games, in round order.',
    act: 'the unplayed games',
    sources: ['seed-001 §4'],
    parameters: ['tournament.forfeitFirstSecond'],
    gates: [gate('tournament.forfeitFirstSecond')],
    facts: [
      {
        name: 'games',
        type: 'object-list',
        itemName: 'ForfeitGame',
        minItems: 1,
        item: [
          f.int('round', 1, 10_000, 'The round, each once.', 'tournament.forfeitFirstSecond', { unit: 'round' }),
          f.oneOf('role', FORFEIT_ROLE, 'The player’s part in that round’s game.', 'tournament.forfeitFirstSecond'),
        ],
        description: 'The player’s unplayed games.',
        feeds: 'tournament.forfeitFirstSecond',
      },
    ],
    example: {
      description: 'Seed-001 §4: forfeits in rounds 1, 3 and 5, a bye in round 4.',
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
  {
    kind: 'tied-game',
    description: 'The final scores are tied.',
    act: 'the tied result',
    sources: ['seed-003 scoring 10'],
    parameters: ['end.tieBreak'],
    gates: [],
    facts: [
      f.scores('finalScores', 'The final scores (equal).', 'the tie', { unit: 'points' }),
      f.scores('scoresBeforeAdjustments', 'The scores before end-of-game adjustments.', 'end.tieBreak', { unit: 'points' }),
    ],
    example: {
      description: 'Tied at 350 after unplayed tiles; 340-355 before.',
      kind: 'tied-game',
      finalScores: { player: 350, opponent: 350 },
      scoresBeforeAdjustments: { player: 340, opponent: 355 },
    },
  },
  {
    kind: 'match-result',
    description: 'Who won the match?',
    act: 'the match',
    sources: ['seed-003 rule 1, scoring 11'],
    parameters: ['match.games', 'match.decidedBy'],
    gates: [gate('match.games')],
    facts: [
      {
        name: 'games',
        type: 'scores-list',
        minItems: 1,
        unit: 'points',
        description: 'Each game’s scores, as many games as the rule set’s match.games.',
        feeds: 'match.games, match.decidedBy',
      },
    ],
    example: {
      description: 'Seed-003: two games, 400-380 and 350-390.',
      kind: 'match-result',
      games: [
        { player: 400, opponent: 380 },
        { player: 350, opponent: 390 },
      ],
    },
  },
];
