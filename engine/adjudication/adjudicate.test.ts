import { describe, expect, test } from 'vitest';
import { resolveRuleSet } from '../rules/params.js';
import { PRESETS } from '../rules/presets.js';
import type { RuleSet, RuleSetId } from '../rules/ruleset.js';
import { adjudicate } from './adjudicate.js';
import { verdictProblems } from './consistency.js';
import { DISPUTE_KINDS, type DisputeKind } from './dispute.js';
import { specOf } from './kinds/index.js';
import { parseDispute } from './parse.js';
import type { Effect, Ruling, RulingCode } from './ruling.js';

const IDS = ['NSA_2008', 'WESPA', 'FRIENDLY', 'MATCH_VARIANT', 'ONLINE_VOID'] as const satisfies readonly RuleSetId[];
const NA = 'NOT_APPLICABLE';

const rule = (json: unknown, rs: RuleSet): Ruling => {
  const d = parseDispute(json);
  if (!d.ok) throw new Error(`test dispute rejected: ${d.error.message}`);
  const r = adjudicate(d.value, rs);
  if (!r.ok) throw new Error(`adjudication failed: ${r.error.message}`);
  return r.value;
};
const under = (id: RuleSetId, json: unknown): Ruling => rule(json, PRESETS[id]);

type Row = readonly [
  name: string,
  dispute: Record<string, unknown>,
  expected: readonly [RulingCode, RulingCode, RulingCode, RulingCode, RulingCode],
];

/** Expected rulings per preset, in the order NSA_2008, WESPA, FRIENDLY, MATCH_VARIANT, ONLINE_VOID, worked out from the rules. */
const TABLE: readonly Row[] = [
  [
    'illegal exchange, announced only',
    { kind: 'illegal-exchange', bagCount: 5, stage: 'announced', exchangedCount: 3 },
    ['TURN_IS_PASS', 'TURN_IS_PASS', 'NO_REMEDY_STATED', 'NO_PENALTY', NA],
  ],
  [
    'illegal exchange, drawn not racked',
    { kind: 'illegal-exchange', bagCount: 5, stage: 'drawn-not-racked', exchangedCount: 3 },
    ['TILES_SHOWN_AND_RETURNED', 'TURN_IS_PASS', 'NO_REMEDY_STATED', 'NO_PENALTY', NA],
  ],
  [
    'illegal exchange, old returned',
    { kind: 'illegal-exchange', bagCount: 5, stage: 'old-returned-new-not-racked', exchangedCount: 3 },
    ['OPPONENT_CHOOSES_TILES', 'OPPONENT_CHOOSES_TILES', 'NO_REMEDY_STATED', 'NO_PENALTY', NA],
  ],
  [
    'illegal exchange, racking started',
    { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4 },
    ['OPPONENT_CHOOSES_TILES', 'OPPONENT_CHOOSES_TILES', 'NO_REMEDY_STATED', 'NO_PENALTY', NA],
  ],
  [
    'illegal exchange, after the opponent’s turn',
    { kind: 'illegal-exchange', bagCount: 5, stage: 'after-opponent-turn', exchangedCount: 6 },
    ['SCORE_PENALTY', 'SCORE_PENALTY', 'NO_REMEDY_STATED', 'NO_REMEDY_STATED', NA],
  ],
  [
    'announced five, placed four',
    { kind: 'exchange-count-mismatch', announced: 5, placedFaceDown: 4 },
    ['FACE_DOWN_COUNT_EXCHANGED', 'FACE_DOWN_COUNT_EXCHANGED', NA, 'FACE_DOWN_COUNT_EXCHANGED', NA],
  ],
  [
    'announced seven, left on the rack',
    { kind: 'exchange-count-mismatch', announced: 7, placedFaceDown: 0 },
    ['ALL_TILES_EXCHANGED', 'TURN_IS_PASS', NA, 'FACE_DOWN_COUNT_EXCHANGED', NA],
  ],
  ['exchange with no count and no tiles', { kind: 'exchange-unspecified' }, ['TURN_LOST', 'TURN_IS_PASS', NA, 'ZERO_TILE_EXCHANGE', NA]],
  ['old tiles bagged first', { kind: 'exchange-early-return', drewSameTiles: true }, ['NO_PENALTY', 'NO_PENALTY', NA, NA, NA]],
  ['12 minutes late', { kind: 'late-arrival', minutesLate: 12, announcedStart: true }, ['CLOCK_CHARGED', 'CLOCK_CHARGED', NA, NA, NA]],
  ['3 minutes late', { kind: 'late-arrival', minutesLate: 3, announcedStart: true }, ['NO_PENALTY', 'CLOCK_CHARGED', NA, NA, NA]],
  ['25 minutes late', { kind: 'late-arrival', minutesLate: 25, announcedStart: true }, ['GAME_FORFEITED', 'GAME_FORFEITED', NA, NA, NA]],
  ['late with no announced start', { kind: 'late-arrival', minutesLate: 8, announcedStart: false }, ['BREAK_ALLOWANCE', NA, NA, NA, NA]],
  ['2:05 over time', { kind: 'overtime', secondsOver: 125 }, ['OVERTIME_PENALTY', 'OVERTIME_PENALTY', NA, NA, 'OVERTIME_PENALTY']],
  ['0.5 s over time', { kind: 'overtime', secondsOver: 0.5 }, ['NO_PENALTY', 'NO_PENALTY', NA, NA, 'OVERTIME_PENALTY']],
  [
    '10 minutes over time',
    { kind: 'overtime', secondsOver: 600, scores: { player: 300, opponent: 350 } },
    ['GAME_FORFEITED', 'GAME_FORFEITED', NA, NA, 'GAME_FORFEITED'],
  ],
  [
    'valid play challenged',
    { kind: 'challenge-outcome', playValid: true, wordsChallenged: 2 },
    ['CHALLENGER_LOSES_TURN', 'CHALLENGE_POINTS', 'NO_PENALTY', 'CHALLENGER_LOSES_TURN', NA],
  ],
  [
    'phony challenged',
    { kind: 'challenge-outcome', playValid: false, wordsChallenged: 2 },
    ['PLAY_WITHDRAWN', 'PLAY_WITHDRAWN', 'PLAY_AGAIN', 'PLAY_WITHDRAWN', NA],
  ],
  [
    'phony off, 3 tiles drawn and racked',
    { kind: 'return-from-challenge', playAcceptable: false, drawnTiles: 3, drawnTouchedRack: true },
    ['TILES_SHOWN_AND_RETURNED', 'OVERDRAW_PROCEDURE', NA, NA, NA],
  ],
  [
    'acceptable play, back to the board',
    { kind: 'return-from-challenge', playAcceptable: true },
    ['PLAY_STANDS', 'PLAY_STANDS', NA, NA, NA],
  ],
  [
    'drew after 2 s, score recorded',
    { kind: 'fast-bagging', secondsBeforeDraw: 2, scoreRecordedBeforeDraw: true },
    ['DIRECTOR_MAY_ALLOW_CHALLENGE', 'PLAY_ACCEPTED', NA, NA, NA],
  ],
  [
    'drew after 6 s, score not recorded',
    { kind: 'fast-bagging', secondsBeforeDraw: 6, scoreRecordedBeforeDraw: false },
    ['PLAY_ACCEPTED', 'CHALLENGE_ALLOWED', NA, NA, NA],
  ],
  [
    'out play held after 10 s',
    { kind: 'out-play-hold', secondsAfterNeutralise: 10, held: true, challenged: false },
    ['HOLD_VALID', 'HOLD_VALID', NA, NA, NA],
  ],
  [
    'out play challenged after 20 s',
    { kind: 'out-play-hold', secondsAfterNeutralise: 20, held: false, challenged: true },
    ['GAME_OVER', 'CHALLENGE_VALID', NA, NA, NA],
  ],
  [
    'out play, silence for 20 s',
    { kind: 'out-play-hold', secondsAfterNeutralise: 20, held: false, challenged: false },
    ['GAME_OVER', 'OPPONENT_CLOCK_RESTARTS', NA, NA, NA],
  ],
  [
    'overdraw of one, not racked',
    { kind: 'overdraw', tilesOnRack: 5, drawn: 3, touchedRack: false },
    ['OVERDRAW_PROCEDURE', 'OVERDRAW_PROCEDURE', NA, NA, NA],
  ],
  [
    'underdraw found in time',
    { kind: 'underdraw', missing: 2, discovered: 'before-next-turn-completed' },
    [NA, 'OPPONENT_GIVES_TILES', NA, NA, NA],
  ],
  [
    'scoring error, slip signed not submitted',
    { kind: 'scoring-error', announced: 22, correct: 28, slip: 'signed' },
    ['SCORE_CORRECTED', 'RESULT_STANDS', NA, NA, NA],
  ],
  [
    'submitted slip differs from the agreed score',
    { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: false, substantiatedByScoreSheets: true },
    ['SLIP_CORRECTED', 'RESULT_STANDS', NA, NA, NA],
  ],
  [
    'submitted slip with reversed scores',
    { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: false, scoresReversed: true, substantiatedByScoreSheets: true },
    ['SLIP_CORRECTED', 'SLIP_CORRECTED', NA, NA, NA],
  ],
  [
    'submitted slip, miscount',
    { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: true },
    ['RESULT_STANDS', 'RESULT_STANDS', NA, NA, NA],
  ],
  [
    'recount at a 35-point margin',
    { kind: 'recount-request', margin: 35, slip: 'not-signed' },
    ['RECOUNT_ALLOWED', 'RECOUNT_REFUSED', NA, NA, NA],
  ],
  [
    'six passes',
    { kind: 'scoreless-turns', turns: ['pass', 'pass', 'pass', 'pass', 'pass', 'pass'] },
    ['GAME_ENDS', 'GAME_ENDS', 'GAME_ENDS', 'GAME_CONTINUES', 'GAME_ENDS'],
  ],
  [
    'six zeros including a lost challenge',
    { kind: 'scoreless-turns', turns: ['pass', 'exchange', 'lost-challenge', 'pass', 'pass', 'exchange'] },
    ['GAME_ENDS', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_ENDS'],
  ],
  [
    'five passes then a zero-point play',
    { kind: 'scoreless-turns', turns: ['pass', 'pass', 'pass', 'pass', 'pass', 'zero-point-play'] },
    ['GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES'],
  ],
  [
    'both players exchange twice',
    { kind: 'scoreless-turns', turns: ['scoring-play', 'exchange', 'exchange', 'exchange', 'exchange'] },
    ['GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_ENDS', 'GAME_CONTINUES'],
  ],
  [
    'going out against 12 points',
    { kind: 'going-out', opponentRackValue: 12 },
    ['GOING_OUT_BONUS', 'GOING_OUT_BONUS', 'GOING_OUT_BONUS', 'GOING_OUT_BONUS', 'GOING_OUT_BONUS'],
  ],
  [
    'emergency resignation 80 behind',
    { kind: 'resignation', scores: { player: 200, opponent: 280 }, emergency: true },
    [NA, 'RESIGNATION_SCORED', NA, NA, 'GAME_RESIGNED'],
  ],
  [
    'resignation without emergency',
    { kind: 'resignation', scores: { player: 200, opponent: 280 }, emergency: false },
    [NA, 'DIRECTOR_DISCRETION', NA, NA, 'GAME_RESIGNED'],
  ],
  [
    'three forfeits and a bye',
    {
      kind: 'forfeit-order',
      games: [
        { round: 1, role: 'forfeiter' },
        { round: 2, role: 'opponent' },
        { round: 3, role: 'forfeiter' },
        { round: 4, role: 'bye' },
        { round: 5, role: 'forfeiter' },
      ],
    },
    ['FIRSTS_ASSIGNED', NA, NA, NA, NA],
  ],
  [
    'tie at 350',
    { kind: 'tied-game', finalScores: { player: 350, opponent: 350 }, scoresBeforeAdjustments: { player: 340, opponent: 355 } },
    ['TIE_STANDS', 'TIE_STANDS', 'TIE_STANDS', 'TIE_BROKEN', 'TIE_STANDS'],
  ],
  [
    'two-game match',
    {
      kind: 'match-result',
      games: [
        { player: 400, opponent: 380 },
        { player: 350, opponent: 390 },
      ],
    },
    [NA, NA, NA, 'MATCH_DECIDED', NA],
  ],
  [
    'S5 unbagged exchange tiles, drawn since',
    { kind: 'exchange-tiles-not-bagged', tiles: 3, drawnSince: true },
    [NA, 'TILES_SHOWN_AND_RETURNED', NA, NA, NA],
  ],
  [
    'S5 unbagged exchange tiles, nobody drew',
    { kind: 'exchange-tiles-not-bagged', tiles: 3, drawnSince: false },
    [NA, 'NO_PENALTY', NA, NA, NA],
  ],
  [
    'S9 hold called, then drew',
    { kind: 'challenge-after-draw', holdCalled: true, secondsBeforeDraw: 40 },
    ['CHALLENGE_ALLOWED', 'CHALLENGE_ALLOWED', NA, NA, NA],
  ],
  [
    'S9 flash-drew after 8 s',
    { kind: 'challenge-after-draw', secondsBeforeDraw: 8, scoreRecordedBeforeDraw: false },
    ['PLAY_ACCEPTED', 'CHALLENGE_ALLOWED', NA, NA, NA],
  ],
  [
    'S9 score written in advance, drew after 3 s',
    { kind: 'challenge-after-draw', secondsBeforeDraw: 3, scoreWrittenInAdvance: true },
    ['DIRECTOR_MAY_ALLOW_CHALLENGE', 'CHALLENGE_ALLOWED', NA, NA, NA],
  ],
  ['S9 recorded, drew after 8 s', { kind: 'challenge-after-draw', secondsBeforeDraw: 8 }, ['PLAY_ACCEPTED', 'PLAY_ACCEPTED', NA, NA, NA]],
  [
    'S10 phony accepted, found after the next play',
    { kind: 'wrong-adjudication', ruledAcceptable: true, tilesTouchedRack: false, nextPlayMade: true },
    ['NO_CORRECTION', 'RULING_CORRECTED', NA, NA, NA],
  ],
  [
    'S10 valid play ruled off, tiles back on the rack',
    { kind: 'wrong-adjudication', ruledAcceptable: false, tilesTouchedRack: true },
    ['NO_CORRECTION', 'NO_CORRECTION', NA, NA, NA],
  ],
  [
    'S10 valid play ruled off, caught at once',
    { kind: 'wrong-adjudication', ruledAcceptable: false, tilesTouchedRack: false, wordsChallenged: 2 },
    ['RULING_CORRECTED', 'RULING_CORRECTED', NA, NA, NA],
  ],
  [
    'S11 challenger mistyped, unacceptable',
    { kind: 'mistyped-challenge', causedBy: 'opponent', resultShown: 'unacceptable' },
    ['SCORE_PENALTY', 'CHALLENGE_REISSUED', NA, NA, NA],
  ],
  [
    'S11 both caused it, tiles racked',
    { kind: 'mistyped-challenge', causedBy: 'both', resultShown: 'unacceptable', tilesTouchedRack: true },
    ['NO_PENALTY', 'NO_CORRECTION', NA, NA, NA],
  ],
  [
    'S12 opening misses the centre',
    { kind: 'placement-challenge', fault: 'opening-misses-centre' },
    ['PLAY_WITHDRAWN', 'DIRECTOR_DISCRETION', NA, NA, NA],
  ],
  ['S12 legal placement, valid words', { kind: 'placement-challenge', fault: 'none' }, ['CHALLENGER_LOSES_TURN', 'NO_PENALTY', NA, NA, NA]],
  [
    'S12 diagonal play not challenged',
    { kind: 'placement-challenge', fault: 'diagonal', challenged: false },
    ['PLAY_STANDS', 'PLAY_STANDS', NA, NA, NA],
  ],
  ['S14 hold 2 minutes into overtime', { kind: 'long-hold', holderOvertimeSeconds: 120 }, [NA, 'HOLD_VALID', NA, NA, NA]],
  ['S14 hold reaching 10 minutes of overtime', { kind: 'long-hold', holderOvertimeSeconds: 600 }, [NA, 'GAME_FORFEITED', NA, NA, NA]],
  [
    'S14 hold only to block the draw',
    { kind: 'long-hold', holderOvertimeSeconds: 0, onlyToBlockDraw: true },
    [NA, 'DIRECTOR_DISCRETION', NA, NA, NA],
  ],
  [
    'S15 courtesy draw mixed in, challenge upheld',
    { kind: 'courtesy-draw', secondsAfterClockPress: 31, drawnTiles: 3, mixedIntoRack: true, challengeSucceeded: true },
    ['TILES_SHOWN_AND_RETURNED', 'OVERDRAW_PROCEDURE', NA, NA, NA],
  ],
  [
    'S15 courtesy draw kept apart, challenge upheld',
    { kind: 'courtesy-draw', secondsAfterClockPress: 31, drawnTiles: 3, challengeSucceeded: true },
    ['TILES_SHOWN_AND_RETURNED', 'TILES_SHOWN_AND_RETURNED', NA, NA, NA],
  ],
  [
    'S15 courtesy draw, play stands',
    { kind: 'courtesy-draw', secondsAfterClockPress: 31, drawnTiles: 3, challengeSucceeded: false },
    ['PLAY_STANDS', 'PLAY_STANDS', NA, NA, NA],
  ],
  [
    'S18 out of order, opponent left short',
    { kind: 'out-of-order-draw', drawnTiles: 2, opponentLeftShort: true, touchedRack: false },
    [NA, 'OVERDRAW_PROCEDURE', NA, NA, NA],
  ],
  [
    'S18 out of order, already racked',
    { kind: 'out-of-order-draw', drawnTiles: 2, opponentLeftShort: false, touchedRack: true },
    [NA, 'NO_PENALTY', NA, NA, NA],
  ],
  [
    'S18 out of order, not racked',
    { kind: 'out-of-order-draw', drawnTiles: 2, opponentLeftShort: false, touchedRack: false },
    [NA, 'TILES_SHOWN_AND_RETURNED', NA, NA, NA],
  ],
  [
    'S19 spilled while drawing',
    { kind: 'spilled-tiles', exposed: 1, bagCount: 30, moment: 'during-draw' },
    ['TILES_COUNT_AS_DRAWN', 'TILES_COUNT_AS_DRAWN', NA, NA, NA],
  ],
  [
    'S19 spilled just after drawing',
    { kind: 'spilled-tiles', exposed: 2, bagCount: 30, moment: 'just-after-draw' },
    ['TILES_SHOWN_AND_RETURNED', 'OVERDRAW_PROCEDURE', NA, NA, NA],
  ],
  [
    'S19 spilled, 30 in the bag',
    { kind: 'spilled-tiles', exposed: 2, bagCount: 30, moment: 'unrelated' },
    ['TILES_SHOWN_AND_RETURNED', 'NO_PENALTY', NA, NA, NA],
  ],
  [
    'S19 spilled, 5 in the bag',
    { kind: 'spilled-tiles', exposed: 2, bagCount: 5, moment: 'unrelated' },
    [NA, 'OPPONENT_CHOOSES_TILES', NA, NA, NA],
  ],
  [
    'S20 found in the bag, the short player takes them and is full',
    {
      kind: 'tiles-found',
      found: 2,
      where: 'in-bag',
      racks: { player: 0, opponent: 5 },
      shouldHaveDrawnEarliest: 'opponent',
      slip: 'not-signed',
    },
    [NA, 'RESULT_RECALCULATED', NA, NA, NA],
  ],
  [
    'S20 found outside the bag, the player who went out takes them',
    {
      kind: 'tiles-found',
      found: 2,
      where: 'outside-bag',
      racks: { player: 0, opponent: 5 },
      shouldHaveDrawnEarliest: 'player',
      slip: 'not-signed',
    },
    [NA, 'GAME_CONTINUES', NA, NA, NA],
  ],
  [
    'S20 found after signing',
    {
      kind: 'tiles-found',
      found: 2,
      where: 'in-bag',
      racks: { player: 0, opponent: 5 },
      shouldHaveDrawnEarliest: 'player',
      slip: 'signed',
    },
    [NA, 'RESULT_STANDS', NA, NA, NA],
  ],
  ['S21 a tile is missing', { kind: 'missing-tile' }, [NA, 'GAME_CONTINUES', NA, NA, NA]],
  [
    'S34 blank undeclared at the clock press',
    { kind: 'blank-designation', designation: 'undeclared' },
    ['BLANK_DECLARATION_DEMANDED', 'BLANK_DECLARATION_DEMANDED', NA, NA, NA],
  ],
  [
    'S34 improper designation disputed on the next turn',
    { kind: 'blank-designation', designation: 'improperly-declared', playsSince: 0 },
    [NA, 'DIRECTOR_DISCRETION', NA, 'DESIGNATION_STANDS', NA],
  ],
  [
    'S34 proper designation disputed two plays later',
    { kind: 'blank-designation', designation: 'properly-declared', playsSince: 2 },
    ['DESIGNATION_STANDS', 'DIRECTOR_DISCRETION', NA, 'DESIGNATION_STANDS', NA],
  ],
  [
    'S35 abort accepted',
    { kind: 'abort-request', gameEvents: 3, receiverSecondsLeft: 900, reply: 'accepted' },
    [NA, NA, NA, NA, 'GAME_ABORTED'],
  ],
  [
    'S35 abort after 8 events',
    { kind: 'abort-request', gameEvents: 8, receiverSecondsLeft: 900, reply: 'accepted' },
    [NA, NA, NA, NA, 'REQUEST_REFUSED'],
  ],
  [
    'S35 abort unanswered for 30 s',
    { kind: 'abort-request', gameEvents: 3, receiverSecondsLeft: 900, reply: 'none', secondsWithoutReply: 30 },
    [NA, NA, NA, NA, 'WINDOW_OPEN'],
  ],
  [
    'S36 nudge unanswered for 120 s',
    { kind: 'idle-opponent', answered: false, secondsUnanswered: 120 },
    [NA, NA, NA, NA, 'GAME_FORFEITED'],
  ],
  [
    'S36 nudge on one’s own turn',
    { kind: 'idle-opponent', answered: false, secondsUnanswered: 200, requesterClockRunning: true },
    [NA, NA, NA, NA, 'REQUEST_REFUSED'],
  ],
  [
    'S37 E given for a blank E',
    { kind: 'blank-substitution', blankLetter: 'E', tileGiven: 'E' },
    ['SUBSTITUTION_REFUSED', 'SUBSTITUTION_REFUSED', 'SUBSTITUTION_ALLOWED', 'SUBSTITUTION_REFUSED', 'SUBSTITUTION_REFUSED'],
  ],
  [
    'S37 S given for a blank E',
    { kind: 'blank-substitution', blankLetter: 'E', tileGiven: 'S' },
    ['SUBSTITUTION_REFUSED', 'SUBSTITUTION_REFUSED', 'SUBSTITUTION_REFUSED', 'SUBSTITUTION_REFUSED', 'SUBSTITUTION_REFUSED'],
  ],
  [
    'S38 AADDLPO',
    { kind: 'free-trade', rack: 'AADDLPO' },
    ['FREE_TRADE_REFUSED', 'FREE_TRADE_REFUSED', 'FREE_TRADE_ALLOWED', 'FREE_TRADE_REFUSED', 'FREE_TRADE_REFUSED'],
  ],
  [
    'S38 a balanced rack',
    { kind: 'free-trade', rack: 'AEIRSTN' },
    ['FREE_TRADE_REFUSED', 'FREE_TRADE_REFUSED', 'FREE_TRADE_REFUSED', 'FREE_TRADE_REFUSED', 'FREE_TRADE_REFUSED'],
  ],
];

describe('adjudicate: every dispute under every preset', () => {
  test('the table covers every dispute kind', () => {
    expect(new Set(TABLE.map(([, d]) => d.kind))).toEqual(new Set(DISPUTE_KINDS));
  });

  const cases = TABLE.flatMap(([name, dispute, expected]) => IDS.map((id, i) => [name, id, dispute, expected[i]!] as const));
  test.each(cases)('%s under %s', (_name, id, dispute, expected) => {
    const r = under(id, dispute);
    expect(r.ruling).toBe(expected);
    expect(r.citations.length).toBeGreaterThan(0);
    expect(r.explanation.length).toBeGreaterThan(20);
    if (expected === NA) expect(r.effects).toEqual([]);
    expect(verdictProblems(r, specOf(dispute.kind as DisputeKind), PRESETS[id])).toEqual([]);
  });
});

const effects = (id: RuleSetId, json: unknown): readonly Effect[] => under(id, json).effects;

describe('seed-000: exchange disputes', () => {
  test('announce five, place four: only those four are exchanged', () => {
    expect(effects('NSA_2008', { kind: 'exchange-count-mismatch', announced: 5, placedFaceDown: 4 })).toEqual([
      { type: 'tiles-exchanged', party: 'player', count: 4 },
    ]);
  });

  test('seven tiles, four exchanged, racking started: the opponent looks at six tiles and chooses which six are kept', () => {
    const r = under('NSA_2008', { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4, rackSize: 7 });
    expect(r.effects).toEqual([
      { type: 'tiles-shown', to: 'opponent', tiles: "6 tiles from the player's rack", count: 6 },
      {
        type: 'opponent-chooses',
        chooser: 'opponent',
        from: 'those 6 tiles and the tiles in the bag',
        count: 6,
        purpose: 'keep-on-player-rack',
        withinSeconds: null,
      },
    ]);
    expect(r.explanation).toContain('chooses which 6 the player keeps');
  });

  test('exchanged count plus two is capped at seven', () => {
    const r = under('NSA_2008', { kind: 'illegal-exchange', bagCount: 6, stage: 'racking-started', exchangedCount: 6 });
    expect(r.effects[1]).toMatchObject({ type: 'opponent-chooses', count: 7 });
  });

  test('old tiles returned, new not racked: the opponent chooses from the new tiles, the bag and two kept tiles within 60 seconds', () => {
    const e = effects('NSA_2008', { kind: 'illegal-exchange', bagCount: 4, stage: 'old-returned-new-not-racked', exchangedCount: 3 });
    expect(e[0]).toEqual({
      type: 'opponent-chooses',
      chooser: 'opponent',
      from: 'the new tiles, all tiles in the bag and any two tiles the player kept',
      count: 5,
      purpose: 'give-to-player',
      withinSeconds: 60,
    });
  });

  test('noticed after the opponent’s turn: the exchanger loses 30 points (seed-000 and WESPA alike)', () => {
    for (const id of ['NSA_2008', 'WESPA'] as const) {
      expect(effects(id, { kind: 'illegal-exchange', bagCount: 3, stage: 'after-opponent-turn', exchangedCount: 2 })).toEqual([
        { type: 'score-delta', party: 'player', points: -30 },
      ]);
    }
  });

  test('drawn but not racked: everyone sees the new tiles, they go back, the turn is a pass', () => {
    expect(effects('NSA_2008', { kind: 'illegal-exchange', bagCount: 5, stage: 'drawn-not-racked', exchangedCount: 3 })).toEqual([
      { type: 'tiles-shown', to: 'both', tiles: 'the newly drawn tiles', count: 3 },
      { type: 'tiles-returned-to-bag', tiles: 'the newly drawn tiles', count: 3 },
      { type: 'turn-becomes-pass', party: 'player' },
    ]);
  });

  test('WESPA 3.10.15(i)(iv) and (v): the opponent chooses the full rack of 7, from the bag too once old tiles are in it', () => {
    const iv = effects('WESPA', { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4 });
    const v = effects('WESPA', { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4, oldTilesInBag: true });
    expect(iv[1]).toMatchObject({
      type: 'opponent-chooses',
      from: "the player's rack and the set-aside tiles",
      count: 7,
      withinSeconds: 60,
    });
    expect(v[1]).toMatchObject({ type: 'opponent-chooses', from: "the player's rack, the bag and the set-aside tiles", count: 7 });
  });

  test('an override of the penalty changes the ruling and cites the override', () => {
    const rs = resolveRuleSet('NSA_2008', { exchange: { lateDiscoveryPenalty: 20 } });
    if (!rs.ok) throw new Error(rs.error.message);
    const r = rule({ kind: 'illegal-exchange', bagCount: 3, stage: 'after-opponent-turn', exchangedCount: 2 }, rs.value);
    expect(r.effects).toEqual([{ type: 'score-delta', party: 'player', points: -20 }]);
    expect(r.citations).toContainEqual({ source: 'override', rule: 'exchange.lateDiscoveryPenalty=20' });
  });

  test('an exchange larger than the pool under seed-003 is forbidden but has no remedy', () => {
    const r = under('MATCH_VARIANT', { kind: 'illegal-exchange', bagCount: 2, stage: 'announced', exchangedCount: 3 });
    expect(r).toMatchObject({ verdict: 'FORBIDDEN', ruling: 'NO_REMEDY_STATED', effects: [] });
    expect(r.explanation).toContain('no remedy');
  });
  test('an exchange the pool can cover under seed-003 is legal: ALLOWED, not "not applicable"', () => {
    const r = under('MATCH_VARIANT', { kind: 'illegal-exchange', bagCount: 5, stage: 'announced', exchangedCount: 3 });
    expect(r).toMatchObject({ verdict: 'ALLOWED', ruling: 'NO_PENALTY', effects: [] });
    expect(r.explanation).toContain('was legal');
  });
});

describe('seed-001: NSA changes of 25 July 2008', () => {
  test('§1 late by 12 minutes: 7 minutes charged from minute 5, and the player may forfeit', () => {
    expect(effects('NSA_2008', { kind: 'late-arrival', minutesLate: 12, announcedStart: true })).toEqual([
      {
        type: 'clock',
        party: 'player',
        action: 'charge',
        seconds: 420,
        when: 'from 5 minutes after the start of the round until the player arrives',
      },
      { type: 'forfeit-option', party: 'player' },
    ]);
  });

  test('§1 a clock started at minute 3 is charged from minute 5 only', () => {
    expect(effects('NSA_2008', { kind: 'late-arrival', minutesLate: 10, announcedStart: true, clockStartedAtMinute: 3 })[0]).toMatchObject({
      seconds: 300,
    });
  });

  test('§1 at 25 minutes the game is forfeited', () => {
    expect(effects('NSA_2008', { kind: 'late-arrival', minutesLate: 25, announcedStart: true })).toEqual([
      { type: 'game-forfeited', loser: 'player', margin: 100 },
    ]);
  });

  test('WESPA 2.3: forfeit is optional only with less than 15 minutes left', () => {
    expect(effects('WESPA', { kind: 'late-arrival', minutesLate: 9, announcedStart: true })).toEqual([
      {
        type: 'clock',
        party: 'player',
        action: 'charge',
        seconds: 540,
        when: 'from 0 minutes after the start of the round until the player arrives',
      },
    ]);
    expect(effects('WESPA', { kind: 'late-arrival', minutesLate: 11, announcedStart: true })).toContainEqual({
      type: 'forfeit-option',
      party: 'player',
    });
  });

  test('§1 without an announced start: 10-minute breaks, 5 if the director limits them', () => {
    const r = under('NSA_2008', { kind: 'late-arrival', minutesLate: 8, announcedStart: false });
    expect(r.explanation).toContain('10-minute breaks');
    expect(r.explanation).toContain('5 minutes');
  });

  test('§2 phony off after a 3-tile draw: tiles shown and returned, all reracked, clock restarted at once', () => {
    expect(effects('NSA_2008', { kind: 'return-from-challenge', playAcceptable: false, drawnTiles: 3, drawnTouchedRack: false })).toEqual([
      { type: 'play-withdrawn', party: 'player' },
      { type: 'turn-becomes-pass', party: 'player' },
      { type: 'tiles-returned-to-rack', party: 'player', tiles: 'all remaining tiles, including those challenged off the board' },
      { type: 'tiles-shown', to: 'opponent', tiles: 'the tiles drawn before the ruling', count: 3 },
      { type: 'tiles-returned-to-bag', tiles: 'the tiles drawn before the ruling', count: 3 },
      { type: 'clock', party: 'opponent', action: 'restart', seconds: null, when: 'immediately' },
    ]);
  });

  test('§2 acceptable play: challenger loses the turn; clock restarts after the first replenishment tile, or at once if the winner delays', () => {
    expect(effects('NSA_2008', { kind: 'return-from-challenge', playAcceptable: true })).toEqual([
      { type: 'turn-becomes-pass', party: 'opponent' },
      { type: 'clock', party: 'player', action: 'restart', seconds: null, when: 'after the player sees the first replenishment tile' },
    ]);
    expect(effects('NSA_2008', { kind: 'return-from-challenge', playAcceptable: true, winnerDelaying: true })[1]).toMatchObject({
      when: 'immediately',
    });
  });

  test('§3 signed and submitted: only a slip differing from the agreed score changes; unethical conduct goes to the director', () => {
    expect(
      under('NSA_2008', { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: false, substantiatedByScoreSheets: false })
        .ruling,
    ).toBe('RESULT_STANDS');
    expect(
      under('NSA_2008', { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: true, unethicalConductProven: true })
        .ruling,
    ).toBe('DIRECTOR_DISCRETION');
    expect(under('NSA_2008', { kind: 'tally-slip-change', slip: 'signed', slipMatchesAgreedScore: true }).ruling).toBe(
      'CORRECTION_ALLOWED',
    );
  });

  test('§4 forfeits: first, second, first…; opponents and byes get neither', () => {
    const e = effects('NSA_2008', {
      kind: 'forfeit-order',
      games: [
        { round: 5, role: 'forfeiter' },
        { round: 1, role: 'forfeiter' },
        { round: 2, role: 'opponent' },
        { round: 3, role: 'forfeiter' },
        { round: 4, role: 'bye' },
      ],
    });
    expect(e).toEqual([
      { type: 'first-second', round: 1, position: 'first' },
      { type: 'first-second', round: 2, position: 'neither' },
      { type: 'first-second', round: 3, position: 'second' },
      { type: 'first-second', round: 4, position: 'neither' },
      { type: 'first-second', round: 5, position: 'first' },
    ]);
  });

  test('§8 the 5-second window: at 4.9 s the director decides, at 5 s the play stands', () => {
    expect(under('NSA_2008', { kind: 'fast-bagging', secondsBeforeDraw: 4.9 }).ruling).toBe('DIRECTOR_MAY_ALLOW_CHALLENGE');
    expect(under('NSA_2008', { kind: 'fast-bagging', secondsBeforeDraw: 5 }).ruling).toBe('PLAY_ACCEPTED');
  });

  test('§9 a hold within 15 s starts the opponent’s clock; at 16 s the game is over', () => {
    expect(effects('NSA_2008', { kind: 'out-play-hold', secondsAfterNeutralise: 15, held: true, challenged: false })).toEqual([
      {
        type: 'clock',
        party: 'opponent',
        action: 'start',
        seconds: null,
        when: 'now, until the hold is released (ending the game) or a challenge',
      },
    ]);
    expect(under('NSA_2008', { kind: 'out-play-hold', secondsAfterNeutralise: 16, held: true, challenged: false }).ruling).toBe(
      'GAME_OVER',
    );
    expect(under('NSA_2008', { kind: 'out-play-hold', secondsAfterNeutralise: 8, held: false, challenged: false }).ruling).toBe(
      'WINDOW_OPEN',
    );
  });
});

describe('scenarios from reference/rules/scenarios.md', () => {
  test('S27: 2:05 over is 30 points; WESPA counts whole seconds (0.9 s free), Woogles milliseconds', () => {
    expect(effects('WESPA', { kind: 'overtime', secondsOver: 125 })).toEqual([{ type: 'score-delta', party: 'player', points: -30 }]);
    expect(under('WESPA', { kind: 'overtime', secondsOver: 0.9 }).ruling).toBe('NO_PENALTY');
    expect(effects('WESPA', { kind: 'overtime', secondsOver: 1 })).toEqual([{ type: 'score-delta', party: 'player', points: -10 }]);
    expect(effects('ONLINE_VOID', { kind: 'overtime', secondsOver: 0.5 })).toEqual([{ type: 'score-delta', party: 'player', points: -10 }]);
  });

  test.each([
    // [player, opponent] before → deltas and margin per W3 5.3.3, worked by hand.
    [
      300,
      350,
      [
        { type: 'score-delta', party: 'player', points: -100 },
        { type: 'game-forfeited', loser: 'player', margin: 150 },
      ],
    ],
    [
      400,
      350,
      [
        { type: 'score-delta', party: 'player', points: -150 },
        { type: 'game-forfeited', loser: 'player', margin: 100 },
      ],
    ],
    [
      90,
      60,
      [
        { type: 'score-delta', party: 'player', points: -30 },
        { type: 'score-delta', party: 'opponent', points: 100 },
        { type: 'game-forfeited', loser: 'player', margin: 100 },
      ],
    ],
  ])('S28 WESPA overtime forfeit from %i–%i', (player, opponent, expected) => {
    expect(effects('WESPA', { kind: 'overtime', secondsOver: 600, scores: { player, opponent } })).toEqual(expected);
  });

  test('S28 Woogles: a loss charged the full 100 points, scores otherwise standing', () => {
    expect(effects('ONLINE_VOID', { kind: 'overtime', secondsOver: 601 })).toEqual([
      { type: 'score-delta', party: 'player', points: -100 },
      { type: 'game-forfeited', loser: 'player', margin: null },
    ]);
  });

  test('S6: WESPA 5 points per valid word challenged to the challenged player; recipient is a parameter', () => {
    expect(effects('WESPA', { kind: 'challenge-outcome', playValid: true, wordsChallenged: 3 })).toEqual([
      { type: 'score-delta', party: 'player', points: 15 },
    ]);
    const rs = resolveRuleSet('WESPA', { challenge: { pointsRecipient: 'deducted-from-challenger' } });
    if (!rs.ok) throw new Error(rs.error.message);
    expect(rule({ kind: 'challenge-outcome', playValid: true, wordsChallenged: 3 }, rs.value).effects).toEqual([
      { type: 'score-delta', party: 'opponent', points: -15 },
    ]);
  });

  test('S6/S7: triple challenge — whoever is wrong loses the game', () => {
    const rs = resolveRuleSet('ONLINE_VOID', { challenge: { mode: 'triple' } });
    if (!rs.ok) throw new Error(rs.error.message);
    expect(rule({ kind: 'challenge-outcome', playValid: true }, rs.value).effects).toEqual([{ type: 'winner', party: 'player' }]);
    expect(rule({ kind: 'challenge-outcome', playValid: false }, rs.value).effects).toEqual([{ type: 'winner', party: 'opponent' }]);
  });

  test('S7 house rules: the invalid word is withdrawn and the same player tries again', () => {
    expect(effects('FRIENDLY', { kind: 'challenge-outcome', playValid: false })).toEqual([
      { type: 'play-withdrawn', party: 'player' },
      { type: 'play-again', party: 'player' },
    ]);
  });

  test('S16 overdraw: 6 on the rack, 2 drawn: all the new tiles are shown and 1 returned; racked: X+2 from the whole rack', () => {
    const notRacked = effects('WESPA', { kind: 'overdraw', tilesOnRack: 6, drawn: 2, touchedRack: false });
    expect(notRacked[0]).toMatchObject({ type: 'tiles-shown', count: 2 });
    expect(notRacked[1]).toMatchObject({ type: 'opponent-chooses', count: 1, purpose: 'return-to-bag' });
    const racked = effects('NSA_2008', { kind: 'overdraw', tilesOnRack: 4, drawn: 5, touchedRack: true });
    expect(racked[0]).toMatchObject({ type: 'tiles-shown', count: 4 });
    expect(racked[1]).toMatchObject({ type: 'opponent-chooses', count: 2 });
  });

  test('S22 going out: 2× under NSA, WESPA and Woogles; +1×/−1× under seed-003', () => {
    expect(effects('WESPA', { kind: 'going-out', opponentRackValue: 12 })).toEqual([{ type: 'score-delta', party: 'player', points: 24 }]);
    expect(effects('MATCH_VARIANT', { kind: 'going-out', opponentRackValue: 12 })).toEqual([
      { type: 'score-delta', party: 'player', points: 12 },
      { type: 'score-delta', party: 'opponent', points: -12 },
    ]);
  });

  test('S24: six zeros end the game and each player loses their own rack', () => {
    expect(
      effects('WESPA', {
        kind: 'scoreless-turns',
        turns: ['pass', 'pass', 'exchange', 'challenged-off', 'pass', 'pass'],
        rackValues: { player: 9, opponent: 4 },
      }),
    ).toEqual([
      { type: 'game-ends', reason: '6 consecutive scoreless turns' },
      { type: 'score-delta', party: 'player', points: -9 },
      { type: 'score-delta', party: 'opponent', points: -4 },
    ]);
  });

  test('S26: WESPA resignation margin is max(50, lead + 50)', () => {
    expect(effects('WESPA', { kind: 'resignation', scores: { player: 200, opponent: 280 }, emergency: true })).toEqual([
      { type: 'game-forfeited', loser: 'player', margin: 130 },
    ]);
    expect(effects('WESPA', { kind: 'resignation', scores: { player: 300, opponent: 280 }, emergency: true })).toEqual([
      { type: 'game-forfeited', loser: 'player', margin: 50 },
    ]);
  });

  test('S33: WESPA recount only at a margin of 20 or less, before signing', () => {
    expect(under('WESPA', { kind: 'recount-request', margin: 20, slip: 'not-signed' }).ruling).toBe('RECOUNT_ALLOWED');
    expect(under('WESPA', { kind: 'recount-request', margin: 20, slip: 'signed' }).ruling).toBe('RECOUNT_REFUSED');
    expect(under('NSA_2008', { kind: 'recount-request', margin: 20, slip: 'submitted' }).ruling).toBe('RECOUNT_REFUSED');
  });

  test('S39: tie broken on the score before adjustments; match on combined points', () => {
    expect(
      effects('MATCH_VARIANT', {
        kind: 'tied-game',
        finalScores: { player: 350, opponent: 350 },
        scoresBeforeAdjustments: { player: 340, opponent: 355 },
      }),
    ).toEqual([{ type: 'winner', party: 'opponent' }]);
    expect(
      effects('MATCH_VARIANT', {
        kind: 'match-result',
        games: [
          { player: 400, opponent: 380 },
          { player: 350, opponent: 390 },
        ],
      }),
    ).toEqual([{ type: 'winner', party: 'opponent' }]);
    expect(
      under('MATCH_VARIANT', {
        kind: 'match-result',
        games: [
          { player: 400, opponent: 380 },
          { player: 370, opponent: 390 },
        ],
      }).ruling,
    ).toBe('MATCH_TIED');
  });

  test('any challenge dispute under VOID is NOT_APPLICABLE because there are no challenges', () => {
    for (const d of [
      { kind: 'challenge-outcome', playValid: true },
      { kind: 'fast-bagging', secondsBeforeDraw: 1 },
      { kind: 'out-play-hold', secondsAfterNeutralise: 1, held: true, challenged: false },
      { kind: 'return-from-challenge', playAcceptable: false },
    ]) {
      const r = under('ONLINE_VOID', d);
      expect(r.ruling).toBe(NA);
      expect(r.explanation).toContain('no challenges');
    }
  });
});

describe('scenarios S5–S38: effects worked out by hand', () => {
  test('S5 WESPA 3.10.15(d): drawn since → both see the 3 tiles, then they are bagged', () => {
    expect(effects('WESPA', { kind: 'exchange-tiles-not-bagged', tiles: 3, drawnSince: true })).toEqual([
      { type: 'tiles-shown', to: 'both', tiles: 'the 3 tiles set aside to exchange', count: 3 },
      { type: 'tiles-returned-to-bag', tiles: 'the 3 tiles set aside to exchange', count: 3 },
    ]);
  });

  test('S9 WESPA 3.10.2: a flash-drawn tile on the rack means overdraw if the challenge succeeds', () => {
    const r = under('WESPA', {
      kind: 'challenge-after-draw',
      secondsBeforeDraw: 2,
      scoreRecordedBeforeDraw: false,
      drawnTiles: 2,
      drawnTouchedRack: true,
    });
    expect(r.effects).toEqual([{ type: 'challenge-allowed', allowed: true }]);
    expect(r.explanation).toContain('overdraw procedure');
    expect(r.citations).toContainEqual({ source: 'wespa-3.0', rule: '3.9.5', verification: 'V' });
  });

  test('S10 corrected: a phony wrongly accepted comes off; a valid play wrongly removed costs the double-challenger the turn', () => {
    expect(effects('WESPA', { kind: 'wrong-adjudication', ruledAcceptable: true, tilesTouchedRack: false })).toEqual([
      { type: 'play-withdrawn', party: 'player' },
      { type: 'turn-becomes-pass', party: 'player' },
    ]);
    // The play wrongly taken off goes back on the board first.
    expect(effects('NSA_2008', { kind: 'wrong-adjudication', ruledAcceptable: false, tilesTouchedRack: false })).toEqual([
      { type: 'play-restored', party: 'player' },
      { type: 'turn-becomes-pass', party: 'opponent' },
    ]);
    // WESPA: 5 points for each of the 2 valid words.
    expect(effects('WESPA', { kind: 'wrong-adjudication', ruledAcceptable: false, tilesTouchedRack: false, wordsChallenged: 2 })).toEqual([
      { type: 'play-restored', party: 'player' },
      { type: 'score-delta', party: 'player', points: 10 },
    ]);
  });

  test('S11 NASPA IV.J.2: the one who caused an unacceptable improper lookup loses 10', () => {
    expect(effects('NSA_2008', { kind: 'mistyped-challenge', causedBy: 'player', resultShown: 'unacceptable' })).toEqual([
      { type: 'score-delta', party: 'player', points: -10 },
    ]);
    expect(under('NSA_2008', { kind: 'mistyped-challenge', causedBy: 'opponent', resultShown: 'acceptable' }).ruling).toBe('NO_PENALTY');
  });

  test('S12: NASPA takes a centre-missing opening off even when valid; WESPA keeps the centre premium when unchallenged', () => {
    expect(effects('NSA_2008', { kind: 'placement-challenge', fault: 'opening-misses-centre', playValid: true })).toEqual([
      { type: 'play-withdrawn', party: 'player' },
      { type: 'turn-becomes-pass', party: 'player' },
    ]);
    expect(under('WESPA', { kind: 'placement-challenge', fault: 'opening-misses-centre', challenged: false }).explanation).toContain(
      'double-word value',
    );
    expect(under('NSA_2008', { kind: 'placement-challenge', fault: 'opening-misses-centre', challenged: false }).explanation).not.toContain(
      'double-word',
    );
  });

  test('S14: the hold limit follows time.overtimeForfeitMinutes', () => {
    const rs = resolveRuleSet('WESPA', { time: { overtimeForfeitMinutes: 5 } });
    if (!rs.ok) throw new Error(rs.error.message);
    expect(rule({ kind: 'long-hold', holderOvertimeSeconds: 300 }, rs.value).effects).toEqual([
      { type: 'game-forfeited', loser: 'opponent', margin: null },
    ]);
    expect(rule({ kind: 'long-hold', holderOvertimeSeconds: 299 }, rs.value).ruling).toBe('HOLD_VALID');
  });

  test('S15: 3 courtesy-drawn tiles mixed in → WESPA overdraw of 3 (5 turned up from the rack); a draw before the delay is flagged', () => {
    const r = under('WESPA', {
      kind: 'courtesy-draw',
      secondsAfterClockPress: 20,
      drawnTiles: 3,
      mixedIntoRack: true,
      challengeSucceeded: true,
      challengedMidDraw: true,
    });
    expect(r.effects[0]).toMatchObject({ type: 'tiles-shown', count: 5 });
    expect(r.effects[1]).toMatchObject({ type: 'opponent-chooses', count: 3, purpose: 'return-to-bag' });
    expect(r.explanation).toContain('before the 30-second courtesy delay');
    expect(r.explanation).toContain('no further tiles are drawn');
    expect(
      under('NSA_2008', { kind: 'courtesy-draw', secondsAfterClockPress: 20, drawnTiles: 3, challengeSucceeded: true }).explanation,
    ).not.toContain('courtesy delay');
  });

  test('S18 WESPA 3.9.9: left short → all 2 tiles count as overdrawn, then the opponent completes the draw', () => {
    expect(effects('WESPA', { kind: 'out-of-order-draw', drawnTiles: 2, opponentLeftShort: true, touchedRack: false })).toEqual([
      { type: 'tiles-shown', to: 'both', tiles: '2 of the newly drawn tiles, face down, turned up by the opponent', count: 2 },
      {
        type: 'opponent-chooses',
        chooser: 'opponent',
        from: 'the 2 face-up tiles',
        count: 2,
        purpose: 'return-to-bag',
        withinSeconds: null,
      },
      { type: 'tiles-returned-to-bag', tiles: 'the tiles the opponent chose', count: 2 },
      { type: 'tiles-drawn', party: 'opponent', count: null },
      { type: 'tiles-drawn', party: 'player', count: null },
    ]);
  });

  test('S19 WESPA 4.4, fewer than 7 in the bag: 2 spilled + 2 turned up, the spiller gets 2, 2 go to the bag', () => {
    expect(effects('WESPA', { kind: 'spilled-tiles', exposed: 2, bagCount: 5, moment: 'unrelated' })).toEqual([
      {
        type: 'tiles-shown',
        to: 'both',
        tiles: "the 2 exposed tiles and 2 tiles the opponent turns up from the player's rack, shuffled face down",
        count: 4,
      },
      {
        type: 'opponent-chooses',
        chooser: 'opponent',
        from: 'those face-up tiles',
        count: 2,
        purpose: 'give-to-player',
        withinSeconds: null,
      },
      { type: 'tiles-returned-to-bag', tiles: 'the other face-up tiles', count: 2 },
    ]);
  });

  test('S20 WESPA 4.3/4.5: the tiles go to whoever should have drawn earliest; the rest to the other', () => {
    expect(
      effects('WESPA', {
        kind: 'tiles-found',
        found: 3,
        where: 'in-bag',
        racks: { player: 0, opponent: 5 },
        shouldHaveDrawnEarliest: 'opponent',
        slip: 'not-signed',
      }),
    ).toEqual([
      { type: 'tiles-drawn', party: 'opponent', count: 2 },
      { type: 'tiles-drawn', party: 'player', count: 1 },
    ]);
    expect(
      under('WESPA', {
        kind: 'tiles-found',
        found: 3,
        where: 'in-bag',
        racks: { player: 0, opponent: 5 },
        shouldHaveDrawnEarliest: 'opponent',
        slip: 'not-signed',
      }).ruling,
    ).toBe('GAME_CONTINUES');
  });

  test('S21: one tile missing leaves a 99-tile game', () => {
    expect(effects('WESPA', { kind: 'missing-tile', missing: 1 })).toEqual([{ type: 'tiles-in-game', total: 99 }]);
  });

  test('S34: an undeclared blank restarts the player’s clock (not a pass)', () => {
    expect(effects('NSA_2008', { kind: 'blank-designation', designation: 'undeclared' })).toEqual([
      { type: 'clock', party: 'player', action: 'restart', seconds: null, when: 'now, until the blank is designated' },
    ]);
  });

  test('S35/S36 Woogles: one abort per player, receiver needs 2 minutes, auto-accept at 60 s; nudges limited to 2', () => {
    const abort = { kind: 'abort-request', gameEvents: 3, receiverSecondsLeft: 900, reply: 'none', secondsWithoutReply: 60 };
    expect(under('ONLINE_VOID', abort).ruling).toBe('GAME_ABORTED');
    expect(under('ONLINE_VOID', { ...abort, earlierRequests: 1 }).ruling).toBe('REQUEST_REFUSED');
    expect(under('ONLINE_VOID', { ...abort, receiverSecondsLeft: 119 }).ruling).toBe('REQUEST_REFUSED');
    expect(under('ONLINE_VOID', { kind: 'idle-opponent', answered: false, secondsUnanswered: 119 }).ruling).toBe('WINDOW_OPEN');
    expect(under('ONLINE_VOID', { kind: 'idle-opponent', answered: false, secondsUnanswered: 500, earlierRequests: 2 }).ruling).toBe(
      'REQUEST_REFUSED',
    );
    expect(effects('ONLINE_VOID', { kind: 'idle-opponent', answered: false, secondsUnanswered: 120 })).toEqual([
      { type: 'game-forfeited', loser: 'opponent', margin: null },
      { type: 'winner', party: 'player' },
    ]);
  });

  test('S37: the substitution must be at the start of the turn and the blank replayed', () => {
    expect(effects('FRIENDLY', { kind: 'blank-substitution', blankLetter: 'E', tileGiven: 'E' })).toEqual([
      { type: 'blank-substituted', party: 'player', letter: 'E' },
    ]);
    expect(under('FRIENDLY', { kind: 'blank-substitution', blankLetter: 'E', tileGiven: 'E', atStartOfTurn: false }).ruling).toBe(
      'SUBSTITUTION_REFUSED',
    );
    expect(under('FRIENDLY', { kind: 'blank-substitution', blankLetter: 'E', tileGiven: 'E', blankReplayed: false }).ruling).toBe(
      'SUBSTITUTION_REFUSED',
    );
  });

  test('S38 seed-002 example 1: AADDLPO may trade an A or a D for the two pair', () => {
    expect(effects('FRIENDLY', { kind: 'free-trade', rack: 'AADDLPO' })).toEqual([
      { type: 'free-trade-option', tile: 'A', yAs: null, conditions: ['two-pair'] },
      { type: 'free-trade-option', tile: 'D', yAs: null, conditions: ['two-pair'] },
    ]);
    expect(under('FRIENDLY', { kind: 'free-trade', rack: 'AADDLPO', trades: 'AD' }).ruling).toBe('FREE_TRADE_REFUSED');
  });

  test('S38 seed-002 example 2: AAAITUY trades the U then an A with Y as a vowel, but not two A’s', () => {
    expect(effects('FRIENDLY', { kind: 'free-trade', rack: 'AAAITUY', trades: 'UA' })).toEqual([
      { type: 'free-trade-option', tile: 'U', yAs: 'vowel', conditions: ['few-consonants'] },
      { type: 'free-trade-option', tile: 'A', yAs: 'vowel', conditions: ['three-of-a-kind'] },
    ]);
    expect(under('FRIENDLY', { kind: 'free-trade', rack: 'AAAITUY', trades: 'AA' }).ruling).toBe('FREE_TRADE_REFUSED');
    const options = effects('FRIENDLY', { kind: 'free-trade', rack: 'AAAITUY' });
    // Y as a vowel: six vowels (few consonants) and three A's.
    expect(options).toContainEqual({ type: 'free-trade-option', tile: 'U', yAs: 'vowel', conditions: ['few-consonants'] });
    expect(options).toContainEqual({
      type: 'free-trade-option',
      tile: 'A',
      yAs: 'vowel',
      conditions: ['three-of-a-kind', 'few-consonants'],
    });
  });
});

describe('rulings come from the rule-set data, not its id', () => {
  test('NSA with WESPA’s exchange procedure rules like WESPA', () => {
    const rs = resolveRuleSet('NSA_2008', { exchange: { illegalExchangeProcedure: 'wespa-3.10.15' } });
    if (!rs.ok) throw new Error(rs.error.message);
    const d = { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4 };
    expect(rule(d, rs.value).effects).toEqual(under('WESPA', d).effects);
  });

  test('NSA with WESPA’s wrong-adjudication deadline ignores the later play', () => {
    const rs = resolveRuleSet('NSA_2008', { challenge: { wrongAdjudication: 'until-tiles-touch-rack' } });
    if (!rs.ok) throw new Error(rs.error.message);
    const r = rule({ kind: 'wrong-adjudication', ruledAcceptable: true, tilesTouchedRack: false, nextPlayMade: true }, rs.value);
    expect(r.ruling).toBe('RULING_CORRECTED');
    expect(r.citations).toContainEqual({ source: 'override', rule: 'challenge.wrongAdjudication=until-tiles-touch-rack' });
  });

  test('FRIENDLY with free trades off refuses them; NSA with them on grants them', () => {
    const off = resolveRuleSet('FRIENDLY', { house: { freeTrades: false } });
    const on = resolveRuleSet('NSA_2008', { house: { freeTrades: true } });
    if (!off.ok || !on.ok) throw new Error('override rejected');
    expect(rule({ kind: 'free-trade', rack: 'AADDLPO' }, off.value).ruling).toBe('FREE_TRADE_REFUSED');
    expect(rule({ kind: 'free-trade', rack: 'AADDLPO' }, on.value).ruling).toBe('FREE_TRADE_ALLOWED');
  });

  test('with no overtime limit a hold never runs out', () => {
    const rs = resolveRuleSet('WESPA', { time: { overtimeForfeitMinutes: null } });
    if (!rs.ok) throw new Error(rs.error.message);
    expect(rule({ kind: 'long-hold', holderOvertimeSeconds: 3600 }, rs.value).ruling).toBe('HOLD_VALID');
  });

  test('FRIENDLY with a 10-minute overtime limit and a penalty rules on overtime', () => {
    const rs = resolveRuleSet('FRIENDLY', { time: { overtimePenaltyPerMinute: 10 } });
    if (!rs.ok) throw new Error(rs.error.message);
    expect(rule({ kind: 'overtime', secondsOver: 61 }, rs.value).effects).toEqual([{ type: 'score-delta', party: 'player', points: -20 }]);
  });
});

describe('parseDispute rejects impossible facts, naming the field', () => {
  test.each([
    ['not an object', [1, 2], 'INVALID_DISPUTE', 'JSON object'],
    ['unknown kind', { kind: 'tile-theft' }, 'UNKNOWN_DISPUTE_KIND', 'tile-theft'],
    [
      'bag of 7 for an illegal exchange',
      { kind: 'illegal-exchange', bagCount: 7, stage: 'announced', exchangedCount: 3 },
      'INVALID_DISPUTE',
      'bagCount',
    ],
    [
      'negative bag count',
      { kind: 'illegal-exchange', bagCount: -1, stage: 'announced', exchangedCount: 3 },
      'INVALID_DISPUTE',
      'bagCount',
    ],
    [
      'more exchanged than the rack holds',
      { kind: 'illegal-exchange', bagCount: 5, stage: 'announced', exchangedCount: 8 },
      'INVALID_DISPUTE',
      'exchangedCount',
    ],
    ['unknown stage', { kind: 'illegal-exchange', bagCount: 5, stage: 'halfway', exchangedCount: 3 }, 'INVALID_DISPUTE', 'stage'],
    [
      'old tiles in the bag at the announced stage',
      { kind: 'illegal-exchange', bagCount: 5, stage: 'announced', exchangedCount: 3, oldTilesInBag: true },
      'INVALID_DISPUTE',
      'oldTilesInBag',
    ],
    [
      'placed more than the rack',
      { kind: 'exchange-count-mismatch', announced: 5, placedFaceDown: 8 },
      'INVALID_DISPUTE',
      'placedFaceDown',
    ],
    ['no mismatch', { kind: 'exchange-count-mismatch', announced: 4, placedFaceDown: 4 }, 'INVALID_DISPUTE', 'placedFaceDown'],
    ['not an overdraw', { kind: 'overdraw', tilesOnRack: 5, drawn: 2, touchedRack: false }, 'INVALID_DISPUTE', 'drawn'],
    ['negative minutes late', { kind: 'late-arrival', minutesLate: -1, announcedStart: true }, 'INVALID_DISPUTE', 'minutesLate'],
    [
      'clock started after arrival',
      { kind: 'late-arrival', minutesLate: 4, announcedStart: true, clockStartedAtMinute: 6 },
      'INVALID_DISPUTE',
      'clockStartedAtMinute',
    ],
    ['missing required fact', { kind: 'challenge-outcome' }, 'INVALID_DISPUTE', 'playValid'],
    ['unknown fact', { kind: 'going-out', opponentRackValue: 3, opponentRack: 'QZ' }, 'INVALID_DISPUTE', 'opponentRack'],
    [
      'reversed yet matching',
      { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: true, scoresReversed: true },
      'INVALID_DISPUTE',
      'scoresReversed',
    ],
    ['no scoring error', { kind: 'scoring-error', announced: 20, correct: 20, slip: 'not-signed' }, 'INVALID_DISPUTE', 'correct'],
    ['bad turn kind', { kind: 'scoreless-turns', turns: ['pass', 'nap'] }, 'INVALID_DISPUTE', 'turns[1]'],
    [
      'repeated round',
      {
        kind: 'forfeit-order',
        games: [
          { round: 1, role: 'forfeiter' },
          { round: 1, role: 'bye' },
        ],
      },
      'INVALID_DISPUTE',
      'games[1].round',
    ],
    [
      'untied tied game',
      { kind: 'tied-game', finalScores: { player: 350, opponent: 349 }, scoresBeforeAdjustments: { player: 1, opponent: 2 } },
      'INVALID_DISPUTE',
      'finalScores',
    ],
    [
      'drawn tiles touching the rack with none drawn',
      { kind: 'return-from-challenge', playAcceptable: false, drawnTouchedRack: true },
      'INVALID_DISPUTE',
      'drawnTouchedRack',
    ],
    ['more unbagged tiles than a rack', { kind: 'exchange-tiles-not-bagged', tiles: 8, drawnSince: true }, 'INVALID_DISPUTE', 'tiles'],
    ['negative seconds before the draw', { kind: 'challenge-after-draw', secondsBeforeDraw: -2 }, 'INVALID_DISPUTE', 'secondsBeforeDraw'],
    [
      'wrong adjudication without the rack fact',
      { kind: 'wrong-adjudication', ruledAcceptable: true },
      'INVALID_DISPUTE',
      'tilesTouchedRack',
    ],
    [
      'unknown lookup culprit',
      { kind: 'mistyped-challenge', causedBy: 'director', resultShown: 'acceptable' },
      'INVALID_DISPUTE',
      'causedBy',
    ],
    ['legal placement not challenged', { kind: 'placement-challenge', fault: 'none', challenged: false }, 'INVALID_DISPUTE', 'challenged'],
    [
      'courtesy draw of 8 tiles',
      { kind: 'courtesy-draw', secondsAfterClockPress: 40, drawnTiles: 8, challengeSucceeded: true },
      'INVALID_DISPUTE',
      'drawnTiles',
    ],
    ['spill at an unknown moment', { kind: 'spilled-tiles', exposed: 1, bagCount: 3, moment: 'later' }, 'INVALID_DISPUTE', 'moment'],
    [
      'found tiles with a rack of 9',
      {
        kind: 'tiles-found',
        found: 1,
        where: 'in-bag',
        racks: { player: 9, opponent: 0 },
        shouldHaveDrawnEarliest: 'player',
        slip: 'not-signed',
      },
      'INVALID_DISPUTE',
      'racks.player',
    ],
    [
      'found tiles with both racks full',
      {
        kind: 'tiles-found',
        found: 1,
        where: 'in-bag',
        racks: { player: 7, opponent: 7 },
        shouldHaveDrawnEarliest: 'player',
        slip: 'not-signed',
      },
      'INVALID_DISPUTE',
      'racks',
    ],
    ['no tile missing', { kind: 'missing-tile', missing: 0 }, 'INVALID_DISPUTE', 'missing'],
    [
      'undeclared blank found plays later',
      { kind: 'blank-designation', designation: 'undeclared', playsSince: 3 },
      'INVALID_DISPUTE',
      'playsSince',
    ],
    [
      'abort reply with a waiting time',
      { kind: 'abort-request', gameEvents: 2, receiverSecondsLeft: 600, reply: 'declined', secondsWithoutReply: 10 },
      'INVALID_DISPUTE',
      'secondsWithoutReply',
    ],
    ['unanswered nudge without a time', { kind: 'idle-opponent', answered: false }, 'INVALID_DISPUTE', 'secondsUnanswered'],
    ['a blank given for a blank', { kind: 'blank-substitution', blankLetter: 'E', tileGiven: '?' }, 'INVALID_DISPUTE', 'tileGiven'],
    ['lower-case rack', { kind: 'free-trade', rack: 'aaddlpo' }, 'INVALID_DISPUTE', 'rack'],
    ['trading tiles not on the rack', { kind: 'free-trade', rack: 'AADDLPO', trades: 'Z' }, 'INVALID_DISPUTE', 'trades'],
  ] as const)('%s', (_name, json, code, field) => {
    const r = parseDispute(json);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.message).toContain(field);
  });

  test('a match with the wrong number of games is rejected by adjudicate under the variant', () => {
    const d = parseDispute({ kind: 'match-result', games: [{ player: 1, opponent: 2 }] });
    if (!d.ok) throw new Error(d.error.message);
    expect(adjudicate(d.value, PRESETS.MATCH_VARIANT)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_DISPUTE', details: { field: 'games' } },
    });
  });

  test('a free-trade rack with a tile the distribution lacks, or too many tiles, is rejected by adjudicate', () => {
    const bad = parseDispute({ kind: 'free-trade', rack: 'AAD[CH]LPO' });
    const long = parseDispute({ kind: 'free-trade', rack: 'AADDLPOE' });
    if (!bad.ok || !long.ok) throw new Error('parse failed');
    expect(adjudicate(bad.value, PRESETS.FRIENDLY)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_DISPUTE', details: { field: 'rack', value: 'CH' } },
    });
    const r = adjudicate(bad.value, PRESETS.FRIENDLY);
    expect(r.ok ? '' : r.error.message).toContain('rack');
    expect(adjudicate(long.value, PRESETS.FRIENDLY)).toMatchObject({ ok: false, error: { details: { field: 'rack' } } });
  });

  test('defaults are filled in', () => {
    expect(
      parseDispute({ kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4, description: 'round 3' }),
    ).toEqual({
      ok: true,
      value: {
        kind: 'illegal-exchange',
        bagCount: 5,
        stage: 'racking-started',
        exchangedCount: 4,
        rackSize: 7,
        oldTilesInBag: false,
        description: 'round 3',
      },
    });
  });
});
