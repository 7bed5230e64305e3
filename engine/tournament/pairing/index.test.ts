import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PAIRERS, PAIRING_ERROR_CODES, pairRound, validatePairing } from './index.js';
import { field, idsInRound, player, randomDivision, request } from './pairing.fixtures.js';
import { PAIRING_METHODS, type PairingMethod, type PairingRequest, type RoundPairing } from './types.js';

const METHODS = Object.keys(PAIRERS) as Exclude<PairingMethod, 'manual'>[];
const SIZES = Array.from({ length: 16 }, (_, i) => i + 2);
const FIXED = new Set<PairingMethod>(['round-robin', 'double-round-robin', 'match-round-robin', 'initial-fontes']);

const sorted = (ids: readonly number[]): number[] => [...ids].sort((a, b) => a - b);

describe('the method table', () => {
  test('every method but manual has a pairer', () => {
    expect(sorted(METHODS.map((m) => PAIRING_METHODS.indexOf(m)))).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  test('manual is paired by hand: MANUAL_METHOD', () => {
    const r = pairRound('manual', request(field(4)));
    expect(!r.ok && r.error.code).toBe('MANUAL_METHOD');
  });

  test('the error codes are stable and unique', () => {
    expect(new Set(PAIRING_ERROR_CODES).size).toBe(PAIRING_ERROR_CODES.length);
  });
});

describe.each(METHODS)('%s', (method) => {
  test.each(SIZES)('%i players, round 1: everyone once or on the bye, a bye exactly when odd', (n) => {
    const r = pairRound(method, request(field(n)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(sorted(idsInRound(r.value))).toEqual(field(n).map((p) => p.id));
    expect(r.value.bye !== null).toBe(n % 2 === 1);
    expect(validatePairing(request(field(n)), r.value)).toEqual({ ok: true, value: true });
  });

  test('after random rounds (2 to 17 players): everyone once or on a bye, within maxRepeats', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 17 }), fc.integer({ min: 0, max: 3 }), fc.integer(), (n, played, seed) => {
        const rounds = FIXED.has(method) ? 0 : played;
        const division = randomDivision(n, rounds, seed, 20);
        const req = division.request({ maxRepeats: FIXED.has(method) ? 5 : 1 });
        const r = pairRound(method, req);
        if (!r.ok) {
          expect(r.error.code).toBe('REPEAT_LIMIT');
          return;
        }
        expect(sorted(idsInRound(r.value))).toEqual(sorted(req.players.map((p) => p.id)));
        expect(validatePairing(req, r.value).ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  test('a pre-paired couple is paired as fixed, the rest by the method', () => {
    const req = request(field(9), { prePaired: [[3, 8]] });
    const r = pairRound(method, req);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.games.filter((g) => [g.first, g.second].includes(3) || [g.first, g.second].includes(8))).toEqual([
      expect.objectContaining({ first: expect.any(Number), second: expect.any(Number) }),
    ]);
    expect(r.value.games.some((g) => sorted([g.first, g.second]).join('-') === '3-8')).toBe(true);
    expect(sorted(idsInRound(r.value))).toEqual(field(9).map((p) => p.id));
  });
});

describe('request checks (every method)', () => {
  const base = field(4);
  test.each([
    ['a round past totalRounds', { round: 5, totalRounds: 4 }, 'ROUND_OUT_OF_RANGE', /^round:/],
    ['round 0', { round: 0 }, 'ROUND_OUT_OF_RANGE', /^round:/],
    ['negative maxRepeats', { maxRepeats: -1 }, 'INVALID_REQUEST', /^maxRepeats:/],
    ['negative gibsonSpreadPerGame', { gibsonSpreadPerGame: -5 }, 'INVALID_REQUEST', /^gibsonSpreadPerGame:/],
    ['an unknown byeChoice', { byeChoice: 'random' as never }, 'INVALID_REQUEST', /^byeChoice:/],
    ['prizePlaces 0', { prizePlaces: 0 }, 'INVALID_REQUEST', /^prizePlaces:/],
    ['a player listed twice', { players: [...base, player(2)] }, 'DUPLICATE_PLAYER', /player 2/],
    ['a couple of one player', { prePaired: [[2, 2]] }, 'SELF_PAIRING', /player 2/],
    ['a couple with a stranger', { prePaired: [[1, 9]] }, 'UNKNOWN_PLAYER', /prePaired: player 9/],
    [
      'a player in two couples',
      {
        prePaired: [
          [1, 2],
          [2, 3],
        ],
      },
      'PLAYER_PAIRED_TWICE',
      /prePaired: player 2/,
    ],
    [
      'a couple beyond maxRepeats',
      { players: [player(1, { opponents: [2] }), player(2, { opponents: [1] }), player(3), player(4)], prePaired: [[1, 2]], round: 2 },
      'REPEAT_LIMIT',
      /players 1 and 2/,
    ],
  ] as const)('%s', (_, over, code, message) => {
    for (const method of METHODS) {
      const r = pairRound(method, request(base, over as Partial<PairingRequest>));
      expect(!r.ok && r.error.code).toBe(code);
      expect(!r.ok && r.error.message).toMatch(message);
    }
  });
});

describe('validatePairing (manual and overridden pairings)', () => {
  const req = request(field(5), {
    players: [...field(4), player(5, { opponents: [1] })].map((p) => (p.id === 1 ? { ...p, opponents: [5] } : p)),
    round: 2,
  });
  const game = (first: number, second: number) => ({ first, second, firstReason: 'director' as const, repeats: 0 });
  const pairing = (games: ReturnType<typeof game>[], bye: number | null, extraByes?: number[]): RoundPairing => ({
    games,
    bye,
    gibsonized: [],
    ...(extraByes ? { extraByes } : {}),
  });

  test('a good pairing', () => {
    expect(validatePairing(req, pairing([game(1, 2), game(3, 4)], 5))).toEqual({ ok: true, value: true });
  });

  test.each([
    ['a player twice', pairing([game(1, 2), game(2, 3)], 5), 'PLAYER_PAIRED_TWICE', /player 2/],
    ['the bye also in a game', pairing([game(1, 2), game(3, 5)], 5), 'PLAYER_PAIRED_TWICE', /player 5/],
    ['a player left out', pairing([game(1, 2)], 5), 'PLAYER_NOT_PAIRED', /player 3/],
    ['a stranger', pairing([game(1, 2), game(3, 9)], 5), 'UNKNOWN_PLAYER', /player 9/],
    ['a player against themself', pairing([game(1, 1), game(3, 4)], 5), 'SELF_PAIRING', /player 1/],
    ['odd and no bye', pairing([game(1, 2), game(3, 4)], null), 'BYE_MISSING', /5 active players/],
    ['two byes', pairing([game(1, 2)], 5, [3, 4]), 'BYE_NOT_NEEDED', /not 3/],
    ['a repeat beyond maxRepeats', pairing([game(1, 5), game(3, 4)], 2), 'REPEAT_LIMIT', /players 1 and 5/],
  ] as const)('%s', (_, p, code, message) => {
    const r = validatePairing(req, p);
    expect(!r.ok && r.error.code).toBe(code);
    expect(!r.ok && r.error.message).toMatch(message);
  });

  test('even and a bye: BYE_NOT_NEEDED', () => {
    const even = request(field(4));
    const r = validatePairing(even, pairing([game(1, 2)], 3));
    expect(!r.ok && r.error.code).toBe('BYE_NOT_NEEDED');
    expect(!r.ok && r.error.citation).toEqual({ source: 'seed-001', rule: '§4' });
    const r2 = validatePairing(even, { games: [game(1, 2), game(3, 4)], bye: null, gibsonized: [], extraByes: [] });
    expect(r2.ok).toBe(true);
    const withBye = validatePairing(request(field(2)), pairing([], 1, [2]));
    expect(!withBye.ok && withBye.error.code).toBe('BYE_NOT_NEEDED');
  });
});
