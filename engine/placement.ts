import { formatAnchor, formatSquare, isBricked, onBoard, startSquare, tileAt, withTiles, type Board, type Placement } from './board.js';
import { cite, ruleError, type RuleError } from './errors.js';
import type { Lexicon } from './lexicon/lexicon.js';
import type { PlayMove } from './move.js';
import { missingFrom, without } from './game/multiset.js';
import { err, ok, type Result } from './result.js';
import { scoreWords, type ScoredWord, type ScoreSummary } from './scoring.js';
import { BLANK, joinTiles, scoreTable, type Distribution } from './tiles.js';

/** Kept here too: callers that judge plays (graph/rules.ts) know `Placement` as part of this module's API. */

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
  'SQUARE_BRICKED',
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

/** Where a play lies: its first square, the step along it, its length, and its name for messages. */
interface Line {
  readonly row: number;
  readonly col: number;
  readonly dr: number;
  readonly dc: number;
  readonly len: number;
  /** The anchor as notation writes it (`8H`, `H8`). */
  readonly at: string;
}

/** The play has a tile (seed-003 rule 4) and lies on the board (rule 5). */
function checkOnBoard(board: Board, move: PlayMove): Result<Line, RuleError> {
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
  return ok({ row, col, dr, dc, len, at });
}

/** What the play writes on each square, sorted into the tiles it places and the problems it has. */
interface SquareReading {
  readonly placements: Placement[];
  /** Squares played through (already holding a tile). */
  through: number;
  emptyThrough?: string[];
  mismatched?: { square: string; onBoard: string; written: string }[];
  unknown?: { square: string; tile: string }[];
  badBlanks?: { square: string; tile: string }[];
}

function readSquares(ctx: PlayContext, move: PlayMove, line: Line): SquareReading {
  const table = scoreTable(ctx.distribution);
  const reading: SquareReading = { placements: [], through: 0 };
  for (let i = 0; i < line.len; i++) {
    const r = line.row + line.dr * i;
    const c = line.col + line.dc * i;
    const t = move.word[i]!;
    const existing = tileAt(ctx.board, r, c);
    if (t.kind === 'through') {
      if (existing) reading.through++;
      else (reading.emptyThrough ??= []).push(formatSquare({ row: r, col: c }));
      continue;
    }
    const letter = t.letter.toUpperCase();
    if (existing) {
      if (existing.letter !== letter) {
        (reading.mismatched ??= []).push({ square: formatSquare({ row: r, col: c }), onBoard: existing.letter, written: t.letter });
      }
      reading.through++;
      continue;
    }
    const blank = t.blank || letter === BLANK;
    if (blank) {
      if (!table.has(letter)) (reading.badBlanks ??= []).push({ square: formatSquare({ row: r, col: c }), tile: t.letter });
    } else if (!table.has(letter)) {
      (reading.unknown ??= []).push({ square: formatSquare({ row: r, col: c }), tile: t.letter });
    }
    reading.placements.push({ row: r, col: c, letter, blank });
  }
  return reading;
}

/** No square of the word is bricked (issue 21: a bricked square takes no tile, like the space beyond the edge). */
function checkBricked(board: Board, move: PlayMove, line: Line): Result<true, RuleError> {
  const { row, col, dr, dc, len, at } = line;
  const squares: string[] = [];
  for (let i = 0; i < len; i++)
    if (isBricked(board.layout, row + dr * i, col + dc * i)) squares.push(squareName(row + dr * i, col + dc * i));
  if (squares.length === 0) return ok(true);
  return fail(
    'SQUARE_BRICKED',
    `The play ${at} ${writtenWord(move)} runs over the bricked square${squares.length > 1 ? 's' : ''} ${list(squares)} of the ${board.layout.name} board: no tile may be placed there.`,
    { anchor: at, squares, layout: board.layout.name },
  );
}

/**
 * The squares hold what the play says: `.` only on occupied squares (seed-003 rule 5a), a written
 * letter on an occupied square matches it (rule 5), every tile is in the distribution and every
 * blank names one of its letters (rule 10), and at least one tile is placed (rule 4).
 */
function checkSquares(ctx: PlayContext, move: PlayMove, line: Line): Result<SquareReading, RuleError> {
  const { distribution } = ctx;
  const { at } = line;
  const reading = readSquares(ctx, move, line);
  const { emptyThrough, mismatched, unknown, badBlanks } = reading;
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
  if (reading.placements.length === 0) {
    return fail(
      'NO_TILES_PLACED',
      `The play ${at} ${writtenWord(move)} only covers tiles already on the board: a play places at least one tile.`,
      { anchor: at },
      'rule 4',
    );
  }
  return ok(reading);
}

/** The word as written is the whole word: no tile just before its first square or after its last (seed-003 rule 5). */
function checkWhole(board: Board, move: PlayMove, line: Line): Result<true, RuleError> {
  const { row, col, dr, dc, len, at } = line;
  const before = tileAt(board, row - dr, col - dc);
  const after = tileAt(board, row + dr * len, col + dc * len);
  if (!before && !after) return ok(true);
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

/**
 * The first play covers the centre with two or more tiles (seed-003 rule 3); a later play uses or
 * adjoins a tile on the board (rule 5 a/b/c).
 */
function checkConnected(board: Board, move: PlayMove, line: Line, reading: SquareReading): Result<true, RuleError> {
  const { row, col, dr, dc, len, at } = line;
  const { placements } = reading;
  if (board.tileCount === 0) {
    const start = startSquare(board.layout);
    const covers =
      dr === 0
        ? row === start.row && col <= start.col && start.col < col + len
        : col === start.col && row <= start.row && start.row < row + len;
    if (!covers) {
      const name = formatSquare(start);
      // A layout with its own start square (issue 21) has no centre to speak of.
      const what = board.layout.start ? 'start' : 'centre';
      return fail(
        'MISSES_CENTRE',
        `The first play ${at} ${writtenWord(move)} must cover the ${what} square ${name}.`,
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
    return ok(true);
  }
  if (reading.through > 0) return ok(true);
  // Beside the line, not along it: the squares along it were checked empty by checkWhole.
  const touches = placements.some((p) => tileAt(board, p.row - dc, p.col - dr) || tileAt(board, p.row + dc, p.col + dr));
  if (touches) return ok(true);
  const squares = placements.map((p) => formatSquare(p));
  return fail(
    'NOT_CONNECTED',
    `The play ${at} ${writtenWord(move)} (tiles on ${list(squares)}) neither uses nor adjoins a tile on the board: a new word must connect to the words already played.`,
    { anchor: at, squares },
    'rule 5',
  );
}

/** The rack after the play, when a rack was given: it must hold the tiles placed, a `?` for each blank (seed-003 rule 4). */
function checkRack(
  ctx: PlayContext,
  move: PlayMove,
  line: Line,
  placements: readonly Placement[],
): Result<string[] | undefined, RuleError> {
  if (!ctx.rack) return ok(undefined);
  const needs = placements.map((p) => (p.blank ? BLANK : p.letter));
  const after = without(ctx.rack, needs);
  if (after !== null) return ok(after);
  const missing = missingFrom(ctx.rack, needs);
  return fail(
    'TILES_NOT_IN_RACK',
    `The play ${line.at} ${writtenWord(move)} needs ${joinTiles(missing)}, which the rack ${joinTiles(ctx.rack)} does not hold${missing.includes(BLANK) ? ' (a blank is written lowercase and uses a ?)' : ''}.`,
    { anchor: line.at, tiles: missing, rack: ctx.rack.slice() },
    'rule 4',
  );
}

/**
 * The words formed, scored, and judged when there is a lexicon: a word not in it refuses the play
 * (seed-003 rule 5 for the main word, rule 9 for a cross word) unless phonies may stand until challenged.
 */
function scoreAndJudge(
  ctx: PlayContext,
  move: PlayMove,
  line: Line,
  placements: readonly Placement[],
): Result<{ readonly scored: ScoreSummary; readonly phonies: readonly string[] }, RuleError> {
  const lexicon = ctx.lexicon ?? null;
  const scored = scoreWords(
    ctx.board,
    ctx.distribution,
    placements,
    { bingoBonus: ctx.bingoBonus, rackSize: ctx.rackSize, dir: move.anchor.dir },
    lexicon,
  );
  const phonies: string[] = [];
  if (lexicon) {
    for (const w of scored.words) if (w.valid === false) phonies.push(w.word);
    if (phonies.length > 0 && ctx.requireValidWords !== false) {
      const mainBad = scored.words[0]?.valid === false;
      return fail(
        'INVALID_WORDS',
        `The play ${line.at} ${writtenWord(move)} forms ${phonies.length === 1 ? 'a word' : 'words'} not in ${lexicon.name}: ${list(phonies)}.`,
        { anchor: line.at, words: phonies, lexicon: lexicon.name },
        mainBad ? 'rule 5' : 'rule 9',
      );
    }
  }
  return ok({ scored, phonies });
}

/**
 * Validates a play against the board, the rack and (optionally) the lexicon, and scores it.
 *
 * Checks, in order, each failure a {@link RuleError} citing seed-003:
 * the word is non-empty (`EMPTY_PLAY`, rule 4), on the board (`OFF_BOARD`, rule 5) and off bricked
 * squares (`SQUARE_BRICKED`, issue 21); every `.`
 * is on an occupied square (`NOTHING_TO_PLAY_THROUGH`, rule 5a); a letter written on an occupied
 * square matches the tile there (`SQUARE_OCCUPIED`, rule 5); every tile is in the distribution
 * (`UNKNOWN_TILE`) and every blank names a letter of it (`BAD_BLANK_DESIGNATION`, rule 10); at
 * least one tile is placed (`NO_TILES_PLACED`, rule 4); the word as written is whole
 * (`WORD_NOT_WHOLE`, rule 5); the first play covers the centre (or the layout's start square) with two or more tiles
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
  const line = checkOnBoard(ctx.board, move);
  if (!line.ok) return line;
  const bricked = checkBricked(ctx.board, move, line.value);
  if (!bricked.ok) return bricked;
  const reading = checkSquares(ctx, move, line.value);
  if (!reading.ok) return reading;
  const whole = checkWhole(ctx.board, move, line.value);
  if (!whole.ok) return whole;
  const connected = checkConnected(ctx.board, move, line.value, reading.value);
  if (!connected.ok) return connected;
  const { placements } = reading.value;
  const rackAfter = checkRack(ctx, move, line.value, placements);
  if (!rackAfter.ok) return rackAfter;
  const judged = scoreAndJudge(ctx, move, line.value, placements);
  if (!judged.ok) return judged;
  const { scored, phonies } = judged.value;
  const play: ScoredPlay = {
    move,
    placements,
    words: scored.words,
    bingo: scored.bingo,
    bingoBonus: scored.bingoBonus,
    score: scored.score,
    phonies,
    ...(rackAfter.value ? { rackAfter: rackAfter.value } : {}),
  };
  return ok(play);
}

/** The board after a checked play: its placements added (seed-003 rule 10: a blank keeps its letter). */
export function applyPlay(board: Board, play: ScoredPlay): Board {
  return withTiles(board, play.placements);
}
