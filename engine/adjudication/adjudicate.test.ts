import { describe, expect, test } from 'vitest';
import { resolveRuleSet } from '../rules/params.js';
import { PRESETS } from '../rules/presets.js';
import type { RuleSet, RuleSetId } from '../rules/ruleset.js';
import { adjudicate } from './adjudicate.js';
import { DISPUTE_KINDS } from './dispute.js';
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

type Row = readonly [name: string, dispute: Record<string, unknown>, expected: readonly [RulingCode, RulingCode, RulingCode, RulingCode, RulingCode]];

/** Expected rulings per preset, in the order NSA_2008, WESPA, FRIENDLY, MATCH_VARIANT, ONLINE_VOID, worked out from the rules. */
const TABLE: readonly Row[] = [
  ['illegal exchange, announced only', { kind: 'illegal-exchange', bagCount: 5, stage: 'announced', exchangedCount: 3 }, ['TURN_IS_PASS', 'TURN_IS_PASS', NA, NA, NA]],
  ['illegal exchange, drawn not racked', { kind: 'illegal-exchange', bagCount: 5, stage: 'drawn-not-racked', exchangedCount: 3 }, ['TILES_SHOWN_AND_RETURNED', 'TURN_IS_PASS', NA, NA, NA]],
  ['illegal exchange, old returned', { kind: 'illegal-exchange', bagCount: 5, stage: 'old-returned-new-not-racked', exchangedCount: 3 }, ['OPPONENT_CHOOSES_TILES', 'OPPONENT_CHOOSES_TILES', NA, NA, NA]],
  ['illegal exchange, racking started', { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4 }, ['OPPONENT_CHOOSES_TILES', 'OPPONENT_CHOOSES_TILES', NA, NA, NA]],
  ['illegal exchange, after the opponent’s turn', { kind: 'illegal-exchange', bagCount: 5, stage: 'after-opponent-turn', exchangedCount: 6 }, ['SCORE_PENALTY', 'SCORE_PENALTY', NA, NA, NA]],
  ['announced five, placed four', { kind: 'exchange-count-mismatch', announced: 5, placedFaceDown: 4 }, ['FACE_DOWN_COUNT_EXCHANGED', 'FACE_DOWN_COUNT_EXCHANGED', NA, 'FACE_DOWN_COUNT_EXCHANGED', NA]],
  ['announced seven, left on the rack', { kind: 'exchange-count-mismatch', announced: 7, placedFaceDown: 0 }, ['ALL_TILES_EXCHANGED', 'TURN_IS_PASS', NA, 'FACE_DOWN_COUNT_EXCHANGED', NA]],
  ['exchange with no count and no tiles', { kind: 'exchange-unspecified' }, ['TURN_LOST', 'TURN_IS_PASS', NA, 'ZERO_TILE_EXCHANGE', NA]],
  ['old tiles bagged first', { kind: 'exchange-early-return', drewSameTiles: true }, ['NO_PENALTY', 'NO_PENALTY', NA, NA, NA]],
  ['12 minutes late', { kind: 'late-arrival', minutesLate: 12, announcedStart: true }, ['CLOCK_CHARGED', 'CLOCK_CHARGED', NA, NA, NA]],
  ['3 minutes late', { kind: 'late-arrival', minutesLate: 3, announcedStart: true }, ['NO_PENALTY', 'CLOCK_CHARGED', NA, NA, NA]],
  ['25 minutes late', { kind: 'late-arrival', minutesLate: 25, announcedStart: true }, ['GAME_FORFEITED', 'GAME_FORFEITED', NA, NA, NA]],
  ['late with no announced start', { kind: 'late-arrival', minutesLate: 8, announcedStart: false }, ['BREAK_ALLOWANCE', NA, NA, NA, NA]],
  ['2:05 over time', { kind: 'overtime', secondsOver: 125 }, ['OVERTIME_PENALTY', 'OVERTIME_PENALTY', NA, NA, 'OVERTIME_PENALTY']],
  ['0.5 s over time', { kind: 'overtime', secondsOver: 0.5 }, ['NO_PENALTY', 'NO_PENALTY', NA, NA, 'OVERTIME_PENALTY']],
  ['10 minutes over time', { kind: 'overtime', secondsOver: 600, scores: { player: 300, opponent: 350 } }, ['GAME_FORFEITED', 'GAME_FORFEITED', NA, NA, 'GAME_FORFEITED']],
  ['valid play challenged', { kind: 'challenge-outcome', playValid: true, wordsChallenged: 2 }, ['CHALLENGER_LOSES_TURN', 'CHALLENGE_POINTS', 'NO_PENALTY', 'CHALLENGER_LOSES_TURN', NA]],
  ['phony challenged', { kind: 'challenge-outcome', playValid: false, wordsChallenged: 2 }, ['PLAY_WITHDRAWN', 'PLAY_WITHDRAWN', 'PLAY_AGAIN', 'PLAY_WITHDRAWN', NA]],
  ['phony off, 3 tiles drawn and racked', { kind: 'return-from-challenge', playAcceptable: false, drawnTiles: 3, drawnTouchedRack: true }, ['TILES_SHOWN_AND_RETURNED', 'OVERDRAW_PROCEDURE', NA, NA, NA]],
  ['acceptable play, back to the board', { kind: 'return-from-challenge', playAcceptable: true }, ['PLAY_STANDS', 'PLAY_STANDS', NA, NA, NA]],
  ['drew after 2 s, score recorded', { kind: 'fast-bagging', secondsBeforeDraw: 2, scoreRecordedBeforeDraw: true }, ['DIRECTOR_MAY_ALLOW_CHALLENGE', 'PLAY_ACCEPTED', NA, NA, NA]],
  ['drew after 6 s, score not recorded', { kind: 'fast-bagging', secondsBeforeDraw: 6, scoreRecordedBeforeDraw: false }, ['PLAY_ACCEPTED', 'CHALLENGE_ALLOWED', NA, NA, NA]],
  ['out play held after 10 s', { kind: 'out-play-hold', secondsAfterNeutralise: 10, held: true, challenged: false }, ['HOLD_VALID', 'HOLD_VALID', NA, NA, NA]],
  ['out play challenged after 20 s', { kind: 'out-play-hold', secondsAfterNeutralise: 20, held: false, challenged: true }, ['GAME_OVER', 'CHALLENGE_VALID', NA, NA, NA]],
  ['out play, silence for 20 s', { kind: 'out-play-hold', secondsAfterNeutralise: 20, held: false, challenged: false }, ['GAME_OVER', 'OPPONENT_CLOCK_RESTARTS', NA, NA, NA]],
  ['overdraw of one, not racked', { kind: 'overdraw', tilesOnRack: 5, drawn: 3, touchedRack: false }, ['OVERDRAW_PROCEDURE', 'OVERDRAW_PROCEDURE', NA, NA, NA]],
  ['underdraw found in time', { kind: 'underdraw', missing: 2, discovered: 'before-next-turn-completed' }, [NA, 'OPPONENT_GIVES_TILES', NA, NA, NA]],
  ['scoring error, slip signed not submitted', { kind: 'scoring-error', announced: 22, correct: 28, slip: 'signed' }, ['SCORE_CORRECTED', 'RESULT_STANDS', NA, NA, NA]],
  ['submitted slip differs from the agreed score', { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: false, substantiatedByScoreSheets: true }, ['SLIP_CORRECTED', 'RESULT_STANDS', NA, NA, NA]],
  ['submitted slip with reversed scores', { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: false, scoresReversed: true, substantiatedByScoreSheets: true }, ['SLIP_CORRECTED', 'SLIP_CORRECTED', NA, NA, NA]],
  ['submitted slip, miscount', { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: true }, ['RESULT_STANDS', 'RESULT_STANDS', NA, NA, NA]],
  ['recount at a 35-point margin', { kind: 'recount-request', margin: 35, slip: 'not-signed' }, ['RECOUNT_ALLOWED', 'RECOUNT_REFUSED', NA, NA, NA]],
  ['six passes', { kind: 'scoreless-turns', turns: ['pass', 'pass', 'pass', 'pass', 'pass', 'pass'] }, ['GAME_ENDS', 'GAME_ENDS', 'GAME_ENDS', 'GAME_CONTINUES', 'GAME_ENDS']],
  ['six zeros including a lost challenge', { kind: 'scoreless-turns', turns: ['pass', 'exchange', 'lost-challenge', 'pass', 'pass', 'exchange'] }, ['GAME_ENDS', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_ENDS']],
  ['five passes then a zero-point play', { kind: 'scoreless-turns', turns: ['pass', 'pass', 'pass', 'pass', 'pass', 'zero-point-play'] }, ['GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES']],
  ['both players exchange twice', { kind: 'scoreless-turns', turns: ['scoring-play', 'exchange', 'exchange', 'exchange', 'exchange'] }, ['GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_CONTINUES', 'GAME_ENDS', 'GAME_CONTINUES']],
  ['going out against 12 points', { kind: 'going-out', opponentRackValue: 12 }, ['GOING_OUT_BONUS', 'GOING_OUT_BONUS', 'GOING_OUT_BONUS', 'GOING_OUT_BONUS', 'GOING_OUT_BONUS']],
  ['emergency resignation 80 behind', { kind: 'resignation', scores: { player: 200, opponent: 280 }, emergency: true }, [NA, 'RESIGNATION_SCORED', NA, NA, 'GAME_RESIGNED']],
  ['resignation without emergency', { kind: 'resignation', scores: { player: 200, opponent: 280 }, emergency: false }, [NA, 'DIRECTOR_DISCRETION', NA, NA, 'GAME_RESIGNED']],
  ['three forfeits and a bye', { kind: 'forfeit-order', games: [{ round: 1, role: 'forfeiter' }, { round: 2, role: 'opponent' }, { round: 3, role: 'forfeiter' }, { round: 4, role: 'bye' }, { round: 5, role: 'forfeiter' }] }, ['FIRSTS_ASSIGNED', NA, NA, NA, NA]],
  ['tie at 350', { kind: 'tied-game', finalScores: { player: 350, opponent: 350 }, scoresBeforeAdjustments: { player: 340, opponent: 355 } }, ['TIE_STANDS', 'TIE_STANDS', 'TIE_STANDS', 'TIE_BROKEN', 'TIE_STANDS']],
  ['two-game match', { kind: 'match-result', games: [{ player: 400, opponent: 380 }, { player: 350, opponent: 390 }] }, [NA, NA, NA, 'MATCH_DECIDED', NA]],
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
  });
});

const effects = (id: RuleSetId, json: unknown): readonly Effect[] => under(id, json).effects;

describe('seed-000: exchange disputes', () => {
  test('announce five, place four: only those four are exchanged', () => {
    expect(effects('NSA_2008', { kind: 'exchange-count-mismatch', announced: 5, placedFaceDown: 4 })).toEqual([{ type: 'tiles-exchanged', party: 'player', count: 4 }]);
  });

  test('seven tiles, four exchanged, racking started: the opponent looks at six tiles and chooses which six are kept', () => {
    const r = under('NSA_2008', { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4, rackSize: 7 });
    expect(r.effects).toEqual([
      { type: 'tiles-shown', to: 'opponent', tiles: "6 tiles from the player's rack", count: 6 },
      { type: 'opponent-chooses', chooser: 'opponent', from: 'those 6 tiles and the tiles in the bag', count: 6, purpose: 'keep-on-player-rack', withinSeconds: null },
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
      expect(effects(id, { kind: 'illegal-exchange', bagCount: 3, stage: 'after-opponent-turn', exchangedCount: 2 })).toEqual([{ type: 'score-delta', party: 'player', points: -30 }]);
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
    expect(iv[1]).toMatchObject({ type: 'opponent-chooses', from: "the player's rack and the set-aside tiles", count: 7, withinSeconds: 60 });
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
    expect(r.ruling).toBe(NA);
    expect(r.explanation).toContain('no remedy');
  });
});

describe('seed-001: NSA changes of 25 July 2008', () => {
  test('§1 late by 12 minutes: 7 minutes charged from minute 5, and the player may forfeit', () => {
    expect(effects('NSA_2008', { kind: 'late-arrival', minutesLate: 12, announcedStart: true })).toEqual([
      { type: 'clock', party: 'player', action: 'charge', seconds: 420, when: 'from 5 minutes after the start of the round until the player arrives' },
      { type: 'forfeit-option', party: 'player' },
    ]);
  });

  test('§1 a clock started at minute 3 is charged from minute 5 only', () => {
    expect(effects('NSA_2008', { kind: 'late-arrival', minutesLate: 10, announcedStart: true, clockStartedAtMinute: 3 })[0]).toMatchObject({ seconds: 300 });
  });

  test('§1 at 25 minutes the game is forfeited', () => {
    expect(effects('NSA_2008', { kind: 'late-arrival', minutesLate: 25, announcedStart: true })).toEqual([{ type: 'game-forfeited', loser: 'player', margin: 100 }]);
  });

  test('WESPA 2.3: forfeit is optional only with less than 15 minutes left', () => {
    expect(effects('WESPA', { kind: 'late-arrival', minutesLate: 9, announcedStart: true })).toEqual([
      { type: 'clock', party: 'player', action: 'charge', seconds: 540, when: 'from 0 minutes after the start of the round until the player arrives' },
    ]);
    expect(effects('WESPA', { kind: 'late-arrival', minutesLate: 11, announcedStart: true })).toContainEqual({ type: 'forfeit-option', party: 'player' });
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
    expect(effects('NSA_2008', { kind: 'return-from-challenge', playAcceptable: true, winnerDelaying: true })[1]).toMatchObject({ when: 'immediately' });
  });

  test('§3 signed and submitted: only a slip differing from the agreed score changes; unethical conduct goes to the director', () => {
    expect(under('NSA_2008', { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: false, substantiatedByScoreSheets: false }).ruling).toBe('RESULT_STANDS');
    expect(under('NSA_2008', { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: true, unethicalConductProven: true }).ruling).toBe('DIRECTOR_DISCRETION');
    expect(under('NSA_2008', { kind: 'tally-slip-change', slip: 'signed', slipMatchesAgreedScore: true }).ruling).toBe('CORRECTION_ALLOWED');
  });

  test('§4 forfeits: first, second, first…; opponents and byes get neither', () => {
    const e = effects('NSA_2008', {
      kind: 'forfeit-order',
      games: [{ round: 5, role: 'forfeiter' }, { round: 1, role: 'forfeiter' }, { round: 2, role: 'opponent' }, { round: 3, role: 'forfeiter' }, { round: 4, role: 'bye' }],
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
      { type: 'clock', party: 'opponent', action: 'start', seconds: null, when: 'now, until the hold is released (ending the game) or a challenge' },
    ]);
    expect(under('NSA_2008', { kind: 'out-play-hold', secondsAfterNeutralise: 16, held: true, challenged: false }).ruling).toBe('GAME_OVER');
    expect(under('NSA_2008', { kind: 'out-play-hold', secondsAfterNeutralise: 8, held: false, challenged: false }).ruling).toBe('WINDOW_OPEN');
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
    [300, 350, [{ type: 'score-delta', party: 'player', points: -100 }, { type: 'game-forfeited', loser: 'player', margin: 150 }]],
    [400, 350, [{ type: 'score-delta', party: 'player', points: -150 }, { type: 'game-forfeited', loser: 'player', margin: 100 }]],
    [90, 60, [{ type: 'score-delta', party: 'player', points: -30 }, { type: 'score-delta', party: 'opponent', points: 100 }, { type: 'game-forfeited', loser: 'player', margin: 100 }]],
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
    expect(effects('WESPA', { kind: 'challenge-outcome', playValid: true, wordsChallenged: 3 })).toEqual([{ type: 'score-delta', party: 'player', points: 15 }]);
    const rs = resolveRuleSet('WESPA', { challenge: { pointsRecipient: 'deducted-from-challenger' } });
    if (!rs.ok) throw new Error(rs.error.message);
    expect(rule({ kind: 'challenge-outcome', playValid: true, wordsChallenged: 3 }, rs.value).effects).toEqual([{ type: 'score-delta', party: 'opponent', points: -15 }]);
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
    expect(effects('WESPA', { kind: 'scoreless-turns', turns: ['pass', 'pass', 'exchange', 'challenged-off', 'pass', 'pass'], rackValues: { player: 9, opponent: 4 } })).toEqual([
      { type: 'game-ends', reason: '6 consecutive scoreless turns' },
      { type: 'score-delta', party: 'player', points: -9 },
      { type: 'score-delta', party: 'opponent', points: -4 },
    ]);
  });

  test('S26: WESPA resignation margin is max(50, lead + 50)', () => {
    expect(effects('WESPA', { kind: 'resignation', scores: { player: 200, opponent: 280 }, emergency: true })).toEqual([{ type: 'game-forfeited', loser: 'player', margin: 130 }]);
    expect(effects('WESPA', { kind: 'resignation', scores: { player: 300, opponent: 280 }, emergency: true })).toEqual([{ type: 'game-forfeited', loser: 'player', margin: 50 }]);
  });

  test('S33: WESPA recount only at a margin of 20 or less, before signing', () => {
    expect(under('WESPA', { kind: 'recount-request', margin: 20, slip: 'not-signed' }).ruling).toBe('RECOUNT_ALLOWED');
    expect(under('WESPA', { kind: 'recount-request', margin: 20, slip: 'signed' }).ruling).toBe('RECOUNT_REFUSED');
    expect(under('NSA_2008', { kind: 'recount-request', margin: 20, slip: 'submitted' }).ruling).toBe('RECOUNT_REFUSED');
  });

  test('S39: tie broken on the score before adjustments; match on combined points', () => {
    expect(effects('MATCH_VARIANT', { kind: 'tied-game', finalScores: { player: 350, opponent: 350 }, scoresBeforeAdjustments: { player: 340, opponent: 355 } })).toEqual([{ type: 'winner', party: 'opponent' }]);
    expect(effects('MATCH_VARIANT', { kind: 'match-result', games: [{ player: 400, opponent: 380 }, { player: 350, opponent: 390 }] })).toEqual([{ type: 'winner', party: 'opponent' }]);
    expect(under('MATCH_VARIANT', { kind: 'match-result', games: [{ player: 400, opponent: 380 }, { player: 370, opponent: 390 }] }).ruling).toBe('MATCH_TIED');
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

describe('rulings come from the rule-set data, not its id', () => {
  test('NSA with WESPA’s exchange procedure rules like WESPA', () => {
    const rs = resolveRuleSet('NSA_2008', { exchange: { illegalExchangeProcedure: 'wespa-3.10.15' } });
    if (!rs.ok) throw new Error(rs.error.message);
    const d = { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4 };
    expect(rule(d, rs.value).effects).toEqual(under('WESPA', d).effects);
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
    ['bag of 7 for an illegal exchange', { kind: 'illegal-exchange', bagCount: 7, stage: 'announced', exchangedCount: 3 }, 'INVALID_DISPUTE', 'bagCount'],
    ['negative bag count', { kind: 'illegal-exchange', bagCount: -1, stage: 'announced', exchangedCount: 3 }, 'INVALID_DISPUTE', 'bagCount'],
    ['more exchanged than the rack holds', { kind: 'illegal-exchange', bagCount: 5, stage: 'announced', exchangedCount: 8 }, 'INVALID_DISPUTE', 'exchangedCount'],
    ['unknown stage', { kind: 'illegal-exchange', bagCount: 5, stage: 'halfway', exchangedCount: 3 }, 'INVALID_DISPUTE', 'stage'],
    ['old tiles in the bag at the announced stage', { kind: 'illegal-exchange', bagCount: 5, stage: 'announced', exchangedCount: 3, oldTilesInBag: true }, 'INVALID_DISPUTE', 'oldTilesInBag'],
    ['placed more than the rack', { kind: 'exchange-count-mismatch', announced: 5, placedFaceDown: 8 }, 'INVALID_DISPUTE', 'placedFaceDown'],
    ['no mismatch', { kind: 'exchange-count-mismatch', announced: 4, placedFaceDown: 4 }, 'INVALID_DISPUTE', 'placedFaceDown'],
    ['not an overdraw', { kind: 'overdraw', tilesOnRack: 5, drawn: 2, touchedRack: false }, 'INVALID_DISPUTE', 'drawn'],
    ['negative minutes late', { kind: 'late-arrival', minutesLate: -1, announcedStart: true }, 'INVALID_DISPUTE', 'minutesLate'],
    ['clock started after arrival', { kind: 'late-arrival', minutesLate: 4, announcedStart: true, clockStartedAtMinute: 6 }, 'INVALID_DISPUTE', 'clockStartedAtMinute'],
    ['missing required fact', { kind: 'challenge-outcome' }, 'INVALID_DISPUTE', 'playValid'],
    ['unknown fact', { kind: 'going-out', opponentRackValue: 3, opponentRack: 'QZ' }, 'INVALID_DISPUTE', 'opponentRack'],
    ['reversed yet matching', { kind: 'tally-slip-change', slip: 'submitted', slipMatchesAgreedScore: true, scoresReversed: true }, 'INVALID_DISPUTE', 'scoresReversed'],
    ['no scoring error', { kind: 'scoring-error', announced: 20, correct: 20, slip: 'not-signed' }, 'INVALID_DISPUTE', 'correct'],
    ['bad turn kind', { kind: 'scoreless-turns', turns: ['pass', 'nap'] }, 'INVALID_DISPUTE', 'turns[1]'],
    ['repeated round', { kind: 'forfeit-order', games: [{ round: 1, role: 'forfeiter' }, { round: 1, role: 'bye' }] }, 'INVALID_DISPUTE', 'games[1].round'],
    ['untied tied game', { kind: 'tied-game', finalScores: { player: 350, opponent: 349 }, scoresBeforeAdjustments: { player: 1, opponent: 2 } }, 'INVALID_DISPUTE', 'finalScores'],
    ['drawn tiles touching the rack with none drawn', { kind: 'return-from-challenge', playAcceptable: false, drawnTouchedRack: true }, 'INVALID_DISPUTE', 'drawnTouchedRack'],
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
    expect(adjudicate(d.value, PRESETS.MATCH_VARIANT)).toMatchObject({ ok: false, error: { code: 'INVALID_DISPUTE', details: { field: 'games' } } });
  });

  test('defaults are filled in', () => {
    expect(parseDispute({ kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4, description: 'round 3' })).toEqual({
      ok: true,
      value: { kind: 'illegal-exchange', bagCount: 5, stage: 'racking-started', exchangedCount: 4, rackSize: 7, oldTilesInBag: false, description: 'round 3' },
    });
  });
});
