import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatTsh,
  parseTsh,
  parseTshLine,
  tshField,
  tshPlayers,
  TSH_ERROR_CODES,
  type TshDivisionFile,
  type TshPlayerLine,
} from './index.js';

/** Real `.t` files of real events; where each comes from is in SOURCES.tsv beside them. */
const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'tsh');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const FILES = readdirSync(FIXTURES).filter((f) => f.endsWith('.t'));

const parsed = (text: string): TshDivisionFile => {
  const r = parseTsh(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('real files', () => {
  it('every fixture is listed in SOURCES.tsv with its repository, path and commit', () => {
    const rows = fixture('SOURCES.tsv').trim().split('\n').slice(1);
    const listed = rows.map((r) => r.split('\t'));
    expect(listed.map((r) => r[0])).toEqual(expect.arrayContaining(FILES));
    const present = readdirSync(FIXTURES);
    for (const r of listed) {
      expect(present).toContain(r[0]);
      expect(r[3]).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(FILES.length).toBeGreaterThanOrEqual(3);
  });

  it.each(FILES)('%s formats back byte for byte', (name) => {
    const text = fixture(name);
    expect(formatTsh(parsed(text))).toBe(text);
  });

  it('reads the 109-player, 14-round division (old tsh layout, byes as opponent 0)', () => {
    const players = tshPlayers(parsed(fixture('cop-2006-b.t')));
    expect(players).toHaveLength(109);
    expect(players.every((p) => p.opponents.length === 14 && p.scores.length === 14)).toBe(true);
    const first = players[0]!;
    expect(first).toMatchObject({ name: 'Edley, Joe', rating: 2007, opponents: [87, 77, 39, 25, 83, 97, 73, 49, 20, 89, 8, 6, 22, 4] });
    expect(first.fields.map((f) => f.name)).toEqual(['board', 'p12', 'time']);
    const lerman = players[9]!; // round 2: a bye scored 50, p12 0, board 0
    expect([lerman.opponents[1], lerman.scores[1], tshField(lerman, 'p12')?.[1], tshField(lerman, 'board')?.[1]]).toEqual([
      0,
      50,
      '0',
      '0',
    ]);
    expect(
      players.find((p) => p.name === 'OLaughlin, Tom') &&
        tshField(
          players.find((p) => p.name === 'OLaughlin, Tom')!,
          'board',
        ),
    ).toHaveLength(13);
  });

  it('reads a withdrawn player: off -50 and four forfeit losses as opponent 0', () => {
    const keras = tshPlayers(parsed(fixture('cop-2023-a.t')))[15]!;
    expect(keras.name).toBe('Keras, Lydia');
    expect(tshField(keras, 'off')).toEqual(['-50']);
    expect(keras.opponents.slice(19)).toEqual([0, 0, 0, 0]);
    expect(keras.scores.slice(19)).toEqual([-50, -50, -50, -50]);
    expect(keras.fields.map((f) => f.name)).toEqual(['board', 'class', 'excwins', 'lifeg', 'newr', 'off', 'p12', 'rrank', 'rtime', 'time']);
  });

  it("keeps tsh's 00 (undefined) in fields as written, names without a comma, rating 0", () => {
    const players = tshPlayers(parsed(fixture('team-pairings-2020-a.t')));
    expect(players).toHaveLength(38);
    const shelton = players.find((p) => p.name === 'Robert Shelton')!;
    expect(shelton.rating).toBe(0);
    expect(tshField(shelton, 'rtime')?.slice(0, 10)).toEqual([...Array<string>(9).fill('00'), '1580011952']);
    expect(players.filter((p) => tshField(p, 'off')?.[0] === '0').map((p) => p.name)).toContain('Jon Cox');
    expect(players.at(-1)!.fields.at(-1)).toEqual({ name: 'rcrank', values: expect.arrayContaining(['00', '38']) });
  });

  it('skips an empty field between two semicolons, as tsh does, and still writes it back', () => {
    const text = fixture('team-pairings-anon1.t');
    const first = tshPlayers(parsed(text))[0]!;
    expect(first.fields).toEqual([{ name: 'p12', values: ['3', '3', '3', '3', '3', '3'] }]);
    expect(first.raw).toContain('; ; p12');
  });
});

/** One player line read on its own (no check of opponent numbers against the file). */
const one = (text: string): TshPlayerLine => {
  const r = parseTshLine(text);
  if (!r.ok || r.value.kind !== 'player') throw new Error(r.ok ? r.value.kind : r.error.message);
  return r.value;
};

describe('the grammar', () => {
  it('comments and blank lines are kept, do not count as entrants, and keep their line numbers', () => {
    const text = '# division A\n\nSmith, Jo  1500 2; 400\n   # late entry\nDoe, Al 1400 1; 350\n  \n';
    const file = parsed(text);
    expect(file.lines.map((l) => l.kind)).toEqual(['comment', 'blank', 'player', 'comment', 'player', 'blank']);
    expect(tshPlayers(file).map((p) => p.opponents)).toEqual([[2], [1]]);
    expect(formatTsh(file)).toBe(text);
  });

  it('CRLF, CR, a missing last line end and a byte-order mark survive', () => {
    for (const text of ['A, B 1 0; 50\r\nC, D 2 0; 50\r\n', 'A, B 1 0; 50\rC, D 2 0; 50', '\uFEFFA, B 1 0; 50\nC, D 2 0; 50\r\n']) {
      const file = parsed(text);
      expect(tshPlayers(file)).toHaveLength(2);
      expect(formatTsh(file)).toBe(text);
    }
    expect(parsed('A, B 1 0; 50\r\n')).toMatchObject({ lineEnding: '\r\n' });
    expect(parsed('A, B 1 0; 50')).toMatchObject({ finalNewline: false });
    expect(parsed('')).toEqual({ lines: [] });
  });

  it('a line without a semicolon has no scores (tsh appends one); rounds paired but unscored are longer than scores', () => {
    expect(one('Smith, Jo 1500')).toMatchObject({ name: 'Smith, Jo', rating: 1500, opponents: [], scores: [], fields: [] });
    expect(one('Smith, Jo 1500 3 4 5; 400 388')).toMatchObject({ opponents: [3, 4, 5], scores: [400, 388] });
  });

  it('tabs and runs of blanks separate words; the name keeps its inner spacing', () => {
    expect(one('jellomochas\t1111111 4 3; 473 561')).toMatchObject({ name: 'jellomochas', rating: 1111111, opponents: [4, 3] });
    expect(one('Daniel, Robin  Pollock   1869 2;400')).toMatchObject({ name: 'Daniel, Robin  Pollock', opponents: [2], scores: [400] });
  });

  it('00 is undefined (null) in opponents and scores, 0 is a bye', () => {
    expect(one('A, B 1000 00 0 3; 00 50 -7')).toMatchObject({ opponents: [null, 0, 3], scores: [null, 50, -7] });
  });

  it('fields: tsh escapes, values as written, repeated names kept in order, a trailing "; # 12" dropped', () => {
    const p = one('A, B 1000 1; 400; class B; team Red\\;Blue \\\\x; note a\\b; class C; # 12');
    expect(p.fields).toEqual([
      { name: 'class', values: ['B'] },
      { name: 'team', values: ['Red;Blue', '\\x'] },
      { name: 'note', values: ['a\\b'] },
      { name: 'class', values: ['C'] },
    ]);
    expect(tshField(p, 'class')).toEqual(['C']);
    expect(one('A, B 1000 1; 400; p12').fields).toEqual([{ name: 'p12', values: [] }]);
  });

  it('a decimal rating is read; p12 3 and 4, board 0 and 00 are accepted', () => {
    expect(one('A, B 1500.5 1; 400; p12 3 4 00; board 0 00 12; newr 1498.25 -3').rating).toBe(1500.5);
  });
});

describe('bad lines', () => {
  const CASES: readonly [string, string, (typeof TSH_ERROR_CODES)[number], number, string, string][] = [
    ['no name', '; 400', 'MISSING_NAME', 1, 'name', 'line 1: name: the line has no player name'],
    [
      'only a number',
      'X, Y 1 1; 1\n1500 2 3; 400',
      'MISSING_NAME',
      2,
      'name',
      'line 2: name: no player name before the numbers "1500 2 3"',
    ],
    ['lone rating', '1500; 400', 'MISSING_NAME', 1, 'name', 'line 1: name: no player name before the rating "1500"'],
    ['no rating', '\nSmith, Jo; 400', 'MISSING_RATING', 2, 'rating', 'line 2: rating: no rating after the name "Smith, Jo"'],
    ['bad rating', 'Smith, Jo 15x0 2; 400', 'BAD_RATING', 1, 'rating', 'line 1: rating: "15x0" is not a number'],
    ['rating+rating', 'Smith, Jo 1500+20 2; 400', 'BAD_RATING', 1, 'rating', 'line 1: rating: "1500+20" is not a number'],
    ['negative rating', 'Smith, Jo -5 2; 400', 'BAD_RATING', 1, 'rating', 'line 1: rating: "-5" is not a number'],
    [
      'bad opponent',
      'Smith, Jo 1500 1x 2; 400',
      'BAD_OPPONENT',
      1,
      'opponents',
      'line 1: opponents: "1x" is not an entrant number (0 for a bye)',
    ],
    [
      'negative opponent',
      'Smith, Jo 1500 -2; 400',
      'BAD_OPPONENT',
      1,
      'opponents',
      'line 1: opponents: "-2" is not an entrant number (0 for a bye)',
    ],
    ['bad score', '# c\n\n#\n\n\n\n\n\n\n\n\nSmith, Jo 1500 1; 4x3', 'BAD_SCORE', 12, 'scores', 'line 12: scores: "4x3" is not a number'],
    ['score with a dash inside', 'Smith, Jo 1500 1; 1-2', 'BAD_SCORE', 1, 'scores', 'line 1: scores: "1-2" is not a number'],
    [
      'p12 5',
      'A, B 1 1; 400; p12 5',
      'BAD_FIELD_VALUE',
      1,
      'p12',
      'line 1: p12: "5" is not 0, 1, 2, 3 or 4 (neither, first, second, must draw, unknown)',
    ],
    ['board x', 'A, B 1 1; 400; board 3 x', 'BAD_FIELD_VALUE', 1, 'board', 'line 1: board: "x" is not a board number'],
    ['newr x', 'A, B 1 1; 400; newr 1500 n/a', 'BAD_FIELD_VALUE', 1, 'newr', 'line 1: newr: "n/a" is not a rating'],
    [
      'off twice',
      'A, B 1 1; 400; off 50 50',
      'BAD_FIELD_VALUE',
      1,
      'off',
      'line 1: off: takes at most one value (the bye spread), found 2',
    ],
    [
      'off word',
      'A, B 1 1; 400; off yes',
      'BAD_FIELD_VALUE',
      1,
      'off',
      'line 1: off: "yes" is not a bye spread (a whole number such as -50, 0 or 50)',
    ],
    [
      'opponent beyond the file',
      'A, B 1 2; 400\n# x\nC, D 1 3; 380',
      'OPPONENT_OUT_OF_RANGE',
      3,
      'opponents',
      'line 3: opponents: round 1 names entrant 3, but the file has 2 players',
    ],
  ];

  it.each(CASES)('%s', (_, text, code, line, field, message) => {
    const r = parseTsh(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ code, line, field, message, details: { line, field } });
  });

  it('every error code has a case', () => {
    expect(new Set(CASES.map((c) => c[2]))).toEqual(new Set(TSH_ERROR_CODES));
  });
});
