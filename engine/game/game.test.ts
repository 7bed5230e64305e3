import { describe, expect, test } from 'vitest';
import { tileAt } from '../board.js';
import { FRIENDLY, MATCH_VARIANT, NSA_2008, ONLINE_VOID, WESPA } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { playEvent } from './decide.js';
import type { GameEvent } from './events.js';
import { fold, LEX, rejects, run, start, withBag } from './game.fixtures.js';
import { parseMove } from '../move.js';
import type { PlayMove } from '../move.js';
import { bagCount } from './state.js';

const types = (es: readonly GameEvent[]) => es.map((e) => e.type);
const sorted = (t: readonly string[]) => [...t].sort().join('');
const move = (text: string): PlayMove => {
  const m = parseMove(text);
  if (!m.ok || m.value.kind !== 'play') throw new Error(text);
  return m.value;
};
const withChallenge = (base: RuleSet, challenge: Partial<RuleSet['challenge']>): RuleSet => ({
  ...base,
  challenge: { ...base.challenge, ...challenge },
});

// Ann: C3 A1 T1 S1 E1 R1 O1 = 9 points on the rack. Bob: Q10 I1 Z10 A1 X8 E1 O1 = 32.
const ANN = 'CATSERO';
const BOB = 'QIZAXEO';

describe('plays', () => {
  test.each([NSA_2008, WESPA, FRIENDLY, MATCH_VARIANT, ONLINE_VOID])(
    '$id: 8G CAT scores (3 + 1 + 1) × 2 = 10 and refills the rack',
    (rules) => {
      const { state, events } = run(start(rules, [ANN, BOB]), { kind: 'play', seat: 0, move: '8G CAT' });
      expect(types(events)).toEqual(['play', 'tiles-drawn']);
      expect(state.scores).toEqual([10, 0]);
      expect(state.turn).toBe(1);
      expect(state.racks[0].tiles).toHaveLength(7);
      expect(bagCount(state)).toBe(100 - 14 - 3);
      expect(tileAt(state.board, 7, 6)).toEqual({ letter: 'C', blank: false });
    },
  );

  test('a play out of turn, off the rack or off the centre is refused', () => {
    const s = start(NSA_2008, [ANN, BOB]);
    expect(rejects(s, { kind: 'play', seat: 1, move: '8G ZA' })).toBe('NOT_YOUR_TURN');
    expect(rejects(s, { kind: 'play', seat: 0, move: '8G QI' })).toBe('TILES_NOT_IN_RACK');
    expect(rejects(s, { kind: 'play', seat: 0, move: '1A CAT' })).toBe('MISSES_CENTRE');
  });
});

describe('exchange and pass', () => {
  test('NSA: exchange needs seven tiles in the bag (seed-000)', () => {
    const s = start(NSA_2008, [ANN, BOB]);
    const { state, events } = run(s, { kind: 'exchange', seat: 0, tiles: ['C', 'O'] });
    expect(types(events)).toEqual(['exchange', 'tiles-drawn', 'tiles-returned']);
    expect(state.racks[0].tiles).toHaveLength(7);
    expect(bagCount(state)).toBe(86);
    expect(state.turn).toBe(1);
    expect(state.scores).toEqual([0, 0]);
    expect(run(withBag(s, 7), { kind: 'exchange', seat: 0, tiles: ['C'] }).events[0]!.type).toBe('exchange');
    expect(rejects(withBag(s, 6), { kind: 'exchange', seat: 0, tiles: ['C'] })).toBe('EXCHANGE_BAG_TOO_SMALL');
    expect(rejects(s, { kind: 'exchange', seat: 0, tiles: [] })).toBe('EMPTY_EXCHANGE');
    expect(rejects(s, { kind: 'exchange', seat: 0, tiles: ['Q'] })).toBe('TILES_NOT_IN_RACK');
  });

  test('MATCH_VARIANT: zero or more tiles, at most the pool (seed-003 rule 11)', () => {
    const s = withBag(start(MATCH_VARIANT, [ANN, BOB]), 2);
    expect(types(run(s, { kind: 'exchange', seat: 0, tiles: [] }).events)).toEqual(['exchange']);
    expect(run(s, { kind: 'exchange', seat: 0, tiles: ['C', 'A'] }).state.racks[0].tiles).toHaveLength(7);
    expect(rejects(s, { kind: 'exchange', seat: 0, tiles: ['C', 'A', 'T'] })).toBe('EXCHANGE_TOO_MANY');
  });

  test('NSA: six scoreless turns end the game; each player loses their own rack', () => {
    let s = start(NSA_2008, [ANN, BOB]);
    let last: GameEvent[] = [];
    for (let i = 0; i < 6; i++) ({ state: s, events: last } = run(s, { kind: 'pass', seat: (i % 2) as 0 | 1 }));
    expect(types(last)).toEqual(['pass', 'game-ended']);
    expect(s.status).toBe('ended');
    expect(s.result?.reason).toBe('scoreless-turns');
    expect(s.scores).toEqual([-9, -32]);
    expect(s.result?.winner).toBe(0);
  });

  test('MATCH_VARIANT has no scoreless-turns ending', () => {
    let s = start(MATCH_VARIANT, [ANN, BOB]);
    for (let i = 0; i < 8; i++) s = run(s, { kind: 'pass', seat: (i % 2) as 0 | 1 }).state;
    expect(s.status).toBe('playing');
  });

  test('MATCH_VARIANT: both players exchanging twice in a row (four exchanges) ends the game (seed-003 rule 12b, scoring 9)', () => {
    let s = start(MATCH_VARIANT, [ANN, BOB]);
    const kinds: string[][] = [];
    for (let i = 0; i < 4; i++) {
      const r = run(s, { kind: 'exchange', seat: (i % 2) as 0 | 1, tiles: [] });
      s = r.state;
      kinds.push(types(r.events));
    }
    expect(kinds[2]).toEqual(['exchange']);
    expect(kinds[3]).toEqual(['exchange', 'game-ended']);
    expect(s.result?.reason).toBe('consecutive-exchanges');
    expect(s.scores).toEqual([-9, -32]);
  });

  test('MATCH_VARIANT tie broken by the score before adjustments (seed-003 scoring 10)', () => {
    // Ann plays CAT (10) and draws QZJ: her rack SEROQZJ is worth 4 + 28 = 32. Bob's XKWDAEI is worth 22.
    // After four exchanges: Ann 10 − 32 = −22, Bob 0 − 22 = −22, a tie; before adjustments Ann led 10–0.
    let s = start(MATCH_VARIANT, [ANN, 'XKWDAEI']);
    const play = playEvent(s, 0, move('8G CAT'), LEX);
    if (!play.ok) throw new Error(play.error.message);
    s = fold(s, [play.value, { type: 'tiles-drawn', seat: 0, tiles: ['Q', 'Z', 'J'] }]);
    for (let i = 0; i < 4; i++) s = run(s, { kind: 'exchange', seat: ((i + 1) % 2) as 0 | 1, tiles: [] }).state;
    expect(s.scores).toEqual([-22, -22]);
    expect(s.result?.scoresBeforeAdjustments).toEqual([10, 0]);
    expect(s.result?.winner).toBe(0);
    // Under NSA there is no tie-break: the same scores are a tie.
    expect(s.result && NSA_2008.end.tieBreak).toBe('none');
  });
});

describe('challenges', () => {
  // Ann plays 8G CAT (valid, 10) or 8G TAC (phony, 10); Bob challenges.
  const cases: [
    string,
    RuleSet,
    string,
    { events: string[]; scores: [number, number]; turn: 0 | 1; board: number; status?: string; winner?: 0 | 1 },
  ][] = [
    [
      'double, valid: challenger loses the turn',
      NSA_2008,
      'CAT',
      { events: ['challenge', 'turn-lost'], scores: [10, 0], turn: 0, board: 3 },
    ],
    [
      'double, phony: tiles back, drawn tiles returned',
      NSA_2008,
      'TAC',
      { events: ['challenge', 'tiles-returned', 'phony-withdrawn'], scores: [0, 0], turn: 1, board: 0 },
    ],
    [
      'single, valid: no penalty',
      withChallenge(NSA_2008, { mode: 'single' }),
      'CAT',
      { events: ['challenge'], scores: [10, 0], turn: 1, board: 3 },
    ],
    [
      '5 per word, valid: +5 to the player',
      WESPA,
      'CAT',
      { events: ['challenge', 'challenge-points'], scores: [15, 0], turn: 1, board: 3 },
    ],
    [
      '5 per word, phony withdrawn',
      WESPA,
      'TAC',
      { events: ['challenge', 'tiles-returned', 'phony-withdrawn'], scores: [0, 0], turn: 1, board: 0 },
    ],
    [
      '10 per turn, valid',
      withChallenge(WESPA, { mode: 'points-per-turn', points: 10 }),
      'CAT',
      { events: ['challenge', 'challenge-points'], scores: [20, 0], turn: 1, board: 3 },
    ],
    [
      'deducted from the challenger',
      withChallenge(WESPA, { pointsRecipient: 'deducted-from-challenger' }),
      'CAT',
      { events: ['challenge', 'challenge-points'], scores: [10, -5], turn: 1, board: 3 },
    ],
    [
      'triple, valid: the challenger loses the game',
      withChallenge(NSA_2008, { mode: 'triple' }),
      'CAT',
      { events: ['challenge', 'game-ended'], scores: [10, 0], turn: 1, board: 3, status: 'ended', winner: 0 },
    ],
    [
      'triple, phony: the player loses the game',
      withChallenge(NSA_2008, { mode: 'triple' }),
      'TAC',
      {
        events: ['challenge', 'tiles-returned', 'phony-withdrawn', 'game-ended'],
        scores: [0, 0],
        turn: 1,
        board: 0,
        status: 'ended',
        winner: 1,
      },
    ],
    [
      'free, phony: withdrawn and the same player plays again',
      FRIENDLY,
      'TAC',
      { events: ['challenge', 'tiles-returned', 'phony-withdrawn'], scores: [0, 0], turn: 0, board: 0 },
    ],
    ['free, valid: costs nothing', FRIENDLY, 'CAT', { events: ['challenge'], scores: [10, 0], turn: 1, board: 3 }],
  ];
  test.each(cases)('%s', (_name, rules, word, want) => {
    const played = run(start(rules, [ANN, BOB]), { kind: 'play', seat: 0, move: `8G ${word}` }).state;
    const { state, events } = run(played, { kind: 'challenge', seat: 1 });
    expect(types(events)).toEqual(want.events);
    expect(state.scores).toEqual(want.scores);
    expect(state.turn).toBe(want.turn);
    expect(state.board.tileCount).toBe(want.board);
    expect(state.status).toBe(want.status ?? 'playing');
    if (want.winner !== undefined) expect(state.result?.winner).toBe(want.winner);
    if (want.board === 0) {
      // seed-001 §2: the rack is as before the play and the three drawn tiles are back in the bag.
      expect(sorted(state.racks[0].tiles)).toBe(sorted([...ANN]));
      expect(bagCount(state)).toBe(86);
    }
  });

  test('a play can be challenged only until the next turn starts', () => {
    const played = run(start(NSA_2008, [ANN, BOB]), { kind: 'play', seat: 0, move: '8G TAC' }).state;
    const passed = run(played, { kind: 'pass', seat: 1 }).state;
    expect(rejects(passed, { kind: 'challenge', seat: 0 })).toBe('NO_PLAY_TO_CHALLENGE');
    expect(rejects(passed, { kind: 'challenge', seat: 1 })).toBe('NO_PLAY_TO_CHALLENGE');
  });

  test('VOID: an invalid word is refused when played, and there is no challenge', () => {
    const s = start(ONLINE_VOID, [ANN, BOB]);
    expect(rejects(s, { kind: 'play', seat: 0, move: '8G TAC' })).toBe('INVALID_WORDS');
    const played = run(s, { kind: 'play', seat: 0, move: '8G CAT' }).state;
    expect(rejects(played, { kind: 'challenge', seat: 1 })).toBe('NO_CHALLENGES');
  });

  test('NSA: a phony withdrawn counts as a scoreless turn', () => {
    const played = run(start(NSA_2008, [ANN, BOB]), { kind: 'play', seat: 0, move: '8G TAC' }).state;
    expect(run(played, { kind: 'challenge', seat: 1 }).state.scorelessTurns).toBe(1);
  });
});

describe('going out (seed-003 rule 12a)', () => {
  // Bag empty; Ann holds CAT and goes out for 10; Bob is left with QIZ = 21.
  const ending = (rules: RuleSet) => run(withBag(start(rules, ['CAT', 'QIZ']), 0), { kind: 'play', seat: 0, move: '8G CAT' });

  test.each([
    ['NSA 2× the opponent rack after the final pass', NSA_2008, [52, 0]],
    ['MATCH_VARIANT +1× / −1× (scoring 9)', MATCH_VARIANT, [31, -21]],
  ] as const)('%s', (_n, rules, scores) => {
    const out = ending(rules);
    expect(types(out.events)).toEqual(['play']);
    expect(out.state.status).toBe('waiting-final');
    expect(rejects(out.state, { kind: 'exchange', seat: 1, tiles: [] })).toBe('GAME_ENDING');
    const { state, events } = run(out.state, { kind: 'pass', seat: 1 });
    expect(types(events)).toEqual(['pass', 'game-ended']);
    expect(state.scores).toEqual(scores);
    expect(state.result?.reason).toBe('went-out');
    expect(state.result?.winner).toBe(0);
  });

  test('VOID ends at once', () => {
    const out = ending(ONLINE_VOID);
    expect(types(out.events)).toEqual(['play', 'game-ended']);
    expect(out.state.scores).toEqual([52, 0]);
  });

  test('the out play can be challenged: valid under double challenge ends the game', () => {
    const { state, events } = run(ending(NSA_2008).state, { kind: 'challenge', seat: 1 });
    expect(types(events)).toEqual(['challenge', 'turn-lost', 'game-ended']);
    expect(state.scores).toEqual([52, 0]);
  });

  test('WESPA: challenge points, then the 2× ending', () => {
    expect(run(ending(WESPA).state, { kind: 'challenge', seat: 1 }).state.scores).toEqual([10 + 5 + 42, 0]);
  });

  test('a phony out play withdrawn: the game goes on', () => {
    const out = run(withBag(start(NSA_2008, ['TAC', 'QIZ']), 0), { kind: 'play', seat: 0, move: '8G TAC' }).state;
    const { state } = run(out, { kind: 'challenge', seat: 1 });
    expect(state.status).toBe('playing');
    expect(state.turn).toBe(1);
    expect(sorted(state.racks[0].tiles)).toBe('ACT');
  });
});

describe('resignation, timeout', () => {
  test.each([
    ['resign', 'resigned'],
    ['timeout', 'timed-out'],
  ] as const)('%s: the other player wins whatever the score', (kind, reason) => {
    const played = run(start(NSA_2008, [ANN, BOB]), { kind: 'play', seat: 0, move: '8G CAT' }).state;
    const { state, events } = run(played, { kind, seat: 0 });
    expect(types(events)).toEqual([reason, 'game-ended']);
    expect(state.result?.reason).toBe(reason);
    expect(state.result?.winner).toBe(1);
    expect(state.scores).toEqual([10, 0]);
    expect(rejects(state, { kind: 'pass', seat: 1 })).toBe('GAME_OVER');
  });

  test('a time penalty after the end changes the winner with the scores', () => {
    let s = run(run(start(NSA_2008, [ANN, BOB]), { kind: 'play', seat: 0, move: '8G CAT' }).state, { kind: 'pass', seat: 1 }).state;
    for (let i = 0; i < 5; i++) s = run(s, { kind: 'pass', seat: (i % 2) as 0 | 1 }).state;
    // Six scoreless turns after CAT: Ann 10 − (SERO + three unknown draws), Bob −32.
    expect(s.status).toBe('ended');
    const ann = s.scores[0];
    s = fold(s, [{ type: 'time-penalty', seat: 0, points: ann + 33 }]);
    expect(s.scores[0]).toBe(-33);
    expect(s.result?.winner).toBe(1);
    // An adjudicator's ruling gives 2 points back: −31 beats −32.
    s = fold(s, [
      { type: 'ruling-applied', ruling: 'TIME_PENALTY_MISCOUNTED', scoreChanges: [{ seat: 0, points: 2 }], note: 'one minute fewer' },
    ]);
    expect(s.scores).toEqual([-31, -32]);
    expect(s.result?.winner).toBe(0);
  });
});

describe('FRIENDLY blank substitution (seed-002)', () => {
  // Ann plays 8G cAT with the blank as C: (0 + 1 + 1) × 2 = 4. Bob holds a C.
  const afterBlank = () => run(start(FRIENDLY, ['?ATSERO', 'CIIUUSE']), { kind: 'play', seat: 0, move: '8G cAT' }).state;

  test('give the C, take the blank, replay it: 8G ...s makes CATS = 3 + 1 + 1 + 0 = 5', () => {
    const s = afterBlank();
    expect(s.scores).toEqual([4, 0]);
    const { state, events } = run(s, { kind: 'blank-substitution', seat: 1, blanks: ['G8'], move: '8G ...s' });
    expect(types(events)).toEqual(['blank-substituted', 'play', 'tiles-drawn']);
    expect(tileAt(state.board, 7, 6)).toEqual({ letter: 'C', blank: false });
    expect(state.scores).toEqual([4, 5]);
  });

  test('the blank must be replayed the same turn', () => {
    expect(rejects(afterBlank(), { kind: 'blank-substitution', seat: 1, blanks: ['G8'], move: '8G ...S' })).toBe('BLANK_NOT_REPLAYED');
  });

  test('only where the house rule is on, and only for a blank', () => {
    const nsa = run(start(NSA_2008, ['?ATSERO', 'CIIUUSE']), { kind: 'play', seat: 0, move: '8G cAT' }).state;
    expect(rejects(nsa, { kind: 'blank-substitution', seat: 1, blanks: ['G8'], move: '8G ...s' })).toBe('HOUSE_RULE_OFF');
    expect(rejects(afterBlank(), { kind: 'blank-substitution', seat: 1, blanks: ['H8'], move: '8G ...s' })).toBe('NOT_A_BLANK');
  });
});
