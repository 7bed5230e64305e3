import type { Kwg } from '../lexicon/kwg.js';
import { BLANK, type Distribution } from '../tiles.js';

/** A played blank carries this bit over its letter's tile number (the KWG convention of wolges). */
export const BLANK_BIT = 0x80;
/** A letter of the distribution the KWG cannot spell: it matches no arc, so nothing plays through it. */
export const FOREIGN_TILE = 0x7f;
/** Tile numbers run 1…63; slot 0 of a rack count is the blank. */
export const TILE_SLOTS = 64;

/**
 * The bridge between the engine's letters (`'A'`, `'CH'`, `'?'`) and a KWG's tile numbers, with each
 * tile's face value in the distribution. The KWG's alphabet decides the numbers; the distribution
 * decides the values, so a lexicon built over English tiles serves the English super set too.
 */
export interface TileCodec {
  readonly kwg: Kwg;
  readonly distribution: Distribution;
  /** Face value by tile number (0 for tile 0, the blank, and foreign tiles). */
  readonly faces: Int32Array;
  readonly tileOf: ReadonlyMap<string, number>;
  /** Letter by tile number (index 0 is the blank `?`). */
  readonly letters: readonly string[];
  /** Vowel flag by tile number, from the distribution. */
  readonly vowels: Uint8Array;
}

const codecs = new WeakMap<Kwg, WeakMap<Distribution, TileCodec>>();

/** The codec of a KWG for a distribution (cached: positions of one game share it). */
export const tileCodec = (kwg: Kwg, distribution: Distribution): TileCodec => {
  let byDist = codecs.get(kwg);
  if (!byDist) codecs.set(kwg, (byDist = new WeakMap()));
  let c = byDist.get(distribution);
  if (c) return c;
  const faces = new Int32Array(TILE_SLOTS);
  const vowels = new Uint8Array(TILE_SLOTS);
  const tileOf = new Map<string, number>([[BLANK, 0]]);
  const letters: string[] = [BLANK];
  kwg.alphabet.forEach((letter, i) => {
    tileOf.set(letter, i + 1);
    letters[i + 1] = letter;
  });
  for (const k of distribution.letters) {
    const t = tileOf.get(k.letter);
    if (t === undefined) continue;
    faces[t] = k.score;
    vowels[t] = k.vowel ? 1 : 0;
  }
  c = { kwg, distribution, faces, tileOf, letters, vowels };
  byDist.set(distribution, c);
  return c;
};

/** Tile number of a letter on the board or rack; {@link FOREIGN_TILE} when the KWG has no such tile. */
export const tileNumber = (codec: TileCodec, letter: string): number => codec.tileOf.get(letter) ?? FOREIGN_TILE;
