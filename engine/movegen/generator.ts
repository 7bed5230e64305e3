/**
 * The all-plays generator: Gordon's GADDAG algorithm ("A Faster Scrabble Move Generation
 * Algorithm", 1994) over a KWG, lane by lane (`lanes.ts`).
 *
 * From each anchor the generator walks the GADDAG leftwards (placing rack tiles on empty squares,
 * following board tiles), and at the direction switch goes on rightwards from just past the anchor.
 * Every play covers at least one anchor; it is generated from the leftmost one it covers only (the
 * leftward walk never steps onto the previous anchor of the lane), so no play comes out twice. A
 * one-tile play forms a word both ways or only down: it is kept in the across pass when its across
 * word has two or more letters, else in the down pass, so it too comes out once.
 *
 * Scores are computed on the way (main word letter sum × word multiplier, plus each cross word, plus
 * the bingo bonus): the same arithmetic as `scoring.ts` (seed-003 scoring 1–8), which the tests check
 * play by play against `scorePlacements`. Equity is the score plus the leave's value, looked up by
 * the index of the tiles kept, which the walk keeps up to date (`leave.ts`).
 */
import type { Lanes, LaneView } from './lanes.js';
import type { MoveList } from './move-list.js';
import type { AnchorBounds } from './shadow.js';

import { HOT_CONSTANTS } from './hot-constants.js';

// Module-local copies (see hot-constants.ts for why).
const { KWG_ACCEPTS, KWG_ARC_INDEX_MASK, KWG_IS_END, KWG_TILE_SHIFT, BLANK_BIT, TILE_SLOTS, MOVE_PLAY } = HOT_CONSTANTS;

/** What one generation run needs besides the lanes. */
export interface GenerationInput {
  readonly nodes: Uint32Array;
  readonly gaddagRoot: number;
  readonly faces: Int32Array;
  /** Rack counts by tile number, slot 0 = blanks. Restored when the run ends. */
  readonly rack: Uint8Array;
  readonly bingoBonus: number;
  readonly rackSize: number;
  /** Leave index step per tile number (slot 0 = blank) and the index of the whole rack. */
  readonly leaveRadix: Int32Array;
  readonly fullLeave: number;
  /** Equity added to a play's score, by leave index. */
  readonly leaveValues: Float64Array;
}

export class PlayGenerator {
  private readonly n: number;
  private readonly strip: Uint8Array;
  // Per-run state, kept in fields so the recursion passes only what changes.
  private nodes: Uint32Array = new Uint32Array(0);
  private faces: Int32Array = new Int32Array(TILE_SLOTS);
  private rack: Uint8Array = new Uint8Array(TILE_SLOTS);
  private radix: Int32Array = new Int32Array(TILE_SLOTS);
  private values: Float64Array = new Float64Array(0);
  private view!: LaneView;
  private out!: MoveList;
  private rackTotal = 0;
  private rackSize = 7;
  private bingo = 50;
  private dir = 0;
  private lane = 0;
  private base = 0;
  private anchor = 0;
  private lastAnchor = -1;
  private anchorOpenRight = false;
  private left = 0;
  private leaveIdx = 0;
  /** Down pass: one-tile plays at this anchor are the across pass's (they form an across word). */
  private singleBelongsAcross = false;
  private root = 0;
  /** Set during `runBest`: which key ranks plays, and the best key so far. */
  private best: { readonly byScore: boolean; key: number } | null = null;
  private anchorKey = 0;
  private readonly tieAnchors: number[] = [];

  constructor(n: number) {
    this.n = n;
    this.strip = new Uint8Array(n);
  }

  /** Appends every play of the position to `out`. */
  run(lanes: Lanes, input: GenerationInput, out: MoveList): void {
    if (!this.start(input, out)) return;
    for (let dir = 0; dir < 2; dir++) {
      this.dir = dir;
      this.view = dir === 0 ? lanes.across : lanes.down;
      for (let lane = 0; lane < this.n; lane++) {
        this.enterLane(lane);
        for (let i = 0; i < this.n; i++) {
          if (this.view.anchor[this.base + i] === 0) continue;
          this.walkAnchor(i);
          this.lastAnchor = i;
        }
      }
    }
  }

  /**
   * Leaves in `out` only the best plays of the position — by equity, or by score when `byScore` —
   * that reach `floor`: every play of that best key, none other. Anchors are walked from the highest
   * bound of `bounds` (filled by `shadow.ts` for this position) down, and the walk stops once the best
   * key found is above the next anchor's bound (above, not equal: so no play tying the best is
   * missed). Returns, for each play kept, its anchor's place in board order (direction, lane, square):
   * plays sorted by it, stably, come in the order `run` lists them.
   */
  runBest(lanes: Lanes, input: GenerationInput, out: MoveList, bounds: AnchorBounds, byScore: boolean, floor: number): number[] {
    this.tieAnchors.length = 0;
    if (!this.start(input, out)) return this.tieAnchors;
    const order = Array.from({ length: bounds.count }, (_, a) => a).sort((a, b) => bounds.bound[b]! - bounds.bound[a]!);
    this.best = { byScore, key: floor };
    for (const a of order) {
      if (this.best.key > bounds.bound[a]!) break;
      this.dir = bounds.dir[a]!;
      this.view = this.dir === 0 ? lanes.across : lanes.down;
      this.enterLane(bounds.lane[a]!);
      this.lastAnchor = bounds.previous[a]!;
      this.anchorKey = a;
      this.walkAnchor(bounds.square[a]!);
    }
    this.best = null;
    return [...this.tieAnchors];
  }

  /** Takes in a run's input; false when the rack is empty (no play). */
  private start(input: GenerationInput, out: MoveList): boolean {
    this.nodes = input.nodes;
    this.root = input.gaddagRoot;
    this.faces = input.faces;
    this.rack = input.rack;
    this.radix = input.leaveRadix;
    this.values = input.leaveValues;
    this.bingo = input.bingoBonus;
    this.rackSize = input.rackSize;
    this.out = out;
    this.leaveIdx = input.fullLeave;
    let total = 0;
    for (let t = 0; t < TILE_SLOTS; t++) total += input.rack[t]!;
    this.rackTotal = total;
    return total > 0;
  }

  private enterLane(lane: number): void {
    this.lane = lane;
    this.base = lane * this.n;
    this.lastAnchor = -1;
  }

  /** Every play from anchor square `i` of the current lane (`lastAnchor` set to the lane's previous anchor). */
  private walkAnchor(i: number): void {
    this.anchor = i;
    this.anchorOpenRight = i === this.n - 1 || this.view.tiles[this.base + i + 1] === 0;
    this.singleBelongsAcross = this.dir === 1 && this.view.hasCross[this.base + i] === 1;
    this.gen(i, this.root, 0, 1, 0, 0);
  }

  /** Square `col` of the lane, with `list` the GADDAG sibling list to continue from. */
  private gen(col: number, list: number, main: number, wordMul: number, cross: number, played: number): void {
    const v = this.view;
    const li = this.base + col;
    const onBoard = v.tiles[li]!;
    const nodes = this.nodes;
    if (onBoard !== 0) {
      const letter = onBoard & ~BLANK_BIT;
      for (let i = list; ; i++) {
        const e = nodes[i]!;
        const t = e >>> KWG_TILE_SHIFT;
        if (t === letter) {
          this.strip[col] = 0;
          const face = (onBoard & BLANK_BIT) !== 0 ? 0 : this.faces[letter]!;
          this.goOn(col, e, main + face, wordMul, cross, played);
          return;
        }
        if (t > letter || (e & KWG_IS_END) !== 0) return;
      }
    }
    if (played === this.rackTotal) return;
    const crossBase = v.crossSet[li]! * TILE_SLOTS;
    const lm = v.letterMul[li]!;
    const wm = v.wordMul[li]!;
    const hasCross = v.hasCross[li] === 1;
    const crossScore = v.crossScore[li]!;
    const rack = this.rack;
    const blanks = rack[0]! > 0;
    const sets = v.cross;
    for (let i = list; ; i++) {
      const e = nodes[i]!;
      const t = e >>> KWG_TILE_SHIFT;
      // Set 0 allows every letter, so most squares skip the cross-set lookup.
      if (t !== 0 && (blanks || rack[t]! > 0) && (crossBase === 0 || sets[crossBase + t] === 1)) {
        if (rack[t]! > 0) {
          const value = this.faces[t]! * lm;
          this.place(col, t, t, e, main + value, wordMul * wm, hasCross ? cross + (crossScore + value) * wm : cross, played);
        }
        if (blanks) this.place(col, 0, t | BLANK_BIT, e, main, wordMul * wm, hasCross ? cross + crossScore * wm : cross, played);
      }
      if ((e & KWG_IS_END) !== 0) return;
    }
  }

  /** Takes `slot` (a tile number, 0 = blank) off the rack, puts `face` on the square, goes on, and undoes it. */
  private place(col: number, slot: number, face: number, arc: number, main: number, wordMul: number, cross: number, played: number): void {
    this.rack[slot]!--;
    const step = this.radix[slot]!;
    this.leaveIdx -= step;
    this.strip[col] = face;
    this.goOn(col, arc, main, wordMul, cross, played + 1);
    this.leaveIdx += step;
    this.rack[slot]!++;
  }

  private goOn(col: number, arc: number, main: number, wordMul: number, cross: number, played: number): void {
    const v = this.view;
    const child = arc & KWG_ARC_INDEX_MASK;
    if (col <= this.anchor) {
      const openLeft = col === 0 || v.tiles[this.base + col - 1] === 0;
      if (openLeft && this.anchorOpenRight && col < this.anchor && (arc & KWG_ACCEPTS) !== 0)
        this.record(col, this.anchor, main, wordMul, cross, played);
      if (child === 0) return;
      if (col > 0 && col - 1 !== this.lastAnchor) this.gen(col - 1, child, main, wordMul, cross, played);
      // The direction switch (tile 0) sorts first in a sibling list.
      const sep = this.nodes[child]!;
      if (openLeft && this.anchor < this.n - 1 && sep >>> KWG_TILE_SHIFT === 0 && (sep & KWG_ARC_INDEX_MASK) !== 0) {
        this.left = col;
        this.gen(this.anchor + 1, sep & KWG_ARC_INDEX_MASK, main, wordMul, cross, played);
      }
      return;
    }
    const openRight = col === this.n - 1 || v.tiles[this.base + col + 1] === 0;
    if (openRight && (arc & KWG_ACCEPTS) !== 0) this.record(this.left, col, main, wordMul, cross, played);
    if (child !== 0 && col < this.n - 1) {
      const left = this.left;
      this.gen(col + 1, child, main, wordMul, cross, played);
      this.left = left;
    }
  }

  private record(from: number, to: number, main: number, wordMul: number, cross: number, played: number): void {
    if (played === 1 && this.singleBelongsAcross) return;
    const out = this.out;
    const score = main * wordMul + cross + (played >= this.rackSize ? this.bingo : 0);
    const equity = score + this.values[this.leaveIdx]!;
    const best = this.best;
    if (best !== null) {
      const key = best.byScore ? score : equity;
      if (key < best.key) return;
      if (key > best.key) {
        best.key = key;
        out.clear();
        this.tieAnchors.length = 0;
      }
      this.tieAnchors.push(this.anchorKey);
    }
    const m = out.push();
    out.kind[m] = MOVE_PLAY;
    out.dir[m] = this.dir;
    out.lane[m] = this.lane;
    out.start[m] = from;
    out.length[m] = to - from + 1;
    out.played[m] = played;
    out.score[m] = score;
    out.leave[m] = this.leaveIdx;
    out.equity[m] = equity;
    const tiles = out.tiles;
    const strip = this.strip;
    for (let i = from, at = m * out.width; i <= to; i++, at++) tiles[at] = strip[i]!;
  }
}
