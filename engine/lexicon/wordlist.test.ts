import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { contentHash, normaliseLexiconName, normaliseWordList, normaliseWords } from './wordlist.js';

describe('normaliseWordList', () => {
  test('trims, uppercases, drops blanks and # comments, sorts and removes duplicates', () => {
    const r = normaliseWordList('# my list\r\n  zoo \n\nqi\nQi\n#comment\nAa\n');
    expect(r).toEqual({ ok: true, value: { words: ['AA', 'QI', 'ZOO'], hash: expect.any(String) } });
  });

  test('hash is sha256 of the words joined by \\n (values from sha256sum)', () => {
    const r = normaliseWordList('qi\naa');
    expect(r.ok && r.value.hash).toBe('sha256:df712f8d0b808bcf770fb0df9ad019abc449f1ea66f7d8ad3991bc55a6d3fbdd');
    expect(contentHash(['CAT', 'CATS', 'DOG'])).toBe('sha256:b3116ff00029f2ee3ec5242bec260bc4b4b14d92533df2ac0ad909a8a57fead5');
  });

  test('keeps letters of other alphabets, the Catalan middle dot, and words of any length', () => {
    const long = 'A'.repeat(28);
    const r = normaliseWordList(`año\nl·l\nça\n${long}\nx`);
    expect(r.ok && r.value.words).toEqual([long, 'AÑO', 'L·L', 'X', 'ÇA']);
  });

  test('composes decomposed letters (NFC) so n + combining tilde is Ñ', () => {
    const r = normaliseWordList('an\u0303o');
    expect(r.ok && r.value.words).toEqual(['AÑO']);
  });

  test.each([
    ['CAT\nDOG-S\nEEL', 2, '-'],
    ['CAT\n\nTWO WORDS', 3, ' '],
    ["DON'T", 1, "'"],
    ['R2D2', 1, '2'],
    ['CA?', 1, '?'],
    ['A\n[CH]ICO', 2, '['],
  ])('rejects %j at line %i naming %j', (text, line, character) => {
    const r = normaliseWordList(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('LEXICON_BAD_WORD');
    expect(r.error.details).toMatchObject({ line, character });
    expect(r.error.message).toContain(`Line ${line}:`);
  });

  test('a list with no words is an error', () => {
    const r = normaliseWordList('# only a comment\n\n');
    expect(!r.ok && r.error.code).toBe('LEXICON_EMPTY');
  });

  test('property: the hash ignores order, case, duplicates and surrounding space', () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 30 }), fc.integer(), (words, seed) => {
        const k = Math.abs(seed) % words.length;
        const shuffled = [...words.slice(k), ...words.slice(0, k)]
          .reverse()
          .map((w, i) => ((i + seed) % 2 ? ` ${w.toLowerCase()} ` : w.toUpperCase()));
        const a = normaliseWords(words);
        const b = normaliseWords([...shuffled, ...shuffled]);
        expect(a.ok && b.ok && a.value.hash === b.value.hash).toBe(true);
        const expected = [...new Set(words.map((w) => w.toUpperCase()))].sort();
        expect(a.ok && a.value.words).toEqual(expected);
      }),
    );
  });
});

describe('normaliseLexiconName', () => {
  test.each([
    ['sowpods', 'SOWPODS'],
    [' nwl2023 ', 'NWL2023'],
    ['csw_21-x', 'CSW_21-X'],
  ])('%j → %j', (raw, name) => expect(normaliseLexiconName(raw)).toEqual({ ok: true, value: name }));

  test.each(['', '-X', 'my list', 'a/b', '../X', 'X'.repeat(65), 'ÑOÑO'])('rejects %j', (raw) => {
    const r = normaliseLexiconName(raw);
    expect(!r.ok && r.error.code).toBe('LEXICON_BAD_NAME');
  });
});
