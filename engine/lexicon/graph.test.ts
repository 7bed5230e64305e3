import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { arcAccepts, arcChild, arcIsLast, arcLetter, buildWordGraph, GraphLexicon } from './graph.js';

const graphOf = (words: string[]): GraphLexicon => {
  const sorted = [...new Set(words)].sort();
  const g = buildWordGraph(sorted);
  if (!g.ok) throw new Error(g.error.message);
  return new GraphLexicon({ name: 'T', hash: 'sha256:x', wordCount: sorted.length }, g.value);
};

/** Arcs of a plain trie = distinct non-empty prefixes. */
const trieArcs = (words: string[]): number => {
  const prefixes = new Set<string>();
  for (const w of words) for (let i = 1; i <= w.length; i++) prefixes.add(w.slice(0, i));
  return prefixes.size;
};

describe('word graph', () => {
  const WORDS = ['A', 'AA', 'AB', 'ABA', 'BA', 'CAB', 'CABS', 'TAB', 'TABS'];
  const lex = graphOf(WORDS);

  test.each(WORDS)('finds %s', (w) => expect(lex.has(w)).toBe(true));

  test.each(['', 'B', 'AAA', 'ABAB', 'CA', 'TA', 'CABSS', 'ab', 'Z', 'AZ', 'ÑA'])('does not find %j', (w) =>
    expect(lex.has(w)).toBe(false),
  );

  test('iterates exactly the list, in order', () => expect([...lex.words()]).toEqual(WORDS));

  test('alphabet is the letters used, sorted', () => {
    expect(lex.alphabet).toEqual(['A', 'B', 'C', 'S', 'T']);
    expect(lex.letterIndex('A')).toBe(1);
    expect(lex.letterIndex('T')).toBe(5);
    expect(lex.letterIndex('Z')).toBe(0);
    expect(lex.letterIndex('AB')).toBe(0);
  });

  test('CAT CATS DOG DOGS: the S arc is shared, 7 arcs where the trie has 8', () => {
    // root [C D], [A], [O], [T*], [G*], and one [S*] list that both T and G point to.
    const g = graphOf(['CAT', 'CATS', 'DOG', 'DOGS']);
    expect(g.arcCount).toBe(7);
    expect(trieArcs(['CAT', 'CATS', 'DOG', 'DOGS'])).toBe(8);
  });

  test('TAPS TIPS TOPS: one P→S tail shared by three vowels, 6 arcs where the trie has 10', () => {
    const g = graphOf(['TAPS', 'TIPS', 'TOPS']);
    expect(g.arcCount).toBe(6);
    expect(trieArcs(['TAPS', 'TIPS', 'TOPS'])).toBe(10);
  });

  test('raw navigation spells C-A-B-S through findArc and the arc fields', () => {
    let first = lex.root;
    const seen: { letter: string; accepts: boolean }[] = [];
    for (const ch of 'CABS') {
      const arc = lex.findArc(first, lex.letterIndex(ch));
      expect(arc).toBeGreaterThan(0);
      const e = lex.nodes[arc]!;
      seen.push({ letter: lex.alphabet[arcLetter(e) - 1]!, accepts: arcAccepts(e) });
      first = arcChild(e);
    }
    expect(seen).toEqual([
      { letter: 'C', accepts: false },
      { letter: 'A', accepts: false },
      { letter: 'B', accepts: true },
      { letter: 'S', accepts: true },
    ]);
    expect(first).toBe(0);
    expect(lex.findArc(lex.root, lex.letterIndex('S'))).toBe(-1);
  });

  test('the root sibling list is A, B, C, T and ends with the last flag', () => {
    const letters: string[] = [];
    for (let a = lex.root; ; a++) {
      letters.push(lex.alphabet[arcLetter(lex.nodes[a]!) - 1]!);
      if (arcIsLast(lex.nodes[a]!)) break;
    }
    expect(letters).toEqual(['A', 'B', 'C', 'T']);
  });

  test('non-English letters and digraph tiles written as their letters', () => {
    const g = graphOf(['AÑO', 'ÇA', 'L·LA', 'CHICO', 'LLAMA']);
    expect(g.alphabet).toEqual(['A', 'C', 'H', 'I', 'L', 'M', 'O', '·', 'Ç', 'Ñ']);
    for (const w of ['AÑO', 'ÇA', 'L·LA', 'CHICO', 'LLAMA']) expect(g.has(w)).toBe(true);
    expect(g.has('ANO')).toBe(false);
    expect(g.has('LLA')).toBe(false);
  });

  test('an empty graph holds nothing', () => {
    const g = graphOf([]);
    expect(g.root).toBe(0);
    expect(g.arcCount).toBe(0);
    expect(g.has('A')).toBe(false);
    expect([...g.words()]).toEqual([]);
  });

  test('unsorted input is a broken invariant', () => {
    expect(() => buildWordGraph(['B', 'A'])).toThrow(/not sorted/);
    expect(() => buildWordGraph(['A', 'A'])).toThrow(/not sorted/);
  });

  test('an alphabet of more than 255 letters is refused', () => {
    const words = Array.from({ length: 256 }, (_, i) => String.fromCharCode(0x4e00 + i));
    const r = buildWordGraph(words);
    expect(!r.ok && r.error.code).toBe('LEXICON_TOO_LARGE');
  });

  test('property: has() is set membership, words() is the sorted set, never larger than a trie', () => {
    const word = fc.stringMatching(/^[ABCÑ]{1,6}$/);
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 40 }), fc.array(word, { maxLength: 40 }), (words, probes) => {
        const set = new Set(words);
        const g = graphOf(words);
        for (const p of [...probes, ...words]) expect(g.has(p)).toBe(set.has(p));
        expect([...g.words()]).toEqual([...set].sort());
        expect(g.arcCount).toBeLessThanOrEqual(trieArcs(words));
      }),
      { numRuns: 300 },
    );
  });
});
