/**
 * Leave values: what the tiles kept after a move are worth on later turns, in points. Equity =
 * score + leave value (static equity; simulation can later replace the leave term per move).
 *
 * The model is small and fitted by self-play (`scripts/leave-values.ts`, data in `leaves.json`):
 * a value per tile kind for its first copy, another for each further copy (duplicates clog a rack),
 * and a vowel/consonant balance term by (vowels, consonants) kept; blanks count as neither.
 */
import { BLANK, rackValue, type Distribution } from '../tiles.js';
import { TILE_SLOTS, type TileCodec } from './tile-codec.js';

export const LEAVE_FORMAT = 'arbiter-leaves/1';

export interface LeaveModel {
  readonly format: typeof LEAVE_FORMAT;
  readonly distribution: string;
  /** Value of the first copy of each tile kind kept (`?` = blank). */
  readonly tile: Readonly<Record<string, number>>;
  /** Value of each further copy of a kind. */
  readonly duplicate: Readonly<Record<string, number>>;
  /** `balance[v][c]`: value of keeping v vowels and c consonants (indices up to the rack size). */
  readonly balance: readonly (readonly number[])[];
  /** Where the numbers come from: lexicon, games, seed, date, method. */
  readonly provenance?: Readonly<Record<string, string | number>>;
}

/** A leave model worth nothing: equity = score (the greedy robot, or a model not yet fitted). */
export const NO_LEAVES: LeaveModel = { format: LEAVE_FORMAT, distribution: '', tile: {}, duplicate: {}, balance: [] };

/** The model's value of a multiset of tiles (letters, `?` for a blank). */
export const leaveValue = (model: LeaveModel, dist: Distribution, leave: readonly string[]): number => {
  const counts = new Map<string, number>();
  for (const t of leave) counts.set(t, (counts.get(t) ?? 0) + 1);
  return modelValue(
    model,
    vowelTable(dist),
    [...counts.keys()].map((tile) => ({ tile })),
    Int32Array.from(counts.values()),
  );
};

const vowelTables = new WeakMap<Distribution, ReadonlyMap<string, boolean>>();
const vowelTable = (dist: Distribution): ReadonlyMap<string, boolean> => {
  let t = vowelTables.get(dist);
  if (!t) vowelTables.set(dist, (t = new Map(dist.letters.map((k) => [k.letter, k.vowel]))));
  return t;
};

/** What the equity of a position's moves needs to know about the game beyond the board. */
export interface LeaveContext {
  /** Tiles in the bag; 0 switches to end-game valuation. */
  readonly bagCount: number;
  /** Face value of the tiles the opponent holds, when the bag is empty (they are then known). */
  readonly opponentRackValue: number;
}

/**
 * Every sub-multiset of a rack, numbered in mixed radix over its tile kinds (kept copies of kind k
 * times the product of (count + 1) of the kinds before it), with its value: the walk of the
 * generator keeps the index of the tiles kept by subtracting `radix[tile]` per tile played.
 */
export interface LeaveTable {
  readonly radix: Int32Array;
  readonly full: number;
  readonly values: Float64Array;
  /** Kinds in the numbering's order, with the rack's count of each. */
  readonly kinds: readonly { readonly tile: string; readonly count: number; readonly radix: number }[];
}

/**
 * The table for a rack. With tiles in the bag a leave is worth the model's value; with the bag
 * empty, going out earns twice the opponent's tiles and keeping tiles costs 10 plus twice their
 * value (the end-game rule of thumb of the Hasty valuation, Cesar Del Solar, in wolges' notes).
 */
export const leaveTable = (codec: TileCodec, model: LeaveModel, rack: readonly string[], ctx: LeaveContext): LeaveTable => {
  const counts = new Map<string, number>();
  for (const t of rack) counts.set(t, (counts.get(t) ?? 0) + 1);
  const kinds: { tile: string; count: number; radix: number }[] = [];
  const radix = new Int32Array(TILE_SLOTS);
  let size = 1;
  for (const [tile, count] of counts) {
    kinds.push({ tile, count, radix: size });
    const slot = codec.tileOf.get(tile);
    if (slot !== undefined) radix[slot] = size;
    size *= count + 1;
  }
  const values = new Float64Array(size);
  const vowels = vowelTable(codec.distribution);
  const faces = kinds.map((k) => rackValue(codec.distribution, [k.tile]));
  const kept = new Int32Array(kinds.length);
  for (let idx = 0; idx < size; idx++) {
    for (let j = 0; j < kinds.length; j++) kept[j] = Math.floor(idx / kinds[j]!.radix) % (kinds[j]!.count + 1);
    values[idx] = ctx.bagCount > 0 ? modelValue(model, vowels, kinds, kept) : endGameValue(kept, faces, ctx.opponentRackValue);
  }
  return { radix, full: size - 1, values, kinds };
};

/** The model's value of `kept[j]` copies of each kind (no allocation: 128 leaves per position). */
const modelValue = (
  model: LeaveModel,
  vowels: ReadonlyMap<string, boolean>,
  kinds: readonly { tile: string }[],
  kept: Int32Array,
): number => {
  let value = 0;
  let v = 0;
  let c = 0;
  for (let j = 0; j < kinds.length; j++) {
    const k = kept[j]!;
    if (k === 0) continue;
    const tile = kinds[j]!.tile;
    value += (model.tile[tile] ?? 0) + (k - 1) * (model.duplicate[tile] ?? 0);
    if (tile === BLANK) continue;
    if (vowels.get(tile)) v += k;
    else c += k;
  }
  return value + (model.balance[v]?.[c] ?? 0);
};

const endGameValue = (kept: Int32Array, faces: readonly number[], opponentRackValue: number): number => {
  let tiles = 0;
  let value = 0;
  for (let j = 0; j < kept.length; j++) {
    tiles += kept[j]!;
    value += kept[j]! * faces[j]!;
  }
  return tiles === 0 ? 2 * opponentRackValue : -(10 + 2 * value);
};

/** The tiles kept at a leave index. */
export const leaveTiles = (table: LeaveTable, idx: number): string[] => {
  const out: string[] = [];
  for (const k of table.kinds) {
    const n = Math.floor(idx / k.radix) % (k.count + 1);
    for (let i = 0; i < n; i++) out.push(k.tile);
  }
  return out;
};
