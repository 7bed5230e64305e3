import { describe, expect, test } from 'vitest';
import { decodeDawgFile, encodeDawgFile, DAWG_FORMAT_VERSION, peekDawgHeader } from './dawg-file.js';
import { compileWordList, graphContentHash } from './compile.js';

const compiled = (() => {
  const r = compileWordList('small', 'cat\ncats\ndog\ndogs\naño\nl·l\n');
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();
const WORDS = ['AÑO', 'CAT', 'CATS', 'DOG', 'DOGS', 'L·L'];

const decodeError = (bytes: Uint8Array): string | undefined => {
  const r = decodeDawgFile(bytes);
  return r.ok ? undefined : r.error.code;
};

describe('encodeDawgFile / decodeDawgFile', () => {
  test('round trip keeps name, hash, count, alphabet and words', () => {
    const r = decodeDawgFile(compiled.bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const lex = r.value;
    expect(lex.name).toBe('SMALL');
    expect(lex.wordCount).toBe(6);
    expect(lex.hash).toBe(compiled.lexicon.hash);
    expect(lex.alphabet).toEqual(['A', 'C', 'D', 'G', 'L', 'O', 'S', 'T', '·', 'Ñ']);
    expect([...lex.words()]).toEqual(WORDS);
    for (const w of WORDS) expect(lex.has(w)).toBe(true);
    expect(graphContentHash(lex)).toBe(lex.hash);
    expect(encodeDawgFile(lex)).toEqual(compiled.bytes);
  });

  test('starts with the magic and version, and the graph is 4-byte aligned', () => {
    const b = compiled.bytes;
    expect(String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!)).toBe('ALEX');
    expect(b[4]! | (b[5]! << 8)).toBe(DAWG_FORMAT_VERSION);
    const headerBytes = b[8]! | (b[9]! << 8) | (b[10]! << 16) | (b[11]! << 24);
    expect(headerBytes % 4).toBe(0);
  });

  test('aligned bytes are wrapped, not copied', () => {
    const r = decodeDawgFile(compiled.bytes);
    expect(r.ok && r.value.nodes.buffer).toBe(compiled.bytes.buffer);
  });

  test('unaligned bytes are copied and still decode', () => {
    const shifted = new Uint8Array(compiled.bytes.length + 1);
    shifted.set(compiled.bytes, 1);
    const r = decodeDawgFile(shifted.subarray(1));
    expect(r.ok && [...r.value.words()]).toEqual(WORDS);
  });

  test('peekDawgHeader reads the identity without the graph', () => {
    expect(peekDawgHeader(compiled.bytes)).toEqual({
      ok: true,
      value: { name: 'SMALL', hash: compiled.lexicon.hash, wordCount: 6, version: DAWG_FORMAT_VERSION },
    });
  });
});

describe('decode errors', () => {
  const mutate = (f: (b: Uint8Array, view: DataView) => void): Uint8Array => {
    const b = compiled.bytes.slice();
    f(b, new DataView(b.buffer));
    return b;
  };
  const headerBytes = new DataView(compiled.bytes.buffer).getUint32(8, true);
  const graphStart = 16 + headerBytes;

  test.each([
    ['wrong magic', new TextEncoder().encode('PK\u0003\u0004 not a lexicon at all'), 'LEXICON_BAD_MAGIC'],
    ['empty input', new Uint8Array(0), 'LEXICON_TRUNCATED'],
    ['only the magic', compiled.bytes.slice(0, 6), 'LEXICON_TRUNCATED'],
    ['last arc cut off', compiled.bytes.slice(0, -4), 'LEXICON_TRUNCATED'],
    ['bytes after the graph', Uint8Array.from([...compiled.bytes, 0, 0, 0, 0]), 'LEXICON_CORRUPT'],
    ['version 2', mutate((_, v) => v.setUint16(4, 2, true)), 'LEXICON_BAD_VERSION'],
    ['header not JSON', mutate((b) => (b[16] = 0x7a)), 'LEXICON_BAD_HEADER'],
    ['header length not a multiple of 4', mutate((_, v) => v.setUint32(8, headerBytes - 1, true)), 'LEXICON_BAD_HEADER'],
    ['root points past the end', mutate((_, v) => v.setUint32(graphStart, (1 << 22) | 0x3fffff, true)), 'LEXICON_CORRUPT'],
    ['an arc pointing forwards', mutate((_, v) => v.setUint32(graphStart + 4, (1 << 24) | (1 << 22) | 5, true)), 'LEXICON_CORRUPT'],
    ['a letter outside the alphabet', mutate((_, v) => v.setUint32(graphStart + 4, (200 << 24) | (1 << 22), true)), 'LEXICON_CORRUPT'],
  ])('%s → %s', (_, bytes, code) => expect(decodeError(bytes)).toBe(code));

  test('a header with a bad hash is refused', () => {
    const json = JSON.stringify({ name: 'X', hash: 'md5:00', wordCount: 0, alphabet: '' });
    const bytes = new Uint8Array(16 + 4 * Math.ceil(json.length / 4) + 4).fill(0x20);
    const v = new DataView(bytes.buffer);
    bytes.set(new TextEncoder().encode('ALEX'));
    v.setUint16(4, 1, true);
    v.setUint16(6, 0, true);
    v.setUint32(8, 4 * Math.ceil(json.length / 4), true);
    v.setUint32(12, 1, true);
    bytes.set(new TextEncoder().encode(json), 16);
    v.setUint32(bytes.length - 4, 1 << 22, true);
    const r = decodeDawgFile(bytes);
    expect(!r.ok && r.error.code).toBe('LEXICON_BAD_HEADER');
    expect(!r.ok && r.error.message).toContain('"hash"');
  });
});
