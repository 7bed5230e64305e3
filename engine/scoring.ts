import { premiumAt, tileAt, type Anchor, type Board, type Direction, type Placement } from './board.js';
import type { Lexicon } from './lexicon/lexicon.js';
import { scoreTable, type Distribution } from './tiles.js';

/** Bingo bonus for playing a whole rack (seed-003 scoring 8). */
export const DEFAULT_BINGO_BONUS = 50;
/** Tiles on a full rack, the number a bingo needs (seed-003 rule 2, scoring 8). */
export const DEFAULT_RACK_SIZE = 7;

/** One square of a scored word, with the arithmetic that produced its value. */
export interface ScoredLetter {
  readonly row: number;
  readonly col: number;
  /** What the tile reads as, uppercase (a digraph tile is one square: `CH`). */
  readonly letter: string;
  readonly blank: boolean;
  /** Placed this turn; only such squares take premiums (seed-003 scoring 5). */
  readonly newlyPlaced: boolean;
  /** Face value of the tile; 0 for a blank (seed-003 scoring 6). */
  readonly face: number;
  /** Letter premium applied here (1 when the square is plain or was covered on an earlier turn). */
  readonly letterMultiplier: number;
  /** Word premium this square contributes (1 when plain or covered earlier). */
  readonly wordMultiplier: number;
  /** `face × letterMultiplier`. */
  readonly value: number;
}

/** A word formed by a play, scored per seed-003 scoring 1–7. */
export interface ScoredWord {
  /** Letters concatenated, uppercase (digraph tiles contribute all their characters: `CHICO`). */
  readonly word: string;
  /**
   * The word along the play's direction. For a one-tile play the word it forms is the main word
   * whichever way the play was written (the other direction holds only that tile).
   */
  readonly main: boolean;
  readonly start: Anchor;
  readonly letters: readonly ScoredLetter[];
  /** Sum of letter values after letter premiums (seed-003 scoring 2, 3). */
  readonly letterSum: number;
  /** Product of the word premiums of newly covered squares: ×2, ×3, ×4 (two DWS), ×9 (two TWS) … (scoring 3, 4). */
  readonly wordMultiplier: number;
  readonly score: number;
  /** Whether the lexicon has the word; `null` when no lexicon judged it. */
  readonly valid: boolean | null;
}

export interface ScoringOptions {
  readonly bingoBonus?: number;
  readonly rackSize?: number;
  /**
   * The play's direction. Needed only to choose the main word of a one-tile play that forms words
   * both ways; by default it is inferred from the placements (a single tile counts as across).
   */
  readonly dir?: Direction;
}

export interface ScoreSummary {
  words: ScoredWord[];
  bingo: boolean;
  bingoBonus: number;
  score: number;
}

/**
 * Scores tiles placed this turn on `board` (which does not hold them yet), exactly per seed-003
 * scoring 1–8: every word of two or more letters through a placed tile is scored (scoring 1, 7);
 * letter premiums apply before word premiums (scoring 2, 3); word premiums multiply (scoring 4);
 * premiums count only under tiles placed this turn (scoring 5); a blank scores 0 but still takes a
 * word premium (scoring 6); placing `rackSize` tiles adds the bingo bonus (scoring 8).
 *
 * Legality is the caller's business ({@link checkPlay} in `placement.ts`). Placements that are not
 * in one line, leave a gap, or land on occupied squares are a broken invariant and throw.
 */
export function scorePlacements(
  board: Board,
  distribution: Distribution,
  placements: readonly Placement[],
  opts?: ScoringOptions,
): ScoreSummary {
  return scoreWords(board, distribution, placements, opts, null);
}

/**
 * Shared by {@link scorePlacements} and `checkPlay`: scores and, when a lexicon is given, judges the
 * words. `placements` need not be sorted.
 */
export function scoreWords(
  board: Board,
  distribution: Distribution,
  placements: readonly Placement[],
  opts: ScoringOptions | undefined,
  lexicon: Lexicon | null,
): ScoreSummary {
  const count = placements.length;
  if (count === 0) return { words: [], bingo: false, bingoBonus: 0, score: 0 };
  const first = placements[0]!;
  let dir: Direction = opts?.dir ?? 'across';
  if (opts?.dir === undefined && count > 1) dir = placements[1]!.row === first.row ? 'across' : 'down';
  const dr = dir === 'down' ? 1 : 0;
  const dc = 1 - dr;
  for (const p of placements) {
    if ((dr === 0 ? p.row !== first.row : p.col !== first.col) || tileAt(board, p.row, p.col) !== null) {
      throw new Error(`scorePlacements: placements must lie in one ${dir} line on empty squares`);
    }
  }

  const table = scoreTable(distribution);
  const words: ScoredWord[] = [];
  const main = walkWord(board, table, placements, first.row, first.col, dr, dc, true, lexicon);
  let covered = 0;
  if (main) {
    for (const l of main.letters) if (l.newlyPlaced) covered++;
    words.push(main);
  } else {
    covered = 1;
  }
  if (covered !== count) throw new Error('scorePlacements: placements leave a gap in the word');
  for (const p of placements) {
    const cross = walkWord(board, table, placements, p.row, p.col, dc, dr, main === null, lexicon);
    if (cross) words.push(cross);
  }

  let score = 0;
  for (const w of words) score += w.score;
  const rackSize = opts?.rackSize ?? DEFAULT_RACK_SIZE;
  const bingo = count >= rackSize;
  const bingoBonus = bingo ? (opts?.bingoBonus ?? DEFAULT_BINGO_BONUS) : 0;
  return { words, bingo, bingoBonus, score: score + bingoBonus };
}

/** Index of the placement on (row, col), or -1. Linear: a play has at most a rack's worth of tiles. */
const placementAt = (placements: readonly Placement[], row: number, col: number): number => {
  for (let i = 0; i < placements.length; i++) {
    const p = placements[i]!;
    if (p.row === row && p.col === col) return i;
  }
  return -1;
};

const occupied = (board: Board, placements: readonly Placement[], row: number, col: number): boolean =>
  tileAt(board, row, col) !== null || placementAt(placements, row, col) >= 0;

/**
 * The whole word through (row, col) along (dr, dc), scored; `null` when it is a single letter
 * (seed-003 scoring 1 scores words, and a lone tile is not one).
 */
function walkWord(
  board: Board,
  table: ReadonlyMap<string, number>,
  placements: readonly Placement[],
  row: number,
  col: number,
  dr: number,
  dc: number,
  isMain: boolean,
  lexicon: Lexicon | null,
): ScoredWord | null {
  let r = row;
  let c = col;
  while (occupied(board, placements, r - dr, c - dc)) {
    r -= dr;
    c -= dc;
  }
  const startRow = r;
  const startCol = c;
  const layout = board.layout;
  const letters: ScoredLetter[] = [];
  let word = '';
  let letterSum = 0;
  let wordMultiplier = 1;
  for (;;) {
    const onBoard = tileAt(board, r, c);
    let letter: string;
    let blank: boolean;
    let newlyPlaced: boolean;
    if (onBoard) {
      letter = onBoard.letter;
      blank = onBoard.blank;
      newlyPlaced = false;
    } else {
      const i = placementAt(placements, r, c);
      if (i < 0) break;
      const p = placements[i]!;
      letter = p.letter;
      blank = p.blank;
      newlyPlaced = true;
    }
    const face = blank ? 0 : (table.get(letter) ?? 0);
    let lm = 1;
    let wm = 1;
    if (newlyPlaced) {
      const prem = premiumAt(layout, r, c);
      lm = prem.letter;
      wm = prem.word;
    }
    const value = face * lm;
    letterSum += value;
    wordMultiplier *= wm;
    word += letter;
    letters.push({ row: r, col: c, letter, blank, newlyPlaced, face, letterMultiplier: lm, wordMultiplier: wm, value });
    r += dr;
    c += dc;
  }
  if (letters.length < 2) return null;
  return {
    word,
    main: isMain,
    start: { row: startRow, col: startCol, dir: dr === 1 ? 'down' : 'across' },
    letters,
    letterSum,
    wordMultiplier,
    score: letterSum * wordMultiplier,
    valid: lexicon ? lexicon.has(word) : null,
  };
}
