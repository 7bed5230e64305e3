import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkTsh,
  formatTsh,
  formatTshPlayer,
  parseTsh,
  tshPlayers,
  type TshDivisionFile,
  type TshField,
  type TshLine,
  type TshLineEnding,
  type TshPlayerLine,
} from './index.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'tsh');
const parsed = (text: string): TshDivisionFile => {
  const r = parseTsh(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('formatTshPlayer: tsh layout', () => {
  it('writes a line as tsh does: name padded to 22, rating in 5, opponents; scores; fields', () => {
    const line = {
      name: 'Smith, Jo',
      rating: 1500,
      opponents: [2, 0, null],
      scores: [400, 50],
      fields: [{ name: 'p12', values: ['1', '0'] }],
    };
    expect(formatTshPlayer(line)).toBe(`${'Smith, Jo'.padEnd(22)}  1500 2 0 00; 400 50; p12 1 0`);
    expect(formatTshPlayer({ name: 'New, Entrant', rating: 0, opponents: [], scores: [], fields: [] })).toBe(
      `${'New, Entrant'.padEnd(22)}     0 ; `,
    );
    expect(
      formatTshPlayer({
        ...line,
        fields: [
          { name: 'team', values: ['Red;Blue', 'a\\b'] },
          { name: 'off', values: [] },
        ],
      }),
    ).toMatch(/; team Red\\;Blue a\\\\b; off$/);
  });

  // tsh wrote these files with the same FormatLine (fields sorted by name, as they stand in the
  // file), so the canonical layout of each parsed line is the line itself.
  it.each(['cop-2023-a.t', 'team-pairings-2020-a.t'])('gives back every line of %s as tsh wrote it', (name) => {
    for (const p of tshPlayers(parsed(readFileSync(join(FIXTURES, name), 'utf8')))) expect(formatTshPlayer(p)).toBe(p.raw);
  });

  it('the 2006 file used the older layout (rating in 4): same words, one space fewer', () => {
    const p = tshPlayers(parsed(readFileSync(join(FIXTURES, 'cop-2006-b.t'), 'utf8')))[0]!;
    expect(formatTshPlayer(p)).toBe(p.raw!.replace('Edley, Joe             2007', 'Edley, Joe              2007'));
  });
});

describe('formatTsh', () => {
  const text = '# A\nSmith, Jo   1500 2; 400;  p12  1\nDoe, Al 1400 1; 350\n';

  it('keeps a line as written while it says the same, rewrites it in tsh layout once changed', () => {
    const file = parsed(text);
    expect(formatTsh(file)).toBe(text);
    const [comment, smith, doe] = file.lines as [TshLine, TshPlayerLine, TshPlayerLine];
    const changed: TshDivisionFile = { ...file, lines: [comment, { ...smith, scores: [401] }, doe] };
    expect(formatTsh(changed)).toBe(`# A\n${'Smith, Jo'.padEnd(22)}  1500 2; 401; p12 1\nDoe, Al 1400 1; 350\n`);
    const renamed: TshDivisionFile = { ...file, lines: [comment, smith, { ...doe, fields: [{ name: 'class', values: ['B'] }] }] };
    expect(formatTsh(renamed)).toBe(`# A\nSmith, Jo   1500 2; 400;  p12  1\n${'Doe, Al'.padEnd(22)}  1400 1; 350; class B\n`);
  });

  it('builds a file from scratch: LF, a last line end, comments get their #', () => {
    const file: TshDivisionFile = {
      lines: [
        { kind: 'comment', text: 'division A' },
        { kind: 'blank', text: '' },
        { kind: 'player', name: 'Smith, Jo', rating: 1500, opponents: [2], scores: [400], fields: [] },
        { kind: 'player', name: 'Doe, Al', rating: 1400, opponents: [1], scores: [350], fields: [] },
      ],
    };
    expect(formatTsh(file)).toBe(`#division A\n\n${'Smith, Jo'.padEnd(22)}  1500 2; 400\n${'Doe, Al'.padEnd(22)}  1400 1; 350\n`);
  });
});

// Generated documents: whatever the content, format → parse gives the same tree back.
const word = fc.stringMatching(/^[A-Za-z][A-Za-z'.,-]{0,7}$/);
const name = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
const rating = fc.oneof(
  fc.integer({ min: 0, max: 2600 }),
  fc.integer({ min: 0, max: 9999 }).map((n) => n + 0.5),
);
const fieldName = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/).filter((n) => !['p12', 'board', 'newr', 'off'].includes(n));
const field: fc.Arbitrary<TshField> = fc.oneof(
  fc.record({ name: fieldName, values: fc.array(fc.stringMatching(/^[!-~]{1,6}$/), { maxLength: 4 }) }),
  fc.record({ name: fc.constant('p12'), values: fc.array(fc.constantFrom('0', '1', '2', '3', '4', '00'), { maxLength: 6 }) }),
  fc.record({ name: fc.constant('off'), values: fc.array(fc.constantFrom('-50', '0', '50'), { maxLength: 1 }) }),
);

const player = (entrants: number): fc.Arbitrary<TshPlayerLine> =>
  fc.record({
    kind: fc.constant('player' as const),
    name,
    rating,
    opponents: fc.array(fc.option(fc.integer({ min: 0, max: entrants }), { nil: null }), { maxLength: 8 }),
    scores: fc.array(fc.option(fc.integer({ min: -100, max: 800 }), { nil: null }), { maxLength: 8 }),
    fields: fc.array(field, { maxLength: 4 }),
  });

const other: fc.Arbitrary<TshLine> = fc.oneof(
  fc.stringMatching(/^[ \t]{0,3}#[^\r\n]{0,12}$/).map((text) => ({ kind: 'comment' as const, text })),
  fc.constantFrom('', ' ', '\t ').map((text) => ({ kind: 'blank' as const, text })),
);

const document: fc.Arbitrary<TshDivisionFile> = fc.integer({ min: 0, max: 10 }).chain((n) =>
  fc
    .record({
      players: fc.array(player(n), { minLength: n, maxLength: n }),
      others: fc.array(fc.tuple(fc.nat(), other), { maxLength: 4 }),
      lineEnding: fc.constantFrom<TshLineEnding>('\n', '\r\n', '\r'),
      finalNewline: fc.boolean(),
      bom: fc.boolean(),
    })
    .map(({ players, others, lineEnding, finalNewline, bom }) => {
      const lines: TshLine[] = [...players];
      for (const [at, l] of others) lines.splice(at % (lines.length + 1), 0, l);
      // A last blank line with no line end after it leaves no trace in the text.
      const last = lines.at(-1);
      const keepEnd = finalNewline || (last?.kind === 'blank' && last.text === '');
      return { lines, lineEnding, finalNewline: keepEnd, bom };
    }),
);

/** The tree without what parsing adds (raw) or leaves out (defaults). */
const normal = (f: TshDivisionFile) => {
  const ends = f.lines.length - (f.finalNewline === false ? 1 : 0);
  return {
    lines: f.lines.map((l) => (l.kind === 'player' ? { ...l, raw: undefined } : l)),
    lineEnding: ends > 0 ? (f.lineEnding ?? '\n') : '\n',
    finalNewline: f.lines.length === 0 ? true : f.finalNewline !== false,
    bom: f.bom === true,
  };
};

describe('round trip of generated documents', () => {
  it('parseTsh(formatTsh(doc)) is doc, and formatting the result again gives the same text', () => {
    fc.assert(
      fc.property(document, (doc) => {
        expect(checkTsh(doc).filter((p) => p.code === 'NOT_WRITABLE')).toEqual([]);
        const text = formatTsh(doc);
        const back = parsed(text);
        expect(normal(back)).toEqual(normal(doc));
        expect(formatTsh(back)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });
});
