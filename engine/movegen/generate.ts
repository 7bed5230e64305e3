/**
 * The move generation API: every legal move of a position (plays, exchanges, the pass) with its
 * score, leave and equity. `MoveGenerator` owns reusable buffers for one board size; the plain
 * functions share one per size. See docs/movegen.md.
 */
import type { Anchor, Placement } from '../board.js';
import type { Kwg } from '../lexicon/kwg.js';
import { formatMove, type Move, type WordTile } from '../move.js';
import { rackValue } from '../tiles.js';
import { PlayGenerator, type GenerationInput } from './generator.js';
import { newLanes, prepareLanes, type Lanes } from './lanes.js';
import { leaveTable, leaveTiles, NO_LEAVES, type LeaveModel, type LeaveTable } from './leave.js';
import { MOVE_EXCHANGE, MOVE_PASS, MOVE_PLAY, MoveList } from './move-list.js';
import { positionRules, type Position } from './position.js';
import { newAnchorBounds, shadowBounds, type AnchorBounds } from './shadow.js';
import { BLANK_BIT, TILE_SLOTS, tileCodec, type TileCodec } from './tile-codec.js';

export interface GenerateOptions {
  /** Leave values for equity; without them equity = score (plus the end-game terms). */
  readonly leaves?: LeaveModel;
  /** List exchanges (when the bag allows) and the pass. Default true. */
  readonly nonPlays?: boolean;
}

/** One generated move, ready for `checkPlay`/`decide` (`move`) and for people (`notation`). */
export interface GeneratedMove {
  readonly kind: Move['kind'];
  readonly move: Move;
  /** `8H QI.S`, `-AEIU`, `-` (GCG notation, `.` for tiles played through). */
  readonly notation: string;
  /** Tiles put down (empty for an exchange or a pass). */
  readonly placements: readonly Placement[];
  readonly score: number;
  /** Tiles kept, in rack order of kinds. */
  readonly leave: readonly string[];
  /** score + leave value (or the end-game terms when the bag is empty). */
  readonly equity: number;
  /** Tiles played from the rack (0 for exchanges and the pass). */
  readonly tilesPlayed: number;
}

/** The raw result of one generation: moves in typed arrays, and how to read them. */
export interface MoveSet {
  readonly list: MoveList;
  readonly leaves: LeaveTable;
  readonly codec: TileCodec;
  readonly position: Position;
}

export class MoveGenerator {
  private readonly lanes: Lanes;
  private readonly plays: PlayGenerator;
  private readonly list: MoveList;
  private readonly scratch: Uint8Array;
  private readonly rack = new Uint8Array(TILE_SLOTS);
  private readonly bounds: AnchorBounds;

  constructor(readonly size: number) {
    this.bounds = newAnchorBounds(size);
    this.lanes = newLanes(size);
    this.plays = new PlayGenerator(size);
    this.list = new MoveList(size);
    this.scratch = new Uint8Array(size * size);
  }

  /**
   * Every move of the position into this generator's buffer (valid until its next call). Exchanges
   * follow `rules.exchange` (bag at least `exchangeMinBag`, at most the bag's count exchanged).
   */
  generate(position: Position, kwg: Kwg, options: GenerateOptions = {}): MoveSet {
    const { codec, leaves, input } = this.prepare(position, kwg, options.leaves);
    const list = this.list;
    this.plays.run(this.lanes, input, list);
    if (options.nonPlays !== false) addNonPlays(list, leaves, position);
    return { list, leaves, codec, position };
  }

  /**
   * The best moves only, for a robot: the plays of the highest equity (or score, `byScore`) found by
   * the pruned search of `PlayGenerator.runBest` over the bounds of `shadow.ts`, then the exchanges and
   * the pass. `order` lists the set's moves in the order `generate` would list them, so a choice among
   * ties made by walking `order` is the choice made by walking all of `generate`'s list. With
   * `byScore` the plays are all those of the best score; otherwise those whose equity is the best of
   * every move, exchanges and pass included (no play is kept when a non-play beats them all).
   */
  best(position: Position, kwg: Kwg, options: { leaves?: LeaveModel; byScore: boolean }): { set: MoveSet; order: number[] } {
    const { codec, leaves, input } = this.prepare(position, kwg, options.leaves);
    const list = this.list;
    addNonPlays(list, leaves, position);
    // Exchanges and the pass are cheap: the best of them is the floor a play must reach.
    let floor = -Infinity;
    for (let m = 0; !options.byScore && m < list.count; m++) floor = Math.max(floor, list.equity[m]!);
    list.clear();
    shadowBounds(this.lanes, { ...input, bestLeave: bestLeaves(leaves, position.rack.length, options.byScore) }, this.bounds);
    const anchors = this.plays.runBest(this.lanes, input, list, this.bounds, options.byScore, floor);
    const order = anchors.map((_, m) => m).sort((a, b) => anchors[a]! - anchors[b]! || a - b);
    const plays = list.count;
    addNonPlays(list, leaves, position);
    for (let m = plays; m < list.count; m++) order.push(m);
    return { set: { list, leaves, codec, position }, order };
  }

  /** The anchors of the position with the bounds `best` searches by (`shadow.ts`); a copy. */
  anchorBounds(position: Position, kwg: Kwg, options: { leaves?: LeaveModel; byScore: boolean }): AnchorBounds {
    const { leaves, input } = this.prepare(position, kwg, options.leaves);
    const out = newAnchorBounds(this.size);
    shadowBounds(this.lanes, { ...input, bestLeave: bestLeaves(leaves, position.rack.length, options.byScore) }, out);
    return out;
  }

  /** Reads the position into the lanes and the rack; `leaves` decide the equity table. */
  private prepare(
    position: Position,
    kwg: Kwg,
    model: LeaveModel | undefined,
  ): { codec: TileCodec; leaves: LeaveTable; input: GenerationInput } {
    if (position.board.layout.rows.length !== this.size)
      throw new Error(`MoveGenerator(${this.size}) given a ${position.board.layout.rows.length}-square board`);
    const codec = tileCodec(kwg, position.distribution);
    const rules = positionRules(position);
    const unseenValue = position.unseen ? rackValue(position.distribution, position.unseen) : 0;
    const leaves = leaveTable(codec, model ?? NO_LEAVES, position.rack, {
      bagCount: position.bagCount,
      opponentRackValue: unseenValue,
    });
    this.rack.fill(0);
    for (const t of position.rack) {
      const slot = codec.tileOf.get(t);
      if (slot !== undefined) this.rack[slot]!++;
    }
    this.list.clear();
    prepareLanes(this.lanes, position.board, codec, this.scratch);
    const input: GenerationInput = {
      nodes: kwg.nodes,
      gaddagRoot: kwg.gaddagRoot,
      faces: codec.faces,
      rack: this.rack,
      bingoBonus: rules.bingoBonus,
      rackSize: rules.rackSize,
      leaveRadix: leaves.radix,
      fullLeave: leaves.full,
      leaveValues: leaves.values,
    };
    return { codec, leaves, input };
  }
}

/** The best leave value after playing k tiles of a rack of `rackTiles`, by k (0 throughout when ranking by score). */
const bestLeaves = (leaves: LeaveTable, rackTiles: number, byScore: boolean): Float64Array => {
  const best = new Float64Array(rackTiles + 1).fill(byScore ? 0 : -Infinity);
  if (byScore) return best;
  for (let idx = 0; idx <= leaves.full; idx++) {
    const played = rackTiles - keptCount(leaves, idx);
    best[played] = Math.max(best[played]!, leaves.values[idx]!);
  }
  return best;
};

/** Exchanges of every distinct sub-multiset the bag allows, and the pass. */
const addNonPlays = (list: MoveList, leaves: LeaveTable, position: Position): void => {
  const rules = positionRules(position);
  const rackCount = position.rack.length;
  const canExchange = position.bagCount > 0 && position.bagCount >= rules.exchangeMinBag;
  for (let idx = 0; canExchange && idx < leaves.full; idx++) {
    const kept = keptCount(leaves, idx);
    if (rules.exchangeMaxIsBagCount && rackCount - kept > position.bagCount) continue;
    pushNonPlay(list, MOVE_EXCHANGE, idx, leaves.values[idx]!);
  }
  pushNonPlay(list, MOVE_PASS, leaves.full, leaves.values[leaves.full]!);
};

const keptCount = (leaves: LeaveTable, idx: number): number => {
  let n = 0;
  for (const k of leaves.kinds) n += Math.floor(idx / k.radix) % (k.count + 1);
  return n;
};

const pushNonPlay = (list: MoveList, kind: number, leave: number, equity: number): void => {
  const m = list.push();
  list.kind[m] = kind;
  list.played[m] = 0;
  list.score[m] = 0;
  list.length[m] = 0;
  list.leave[m] = leave;
  list.equity[m] = equity;
};

/** Reads move `m` of a move set as a {@link GeneratedMove}. */
export const moveAt = (set: MoveSet, m: number): GeneratedMove => {
  const { list, leaves, codec } = set;
  const leave = leaveTiles(leaves, list.leave[m]!);
  const base = { score: list.score[m]!, leave, equity: list.equity[m]!, tilesPlayed: list.played[m]! };
  const kind = list.kind[m]!;
  if (kind === MOVE_PASS) return { kind: 'pass', move: { kind: 'pass' }, notation: '-', placements: [], ...base };
  if (kind === MOVE_EXCHANGE) {
    const tiles = [...set.position.rack];
    for (const t of leave) tiles.splice(tiles.indexOf(t), 1);
    const move: Move = { kind: 'exchange', tiles, count: tiles.length };
    return { kind: 'exchange', move, notation: formatMove(move), placements: [], ...base };
  }
  const down = list.dir[m] === 1;
  const lane = list.lane[m]!;
  const start = list.start[m]!;
  const anchor: Anchor = down ? { row: start, col: lane, dir: 'down' } : { row: lane, col: start, dir: 'across' };
  const word: WordTile[] = [];
  const placements: Placement[] = [];
  for (let i = 0; i < list.length[m]!; i++) {
    const b = list.tiles[m * list.width + i]!;
    if (b === 0) {
      word.push({ kind: 'through' });
      continue;
    }
    const letter = codec.letters[b & ~BLANK_BIT]!;
    const blank = (b & BLANK_BIT) !== 0;
    word.push({ kind: 'letter', letter, blank });
    placements.push({ row: anchor.row + (down ? i : 0), col: anchor.col + (down ? 0 : i), letter, blank });
  }
  const move: Move = { kind: 'play', anchor, word };
  return { kind: 'play', move, notation: formatMove(move), placements, ...base };
};

/** Whether a list entry is a play (not an exchange or pass). */
export const isPlayAt = (set: MoveSet, m: number): boolean => set.list.kind[m] === MOVE_PLAY;

const generators = new Map<number, MoveGenerator>();
/** The shared generator for a board size (buffers are reused; results are copied out before returning). */
export const sharedGenerator = (size: number): MoveGenerator => {
  let g = generators.get(size);
  if (!g) generators.set(size, (g = new MoveGenerator(size)));
  return g;
};

export type MoveOrder = 'equity' | 'score';

/** Indices of the moves in best-first order: by equity or score, ties by score then notation order of generation. */
const ranked = (set: MoveSet, order: MoveOrder, limit: number): number[] => {
  const { list } = set;
  const idx = Array.from({ length: list.count }, (_, i) => i);
  const key = order === 'equity' ? list.equity : list.score;
  const cmp = (a: number, b: number): number => key[b]! - key[a]! || list.score[b]! - list.score[a]! || a - b;
  if (limit >= idx.length) return idx.sort(cmp);
  return idx.sort(cmp).slice(0, limit);
};

/** Every legal move of the position, best first (by equity unless `order` says score). */
export const generateMoves = (position: Position, kwg: Kwg, options: GenerateOptions & { order?: MoveOrder } = {}): GeneratedMove[] => {
  const set = sharedGenerator(position.board.layout.rows.length).generate(position, kwg, options);
  return ranked(set, options.order ?? 'equity', Infinity).map((m) => moveAt(set, m));
};

/** The `n` best moves (by equity unless `order` says score): only those are turned into objects. */
export const bestMoves = (
  position: Position,
  kwg: Kwg,
  n: number,
  options: GenerateOptions & { order?: MoveOrder } = {},
): GeneratedMove[] => {
  const set = sharedGenerator(position.board.layout.rows.length).generate(position, kwg, options);
  return ranked(set, options.order ?? 'equity', n).map((m) => moveAt(set, m));
};
