/**
 * A deliberately slow, independent move generator, the oracle of the generator's tests. It shares
 * nothing with the fast one (no KWG, no cross-sets, no anchors): it tries every square, both
 * directions and every length, fills the span's empty squares with every ordered choice of rack
 * tiles (a blank as every letter of the distribution), and asks the referee (`checkPlay`, with a
 * lexicon over a plain sorted word array) whether the play is legal and what it scores.
 *
 * The shortcuts: a span is abandoned as soon as the main word read so far is not the beginning of
 * any word (a binary search in the sorted word list). That only skips candidates `checkPlay` would
 * refuse as INVALID_WORDS (as is not asking it about a span whose main word is not a word, or one
 * that starts right after a tile or touches nothing: WORD_NOT_WHOLE, NOT_CONNECTED or MISSES_CENTRE),
 * so the result is the same set, found in seconds rather than years.
 */
import { startSquare, type Board, type Placement } from '../board.js';
import type { Lexicon } from '../lexicon/lexicon.js';
import type { PlayMove, WordTile } from '../move.js';
import { checkPlay } from '../placement.js';
import { BLANK, type Distribution } from '../tiles.js';

/** A lexicon over a sorted array: `has` and `hasPrefix` by binary search. */
export class SortedWords implements Lexicon {
  readonly name = 'SLOW';
  readonly hash = 'sha256:slow';
  readonly wordCount: number;
  private readonly words: readonly string[];
  constructor(words: readonly string[]) {
    this.words = [...new Set(words)].sort();
    this.wordCount = this.words.length;
  }
  private lowerBound(s: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.words[mid]! < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  has(word: string): boolean {
    return this.words[this.lowerBound(word)] === word;
  }
  hasPrefix(prefix: string): boolean {
    return this.words[this.lowerBound(prefix)]?.startsWith(prefix) ?? false;
  }
}

export interface SlowPlay {
  readonly key: string;
  readonly notation: string;
  readonly score: number;
}

/** A play's identity whatever direction it was written in: its placements, sorted. */
export const placementKey = (placements: readonly Placement[]): string =>
  placements
    .map((p) => `${p.row},${p.col},${p.blank ? p.letter.toLowerCase() : p.letter}`)
    .sort()
    .join(' ');

interface SlowContext {
  readonly board: Board;
  readonly distribution: Distribution;
  readonly rack: readonly string[];
  readonly words: SortedWords;
  readonly bingoBonus: number;
  readonly rackSize: number;
  readonly found: Map<string, SlowPlay>;
}

/** Every legal play of `rack` on `board`, keyed by {@link placementKey}, scored by the referee. */
export const slowPlays = (
  board: Board,
  distribution: Distribution,
  rack: readonly string[],
  words: SortedWords,
  rules: { bingoBonus?: number; rackSize?: number } = {},
): Map<string, SlowPlay> => {
  const ctx: SlowContext = {
    board,
    distribution,
    rack,
    words,
    bingoBonus: rules.bingoBonus ?? 50,
    rackSize: rules.rackSize ?? 7,
    found: new Map(),
  };
  const n = board.layout.rows.length;
  for (const down of [false, true])
    for (let row = 0; row < n; row++)
      for (let col = 0; col < n; col++) {
        const before = down ? letterAt(board, row - 1, col) : letterAt(board, row, col - 1);
        if (before === null && canConnect(board, row, col, down, rack.length)) fill(ctx, row, col, down, [], '', counts(rack), false);
      }
  return ctx.found;
};

const letterAt = (board: Board, row: number, col: number): string | null => {
  const n = board.layout.rows.length;
  return row < 0 || col < 0 || row >= n || col >= n ? null : (board.cells[row * n + col]?.letter ?? null);
};

const counts = (tiles: readonly string[]): Map<string, number> => {
  const m = new Map<string, number>();
  for (const t of tiles) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
};

/** Whether a span from (row, col) reaches a connecting square before it runs out of rack tiles. */
const canConnect = (board: Board, row: number, col: number, down: boolean, tiles: number): boolean => {
  const n = board.layout.rows.length;
  for (let i = 0, used = 0; used <= tiles; i++) {
    const r = down ? row + i : row;
    const c = down ? col : col + i;
    if (r >= n || c >= n) return false;
    if (letterAt(board, r, c) !== null) return true;
    if (++used > tiles) return false;
    if (connects(board, r, c)) return true;
  }
  return false;
};

/** A tile placed on (r, c) connects the play: it touches a tile, or covers the start square (the centre) of an empty board. */
const connects = (board: Board, r: number, c: number): boolean => {
  const start = startSquare(board.layout);
  if (board.tileCount === 0) return r === start.row && c === start.col;
  return [letterAt(board, r - 1, c), letterAt(board, r + 1, c), letterAt(board, r, c - 1), letterAt(board, r, c + 1)].some(
    (t) => t !== null,
  );
};

/**
 * The span from (row, col) written so far is `word` (spelling `text`): judge it as a play of that
 * length, then extend it by one square in every way the rack allows.
 */
const fill = (
  ctx: SlowContext,
  row: number,
  col: number,
  down: boolean,
  word: WordTile[],
  text: string,
  left: Map<string, number>,
  touches: boolean,
): void => {
  if (text !== '' && !ctx.words.hasPrefix(text)) return;
  const i = word.length;
  // Only a connected span spelling a word can pass checkPlay; asking it about the others would be slower still.
  if (i >= 2 && touches && ctx.words.has(text))
    judge(ctx, { kind: 'play', anchor: { row, col, dir: down ? 'down' : 'across' }, word: [...word] });
  const n = ctx.board.layout.rows.length;
  const r = down ? row + i : row;
  const c = down ? col : col + i;
  if (r >= n || c >= n) return;
  const onBoard = letterAt(ctx.board, r, c);
  if (onBoard !== null) {
    word.push({ kind: 'through' });
    fill(ctx, row, col, down, word, text + onBoard, left, true);
    word.pop();
    return;
  }
  for (const [tile, count] of left) {
    if (count === 0) continue;
    left.set(tile, count - 1);
    const near = touches || connects(ctx.board, r, c);
    const letters = tile === BLANK ? ctx.distribution.letters.map((l) => l.letter) : [tile];
    for (const letter of letters) {
      word.push({ kind: 'letter', letter, blank: tile === BLANK });
      fill(ctx, row, col, down, word, text + letter, left, near);
      word.pop();
    }
    left.set(tile, count);
  }
};

const judge = (ctx: SlowContext, move: PlayMove): void => {
  const r = checkPlay(
    {
      board: ctx.board,
      distribution: ctx.distribution,
      rack: ctx.rack,
      lexicon: ctx.words,
      bingoBonus: ctx.bingoBonus,
      rackSize: ctx.rackSize,
    },
    move,
  );
  if (!r.ok) return;
  const key = placementKey(r.value.placements);
  const word = move.word.map((t) => (t.kind === 'through' ? '.' : t.blank ? t.letter.toLowerCase() : t.letter)).join('');
  if (!ctx.found.has(key))
    ctx.found.set(key, { key, notation: `${move.anchor.dir} ${move.anchor.row},${move.anchor.col} ${word}`, score: r.value.score });
};
