/**
 * Upper bounds on what a play through each anchor can be worth, before walking it: the "shadow"
 * pass of wolges and MAGPIE, here in its plain form. The best-move search (`generator.ts`,
 * `runBest`) walks anchors from the highest bound down and stops once the best move found beats the
 * next bound, so a robot that wants one move skips most of the board.
 *
 * A play from anchor `i` covers a run of squares `[from, to]` with `from` past the lane's previous
 * anchor (the walk never steps onto it), both ends open (an edge or an empty square beyond), every
 * empty square in it able to take some rack tile (its cross-set meets the rack). For each such run
 * the score is `through × W + crossFixed + Σ face_j × eff_j + bingo`, where `W` is the product of
 * the word premiums of the empty squares, `crossFixed` the perpendicular words' tiles times their
 * square's word premium, and `eff_j = letter_j × W + (letter_j × word_j if the square forms a
 * perpendicular word)` the weight of the tile placed on empty square j — the arithmetic of
 * `generator.ts` regrouped. Whichever tiles go where, `Σ face × eff` is at most the sum of the k
 * largest rack faces paired with the k largest weights in order (the rearrangement inequality), and
 * at most `Σ eff_j × (largest face the square's cross-set lets the rack put there)`; the bound takes
 * the smaller. Equity adds the best value of any leave of the rack's size minus k. Words are not
 * looked up, so a bound may be reached by no play at all: it is never below a play's equity, which
 * is all the search needs.
 */
import type { Lanes, LaneView } from './lanes.js';

import { HOT_CONSTANTS } from './hot-constants.js';

// Module-local copies (see hot-constants.ts for why).
const { BLANK_BIT, TILE_SLOTS } = HOT_CONSTANTS;

/** What the bounds depend on besides the board. */
export interface ShadowInput {
  readonly faces: Int32Array;
  /** Rack counts by tile number, slot 0 = blanks. */
  readonly rack: Uint8Array;
  readonly rackSize: number;
  readonly bingoBonus: number;
  /** Best leave value after playing k tiles, by k (all 0 for a search by score). */
  readonly bestLeave: Float64Array;
}

/** Anchors of both directions with their bounds, in board order (direction, lane, square). */
export interface AnchorBounds {
  count: number;
  readonly dir: Uint8Array;
  readonly lane: Uint8Array;
  readonly square: Uint8Array;
  /** The lane's previous anchor (−1 if none): a play from this anchor starts after it. */
  readonly previous: Int16Array;
  readonly bound: Float64Array;
}

export const newAnchorBounds = (n: number): AnchorBounds => ({
  count: 0,
  dir: new Uint8Array(2 * n * n),
  lane: new Uint8Array(2 * n * n),
  square: new Uint8Array(2 * n * n),
  previous: new Int16Array(2 * n * n),
  bound: new Float64Array(2 * n * n),
});

/** Per-run scratch: the rack's faces sorted high to low, and per square the largest face it can take (−1: none). */
interface Scratch {
  readonly faceDesc: Int32Array;
  readonly cap: Int32Array;
  readonly eff: Int32Array;
  tiles: number;
}

const scratches = new Map<number, Scratch>();
const scratchFor = (n: number): Scratch => {
  let s = scratches.get(n);
  if (!s) scratches.set(n, (s = { faceDesc: new Int32Array(256), cap: new Int32Array(n * n), eff: new Int32Array(n), tiles: 0 }));
  return s;
};

/** Fills `out` with every anchor of the position and its bound; anchors no play can use get −Infinity. */
export const shadowBounds = (lanes: Lanes, input: ShadowInput, out: AnchorBounds): void => {
  const n = lanes.n;
  const s = scratchFor(n);
  sortedFaces(input, s);
  out.count = 0;
  for (let dir = 0; dir < 2; dir++) {
    const v = dir === 0 ? lanes.across : lanes.down;
    fillCaps(v, input, n, s.cap);
    for (let lane = 0; lane < n; lane++) {
      let previous = -1;
      for (let i = 0; i < n; i++) {
        if (v.anchor[lane * n + i] === 0) continue;
        const a = out.count++;
        out.dir[a] = dir;
        out.lane[a] = lane;
        out.square[a] = i;
        out.previous[a] = previous;
        out.bound[a] = anchorBound(v, input, s, n, lane * n, i, previous);
        previous = i;
      }
    }
  }
};

const sortedFaces = (input: ShadowInput, s: Scratch): void => {
  let k = 0;
  for (let t = 0; t < TILE_SLOTS; t++) for (let c = input.rack[t]!; c > 0; c--) s.faceDesc[k++] = t === 0 ? 0 : input.faces[t]!;
  s.faceDesc.subarray(0, k).sort().reverse();
  s.tiles = k;
};

/** Per square of one direction: the largest face of a rack tile its cross-set allows (a blank counts 0), −1 if none. */
const fillCaps = (v: LaneView, input: ShadowInput, n: number, cap: Int32Array): void => {
  const { rack, faces } = input;
  const blanks = rack[0]! > 0;
  for (let li = 0; li < n * n; li++) {
    if (v.tiles[li] !== 0) continue;
    const base = v.crossSet[li]! * TILE_SLOTS;
    let best = -1;
    for (let t = 1; t < TILE_SLOTS; t++) {
      if (v.cross[base + t] !== 1) continue;
      if (rack[t]! > 0) best = Math.max(best, faces[t]!);
      else if (blanks) best = Math.max(best, 0);
    }
    cap[li] = best;
  }
};

/** The best bound over the runs `[from, to]` a play from anchor `i` can cover. */
const anchorBound = (v: LaneView, input: ShadowInput, s: Scratch, n: number, base: number, i: number, previous: number): number => {
  const tiles = v.tiles;
  let best = -Infinity;
  let leftEmpties = 0;
  for (let from = i; from > previous; from--) {
    if (tiles[base + from] === 0) {
      if (s.cap[base + from]! < 0 || ++leftEmpties > s.tiles) break;
    }
    if (from > 0 && tiles[base + from - 1] !== 0) continue;
    let empties = leftEmpties;
    for (let to = i; to < n; to++) {
      if (to > i && tiles[base + to] === 0) {
        if (s.cap[base + to]! < 0 || ++empties > s.tiles) break;
      }
      if (to < n - 1 && tiles[base + to + 1] !== 0) continue;
      const b = runBound(v, input, s, base, from, to);
      if (b > best) best = b;
    }
  }
  return best;
};

/** The bound of a play covering exactly `[from, to]` of the lane (see the module comment). */
const runBound = (v: LaneView, input: ShadowInput, s: Scratch, base: number, from: number, to: number): number => {
  const { tiles, wordMul, letterMul, hasCross, crossScore } = v;
  const faces = input.faces;
  let wordMulAll = 1;
  let through = 0;
  let crossFixed = 0;
  let k = 0;
  for (let c = from; c <= to; c++) {
    const t = tiles[base + c]!;
    if (t !== 0) {
      through += (t & BLANK_BIT) !== 0 ? 0 : faces[t]!;
      continue;
    }
    k++;
    const wm = wordMul[base + c]!;
    wordMulAll *= wm;
    if (hasCross[base + c] === 1) crossFixed += crossScore[base + c]! * wm;
  }
  const eff = s.eff;
  let capped = 0;
  let m = 0;
  for (let c = from; c <= to; c++) {
    if (tiles[base + c] !== 0) continue;
    const lm = letterMul[base + c]!;
    const e = lm * wordMulAll + (hasCross[base + c] === 1 ? lm * wordMul[base + c]! : 0);
    capped += e * s.cap[base + c]!;
    // Insertion into the weights sorted high to low (at most a rack's worth).
    let j = m++;
    while (j > 0 && eff[j - 1]! < e) {
      eff[j] = eff[j - 1]!;
      j--;
    }
    eff[j] = e;
  }
  let paired = 0;
  for (let j = 0; j < k; j++) paired += eff[j]! * s.faceDesc[j]!;
  const score = through * wordMulAll + crossFixed + Math.min(paired, capped) + (k >= input.rackSize ? input.bingoBonus : 0);
  return score + input.bestLeave[k]!;
};
