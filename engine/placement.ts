import { centreIndex, formatAnchor, formatSquare, onBoard, tileAt, withTiles, type Board, type Placement } from './board.js';
import { cite, ruleError, type RuleError } from './errors.js';
import type { Lexicon } from './lexicon/lexicon.js';
import type { PlayMove } from './move.js';
import { missingFrom, without } from './game/multiset.js';
import { err, ok, type Result } from './result.js';
import { scoreWords, type ScoredWord } from './scoring.js';
import { BLANK, joinTiles, scoreTable, type Distribution } from './tiles.js';

/** Kept here too: callers that judge plays (graph/rules.ts) know `Placement` as part of this module's API. */
export type { Placement } from './board.js';

/** Everything {@link checkPlay} needs to judge a play besides the move itself. */
export interface PlayContext {
  readonly board: Board;
  readonly distribution: Distribution;
  /** The mover's rack (tiles, '?' = blank). When omitted, tiles are not checked against a rack (GCG replay of records without racks). */
  readonly rack?: readonly string[];
  /** When omitted or null, words are not judged (geometry and scores only). */
  readonly lexicon?: Lexicon | null;
  /** When true (the default) a play forming any word not in the lexicon is rejected with INVALID_WORDS; when false it is accepted and the phonies are listed (double-challenge games let a phony stand until challenged). */
  readonly requireValidWords?: boolean;
  /** Bingo bonus and the number of tiles that earns it (defaults 50 and 7: seed-003 scoring 8); rule sets pass their own. */
  readonly bingoBonus?: number;
  readonly rackSize?: number;
}

/** A legal (or, with `requireValidWords: false`, geometrically legal) play and its score. */
export interface ScoredPlay {
  readonly move: PlayMove;
  /** Tiles put down this turn, in order along the word. */
  readonly placements: readonly Placement[];
  /** Main word first, then the cross words in order along the main word. */
  readonly words: readonly ScoredWord[];
  readonly bingo: boolean;
  readonly bingoBonus: number;
  /** Sum of the word scores plus the bingo bonus (seed-003 scoring 1, 7, 8). */
  readonly score: number;
  /** Words the lexicon does not have (only non-empty when `requireValidWords` is false). */
  readonly phonies: readonly string[];
  /** The rack minus the tiles used, when a rack was given. */
  readonly rackAfter?: readonly string[];
}

/** Every code {@link checkPlay} can return. */
export const PLACEMENT_ERROR_CODES = [
  'EMPTY_PLAY',
  'OFF_BOARD',
  'NOTHING_TO_PLAY_THROUGH',
  'SQUARE_OCCUPIED',
  'UNKNOWN_TILE',
  'BAD_BLANK_DESIGNATION',
  'NO_TILES_PLACED',
  'WORD_NOT_WHOLE',
  'MISSES_CENTRE',
  'FIRST_PLAY_TOO_SHORT',
  'NOT_CONNECTED',
  'TILES_NOT_IN_RACK',
  'INVALID_WORDS',
] as const;
export type PlacementErrorCode = (typeof PLACEMENT_ERROR_CODES)[number];

const fail = (
  code: PlacementErrorCode,
  message: string,
  details: Record<string, unknown>,
  rule?: string,
): { readonly ok: false; readonly error: RuleError } =>
  err(ruleError(code, message, details, rule === undefined ? undefined : cite('seed-003', rule)));

/** `H8`, or a plain description for squares with no name (negative or past column Z). */
const squareName = (row: number, col: number): string =>
  row >= 0 && col >= 0 && col < 26 ? formatSquare({ row, col }) : `row ${row + 1}, column ${col + 1}`;

const list = (items: readonly string[]): string => items.join(', ');

/** The word as notation writes it, for messages: `.` for played-through squares, lowercase blanks. */
const writtenWord = (move: PlayMove): string =>
  joinTiles(move.word.map((t) => (t.kind === 'through' ? '.' : t.blank ? t.letter.toLowerCase() : t.letter)));

/**
 * Validates a play against the board, the rack and (optionally) the lexicon, and scores it.
 *
 * Checks, in order, each failure a {@link RuleError} citing seed-003:
 * the word is non-empty (`EMPTY_PLAY`, rule 4) and on the board (`OFF_BOARD`, rule 5); every `.`
 * is on an occupied square (`NOTHING_TO_PLAY_THROUGH`, rule 5a); a letter written on an occupied
 * square matches the tile there (`SQUARE_OCCUPIED`, rule 5); every tile is in the distribution
 * (`UNKNOWN_TILE`) and every blank names a letter of it (`BAD_BLANK_DESIGNATION`, rule 10); at
 * least one tile is placed (`NO_TILES_PLACED`, rule 4); the word as written is whole
 * (`WORD_NOT_WHOLE`, rule 5); the first play covers the centre with two or more tiles
 * (`MISSES_CENTRE`, `FIRST_PLAY_TOO_SHORT`, rule 3) and later plays connect (`NOT_CONNECTED`,
 * rule 5 a/b/c); the tiles are on the rack (`TILES_NOT_IN_RACK`, rule 4); with a lexicon, every
 * word formed is in it (`INVALID_WORDS`, rules 5 and 9), all bad words listed.
 *
 * A letter written over an occupied square is compared case-insensitively: old records write the
 * board's letter in uppercase even where it is a blank, so `A` or `a` over a blank A both play
 * through it (and it keeps scoring 0). That the tiles lie in one line with no gaps is guaranteed by
 * the notation (a word runs from its anchor square by square).
 */
export function checkPlay(ctx: PlayContext, move: PlayMove): Result<ScoredPlay, RuleError> {
  const { board, distribution } = ctx;
  const layout = board.layout;
  const { row, col, dir } = move.anchor;
  const len = move.word.length;
  const at = formatAnchor(move.anchor);

  if (len === 0) {
    return fail('EMPTY_PLAY', `The play at ${at} has no tiles: a play writes at least one tile.`, { anchor: at }, 'rule 4');
  }
  const dr = dir === 'down' ? 1 : 0;
  const dc = 1 - dr;
  if (!onBoard(layout, row, col) || !onBoard(layout, row + dr * (len - 1), col + dc * (len - 1))) {
    const squares: string[] = [];
    for (let i = 0; i < len; i++) {
      const r = row + dr * i;
      const c = col + dc * i;
      if (!onBoard(layout, r, c)) squares.push(squareName(r, c));
    }
    const size = layout.rows.length;
    return fail(
      'OFF_BOARD',
      `The play ${at} ${writtenWord(move)} runs off the ${size}×${size} board at ${list(squares)}.`,
      { anchor: at, squares, length: len, boardSize: size },
      'rule 5',
    );
  }

  const table = scoreTable(distribution);
  const placements: Placement[] = [];
  let through = 0;
  let emptyThrough: string[] | undefined;
  let mismatched: { square: string; onBoard: string; written: string }[] | undefined;
  let unknown: { square: string; tile: string }[] | undefined;
  let badBlanks: { square: string; tile: string }[] | undefined;
  for (let i = 0; i < len; i++) {
    const r = row + dr * i;
    const c = col + dc * i;
    const t = move.word[i]!;
    const existing = tileAt(board, r, c);
    if (t.kind === 'through') {
      if (existing) through++;
      else (emptyThrough ??= []).push(formatSquare({ row: r, col: c }));
      continue;
    }
    const letter = t.letter.toUpperCase();
    if (existing) {
      if (existing.letter !== letter) {
        (mismatched ??= []).push({ square: formatSquare({ row: r, col: c }), onBoard: existing.letter, written: t.letter });
      }
      through++;
      continue;
    }
    const blank = t.blank || letter === BLANK;
    if (blank) {
      if (!table.has(letter)) (badBlanks ??= []).push({ square: formatSquare({ row: r, col: c }), tile: t.letter });
    } else if (!table.has(letter)) {
      (unknown ??= []).push({ square: formatSquare({ row: r, col: c }), tile: t.letter });
    }
    placements.push({ row: r, col: c, letter, blank });
  }

  if (emptyThrough) {
    return fail(
      'NOTHING_TO_PLAY_THROUGH',
      `The play ${at} ${writtenWord(move)} writes "." on empty square${emptyThrough.length > 1 ? 's' : ''} ${list(emptyThrough)}: "." stands for a tile already on the board.`,
      { anchor: at, squares: emptyThrough },
      'rule 5a',
    );
  }
  if (mismatched) {
    return fail(
      'SQUARE_OCCUPIED',
      `The play ${at} ${writtenWord(move)} writes ${mismatched.map((m) => `${m.written} on ${m.square}, which already holds ${m.onBoard}`).join('; ')}.`,
      { anchor: at, squares: mismatched.map((m) => m.square), tiles: mismatched },
      'rule 5',
    );
  }
  if (unknown) {
    return fail('UNKNOWN_TILE', `The ${distribution.name} tile set has no ${list(unknown.map((u) => `${u.tile} (${u.square})`))}.`, {
      anchor: at,
      squares: unknown.map((u) => u.square),
      tiles: unknown.map((u) => u.tile),
      distribution: distribution.name,
    });
  }
  if (badBlanks) {
    return fail(
      'BAD_BLANK_DESIGNATION',
      `A blank must be designated as a letter of the ${distribution.name} tile set; ${list(badBlanks.map((b) => `${b.square} designates ${b.tile === BLANK ? 'no letter' : b.tile}`))}.`,
      { anchor: at, squares: badBlanks.map((b) => b.square), tiles: badBlanks.map((b) => b.tile), distribution: distribution.name },
      'rule 10',
    );
  }
  if (placements.length === 0) {
    return fail(
      'NO_TILES_PLACED',
      `The play ${at} ${writtenWord(move)} only covers tiles already on the board: a play places at least one tile.`,
      { anchor: at },
      'rule 4',
    );
  }

  const before = tileAt(board, row - dr, col - dc);
  const after = tileAt(board, row + dr * len, col + dc * len);
  if (before || after) {
    const squares: string[] = [];
    if (before) squares.push(formatSquare({ row: row - dr, col: col - dc }));
    if (after) squares.push(formatSquare({ row: row + dr * len, col: col + dc * len }));
    const where = [
      before ? `${squares[0]} just before the start holds ${before.letter}` : '',
      after ? `${squares[squares.length - 1]} just after the end holds ${after.letter}` : '',
    ]
      .filter((s) => s)
      .join(' and ');
    return fail(
      'WORD_NOT_WHOLE',
      `The play ${at} ${writtenWord(move)} is not the whole word: ${where}; write the word from its first square to its last.`,
      { anchor: at, squares },
      'rule 5',
    );
  }

  if (board.tileCount === 0) {
    const centre = centreIndex(layout);
    const along = dr === 0 ? col : row;
    const covers = (dr === 0 ? row : col) === centre && along <= centre && centre < along + len;
    if (!covers) {
      const name = formatSquare({ row: centre, col: centre });
      return fail(
        'MISSES_CENTRE',
        `The first play ${at} ${writtenWord(move)} must cover the centre square ${name}.`,
        { anchor: at, squares: [name] },
        'rule 3',
      );
    }
    if (placements.length < 2) {
      return fail(
        'FIRST_PLAY_TOO_SHORT',
        `The first play ${at} ${writtenWord(move)} places ${placements.length} tile: the first word uses two or more tiles.`,
        { anchor: at, tiles: placements.map((p) => p.letter) },
        'rule 3',
      );
    }
  } else if (through === 0) {
    let touches = false;
    for (const p of placements) {
      if (tileAt(board, p.row - dc, p.col - dr) || tileAt(board, p.row + dc, p.col + dr)) {
        touches = true;
        break;
      }
    }
    if (!touches) {
      const squares = placements.map((p) => formatSquare(p));
      return fail(
        'NOT_CONNECTED',
        `The play ${at} ${writtenWord(move)} (tiles on ${list(squares)}) neither uses nor adjoins a tile on the board: a new word must connect to the words already played.`,
        { anchor: at, squares },
        'rule 5',
      );
    }
  }

  let rackAfter: string[] | undefined;
  if (ctx.rack) {
    const needs = placements.map((p) => (p.blank ? BLANK : p.letter));
    const after = without(ctx.rack, needs);
    if (after === null) {
      const missing = missingFrom(ctx.rack, needs);
      return fail(
        'TILES_NOT_IN_RACK',
        `The play ${at} ${writtenWord(move)} needs ${joinTiles(missing)}, which the rack ${joinTiles(ctx.rack)} does not hold${missing.includes(BLANK) ? ' (a blank is written lowercase and uses a ?)' : ''}.`,
        { anchor: at, tiles: missing, rack: ctx.rack.slice() },
        'rule 4',
      );
    }
    rackAfter = after;
  }

  const lexicon = ctx.lexicon ?? null;
  const scored = scoreWords(board, distribution, placements, { bingoBonus: ctx.bingoBonus, rackSize: ctx.rackSize, dir }, lexicon);
  const phonies: string[] = [];
  if (lexicon) {
    for (const w of scored.words) if (w.valid === false) phonies.push(w.word);
    if (phonies.length > 0 && ctx.requireValidWords !== false) {
      const mainBad = scored.words[0]?.valid === false;
      return fail(
        'INVALID_WORDS',
        `The play ${at} ${writtenWord(move)} forms ${phonies.length === 1 ? 'a word' : 'words'} not in ${lexicon.name}: ${list(phonies)}.`,
        { anchor: at, words: phonies, lexicon: lexicon.name },
        mainBad ? 'rule 5' : 'rule 9',
      );
    }
  }

  const play: ScoredPlay = {
    move,
    placements,
    words: scored.words,
    bingo: scored.bingo,
    bingoBonus: scored.bingoBonus,
    score: scored.score,
    phonies,
    ...(rackAfter ? { rackAfter } : {}),
  };
  return ok(play);
}

/** The board after a checked play: its placements added (seed-003 rule 10: a blank keeps its letter). */
export function applyPlay(board: Board, play: ScoredPlay): Board {
  return withTiles(board, play.placements);
}
