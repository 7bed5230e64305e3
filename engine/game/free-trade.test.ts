import { describe, expect, test } from 'vitest';
import { FRIENDLY, NSA_2008 } from '../rules/presets.js';
import { ENGLISH } from '../tiles.js';
import { checkTradePlan, freeTradeOptions, mayReject, rackConditions } from './free-trade.js';
import { rejects, run, start } from './game.fixtures.js';
import { bagCount } from './state.js';

const rack = (s: string) => [...s];
const tradable = (s: string) => [...new Set(freeTradeOptions(ENGLISH, rack(s)).map((o) => o.tile))].sort().join('');

describe('seed-002 example 1: AADDLPO', () => {
  test('two pair: either an A or a D may be traded, nothing else', () => {
    expect(rackConditions(ENGLISH, rack('AADDLPO'), 'vowel')).toEqual(['two-pair']);
    expect(tradable('AADDLPO')).toBe('AD');
    expect(checkTradePlan(ENGLISH, rack('AADDLPO'), ['A']).ok).toBe(true);
    expect(checkTradePlan(ENGLISH, rack('AADDLPO'), ['D']).ok).toBe(true);
    expect(checkTradePlan(ENGLISH, rack('AADDLPO'), ['L']).ok).toBe(false);
    // One trade removes the two pair; a second has nothing left to cure.
    expect(checkTradePlan(ENGLISH, rack('AADDLPO'), ['A', 'D']).ok).toBe(false);
  });

  test.each(['A', 'D', 'L', 'O', 'P'])('after trading an A, a new %s may be redrawn', (t) => {
    expect(mayReject(ENGLISH, [...rack('ADDLPO'), t], [])).toBe(true);
  });
  test.each(['B', 'E', 'S', '?'])('after trading an A, a new %s is kept', (t) => {
    expect(mayReject(ENGLISH, [...rack('ADDLPO'), t], [])).toBe(false);
  });
  test.each(['A', 'D', 'L', 'O', 'P'])('after trading a D, a new %s may be redrawn', (t) => {
    expect(mayReject(ENGLISH, [...rack('AADLPO'), t], [])).toBe(true);
  });
});

describe('seed-002 example 2: AAAITUY', () => {
  test('Y as a vowel gives six vowels: trade the U, then an A', () => {
    expect(rackConditions(ENGLISH, rack('AAAITUY'), 'vowel')).toEqual(['three-of-a-kind', 'few-consonants']);
    const plan = checkTradePlan(ENGLISH, rack('AAAITUY'), ['U', 'A']);
    expect(plan.ok && plan.value.yAs).toBe('vowel');
  });

  test("two A's cannot be traded: removing one leaves no tradable condition", () => {
    const r = checkTradePlan(ENGLISH, rack('AAAITUY'), ['A', 'A']);
    expect(r.ok ? 'ok' : r.error.code).toBe('FREE_TRADE_NOT_ALLOWED');
  });

  test.each(['A', 'I', 'T', 'Y'])('a new %s in the U trade may be redrawn (the A is still to trade)', (t) => {
    expect(mayReject(ENGLISH, [...rack('AAAITY'), t], ['A'])).toBe(true);
  });
  test.each(['A', 'I', 'T', 'Y'])('a new %s in the A trade may be redrawn', (t) => {
    // The U went for a consonant, say B: AAITYB + the new tile.
    expect(mayReject(ENGLISH, [...rack('AAITYB'), t], [])).toBe(true);
  });
  test('U traded for a consonant, then an A traded and a U drawn: the U must be kept', () => {
    expect(mayReject(ENGLISH, [...rack('AAITYB'), 'U'], [])).toBe(false);
  });
});

describe('the trade procedure on the seeded bag', () => {
  test('AADDLPO trading an A: every redrawn tile was an A, D, L, O or P; the kept one is not', () => {
    const s = start(FRIENDLY, ['AADDLPO', 'EEIINRS']);
    const { state, events } = run(s, { kind: 'free-trade', seat: 0, tiles: ['A'] });
    const draws = events.flatMap((e) => (e.type === 'tiles-drawn' ? e.tiles : []));
    expect(events[0]).toMatchObject({ type: 'free-trade', tiles: ['A'] });
    expect(draws.length).toBeGreaterThan(0);
    for (const t of draws.slice(0, -1)) expect('ADLOP').toContain(t);
    expect('ADLOP').not.toContain(draws[draws.length - 1]);
    expect([...state.racks[0].tiles].sort().join('')).toBe([...'ADDLPO', draws[draws.length - 1]!].sort().join(''));
    expect(bagCount(state)).toBe(86);
    expect(state.aside).toBeNull();
    expect(state.turn).toBe(0);
    expect(rejects(state, { kind: 'free-trade', seat: 0, tiles: ['D'] })).toBe('FREE_TRADE_DONE');
  });

  test('a rack with no condition, or a game without the house rule, cannot trade', () => {
    expect(rejects(start(FRIENDLY, ['AEIRSTN', 'EEIINRS']), { kind: 'free-trade', seat: 0, tiles: ['A'] })).toBe('FREE_TRADE_NOT_ALLOWED');
    expect(rejects(start(NSA_2008, ['AADDLPO', 'EEIINRS']), { kind: 'free-trade', seat: 0, tiles: ['A'] })).toBe('HOUSE_RULE_OFF');
  });
});
