import { formatSquare, withTiles, emptyBoard, type Board, type Layout, type PlacedTile, type Square } from './board.js';
import { ruleError, type RuleError } from './errors.js';
import { err, ok, type Result } from './result.js';
import { scoreTable, type Distribution } from './tiles.js';

/** Error code of {@link parseBoardRows}; the message always names the row (and square) at fault. */
export const BOARD_TEXT_ERROR_CODES = ['BAD_BOARD'] as const;
export type BoardTextErrorCode = (typeof BOARD_TEXT_ERROR_CODES)[number];

/**
 * Reads a position written as rows of text, the form {@link formatBoard} prints: one string per row,
 * top row first, one character per square — an uppercase letter for a tile, a lowercase letter for a
 * designated blank, `.` for an empty square, `[CH]` / `[ch]` for a digraph tile. Spaces are not
 * squares and are ignored, so rows may be written `C A T . .` for readability.
 *
 * Checks the shape (as many rows as the layout has, each with as many squares) and that every tile
 * is a letter of `distribution`; it does not check that the position could arise in a game (tile
 * counts, connection), which a referee asked about one play does not need.
 */
export const parseBoardRows = (rows: readonly string[], layout: Layout, distribution: Distribution): Result<Board, RuleError> => {
  const size = layout.rows.length;
  const bad = (message: string, details: Record<string, unknown>) => err(ruleError('BAD_BOARD', message, details));
  if (rows.length !== size) {
    return bad(
      `The board has ${rows.length} row${rows.length === 1 ? '' : 's'}; the ${layout.name} board has ${size} (write one string per row, "." for an empty square).`,
      {
        rows: rows.length,
        expected: size,
      },
    );
  }
  const letters = scoreTable(distribution);
  const placed: (Square & PlacedTile)[] = [];
  for (let row = 0; row < size; row++) {
    const text = rows[row]!;
    const squares = splitRow(text.replace(/ /g, ''));
    if (typeof squares === 'string') {
      return bad(`Row ${row + 1} ("${text}") ${squares}.`, { row: row + 1, text });
    }
    if (squares.length !== size) {
      return bad(
        `Row ${row + 1} ("${text}") has ${squares.length} square${squares.length === 1 ? '' : 's'}; the ${layout.name} board has ${size} per row.`,
        {
          row: row + 1,
          text,
          squares: squares.length,
          expected: size,
        },
      );
    }
    for (let col = 0; col < size; col++) {
      const face = squares[col]!;
      if (face === '.') continue;
      const letter = face.toUpperCase();
      const blank = face !== letter;
      if (!letters.has(letter)) {
        const square = formatSquare({ row, col });
        return bad(
          `Row ${row + 1}: ${square} holds "${face}", which is not a letter of the ${distribution.name} tile set (use "." for an empty square).`,
          {
            row: row + 1,
            square,
            tile: face,
            distribution: distribution.name,
          },
        );
      }
      placed.push({ row, col, letter, blank });
    }
  }
  return ok(withTiles(emptyBoard(layout), placed));
};

/** Squares of one row, or why the row cannot be read. A digraph is `[CH]` (tile) or `[ch]` (blank). */
const splitRow = (text: string): string[] | string => {
  const out: string[] = [];
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '[') {
      const close = chars.indexOf(']', i + 1);
      const face = close < 0 ? '' : chars.slice(i + 1, close).join('');
      if (close < 0 || face.length < 2 || !/^\p{L}+$/u.test(face) || (face !== face.toUpperCase() && face !== face.toLowerCase())) {
        return `has "[" at position ${i + 1} without a multi-letter tile such as [CH] or [ch] after it`;
      }
      out.push(face);
      i = close;
    } else if (c === '.' || /^\p{L}$/u.test(c)) {
      out.push(c);
    } else {
      return `has "${c}" at position ${i + 1}: write a letter, a lowercase letter for a blank, or "." for an empty square`;
    }
  }
  return out;
};
