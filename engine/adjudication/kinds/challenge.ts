import { LOOKUP_CULPRIT, LOOKUP_RESULT, PLACEMENT_FAULT } from './enums.js';
import { f, gate, MAX_RACK, ONLINE, VOID, type DisputeKindSpec } from './spec.js';

/** Challenges and what follows them (seed-001 §2; WESPA 3.10.6–3.10.14; seed-002; NASPA IV.J; Woogles). */

const OUTCOME = ['challenge.mode', 'challenge.points', 'challenge.pointsRecipient'];
const DAY = 24 * 3600;

export const CHALLENGE_KINDS: readonly DisputeKindSpec[] = [
  {
    kind: 'challenge-outcome',
    description: 'The opponent challenged the player’s play; the words were found valid or not.',
    act: 'the challenged play',
    sources: ['seed-001 §2', 'WESPA 3.10.13, 3.11.2', 'seed-002 "Free Challenges"', 'Woogles macondo game/challenge.go'],
    parameters: OUTCOME,
    gates: [VOID],
    facts: [
      f.bool('playValid', 'Every challenged word is valid.', 'challenge.mode'),
      f.int('wordsChallenged', 1, 50, 'Words challenged.', 'challenge.points (per word, WESPA 3.10.13)', { unit: 'words', default: 1 }),
    ],
    example: { description: 'Two words challenged, both valid.', kind: 'challenge-outcome', playValid: true, wordsChallenged: 2 },
  },
  {
    kind: 'return-from-challenge',
    description: 'Returning to the board after a challenge: tiles the challenged player drew early, and the clock.',
    act: 'the challenged play',
    sources: ['seed-001 §2', 'WESPA 3.10.6'],
    parameters: [...OUTCOME, 'challenge.drawnTilesOnLoss', 'challenge.clockRestart', 'drawing.overdraw', 'drawing.overdrawExtraTiles'],
    gates: [VOID, gate('challenge.drawnTilesOnLoss'), gate('challenge.clockRestart')],
    facts: [
      f.bool('playAcceptable', 'The challenged play was ruled acceptable.', 'challenge.mode'),
      f.int('drawnTiles', 0, MAX_RACK, 'Tiles the challenged player had drawn before the ruling.', 'challenge.drawnTilesOnLoss', {
        unit: 'tiles',
        default: 0,
      }),
      f.bool(
        'drawnTouchedRack',
        'The drawn tiles touched the rack (needs drawnTiles above 0).',
        'challenge.drawnTilesOnLoss (overdraw, WESPA 3.10.6)',
        {
          default: false,
        },
      ),
      f.bool('winnerDelaying', 'The challenge winner is delaying reracking and replenishing.', 'challenge.clockRestart', {
        default: false,
      }),
    ],
    example: {
      description: 'Play ruled unacceptable; the player had drawn 3 tiles, not yet on the rack.',
      kind: 'return-from-challenge',
      playAcceptable: false,
      drawnTiles: 3,
      drawnTouchedRack: false,
    },
  },
  {
    kind: 'wrong-adjudication',
    description: 'A challenge of the player’s play was adjudicated wrongly, and this is found later.',
    act: 'the adjudication as given',
    sources: ['WESPA 3.10.9, 3.10.11', 'NASPA IV.J.1.n (2015)'],
    parameters: [...OUTCOME, 'challenge.wrongAdjudication'],
    gates: [VOID, gate('challenge.wrongAdjudication')],
    facts: [
      f.bool('ruledAcceptable', 'What the wrong adjudication said: acceptable (it is not) or unacceptable (it is).', 'challenge.mode'),
      f.bool('tilesTouchedRack', 'A newly drawn or retracted tile has touched a rack.', 'challenge.wrongAdjudication'),
      f.bool('nextPlayMade', 'A later play is on the board and the clock has been started.', 'challenge.wrongAdjudication (NASPA)', {
        default: false,
      }),
      f.int('wordsChallenged', 1, 50, 'Words challenged.', 'challenge.points', { unit: 'words', default: 1 }),
    ],
    example: {
      kind: 'wrong-adjudication',
      description: 'S10: a phony was ruled acceptable; found out after the next play, before any drawn tile reached a rack',
      ruledAcceptable: true,
      tilesTouchedRack: false,
      nextPlayMade: true,
    },
  },
  {
    kind: 'mistyped-challenge',
    description: 'The challenged words were typed or written wrongly for the lookup.',
    act: 'the faulty lookup',
    sources: ['WESPA 3.10.10', 'NASPA IV.J.2 (2012)'],
    parameters: ['challenge.mode', 'challenge.mistypedChallenge', 'challenge.wrongAdjudication', 'challenge.improperLookupPenalty'],
    gates: [VOID, gate('challenge.mistypedChallenge')],
    facts: [
      f.oneOf('causedBy', LOOKUP_CULPRIT, 'Who caused the faulty lookup.', 'challenge.improperLookupPenalty (NASPA IV.J.2)'),
      f.oneOf('resultShown', LOOKUP_RESULT, 'What the faulty lookup showed.', 'challenge.mistypedChallenge'),
      f.bool(
        'tilesTouchedRack',
        'A newly drawn or retracted tile has touched a rack.',
        'challenge.wrongAdjudication (the reissue deadline)',
        { default: false },
      ),
      f.bool('nextPlayMade', 'A later play is on the board and the clock has been started.', 'challenge.wrongAdjudication', {
        default: false,
      }),
    ],
    example: {
      kind: 'mistyped-challenge',
      description: 'S11: the challenger typed one of the words wrongly and the device showed unacceptable',
      causedBy: 'opponent',
      resultShown: 'unacceptable',
    },
  },
  {
    kind: 'placement-challenge',
    description: 'The player’s placement is challenged (centre missed, not in one line, diagonal, off the grid, wrong orientation).',
    act: 'the play as placed',
    sources: ['WESPA 3.10.14, A1.6', 'NASPA ref. B3.1'],
    parameters: ['play.medium', 'challenge.illegalPlacement', ...OUTCOME],
    gates: [ONLINE, gate('challenge.illegalPlacement')],
    facts: [
      f.oneOf('fault', PLACEMENT_FAULT, 'What was wrong with the placement; none = it was legal.', 'challenge.illegalPlacement'),
      f.bool('challenged', 'The placement was challenged (false only with a fault).', 'challenge.illegalPlacement', { default: true }),
      f.bool('playValid', 'Every word the play forms is valid.', 'challenge.mode (NASPA: words decide a legal placement)', {
        default: true,
      }),
    ],
    example: {
      kind: 'placement-challenge',
      description: 'S12: the opening play misses the centre square; the words are valid',
      fault: 'opening-misses-centre',
      playValid: true,
    },
  },
  {
    kind: 'fast-bagging',
    description: 'The player drew before the opponent could consider a challenge.',
    act: 'drawing before the opponent could challenge',
    sources: ['seed-001 §8', 'WESPA 3.10.1–3.10.2'],
    parameters: ['challenge.mode', 'challenge.earlyDraw', 'challenge.windowSeconds'],
    gates: [VOID, gate('challenge.earlyDraw')],
    facts: [
      f.number('secondsBeforeDraw', 3600, 'Seconds from the clock press to the draw.', 'challenge.windowSeconds', { unit: 'seconds' }),
      f.bool('scoreRecordedBeforeDraw', 'The player recorded the score before drawing.', 'challenge.earlyDraw (flash-draw, WESPA 3.10.2)', {
        default: true,
      }),
    ],
    example: {
      description: 'The player drew 2 seconds after pressing the clock.',
      kind: 'fast-bagging',
      secondsBeforeDraw: 2,
      scoreRecordedBeforeDraw: true,
    },
  },
  {
    kind: 'out-play-hold',
    description: 'After the player’s out play and the neutralised clock, the opponent holds or challenges (or does neither).',
    act: 'the opponent’s hold or challenge of the out play',
    sources: ['seed-001 §9', 'WESPA 5.1.1–5.1.3'],
    parameters: ['challenge.mode', 'challenge.outPlayWindowEnd', 'challenge.outPlayHoldSeconds'],
    gates: [VOID, gate('challenge.outPlayWindowEnd')],
    facts: [
      f.number(
        'secondsAfterNeutralise',
        DAY,
        'Seconds after neutralising when the opponent held or challenged, or how long they have been silent.',
        'challenge.outPlayHoldSeconds',
        {
          unit: 'seconds',
        },
      ),
      f.bool('held', 'The opponent held the out play.', 'challenge.outPlayWindowEnd'),
      f.bool('challenged', 'The opponent challenged the out play.', 'challenge.outPlayWindowEnd'),
    ],
    example: {
      description: 'The opponent challenged the out play 20 seconds after the clock was neutralised.',
      kind: 'out-play-hold',
      secondsAfterNeutralise: 20,
      held: false,
      challenged: true,
    },
  },
  {
    kind: 'challenge-after-draw',
    description: 'The opponent challenges after the player started drawing.',
    act: 'the player’s drawing before the challenge',
    sources: ['WESPA 3.10.1–3.10.2', 'seed-001 §8', 'NASPA ref. B1.1'],
    parameters: ['challenge.mode', 'challenge.earlyDraw', 'challenge.windowSeconds', 'drawing.overdraw'],
    gates: [VOID, gate('challenge.earlyDraw')],
    facts: [
      f.number('secondsBeforeDraw', 3600, 'Seconds from the clock press to the first tile drawn.', 'challenge.windowSeconds', {
        unit: 'seconds',
      }),
      f.bool('holdCalled', 'A hold was called before the player drew.', 'WESPA 3.10.1', { default: false }),
      f.bool('scoreRecordedBeforeDraw', 'The player recorded the score before drawing.', 'challenge.earlyDraw (flash-draw)', {
        default: true,
      }),
      f.bool('scoreWrittenInAdvance', 'The player wrote the score before the turn.', 'challenge.earlyDraw (flash-draw, WESPA 3.10.2)', {
        default: false,
      }),
      f.int('drawnTiles', 1, MAX_RACK, 'Tiles drawn.', 'the explanation (shown and returned, or overdraw)', { unit: 'tiles', default: 1 }),
      f.bool('drawnTouchedRack', 'The drawn tiles have touched the player’s rack.', 'drawing.overdraw', { default: false }),
    ],
    example: {
      kind: 'challenge-after-draw',
      description: 'S9: the player drew 8 seconds after pressing the clock without first recording the score; the opponent then challenges',
      secondsBeforeDraw: 8,
      scoreRecordedBeforeDraw: false,
      drawnTiles: 2,
    },
  },
  {
    kind: 'long-hold',
    description: 'The opponent holds the player’s play for a long time.',
    act: 'the opponent’s hold',
    sources: ['WESPA 3.10.5, 6.3.1(h)'],
    parameters: ['challenge.mode', 'challenge.holdLimit', 'time.overtimeForfeitMinutes'],
    gates: [VOID, gate('challenge.holdLimit')],
    facts: [
      f.number(
        'holderOvertimeSeconds',
        DAY,
        'How far into overtime the holder’s clock now is (0 = still within time).',
        'challenge.holdLimit, time.overtimeForfeitMinutes',
        {
          unit: 'seconds',
        },
      ),
      f.bool('onlyToBlockDraw', 'The hold was called only to keep the player from drawing.', 'WESPA 6.3.1(h)', { default: false }),
    ],
    example: {
      kind: 'long-hold',
      description: 'S14: the opponent has held the play for a long time and is 2 minutes into overtime',
      holderOvertimeSeconds: 120,
    },
  },
  {
    kind: 'courtesy-draw',
    description: 'The player made a courtesy draw during a hold; then the challenge was decided.',
    act: 'the challenged play',
    sources: ['WESPA 3.10.6, 3.9.10', 'NASPA ref. B4, IV.I.2'],
    parameters: [
      'challenge.mode',
      'challenge.courtesyDrawSeconds',
      'challenge.drawnTilesOnLoss',
      'challenge.drawStopsOnChallenge',
      'drawing.overdraw',
      'drawing.overdrawExtraTiles',
    ],
    gates: [VOID, gate('challenge.courtesyDrawSeconds', 0), gate('challenge.drawnTilesOnLoss')],
    facts: [
      f.number('secondsAfterClockPress', DAY, 'Seconds after the clock press when the draw began.', 'challenge.courtesyDrawSeconds', {
        unit: 'seconds',
      }),
      f.int('drawnTiles', 1, MAX_RACK, 'Tiles drawn (at most the rack size).', 'challenge.drawnTilesOnLoss', { unit: 'tiles' }),
      f.bool('challengeSucceeded', 'The opponent then challenged successfully.', 'challenge.drawnTilesOnLoss'),
      f.bool('mixedIntoRack', 'The drawn tiles were mixed into the rack.', 'challenge.drawnTilesOnLoss (overdraw)', { default: false }),
      f.bool('challengedMidDraw', 'The challenge was declared while the player was still drawing.', 'challenge.drawStopsOnChallenge', {
        default: false,
      }),
      f.rackSize('the limit on drawnTiles'),
    ],
    example: {
      kind: 'courtesy-draw',
      description: 'S15: courtesy draw of 3 tiles 20 seconds after the clock press, mixed into the rack; the challenge then succeeds',
      secondsAfterClockPress: 20,
      drawnTiles: 3,
      mixedIntoRack: true,
      challengeSucceeded: true,
    },
  },
];
