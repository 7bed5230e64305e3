import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { encodeGcg, formatGcg, parseGcg, type GcgDocument } from '../../engine/gcg/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/gcg/', import.meta.url));
const read = (path: string): Uint8Array => readFileSync(`${FIXTURES}${path}`);
const files = (dir: string): string[] =>
  readdirSync(`${FIXTURES}${dir}`)
    .filter((f) => f.endsWith('.gcg'))
    .sort();

/** Line numbers say where text was, not what it says; the round trip ignores them. */
const withoutLines = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutLines)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([k]) => k !== 'line')
            .map(([k, v]) => [k, withoutLines(v)]),
        )
      : value;

const expectRoundTrip = (doc: GcgDocument): void => {
  const again = parseGcg(formatGcg(doc));
  expect(again.ok ? withoutLines(again.value) : again.error).toEqual(withoutLines(doc));
  // As bytes too: the writer keeps the encoding it read (issue 21), and encodeGcg writes the bytes in it.
  const bytes = parseGcg(encodeGcg(doc));
  expect(bytes.ok ? withoutLines(bytes.value) : bytes.error).toEqual(withoutLines(doc));
};

describe('liwords records parse and round-trip', () => {
  test.each(files('liwords'))('%s', (file) => {
    const r = parseGcg(read(`liwords/${file}`));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.events.length).toBeGreaterThan(0);
    expectRoundTrip(r.value);
  });
});

const expectations = readFileSync(`${FIXTURES}MAGPIE-expectations.tsv`, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((row) => {
    const [file, layer, code] = row.split('\t') as [string, 'parse' | 'replay' | 'ok', string];
    return { file, layer, code };
  });

test('the expectations table covers every MAGPIE fixture exactly once', () => {
  expect(expectations.map((e) => e.file).sort()).toEqual(files('MAGPIE'));
});

describe('MAGPIE fixtures: syntax errors are rejected by the parser, the rest parse and round-trip', () => {
  test.each(expectations)('$file ($layer $code)', ({ file, layer, code }) => {
    const r = parseGcg(read(`MAGPIE/${file}`));
    if (layer === 'parse') {
      expect(r.ok ? 'parsed' : r.error.code).toBe(code);
      return;
    }
    if (!r.ok) throw new Error(r.error.message);
    expectRoundTrip(r.value);
  });
});

describe('encodings, checked by hand against the fixtures', () => {
  const names = (file: string) => {
    const r = parseGcg(read(`MAGPIE/${file}`));
    if (!r.ok) throw new Error(r.error.message);
    return r.value.players.map((p) => [p.nickname, p.name]);
  };
  test('name_iso8859-1.gcg: no pragma, bytes E9 and E9 are Latin-1 é', () => {
    expect(names('name_iso8859-1.gcg')).toEqual([
      ['c\u00e9sar', 'c\u00e9sar'],
      ['h\u00e9rcules', 'h\u00e9rcules'],
    ]);
  });
  test('name_utf8_noheader.gcg: UTF-8 bytes C3 A9 without the pragma read as Latin-1 "Ã©"', () => {
    expect(names('name_utf8_noheader.gcg')[0]).toEqual(['c\u00c3\u00a9sar', 'c\u00c3\u00a9sar']);
  });
  test('name_utf8_with_header.gcg: with the pragma, C3 A9 is é', () => {
    expect(names('name_utf8_with_header.gcg')).toEqual([
      ['c\u00e9sar', 'c\u00e9sar'],
      ['doug', 'doug'],
    ]);
  });
  test('utf8_dos.gcg: CRLF line ends, blank line, multi-line note', () => {
    const r = parseGcg(read('MAGPIE/utf8_dos.gcg'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.players.map((p) => p.nickname)).toEqual(['angwantibo', 'Michal_Josko']);
    expect(r.value.players[1].name).toBe('Michal Josko');
    expect(r.value.events[0]).toMatchObject({ line: 5, player: 0, rack: 'ABDELNO', score: 24, cumulative: 24 });
    const einstein = r.value.events.find((e) => e.line === 23)!;
    expect(einstein.notes).toEqual([
      'tennises dentines way more points\nsince ive been behind  and the board is not open, ive made decision to do that risky play. win or lose. will it work?',
    ]);
    for (const e of r.value.events) for (const n of e.notes) expect(n).not.toMatch(/\r/);
  });
});
