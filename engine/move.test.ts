import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { formatMove, parseMove, parseRack, type Move, type WordTile } from './move.js';

const L = (letter: string, blank = false): WordTile => ({ kind: 'letter', letter, blank });
const T: WordTile = { kind: 'through' };

describe('parseMove: every notation form', () => {
  test.each<[string, Move, string]>([
    ['8H QI', { kind: 'play', anchor: { row: 7, col: 7, dir: 'across' }, word: [L('Q'), L('I')] }, '8H QI'],
    ['H8 QI', { kind: 'play', anchor: { row: 7, col: 7, dir: 'down' }, word: [L('Q'), L('I')] }, 'H8 QI'],
    ['n8 ZA', { kind: 'play', anchor: { row: 7, col: 13, dir: 'down' }, word: [L('Z'), L('A')] }, 'N8 ZA'],
    ['15a OX', { kind: 'play', anchor: { row: 14, col: 0, dir: 'across' }, word: [L('O'), L('X')] }, '15A OX'],
    ['8H QaT', { kind: 'play', anchor: { row: 7, col: 7, dir: 'across' }, word: [L('Q'), L('A', true), L('T')] }, '8H QaT'],
    ['K4 D.CR', { kind: 'play', anchor: { row: 3, col: 10, dir: 'down' }, word: [L('D'), T, L('C'), L('R')] }, 'K4 D.CR'],
    ['8H Q(UI)T', { kind: 'play', anchor: { row: 7, col: 7, dir: 'across' }, word: [L('Q'), T, T, L('T')] }, '8H Q..T'],
    ['8H (A)B', { kind: 'play', anchor: { row: 7, col: 7, dir: 'across' }, word: [T, L('B')] }, '8H .B'],
    ['8D [CH]E', { kind: 'play', anchor: { row: 7, col: 3, dir: 'across' }, word: [L('CH'), L('E')] }, '8D [CH]E'],
    ['8D [ch]E', { kind: 'play', anchor: { row: 7, col: 3, dir: 'across' }, word: [L('CH', true), L('E')] }, '8D [ch]E'],
    ['8D ([CH])E', { kind: 'play', anchor: { row: 7, col: 3, dir: 'across' }, word: [T, L('E')] }, '8D .E'],
    ['8D ÑU', { kind: 'play', anchor: { row: 7, col: 3, dir: 'across' }, word: [L('Ñ'), L('U')] }, '8D ÑU'],
    ['8D ñU', { kind: 'play', anchor: { row: 7, col: 3, dir: 'across' }, word: [L('Ñ', true), L('U')] }, '8D ñU'],
    ['  8H   QI  ', { kind: 'play', anchor: { row: 7, col: 7, dir: 'across' }, word: [L('Q'), L('I')] }, '8H QI'],
    ['-QO', { kind: 'exchange', tiles: ['Q', 'O'], count: 2 }, '-QO'],
    ['-?[CH]A', { kind: 'exchange', tiles: ['?', 'CH', 'A'], count: 3 }, '-?[CH]A'],
    ['-2', { kind: 'exchange', tiles: null, count: 2 }, '-2'],
    ['-', { kind: 'pass' }, '-'],
  ])('%s', (text, move, canonical) => {
    expect(parseMove(text)).toEqual({ ok: true, value: move });
    expect(formatMove(move)).toBe(canonical);
  });
});

describe('parseMove: errors name the offending character and position', () => {
  test.each<[string, string, RegExp]>([
    ['', 'BAD_MOVE', /is not a move/],
    ['QUIXOTIC', 'BAD_MOVE', /"QUIXOTIC" is not a move/],
    ['8H QI X', 'BAD_MOVE', /is not a move/],
    ['88 QI', 'BAD_COORDINATE', /"88" is not a coordinate/],
    ['H QI', 'BAD_COORDINATE', /"H" is not a coordinate/],
    ['8H D.CR2IaLS', 'BAD_WORD', /"2" at position 5 of the word "D.CR2IaLS"/],
    ['8H QI?', 'BAD_WORD', /"\?" at position 3/],
    ['8H [CH', 'BAD_WORD', /"\[" at position 1 .* never closed/],
    ['8H [Ch]E', 'BAD_WORD', /"\[Ch\]" at position 1/],
    ['8H [C]E', 'BAD_WORD', /"\[C\]" at position 1/],
    ['8H Q(UI', 'BAD_WORD', /"\(" at position 2 .* never closed/],
    ['8H QU)I', 'BAD_WORD', /"\)" at position 3 .* never opened/],
    ['8H Q()I', 'BAD_WORD', /"\(\)" at position 2 .* empty group/],
    ['8H Q(U(I))', 'BAD_WORD', /"\(" at position 4 .* inside another group/],
    ['8H Q(.)I', 'BAD_WORD', /"\." at position 3/],
    ['-K.OI', 'BAD_EXCHANGE', /"\." at position 3 of the exchange "-K\.OI"/],
    ['-ab', 'BAD_EXCHANGE', /"a" at position 2 of the exchange "-ab"/],
    ['-A3', 'BAD_EXCHANGE', /"3" at position 3/],
    ['-0', 'BAD_EXCHANGE', /exchanges 0 tiles/],
    ['-100', 'BAD_EXCHANGE', /exchanges 100 tiles/],
    ['--', 'BAD_EXCHANGE', /withdrawn phony/],
  ])('%j → %s', (text, code, message) => {
    const r = parseMove(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.message).toMatch(message);
  });
});

describe('parseRack', () => {
  test.each<[string, string[]]>([
    ['AEINRST', ['A', 'E', 'I', 'N', 'R', 'S', 'T']],
    ['?[LL]Ñ', ['?', 'LL', 'Ñ']],
    ['', []],
  ])('%s', (text, tiles) => expect(parseRack(text)).toEqual({ ok: true, value: tiles }));

  test.each<[string, string]>([
    ['KLMO8RTV', '"8" at position 5 of the rack "KLMO8RTV"'],
    ['DEII--R', '"-" at position 5 of the rack "DEII--R"'],
    ['abc', '"a" at position 1 of the rack "abc"'],
    ['AEEG.TTV', '"." at position 5 of the rack "AEEG.TTV"'],
  ])('%s is BAD_RACK', (text, message) => {
    const r = parseRack(text);
    expect(r.ok ? null : r.error.code).toBe('BAD_RACK');
    expect(r.ok ? '' : r.error.message).toContain(message);
  });
});

const FACES = ['A', 'E', 'Q', 'Z', 'Ñ', 'Ç', 'CH', 'LL', 'RR', 'L·L'];
const wordTile: fc.Arbitrary<WordTile> = fc.oneof(
  fc.record({ kind: fc.constant('letter' as const), letter: fc.constantFrom(...FACES), blank: fc.boolean() }),
  fc.constant({ kind: 'through' as const }),
);
const move: fc.Arbitrary<Move> = fc.oneof(
  fc.record({
    kind: fc.constant('play' as const),
    anchor: fc.record({
      row: fc.integer({ min: 0, max: 98 }),
      col: fc.integer({ min: 0, max: 25 }),
      dir: fc.constantFrom('across' as const, 'down' as const),
    }),
    word: fc.array(wordTile, { minLength: 1, maxLength: 21 }),
  }),
  fc
    .array(fc.constantFrom(...FACES, '?'), { minLength: 1, maxLength: 7 })
    .map((tiles): Move => ({ kind: 'exchange', tiles, count: tiles.length })),
  fc.integer({ min: 1, max: 99 }).map((count): Move => ({ kind: 'exchange', tiles: null, count })),
  fc.constant<Move>({ kind: 'pass' }),
);

test('round trip: parseMove(formatMove(m)) equals m', () => {
  fc.assert(
    fc.property(move, (m) => {
      expect(parseMove(formatMove(m))).toEqual({ ok: true, value: m });
    }),
  );
});
