/**
 * Letter distributions as data. A tile's `letter` is its face as written in notation: one character
 * (`A`, `Ñ`) or several for digraph tiles (`CH`, `LL`, `RR`, `L·L`), which notation writes in
 * brackets (`[CH]`). The blank is `?` and is never listed as a letter.
 */
import type { Distribution } from './tiles/spec.js';
import { ENGLISH, ENGLISH_SUPER } from './tiles/english.js';
import { SPANISH } from './tiles/spanish.js';
import { FRENCH } from './tiles/french.js';
import { GERMAN } from './tiles/german.js';
import { CATALAN } from './tiles/catalan.js';
import { POLISH } from './tiles/polish.js';
import { NORWEGIAN } from './tiles/norwegian.js';
import { DUTCH } from './tiles/dutch.js';
import { SLOVENE } from './tiles/slovene.js';
import { ITALIAN } from './tiles/italian.js';

export const BLANK = '?';

export type { Distribution, TileKind } from './tiles/spec.js';
export { ENGLISH, ENGLISH_SUPER } from './tiles/english.js';
export { SPANISH } from './tiles/spanish.js';
export { FRENCH } from './tiles/french.js';
export { GERMAN } from './tiles/german.js';
export { CATALAN } from './tiles/catalan.js';
export { POLISH } from './tiles/polish.js';
export { NORWEGIAN } from './tiles/norwegian.js';
export { DUTCH } from './tiles/dutch.js';
export { SLOVENE } from './tiles/slovene.js';
export { ITALIAN } from './tiles/italian.js';

/** Every tile set by id, in the order the API lists them (the data modules of `tiles/` cite their sources). */
export const DISTRIBUTIONS: Readonly<Record<string, Distribution>> = Object.fromEntries(
  [ENGLISH, ENGLISH_SUPER, SPANISH, FRENCH, GERMAN, CATALAN, POLISH, NORWEGIAN, DUTCH, SLOVENE, ITALIAN].map((d) => [d.name, d]),
);

/** Other spellings of set ids seen in records and tools (wolges `super_english`, `slovenian`, hyphens). */
const ALIASES: Readonly<Record<string, string>> = {
  super_english: 'english_super',
  englishsuper: 'english_super',
  slovenian: 'slovene',
  norsk: 'norwegian',
  bokmal: 'norwegian',
};

/** The set a name stands for, case and `-`/`_` aside (`English-Super`, `SLOVENIAN`), or undefined. */
export const distributionNamed = (name: string): Distribution | undefined => {
  const key = name.trim().toLowerCase().replace(/-/g, '_');
  return DISTRIBUTIONS[key] ?? DISTRIBUTIONS[ALIASES[key] ?? ''];
};

/** How a blank standing for a tile is written: the face in lower case (`a`, `ł`, `ch`, `l·l`). */
export const blankFace = (letter: string): string => letter.toLowerCase();

/** Face value of a tile; blanks (written lowercase or `?`) score 0 (seed-003 scoring 6). */
export const tileScore = (dist: Distribution, letter: string, blank: boolean): number => {
  if (blank) return 0;
  return scoreTable(dist).get(letter) ?? 0;
};

const scoreTables = new WeakMap<Distribution, Map<string, number>>();
/** Letter → score, cached per distribution because scoring looks it up on every square. */
export const scoreTable = (dist: Distribution): ReadonlyMap<string, number> => {
  let t = scoreTables.get(dist);
  if (!t) {
    t = new Map(dist.letters.map((k) => [k.letter, k.score]));
    scoreTables.set(dist, t);
  }
  return t;
};

export const totalTiles = (dist: Distribution): number => dist.letters.reduce((n, k) => n + k.count, dist.blanks);

/** The full bag in a canonical order (letters in distribution order, then blanks). */
export const fullBag = (dist: Distribution): string[] => {
  const out: string[] = [];
  for (const k of dist.letters) for (let i = 0; i < k.count; i++) out.push(k.letter);
  for (let i = 0; i < dist.blanks; i++) out.push(BLANK);
  return out;
};

/**
 * Splits a rack or tile string into tiles: `[CH]` is one tile, `?` a blank, every other
 * character one tile. Returns `undefined` for an unclosed bracket.
 */
export const splitTiles = (s: string): string[] | undefined => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '[') {
      const j = s.indexOf(']', i + 1);
      if (j < 0 || j === i + 1) return undefined;
      out.push(s.slice(i + 1, j));
      i = j;
    } else {
      out.push(c);
    }
  }
  return out;
};

/** Writes tiles back as a string, bracketing multi-character tiles. */
export const joinTiles = (tiles: readonly string[]): string => tiles.map((t) => (t.length > 1 ? `[${t}]` : t)).join('');

/** Sum of face values of a rack (blanks 0); used for end-of-game adjustments. */
export const rackValue = (dist: Distribution, rack: readonly string[]): number =>
  rack.reduce((n, t) => n + (t === BLANK ? 0 : (scoreTable(dist).get(t) ?? 0)), 0);
