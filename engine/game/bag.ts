import { createHash, createHmac } from 'node:crypto';

/**
 * The provably fair bag (issue 3). The server picks a secret seed, commits to `sha256(seed)` when the
 * game is created and reveals the seed when it ends. The bag itself is never shuffled or stored in
 * order: it is a multiset kept in canonical order, and draw number `n` (counting every tile drawn in
 * the game) takes the tile at index `HMAC-SHA256(seed, "draw:" + n) mod bagSize`. Tiles returned to
 * the bag (exchanges, challenged-off draws) simply rejoin the multiset, so every draw can be
 * re-derived from the seed and the public event log (`verifyDraws` in `verify.ts`).
 */

/** The commitment published in `game-created`: lowercase hex SHA-256 of the UTF-8 seed. */
export const commitment = (seed: string): string => createHash('sha256').update(seed, 'utf8').digest('hex');

/**
 * Index in `[0, size)` for draw number `counter`. 48 bits of the HMAC reduced modulo `size`
 * (size ≤ 200): the bias is below 2⁻⁴⁰, far under anything a player could detect.
 */
export const drawIndex = (seed: string, counter: number, size: number): number => {
  if (size <= 0 || !Number.isInteger(size)) throw new Error(`drawIndex: bag size ${size} is not a positive integer`);
  const mac = createHmac('sha256', seed).update(`draw:${counter}`, 'utf8').digest();
  return mac.readUIntBE(0, 6) % size;
};

/**
 * Draws `count` tiles (or all that are left) from a canonically sorted bag, starting at draw number
 * `counter`. Returns the tiles in draw order and the bag after.
 */
export const drawTiles = (seed: string, counter: number, bag: readonly string[], count: number): { tiles: string[]; bag: string[] } => {
  const rest = bag.slice();
  const tiles: string[] = [];
  for (let i = 0; i < count && rest.length > 0; i++) {
    const at = drawIndex(seed, counter + i, rest.length);
    tiles.push(rest[at]!);
    rest.splice(at, 1);
  }
  return { tiles, bag: rest };
};
