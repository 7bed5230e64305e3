import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTsh, parseTsh, TSH_PROBLEM_CODES, type TshDivisionFile, type TshProblemCode } from './index.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'tsh');
const parsed = (text: string): TshDivisionFile => {
  const r = parseTsh(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const codes = (file: TshDivisionFile): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const p of checkTsh(file)) out[p.code] = (out[p.code] ?? 0) + 1;
  return out;
};

describe('checkTsh on real files', () => {
  it('the two tsh-written 2020 and 2023 divisions are consistent throughout', () => {
    expect(checkTsh(parsed(readFileSync(join(FIXTURES, 'cop-2023-a.t'), 'utf8')))).toEqual([]);
    expect(checkTsh(parsed(readFileSync(join(FIXTURES, 'team-pairings-2020-a.t'), 'utf8')))).toEqual([]);
  });

  it('the 2006 division: pairings symmetric, but one game of round 13 sits at two boards', () => {
    const problems = checkTsh(parsed(readFileSync(join(FIXTURES, 'cop-2006-b.t'), 'utf8')));
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'BOARD_MISMATCH',
        line: 1,
        field: 'board',
        message: 'line 1: board: round 13: board 8 here, 4 for entrant 22 (Early, Michael)',
      }),
    ]);
  });

  it('the team_pairings export: p12 1 against 1 (or 3) in 58 games', () => {
    expect(codes(parsed(readFileSync(join(FIXTURES, 'team-pairings-anon1.t'), 'utf8')))).toEqual({ P12_CONFLICT: 58 });
  });
});

describe('checkTsh problems', () => {
  const CASES: readonly [TshProblemCode, string, number, string, string][] = [
    [
      'ASYMMETRIC_PAIRING',
      'A, B 1 2; 400\nC, D 1 3; 380\nE, F 1 2; 300',
      1,
      'opponents',
      'line 1: opponents: round 1 pairs entrant 1 (A, B) with entrant 2 (C, D), whose line 2 pairs them with entrant 3 (E, F)',
    ],
    ['SELF_PAIRING', 'A, B 1 1; 400', 1, 'opponents', 'line 1: opponents: round 1 pairs the player with themself'],
    [
      'HALF_SCORED',
      '# c\nA, B 1 2 2; 400 300\nC, D 1 1 1; 380',
      2,
      'scores',
      'line 2: scores: round 2 has a score for one player only: entrant 2 (C, D) has none',
    ],
    ['MORE_SCORES_THAN_OPPONENTS', 'A, B 1 0; 50 400', 1, 'scores', 'line 1: scores: 2 scores but only 1 paired rounds'],
    ['P12_CONFLICT', 'A, B 1 2; 400; p12 1\nC, D 1 1; 380; p12 1', 1, 'p12', 'line 1: p12: round 1: p12 1 here, 1 for entrant 2 (C, D)'],
    [
      'BOARD_MISMATCH',
      'A, B 1 2; 400; board 3\nC, D 1 1; 380; board 4',
      1,
      'board',
      'line 1: board: round 1: board 3 here, 4 for entrant 2 (C, D)',
    ],
    ['DUPLICATE_FIELD', 'A, B 1 0; 50; class A; class B', 1, 'class', 'line 1: class: given twice on the line (tsh keeps the last)'],
  ];

  it.each(CASES)('%s', (code, text, line, field, message) => {
    expect(checkTsh(parsed(text))).toEqual([
      expect.objectContaining({ code, line, field, message, details: expect.objectContaining({ line, field }) }),
    ]);
  });

  it('no problem: a game both ways with 1/2, 3/3, boards equal, a bye, 00 and unscored rounds', () => {
    const text =
      'A, B 1 2 0 2 00; 400 50 300; p12 1 0 3; board 1 0 2\nC, D 1 1 3 1; 380 300 310; p12 2 1 3; board 1 1 2\nE, F 1 0 2; 50 330; p12 0 2';
    expect(checkTsh(parsed(text))).toEqual([]);
  });

  it('lines built in code: an opponent outside the file, names and values tsh cannot read back', () => {
    const base = { kind: 'player' as const, rating: 1000, scores: [], fields: [] };
    const file: TshDivisionFile = {
      lines: [
        { ...base, name: 'A, B', opponents: [9] },
        { ...base, name: 'Team 7, X', opponents: [] },
        { ...base, name: 'C; D', opponents: [] },
        { ...base, name: 'E, F', opponents: [], fields: [{ name: 'team', values: ['Red Blue'] }] },
        { ...base, name: 'G, H', rating: -3, opponents: [] },
      ],
    };
    expect(checkTsh(file).map((p) => [p.code, p.line, p.field])).toEqual([
      ['OPPONENT_OUT_OF_RANGE', 1, 'opponents'],
      ['NOT_WRITABLE', 2, 'name'],
      ['NOT_WRITABLE', 3, 'name'],
      ['NOT_WRITABLE', 4, 'team'],
      ['NOT_WRITABLE', 5, 'rating'],
    ]);
  });

  it('every problem code has a case', () => {
    const covered = new Set<string>([...CASES.map((c) => c[0]), 'OPPONENT_OUT_OF_RANGE', 'NOT_WRITABLE']);
    expect(covered).toEqual(new Set(TSH_PROBLEM_CODES));
  });
});
