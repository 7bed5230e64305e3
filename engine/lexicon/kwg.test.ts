import { describe, expect, test } from 'vitest';
import { ENGLISH, SPANISH } from '../tiles.js';
import { buildKwg, tileSpellings } from './kwg-build.js';
import { decodeKwg, encodeKwg, KWG_ACCEPTS, KWG_IS_END, kwgDigest, type Kwg } from './kwg.js';
import { formatKwgManifest, KWG_MANIFEST_FORMAT, parseKwgManifest } from './kwg-manifest.js';

const EN = ENGLISH.letters.map((l) => l.letter);
const ES = SPANISH.letters.map((l) => l.letter);

const build = (words: string[], alphabet = EN): Kwg => {
  const r = buildKwg([...words].sort(), alphabet);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.kwg;
};
/** A path as letters, `@` for the direction switch (the notation of wolges' notes). */
const spell = (kwg: Kwg, tiles: number[]): string => tiles.map((t) => (t === 0 ? '@' : kwg.alphabet[t - 1])).join('');
const dawgWords = (kwg: Kwg): string[] => [...kwg.paths(kwg.dawgRoot)].map((p) => spell(kwg, p));
const gaddagPaths = (kwg: Kwg): string[] => [...kwg.paths(kwg.gaddagRoot)].map((p) => spell(kwg, p));

describe('buildKwg', () => {
  test('CARE is stored as ERAC, RAC@E, AC@RE, C@ARE (wolges details.txt) and the DAWG holds the word', () => {
    const kwg = build(['CARE']);
    expect(dawgWords(kwg)).toEqual(['CARE']);
    expect(gaddagPaths(kwg).sort()).toEqual(['AC@RE', 'C@ARE', 'ERAC', 'RAC@E']);
  });

  test('nodes 0 and 1 point at the DAWG and GADDAG roots, tile 0 and is_end set', () => {
    const kwg = build(['AA', 'AB']);
    for (const i of [0, 1]) {
      expect(kwg.nodes[i]! >>> 24).toBe(0);
      expect(kwg.nodes[i]! & KWG_IS_END).toBe(KWG_IS_END);
      expect(kwg.nodes[i]! & KWG_ACCEPTS).toBe(0);
    }
  });

  test('a list of words comes back whole from both graphs', () => {
    const words = ['CAT', 'CATS', 'DOG', 'DOGS', 'QI', 'ZA', 'AA', 'ZYZZYVA'];
    const kwg = build(words);
    expect(dawgWords(kwg)).toEqual([...words].sort());
    const expected = words.flatMap((w) => {
      const r = [...w].reverse().join('');
      return [r, ...Array.from({ length: w.length - 1 }, (_, i) => `${r.slice(w.length - i - 1)}@${w.slice(i + 1)}`)];
    });
    expect(gaddagPaths(kwg).sort()).toEqual(expected.sort());
    for (const w of words) expect(kwg.hasTiles([...w].map((c) => EN.indexOf(c) + 1))).toBe(true);
    expect(kwg.hasTiles([...'CA'].map((c) => EN.indexOf(c) + 1))).toBe(false);
  });

  test('the minimised graph shares suffixes: CATS/DOGS end in the same list', () => {
    const kwg = build(['CATS', 'DOGS']);
    const after = (w: string): number => {
      let list = kwg.dawgRoot;
      for (const c of w) list = kwg.nodes[kwg.findArc(list, EN.indexOf(c) + 1)]! & 0x3fffff;
      return list;
    };
    expect(after('CAT')).toBe(after('DOG'));
  });

  test('a digraph word is stored under each way it splits into tiles; letters outside the alphabet drop the word', () => {
    expect(tileSpellings('CHICO', ES).map((s) => [...s].map((c) => ES[c.charCodeAt(0) - 1]).join('·'))).toEqual(['C·H·I·C·O', 'CH·I·C·O']);
    const r = buildKwg(['CHICO', 'QUARK'], ES);
    expect(r.ok && r.value.unspellable).toBe(1);
    const kwg = r.ok ? r.value.kwg : build([]);
    expect([...kwg.paths(kwg.dawgRoot)].length).toBe(2);
  });
});

describe('encodeKwg / decodeKwg', () => {
  test('round trip keeps every node; aligned bytes are wrapped, not copied', () => {
    const kwg = build(['CARE', 'CARES', 'RACE']);
    const bytes = encodeKwg(kwg);
    expect(bytes.length).toBe(4 * kwg.nodes.length);
    const back = decodeKwg(bytes, EN);
    expect(back.ok && [...back.value.nodes]).toEqual([...kwg.nodes]);
    expect(back.ok && back.value.nodes.buffer).toBe(bytes.buffer);
  });

  test('with the digest its manifest records, the bytes are checked by SHA-256; a changed byte is refused', () => {
    const bytes = encodeKwg(build(['CARE', 'RACE']));
    const sha256 = kwgDigest(bytes);
    expect(decodeKwg(bytes, EN, { sha256 }).ok).toBe(true);
    const changed = bytes.slice();
    changed[9]! ^= 1;
    const r = decodeKwg(changed, EN, { sha256 });
    expect(!r.ok && r.error.code).toBe('LEXICON_CORRUPT');
  });

  test('reads a KWG written by hand from the format description (DAWG of AB, GADDAG BA, A@B)', () => {
    const node = (tile: number, accepts: boolean, end: boolean, arc: number): number =>
      ((tile << 24) | (accepts ? KWG_ACCEPTS : 0) | (end ? KWG_IS_END : 0) | arc) >>> 0;
    const nodes = [
      node(0, false, true, 2), // DAWG root pointer
      node(0, false, true, 4), // GADDAG root pointer
      node(1, false, true, 3), // DAWG: A
      node(2, true, true, 0), //        B (accepts AB)
      node(1, false, false, 6), // GADDAG: A …
      node(2, false, true, 7), //          B …
      node(0, false, true, 3), // A → @ → the DAWG's B list
      node(1, true, true, 0), // B → A (accepts BA = reversed AB)
    ];
    const bytes = new Uint8Array(new Uint32Array(nodes).buffer);
    const r = decodeKwg(bytes, EN);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(dawgWords(r.value)).toEqual(['AB']);
    expect(gaddagPaths(r.value).sort()).toEqual(['A@B', 'BA']);
    expect([...build(['AB']).nodes]).toHaveLength(nodes.length);
  });

  test.each([
    ['not whole nodes', new Uint8Array(10), 'LEXICON_TRUNCATED'],
    ['fewer than two nodes', new Uint8Array(4), 'LEXICON_TRUNCATED'],
    [
      'an arc past the end',
      new Uint8Array(new Uint32Array([KWG_IS_END | 2, KWG_IS_END | 9, (1 << 24) | KWG_IS_END]).buffer),
      'LEXICON_CORRUPT',
    ],
    [
      'a tile outside the alphabet',
      new Uint8Array(new Uint32Array([KWG_IS_END | 2, KWG_IS_END, (40 << 24) | KWG_IS_END]).buffer),
      'LEXICON_CORRUPT',
    ],
    [
      'siblings out of order',
      new Uint8Array(new Uint32Array([KWG_IS_END | 2, KWG_IS_END, 3 << 24, (2 << 24) | KWG_IS_END]).buffer),
      'LEXICON_CORRUPT',
    ],
    ['a last node not closing its list', new Uint8Array(new Uint32Array([KWG_IS_END | 2, KWG_IS_END, 3 << 24]).buffer), 'LEXICON_CORRUPT'],
  ])('%s → %s', (_, bytes, code) => {
    const r = decodeKwg(bytes, EN);
    expect(!r.ok && r.error.code).toBe(code);
  });
});

describe('KWG manifest', () => {
  const manifest = {
    format: KWG_MANIFEST_FORMAT,
    name: 'SMALL',
    hash: `sha256:${'0'.repeat(64)}`,
    wordCount: 3,
    distribution: 'english',
    alphabet: EN,
    unspellable: 0,
    nodes: 12,
  } as const;
  test('round trip', () => expect(parseKwgManifest(formatKwgManifest(manifest))).toEqual({ ok: true, value: manifest }));
  test.each([
    ['not JSON', '{', 'it is not JSON'],
    ['another format', JSON.stringify({ ...manifest, format: 'x' }), '"format"'],
    ['a bad hash', JSON.stringify({ ...manifest, hash: 'md5:1' }), '"hash"'],
    ['an empty alphabet', JSON.stringify({ ...manifest, alphabet: [] }), '"alphabet"'],
  ])('%s is refused', (_, text, why) => {
    const r = parseKwgManifest(text);
    expect(!r.ok && r.error.code).toBe('LEXICON_BAD_HEADER');
    expect(!r.ok && r.error.message).toContain(why);
  });
});
