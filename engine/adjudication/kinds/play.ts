import { BLANK_DESIGNATION, REQUEST_REPLY } from './enums.js';
import { f, gate, MAX_RACK, ONLINE, type DisputeKindSpec } from './spec.js';

/** Blanks, online requests and house rules (WESPA 3.8; NASPA IV.F; seed-003 rule 10; Woogles meta-events; seed-002). */

const MONTH = 30 * 24 * 3600;

export const PLAY_KINDS: readonly DisputeKindSpec[] = [
  {
    kind: 'blank-designation',
    description: 'The player’s blank designation is missing or disputed.',
    act: 'the blank as designated',
    sources: ['WESPA 3.8', 'NASPA IV.F (2009, 2015)', 'seed-003 rule 10'],
    parameters: ['play.medium', 'play.undeclaredBlank', 'play.blankDispute', 'play.blankDisputeNextTurn'],
    gates: [ONLINE, gate('play.undeclaredBlank'), gate('play.blankDispute'), gate('play.blankDisputeNextTurn')],
    facts: [
      f.oneOf(
        'designation',
        BLANK_DESIGNATION,
        'The state of the designation: undeclared at the clock press, improperly or properly declared.',
        'play.undeclaredBlank, play.blankDispute',
      ),
      f.int(
        'playsSince',
        0,
        1000,
        'Plays made since the blank was played (0 = the next turn; must be 0 when undeclared).',
        'play.blankDispute, play.blankDisputeNextTurn',
        {
          unit: 'plays',
          default: 0,
        },
      ),
    ],
    example: {
      kind: 'blank-designation',
      description: 'S34: a properly designated blank is disputed two plays later',
      designation: 'properly-declared',
      playsSince: 2,
    },
  },
  {
    kind: 'abort-request',
    description: 'The player asks to abort (cancel) an online game.',
    act: 'the abort request',
    sources: ['Woogles liwords pkg/gameplay/meta_events.go'],
    parameters: ['play.abortRequestsPerPlayer', 'play.abortMaxEvents', 'play.abortMinReceiverSeconds', 'play.abortAutoAcceptSeconds'],
    gates: [gate('play.abortRequestsPerPlayer')],
    facts: [
      f.int('gameEvents', 0, 10_000, 'Events in the game so far.', 'play.abortMaxEvents', { unit: 'events' }),
      f.number(
        'receiverSecondsLeft',
        MONTH,
        'Time left to the opponent (the receiver), overtime included.',
        'play.abortMinReceiverSeconds',
        { unit: 'seconds' },
      ),
      f.oneOf('reply', REQUEST_REPLY, 'The opponent’s answer.', 'play.abortAutoAcceptSeconds'),
      f.number('secondsWithoutReply', MONTH, 'Seconds since the request; only with reply none.', 'play.abortAutoAcceptSeconds', {
        unit: 'seconds',
        optional: true,
      }),
      f.int('earlierRequests', 0, 100, 'Abort requests the player made earlier in this game.', 'play.abortRequestsPerPlayer', {
        unit: 'requests',
        default: 0,
      }),
    ],
    example: {
      kind: 'abort-request',
      description: 'S35: the player asked to abort after 4 events; no reply for 75 seconds',
      gameEvents: 4,
      receiverSecondsLeft: 900,
      reply: 'none',
      secondsWithoutReply: 75,
    },
  },
  {
    kind: 'idle-opponent',
    description: 'The player nudges an idle or disconnected opponent.',
    act: 'the nudge',
    sources: ['Woogles liwords pkg/gameplay/meta_events.go (REQUEST_ADJUDICATION)'],
    parameters: ['play.nudgeRequestsPerPlayer', 'play.nudgeSeconds'],
    gates: [gate('play.nudgeRequestsPerPlayer')],
    facts: [
      f.bool('answered', 'The opponent answered the nudge.', 'play.nudgeSeconds'),
      f.number(
        'secondsUnanswered',
        MONTH,
        'Seconds the nudge has gone unanswered; required when not answered, not given when answered.',
        'play.nudgeSeconds',
        {
          unit: 'seconds',
          optional: true,
        },
      ),
      f.bool('requesterClockRunning', 'The player’s own clock is running (it is the player’s turn).', 'the nudge rule', { default: false }),
      f.int('earlierRequests', 0, 100, 'Nudges the player sent earlier in this game.', 'play.nudgeRequestsPerPlayer', {
        unit: 'requests',
        default: 0,
      }),
    ],
    example: {
      kind: 'idle-opponent',
      description: 'S36: the waiting player nudged the idle opponent, who has not answered for 130 seconds',
      answered: false,
      secondsUnanswered: 130,
    },
  },
  {
    kind: 'blank-substitution',
    description: 'The player swaps a rack tile for a blank on the board.',
    act: 'the substitution',
    sources: ['seed-002 "Blank Substitution"', 'WESPA 3.6.1, Appendix 1'],
    parameters: ['house.blankSubstitution', 'board.distribution'],
    gates: [],
    facts: [
      {
        name: 'blankLetter',
        type: 'letter',
        description: 'The letter the blank on the board was designated as, in capitals.',
        feeds: 'house.blankSubstitution',
      },
      {
        name: 'tileGiven',
        type: 'letter',
        description: 'The tile the player gives for it, in capitals (not a blank).',
        feeds: 'house.blankSubstitution',
      },
      f.bool('atStartOfTurn', 'The substitution is made at the start of the turn.', 'house.blankSubstitution (seed-002)', {
        default: true,
      }),
      f.bool('blankReplayed', 'The player replays the blank in the same turn.', 'house.blankSubstitution (seed-002)', { default: true }),
    ],
    example: {
      kind: 'blank-substitution',
      description: 'S37: the player gives an E for the blank on the board designated E, then replays the blank',
      blankLetter: 'E',
      tileGiven: 'E',
    },
  },
  {
    kind: 'free-trade',
    description: 'The player asks for a free trade of a bad rack.',
    act: 'the free trade',
    sources: ['seed-002 "Free Trades"', 'WESPA 3.2.2'],
    parameters: ['house.freeTrades', 'board.distribution', 'board.rackSize'],
    gates: [],
    facts: [
      {
        name: 'rack',
        type: 'tiles',
        min: 1,
        max: MAX_RACK,
        unit: 'tiles',
        description: 'The rack, e.g. AAAITUY; ? a blank.',
        feeds: 'house.freeTrades',
      },
      {
        name: 'trades',
        type: 'tiles',
        min: 1,
        max: MAX_RACK,
        unit: 'tiles',
        default: [],
        description: 'The tiles announced for trading, in order (from the rack); left out = list what may be traded.',
        feeds: 'house.freeTrades',
      },
    ],
    example: { kind: 'free-trade', description: 'S38: seed-002 example 2 — which tiles of AAAITUY may be traded free?', rack: 'AAAITUY' },
  },
];
