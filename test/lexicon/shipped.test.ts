import { beforeAll, describe, expect, test } from 'vitest';
import { loadLexicon } from '../../store/lexicon-files.js';
import { graphContentHash } from '../../engine/lexicon/compile.js';
import type { GraphLexicon } from '../../engine/lexicon/graph.js';
import { ensureShippedLexicons } from '../../scripts/build-lexicons.js';

// Word counts are `wc -l` + 1 (the files have no final newline); hashes are from
//   (cat FILE; echo) | tr a-z A-Z | LC_ALL=C sort -u | sed '/^$/d' | head -c -1 | sha256sum
const EXPECTED = {
  SOWPODS: { words: 267_751, hash: 'sha256:82220e3c2bda80784cc2d9e59552e1339d8e9dad8a61189e03c100eea066550d' },
  WORDLIST: { words: 274_137, hash: 'sha256:7468c13a3e60c10f71d127683b8ea449b01e3f70954c4f398b218c32afe89594' },
} as const;

const lexicons = new Map<string, GraphLexicon>();
beforeAll(() => {
  ensureShippedLexicons(); // builds from node_modules when `npm run lexicons` has not run
  for (const name of Object.keys(EXPECTED)) {
    const r = loadLexicon(name);
    if (!r.ok) throw new Error(r.error.message);
    lexicons.set(name, r.value);
  }
});
const lex = (name: string): GraphLexicon => lexicons.get(name)!;

describe.each(Object.entries(EXPECTED))('shipped lexicon %s', (name, expected) => {
  test('has the expected identity', () => {
    expect(lex(name).name).toBe(name);
    expect(lex(name).wordCount).toBe(expected.words);
    expect(lex(name).hash).toBe(expected.hash);
  });

  test('the stored hash matches the words in the graph', () => {
    expect(graphContentHash(lex(name))).toBe(expected.hash);
  });

  test.each(['AA', 'QI', 'ZA', 'XU', 'JO', 'CWM', 'QUIXOTIC', 'ZYZZYVAS', 'ZZZ'])('%s is valid', (w) =>
    expect(lex(name).has(w)).toBe(true),
  );

  test.each(['QX', 'JQ', 'ZZZZZ', 'AAAA', 'ARBITERX', 'qi', 'Q', ''])('%j is not', (w) => expect(lex(name).has(w)).toBe(false));
});

test('WORDLIST keeps words longer than 15 letters; SOWPODS has none', () => {
  // "counterrevolutionaries" (22 letters) is in word-list's words.txt, not in SOWPODS.txt.
  expect(lex('WORDLIST').has('COUNTERREVOLUTIONARIES')).toBe(true);
  expect(lex('SOWPODS').has('COUNTERREVOLUTIONARIES')).toBe(false);
});
