import { describe, expect, test } from 'vitest';
import { NSA_2008 } from '../../rules/presets.js';
import { COMMAND_HANDLERS } from '../decide.js';
import { fold, LEX, run, SEED, start } from '../game.fixtures.js';
import { decideChallenge } from './challenge.js';
import { COMMAND_KINDS } from './command.js';
import { decideExchange } from './tile-swaps.js';
import { decidePass } from './turn.js';

// Single command handlers, called without `decide`: each answers every event its command causes,
// already checked against a working copy of the state, and leaves the state it was given alone.

const opening = () => start(NSA_2008, ['CATSERO', 'QIZAXEO']);
const ctx = { lexicon: LEX, seed: SEED, now: '2024-01-02T03:04:05.000Z' };

test('every command kind has a handler, and the table holds nothing else', () => {
  expect(Object.keys(COMMAND_HANDLERS).sort()).toEqual([...COMMAND_KINDS].sort());
});

describe('decideExchange', () => {
  test('the tiles go face down, as many are drawn, then the old ones go back into the bag (seed-001 §6)', () => {
    const s = opening();
    const r = decideExchange(s, { kind: 'exchange', seat: 0, tiles: ['C', 'O'] }, ctx);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.map((e) => e.type)).toEqual(['exchange', 'tiles-drawn', 'tiles-returned']);
    expect(r.value[0]).toMatchObject({ seat: 0, tiles: ['C', 'O'], count: 2 });
    expect(r.value[1]).toMatchObject({ seat: 0 });
    expect((r.value[1] as { tiles: readonly string[] }).tiles).toHaveLength(2);
    expect(r.value[2]).toMatchObject({ seat: 0, tiles: ['C', 'O'], from: 'aside' });
    expect(r.value.every((e) => e.at === ctx.now)).toBe(true);
    expect(s.racks[0].tiles).toEqual(['C', 'A', 'T', 'S', 'E', 'R', 'O']);
    const after = fold(s, r.value);
    expect(after.racks[0].tiles).toHaveLength(7);
    expect(after.aside).toBeNull();
  });

  test('a bag under the minimum (seed-000), then more tiles than the bag holds (seed-003 rule 11), are refused', () => {
    const s = opening();
    const oneLeft = { ...s, bag: s.bag.slice(0, 1) };
    const small = decideExchange(oneLeft, { kind: 'exchange', seat: 0, tiles: ['C', 'O'] }, ctx);
    expect(!small.ok && small.error.code).toBe('EXCHANGE_BAG_TOO_SMALL');
    const noMinimum = { ...oneLeft, rules: { ...s.rules, exchange: { ...s.rules.exchange, minBag: 0 } } };
    const tooMany = decideExchange(noMinimum, { kind: 'exchange', seat: 0, tiles: ['C', 'O'] }, ctx);
    expect(!tooMany.ok && tooMany.error.code).toBe('EXCHANGE_TOO_MANY');
  });
});

describe('decideChallenge', () => {
  test('a phony (8G TAC) is withdrawn and the tiles drawn after it go back to the bag', () => {
    const { state } = run(opening(), { kind: 'play', seat: 0, move: '8G TAC' });
    const drawn = state.pending!.drawn;
    const r = decideChallenge(state, { kind: 'challenge', seat: 1 }, ctx);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.map((e) => e.type)).toEqual(['challenge', 'tiles-returned', 'phony-withdrawn']);
    expect(r.value[0]).toMatchObject({ seat: 1, words: [{ word: 'TAC', valid: false }], valid: false });
    expect(r.value[1]).toMatchObject({ seat: 0, tiles: drawn, from: 'rack' });
    // T1 A1 C3 on 8G–8I, the centre doubling: 10.
    expect(r.value[2]).toMatchObject({ seat: 0, score: 10 });
    expect(fold(state, r.value).scores).toEqual([0, 0]);
  });

  test('under double challenge, challenging a valid play (8G CAT) costs the challenger the turn', () => {
    const { state } = run(opening(), { kind: 'play', seat: 0, move: '8G CAT' });
    const r = decideChallenge(state, { kind: 'challenge', seat: 1 }, ctx);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.map((e) => e.type)).toEqual(['challenge', 'turn-lost']);
    expect(fold(state, r.value).turn).toBe(0);
  });

  test('a challenge needs the lexicon, and only words the play formed can be challenged', () => {
    const { state } = run(opening(), { kind: 'play', seat: 0, move: '8G CAT' });
    const noLexicon = decideChallenge(state, { kind: 'challenge', seat: 1 }, { ...ctx, lexicon: null });
    expect(!noLexicon.ok && noLexicon.error.code).toBe('LEXICON_REQUIRED');
    const other = decideChallenge(state, { kind: 'challenge', seat: 1, words: ['DOG'] }, ctx);
    expect(!other.ok && other.error.code).toBe('NOT_FORMED');
  });
});

describe('decidePass', () => {
  test('one pass event, stamped; a pass out of turn is refused', () => {
    const s = opening();
    const r = decidePass(s, { kind: 'pass', seat: 0 }, ctx);
    expect(r.ok && r.value).toEqual([{ type: 'pass', seat: 0, at: ctx.now }]);
    const late = decidePass(s, { kind: 'pass', seat: 1 }, ctx);
    expect(!late.ok && late.error.code).toBe('NOT_YOUR_TURN');
  });
});
