/**
 * The board as the generator reads it: for each direction, lane by lane (rows for across plays,
 * columns for down plays) in flat typed arrays, with what the perpendicular words allow on each
 * empty square (the cross-set: which tiles form a word there), what they score (the cross-score),
 * and the anchors (empty squares next to a tile, or the centre on an empty board). Standard since
 * Appel & Jacobson (1988); cross-sets are read from the KWG's DAWG.
 */
import { isBricked, premiumAt, startSquare, type Board, type Layout } from '../board.js';
import { HOT_CONSTANTS } from './hot-constants.js';
import { tileNumber, type TileCodec } from './tile-codec.js';

// Module-local copies (see hot-constants.ts for why).
const { KWG_ACCEPTS, KWG_ARC_INDEX_MASK, KWG_IS_END, KWG_TILE_SHIFT, BLANK_BIT, TILE_SLOTS } = HOT_CONSTANTS;

/** One direction's view of the board; index `lane * n + i` is square `i` of lane `lane`. */
export interface LaneView {
  /** Board tile (KWG number, {@link BLANK_BIT} for a blank), 0 = empty. */
  readonly tiles: Uint8Array;
  /**
   * Cross-sets, `TILE_SLOTS` bytes each (1 where that tile may be placed as far as the perpendicular
   * word goes); set 0 allows every letter. `crossSet[li]` says which set a square uses.
   */
  readonly cross: Uint8Array;
  readonly crossSet: Uint16Array;
  /** 1 where a perpendicular word is formed by placing a tile here. */
  readonly hasCross: Uint8Array;
  /** Face values of the perpendicular tiles the square joins. */
  readonly crossScore: Int32Array;
  readonly letterMul: Uint8Array;
  readonly wordMul: Uint8Array;
  readonly anchor: Uint8Array;
}

export interface Lanes {
  readonly n: number;
  readonly across: LaneView;
  readonly down: LaneView;
}

interface SquareTable {
  readonly letter: Uint8Array;
  readonly word: Uint8Array;
  /** 1 on a bricked square (issue 21): it takes no tile, so its cross-set is the empty one. */
  readonly bricked: Uint8Array;
}
const premiumTables = new WeakMap<Layout, SquareTable>();
/** Premiums and bricked squares by board square, cached per layout. */
const premiums = (layout: Layout): SquareTable => {
  let p = premiumTables.get(layout);
  if (p) return p;
  const n = layout.rows.length;
  p = { letter: new Uint8Array(n * n), word: new Uint8Array(n * n), bricked: new Uint8Array(n * n) };
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const m = premiumAt(layout, r, c);
      p.letter[r * n + c] = m.letter;
      p.word[r * n + c] = m.word;
      p.bricked[r * n + c] = isBricked(layout, r, c) ? 1 : 0;
    }
  premiumTables.set(layout, p);
  return p;
};

const newView = (n: number): LaneView => ({
  tiles: new Uint8Array(n * n),
  // Set 0 allows every tile, set 1 none (bricked squares), then one set per square with a perpendicular word.
  cross: new Uint8Array((n * n + 2) * TILE_SLOTS),
  crossSet: new Uint16Array(n * n),
  hasCross: new Uint8Array(n * n),
  crossScore: new Int32Array(n * n),
  letterMul: new Uint8Array(n * n),
  wordMul: new Uint8Array(n * n),
  anchor: new Uint8Array(n * n),
});

/** Reusable lane buffers for one board size (the generator keeps one set and refills it per position). */
export const newLanes = (n: number): Lanes => ({ n, across: newView(n), down: newView(n) });

/** Board tiles by square in KWG numbers. */
const boardTiles = (board: Board, codec: TileCodec, out: Uint8Array): void => {
  const cells = board.cells;
  for (let i = 0; i < cells.length; i++) {
    const t = cells[i];
    out[i] = t ? tileNumber(codec, t.letter) | (t.blank ? BLANK_BIT : 0) : 0;
  }
};

/**
 * Tiles that complete the perpendicular word `before · x · after` (lists of tiles in reading order),
 * written into `cross` at `base`; walks the DAWG once for `before`, then `after` from each candidate.
 */
const fillCrossSet = (nodes: Uint32Array, dawgRoot: number, before: number[], after: number[], cross: Uint8Array, base: number): void => {
  let list = dawgRoot;
  for (const t of before) {
    list = childOf(nodes, list, t & ~BLANK_BIT);
    if (list === 0) return;
  }
  for (let i = list; ; i++) {
    const e = nodes[i]!;
    if (completes(nodes, e, after)) cross[base + (e >>> KWG_TILE_SHIFT)] = 1;
    if ((e & KWG_IS_END) !== 0) return;
  }
};

/** The child list of the arc for `tile` in `list`, or 0 (no such arc, or it has no children). */
const childOf = (nodes: Uint32Array, list: number, tile: number): number => {
  if (list === 0) return 0;
  for (let i = list; ; i++) {
    const e = nodes[i]!;
    const t = e >>> KWG_TILE_SHIFT;
    if (t === tile) return e & KWG_ARC_INDEX_MASK;
    if (t > tile || (e & KWG_IS_END) !== 0) return 0;
  }
};

/** Whether following `after` from the arc `arc` ends on an accepting arc. */
const completes = (nodes: Uint32Array, arc: number, after: readonly number[]): boolean => {
  let e = arc;
  for (const t of after) {
    const list = e & KWG_ARC_INDEX_MASK;
    if (list === 0) return false;
    let found = 0;
    for (let i = list; ; i++) {
      const f = nodes[i]!;
      const ft = f >>> KWG_TILE_SHIFT;
      if (ft === (t & ~BLANK_BIT)) found = f;
      if (ft >= (t & ~BLANK_BIT) || (f & KWG_IS_END) !== 0) break;
    }
    if (found === 0) return false;
    e = found;
  }
  return (e & KWG_ACCEPTS) !== 0;
};

/**
 * Fills one direction's view: lanes are rows (across) or columns (down); the perpendicular word
 * through a square runs along the other axis, `perp` squares apart.
 */
const fillView = (v: LaneView, sqTiles: Uint8Array, n: number, down: boolean, codec: TileCodec, layout: Layout, empty: boolean): void => {
  const prem = premiums(layout);
  const letters = codec.kwg.alphabet.length;
  const perp = down ? 1 : n;
  const start = startSquare(layout);
  const startSq = start.row * n + start.col;
  v.cross.fill(0, 0, 2 * TILE_SLOTS);
  v.cross.fill(1, 1, 1 + letters);
  let sets = 2;
  for (let lane = 0; lane < n; lane++)
    for (let i = 0; i < n; i++) {
      const li = lane * n + i;
      const sq = down ? i * n + lane : lane * n + i;
      const t = sqTiles[sq]!;
      v.tiles[li] = t;
      v.letterMul[li] = prem.letter[sq]!;
      v.wordMul[li] = prem.word[sq]!;
      v.crossSet[li] = 0;
      v.hasCross[li] = 0;
      v.crossScore[li] = 0;
      v.anchor[li] = empty && sq === startSq ? 1 : 0;
      if (t !== 0) continue;
      if (prem.bricked[sq] === 1) {
        v.anchor[li] = 0;
        v.hasCross[li] = 1;
        v.crossSet[li] = BRICKED_SET;
        continue;
      }
      // Along the perpendicular (a column for across lanes, a row for down lanes) the square sits at its lane's index.
      const p = lane;
      const hasBefore = p > 0 && sqTiles[sq - perp] !== 0;
      const hasAfter = p < n - 1 && sqTiles[sq + perp] !== 0;
      const alongBefore = i > 0 && v.tiles[li - 1] !== 0;
      const alongAfter = i < n - 1 && sqTiles[down ? sq + n : sq + 1] !== 0;
      if (alongBefore || alongAfter || hasBefore || hasAfter) v.anchor[li] = 1;
      if (!hasBefore && !hasAfter) continue;
      v.hasCross[li] = 1;
      v.crossSet[li] = sets;
      v.crossScore[li] = perpendicular(v.cross, sets * TILE_SLOTS, sqTiles, sq, p, perp, n, codec);
      sets++;
    }
};

/** The cross-set no tile belongs to: a bricked square's. */
const BRICKED_SET = 1;

const before: number[] = [];
const after: number[] = [];
/**
 * Reads the perpendicular tiles around empty square `sq` (at index `p` along the perpendicular),
 * writes the tiles that complete a word into the cross-set at `base`, and returns their face sum.
 */
const perpendicular = (
  cross: Uint8Array,
  base: number,
  sqTiles: Uint8Array,
  sq: number,
  p: number,
  perp: number,
  n: number,
  codec: TileCodec,
): number => {
  cross.fill(0, base, base + TILE_SLOTS);
  let score = 0;
  let k = p - 1;
  while (k >= 0 && sqTiles[sq + (k - p) * perp] !== 0) k--;
  before.length = 0;
  for (let j = k + 1; j < p; j++) before.push(sqTiles[sq + (j - p) * perp]!);
  after.length = 0;
  for (let j = p + 1; j < n && sqTiles[sq + (j - p) * perp] !== 0; j++) after.push(sqTiles[sq + (j - p) * perp]!);
  for (const x of before) score += (x & BLANK_BIT) !== 0 ? 0 : codec.faces[x]!;
  for (const x of after) score += (x & BLANK_BIT) !== 0 ? 0 : codec.faces[x]!;
  fillCrossSet(codec.kwg.nodes, codec.kwg.dawgRoot, before, after, cross, base);
  return score;
};

/** Refills `lanes` for a board (its size must match). */
export const prepareLanes = (lanes: Lanes, board: Board, codec: TileCodec, scratch: Uint8Array): void => {
  boardTiles(board, codec, scratch);
  const empty = board.tileCount === 0;
  fillView(lanes.across, scratch, lanes.n, false, codec, board.layout, empty);
  fillView(lanes.down, scratch, lanes.n, true, codec, board.layout, empty);
};
