/**
 * Letter distributions as data. A tile's `letter` is its face as written in notation: one character
 * (`A`, `Ñ`) or several for digraph tiles (`CH`, `LL`, `RR`, `L·L`), which notation writes in
 * brackets (`[CH]`). The blank is `?` and is never listed as a letter.
 */
export const BLANK = '?';

export interface TileKind {
  readonly letter: string;
  readonly count: number;
  readonly score: number;
  readonly vowel: boolean;
}

export interface Distribution {
  readonly name: string;
  readonly blanks: number;
  readonly letters: readonly TileKind[];
}

const rows = (spec: string): TileKind[] =>
  spec
    .trim()
    .split(/\s+/)
    .map((cell) => {
      const [letter, count, score, vowel] = cell.split(',');
      return { letter: letter!, count: Number(count), score: Number(score), vowel: vowel === 'v' };
    });

/** Standard English: 100 tiles, 2 blanks, 187 face points (reference/tiles-and-boards.md §5). */
export const ENGLISH: Distribution = {
  name: 'english',
  blanks: 2,
  letters: rows(`
    A,9,1,v B,2,3 C,2,3 D,4,2 E,12,1,v F,2,4 G,3,2 H,2,4 I,9,1,v J,1,8 K,1,5 L,4,1 M,2,3
    N,6,1 O,8,1,v P,2,3 Q,1,10 R,6,1 S,4,1 T,6,1 U,4,1,v V,2,4 W,2,4 X,1,8 Y,2,4 Z,1,10`),
};

/** English super set for the 21×21 board: 200 tiles, 4 blanks (macondo/liwords `english_super`). */
export const ENGLISH_SUPER: Distribution = {
  name: 'english_super',
  blanks: 4,
  letters: rows(`
    A,16,1,v B,4,3 C,6,3 D,8,2 E,24,1,v F,4,4 G,5,2 H,5,4 I,13,1,v J,2,8 K,2,5 L,7,1 M,6,3
    N,13,1 O,15,1,v P,4,3 Q,2,10 R,13,1 S,10,1 T,15,1 U,7,1,v V,3,4 W,4,4 X,2,8 Y,4,4 Z,2,10`),
};

/** Spanish: 100 tiles with the digraph tiles CH, LL and RR (macondo `spanish`). */
export const SPANISH: Distribution = {
  name: 'spanish',
  blanks: 2,
  letters: rows(`
    A,12,1,v B,2,3 C,4,3 CH,1,5 D,5,2 E,12,1,v F,1,4 G,2,2 H,2,4 I,6,1,v J,1,8 L,4,1 LL,1,8
    M,2,3 N,5,1 Ñ,1,8 O,9,1,v P,2,3 Q,1,5 R,5,1 RR,1,8 S,6,1 T,4,1 U,5,1,v V,1,4 X,1,8 Y,1,4 Z,1,10`),
};

export const DISTRIBUTIONS: Readonly<Record<string, Distribution>> = {
  english: ENGLISH,
  english_super: ENGLISH_SUPER,
  spanish: SPANISH,
};

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
