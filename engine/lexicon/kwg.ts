/**
 * The KWG (Kurnia Word Graph) format of wolges, also read by MAGPIE and Woogles: a flat little-endian
 * array of 32-bit nodes and nothing else (no header, no alphabet: tile numbers are defined by the
 * letter distribution the file was built for). Each node is one arc:
 *
 * | bits  | field                                                                                  |
 * |-------|----------------------------------------------------------------------------------------|
 * | 24–31 | tile: 1…63 the distribution's letters in order (English A=1 … Z=26); 0 is the GADDAG's direction switch |
 * | 23    | accepts: the path ending with this arc spells a word                                    |
 * | 22    | is_end: this arc is the last of its sibling list (siblings are sorted by tile)          |
 * | 0–21  | arc_index: the first arc of the list that follows this one, 0 = none                     |
 *
 * Node 0 points at the DAWG's root list and node 1 at the GADDAG's (both tile 0, is_end set). In
 * the GADDAG a word `CARE` is stored as `ERAC`, `RAC@E`, `AC@RE`, `C@ARE` (`@` = tile 0): the
 * reversed prefix up to some letter, the switch, then the rest; the whole reversal has no switch.
 * The lists after a switch are the DAWG's own suffix lists, so the DAWG costs one extra root.
 *
 * This module reads and writes the format and walks it; `kwg-build.ts` builds one from a word list.
 * Arbiter's own `.dawg` format (`dawg-file.ts`) is a different file with a header; a `.kwg` carries
 * no identity, so the lexicon's name, hash and alphabet travel beside it (`kwg-manifest.ts`).
 */
import { createHash } from 'node:crypto';
import { err, ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import { lexiconError } from './codes.js';

export const KWG_ARC_INDEX_MASK = 0x3f_ffff;
export const KWG_IS_END = 0x40_0000;
export const KWG_ACCEPTS = 0x80_0000;
export const KWG_TILE_SHIFT = 24;
/** Tile 0 in the GADDAG: the switch from leftwards to rightwards. */
export const KWG_SEPARATOR = 0;
/** Tiles are 1…63: a played blank sets bit 0x80 in the move generator, so letters stay below it. */
export const KWG_MAX_TILES = 63;
export const KWG_MAX_NODES = KWG_ARC_INDEX_MASK + 1;

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * A loaded KWG with the letters its tile numbers stand for (`alphabet[t - 1]` is tile `t`). The
 * walking helpers allocate nothing; the move generator reads `nodes` directly in its hot loop.
 */
export class Kwg {
  readonly nodes: Uint32Array;
  readonly alphabet: readonly string[];

  /** Trusts `nodes`: use {@link decodeKwg} or `buildKwg`, which check or construct them. */
  constructor(nodes: Uint32Array, alphabet: readonly string[]) {
    this.nodes = nodes;
    this.alphabet = alphabet;
  }

  get dawgRoot(): number {
    return this.nodes[0]! & KWG_ARC_INDEX_MASK;
  }

  get gaddagRoot(): number {
    return this.nodes.length > 1 ? this.nodes[1]! & KWG_ARC_INDEX_MASK : 0;
  }

  /** The arc for `tile` in the sibling list starting at `list`, or 0 (no list or no such tile). */
  findArc(list: number, tile: number): number {
    if (list === 0) return 0;
    const n = this.nodes;
    for (let i = list; ; i++) {
      const e = n[i]!;
      const t = e >>> KWG_TILE_SHIFT;
      if (t === tile) return i;
      if (t > tile || (e & KWG_IS_END) !== 0) return 0;
    }
  }

  /** Whether the DAWG holds this tile sequence. */
  hasTiles(tiles: ArrayLike<number>): boolean {
    let list = this.dawgRoot;
    for (let i = 0; i < tiles.length; i++) {
      const arc = this.findArc(list, tiles[i]!);
      if (arc === 0) return false;
      if (i === tiles.length - 1) return (this.nodes[arc]! & KWG_ACCEPTS) !== 0;
      list = this.nodes[arc]! & KWG_ARC_INDEX_MASK;
    }
    return false;
  }

  /** Every accepted path from a root list, as tile sequences in sorted order (tests, exports). */
  *paths(root: number): Generator<number[], void, undefined> {
    const n = this.nodes;
    const stack: number[] = root === 0 ? [] : [root];
    const path: number[] = [];
    while (stack.length > 0) {
      const depth = stack.length - 1;
      const e = n[stack[depth]!]!;
      path.length = depth;
      path.push(e >>> KWG_TILE_SHIFT);
      if ((e & KWG_ACCEPTS) !== 0) yield path.slice();
      const child = e & KWG_ARC_INDEX_MASK;
      if (child !== 0 && stack.length <= KWG_MAX_PATH) {
        stack.push(child);
        continue;
      }
      while (stack.length > 0) {
        const top = stack.length - 1;
        const a = stack[top]!;
        if ((n[a]! & KWG_IS_END) !== 0) stack.pop();
        else {
          stack[top] = a + 1;
          break;
        }
      }
    }
  }
}

/** No word is longer than this: it bounds every walk, so even a cyclic (corrupt) file cannot loop forever. */
const KWG_MAX_PATH = 256;

/**
 * Checks what every walk relies on, in one pass: each arc_index inside the array, each tile inside
 * the alphabet (tile 0 only in the GADDAG, where it is the switch), siblings in increasing tile
 * order, and the last node closing its list. Returns the first bad node, or -1.
 */
const firstBadNode = (nodes: Uint32Array, letters: number): number => {
  const n = nodes.length;
  if (n < 2) return n === 0 ? 0 : 1;
  for (let i = 0; i < 2; i++) if ((nodes[i]! & KWG_ARC_INDEX_MASK) >= n) return i;
  if ((nodes[n - 1]! & KWG_IS_END) === 0) return n - 1;
  let prev = -1;
  for (let i = 2; i < n; i++) {
    const e = nodes[i]!;
    const t = e >>> KWG_TILE_SHIFT;
    if (t > letters || t <= prev || (e & KWG_ARC_INDEX_MASK) >= n) return i;
    prev = (e & KWG_IS_END) !== 0 ? -1 : t;
  }
  return -1;
};

/** SHA-256 of a `.kwg` file's bytes, hex: what a manifest records so loading can skip the node check. */
export const kwgDigest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Reads a `.kwg` file: the bytes are wrapped, not copied, when they are 4-byte aligned (a file read
 * into its own buffer always is). `alphabet` names the tiles (the distribution the file was built for).
 * With `sha256` (from the manifest written beside a file Arbiter built) the bytes are checked against
 * it instead of node by node: the native digest takes a few milliseconds where the walk over a
 * million nodes takes tens in a cold process. A file from elsewhere gets the full check.
 */
export const decodeKwg = (bytes: Uint8Array, alphabet: readonly string[], options: { sha256?: string } = {}): Result<Kwg, RuleError> => {
  if (bytes.length % 4 !== 0 || bytes.length < 8) {
    return err(
      lexiconError('LEXICON_TRUNCATED', `A .kwg file is a whole number of 4-byte nodes, at least 2; this one has ${bytes.length} bytes.`, {
        bytes: bytes.length,
      }),
    );
  }
  if (alphabet.length > KWG_MAX_TILES) {
    return err(lexiconError('LEXICON_TOO_LARGE', `A KWG numbers at most ${KWG_MAX_TILES} tiles; the alphabet has ${alphabet.length}.`, {}));
  }
  const count = bytes.length / 4;
  let nodes: Uint32Array;
  if (LITTLE_ENDIAN_HOST && bytes.byteOffset % 4 === 0) nodes = new Uint32Array(bytes.buffer, bytes.byteOffset, count);
  else {
    nodes = new Uint32Array(count);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < count; i++) nodes[i] = view.getUint32(4 * i, true);
  }
  if (options.sha256 !== undefined) {
    if (kwgDigest(bytes) !== options.sha256) {
      return err(lexiconError('LEXICON_CORRUPT', 'The KWG does not match the SHA-256 its manifest records: rebuild it.', { nodes: count }));
    }
    return ok(new Kwg(nodes, alphabet));
  }
  const bad = firstBadNode(nodes, alphabet.length);
  if (bad >= 0) return err(lexiconError('LEXICON_CORRUPT', `The KWG is corrupt at node ${bad}.`, { node: bad, nodes: count }));
  return ok(new Kwg(nodes, alphabet));
};

/** Writes the nodes as a `.kwg` file (little-endian). */
export const encodeKwg = (kwg: Kwg): Uint8Array => {
  const n = kwg.nodes;
  if (LITTLE_ENDIAN_HOST) return new Uint8Array(n.buffer.slice(n.byteOffset, n.byteOffset + 4 * n.length));
  const bytes = new Uint8Array(4 * n.length);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n.length; i++) view.setUint32(4 * i, n[i]!, true);
  return bytes;
};
