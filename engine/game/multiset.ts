import { BLANK, type Distribution } from '../tiles.js';

/**
 * Tiles as sorted multisets. The bag is kept in the distribution's canonical order (letters in
 * distribution order, blanks last, as `fullBag`), so a seeded draw can name a tile by its index.
 */

const ranks = new WeakMap<Distribution, Map<string, number>>();
const rankTable = (dist: Distribution): Map<string, number> => {
  let t = ranks.get(dist);
  if (!t) {
    t = new Map(dist.letters.map((k, i) => [k.letter, i]));
    t.set(BLANK, dist.letters.length);
    ranks.set(dist, t);
  }
  return t;
};

/** Canonical position of a tile kind; unknown tiles sort last (they are rejected elsewhere). */
export const tileRank = (dist: Distribution, tile: string): number => rankTable(dist).get(tile) ?? Number.MAX_SAFE_INTEGER;

export const isKnownTile = (dist: Distribution, tile: string): boolean => rankTable(dist).has(tile);

/** A sorted copy in canonical order. */
export const canonical = (dist: Distribution, tiles: readonly string[]): string[] =>
  tiles.slice().sort((a, b) => tileRank(dist, a) - tileRank(dist, b) || (a < b ? -1 : a > b ? 1 : 0));

/** `from` minus `tiles` (multiset difference, order of `from` kept), or `null` if `tiles` is not contained. */
export const without = (from: readonly string[], tiles: readonly string[]): string[] | null => {
  const out = from.slice();
  for (const t of tiles) {
    const i = out.indexOf(t);
    if (i < 0) return null;
    out.splice(i, 1);
  }
  return out;
};

/** The tiles of `tiles` that `from` does not hold (with multiplicity); empty when contained. */
export const missingFrom = (from: readonly string[], tiles: readonly string[]): string[] => {
  const pool = from.slice();
  const missing: string[] = [];
  for (const t of tiles) {
    const i = pool.indexOf(t);
    if (i < 0) missing.push(t);
    else pool.splice(i, 1);
  }
  return missing;
};

/** Inserts tiles into a canonically sorted multiset, keeping it sorted. */
export const withAdded = (dist: Distribution, sorted: readonly string[], tiles: readonly string[]): string[] =>
  tiles.length === 0 ? sorted.slice() : canonical(dist, [...sorted, ...tiles]);

export const sameTiles = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && without(a, b)?.length === 0;
