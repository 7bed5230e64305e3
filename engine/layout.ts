import { createHash } from 'node:crypto';
import { BRICKED, formatSquare, LAYOUTS, PREMIUMS, startSquare, type Layout, type Square } from './board.js';
import { ruleError, type RuleError } from './errors.js';
import { err, ok, type Result } from './result.js';

/**
 * Layouts given as data (issue 21): rows in the legend of `board.ts` and a start square, checked and
 * content-hashed so that a game stores exactly the board it was played on.
 */

export const MIN_BOARD_SIZE = 5;
export const MAX_BOARD_SIZE = 25;

/** Why a layout given as data was refused; the message names the row, column or square at fault. */
export const LAYOUT_ERROR_CODES = [
  'LAYOUT_SIZE',
  'LAYOUT_RAGGED_ROWS',
  'LAYOUT_UNKNOWN_SYMBOL',
  'LAYOUT_START_MISSING',
  'LAYOUT_START_OFF_BOARD',
  'LAYOUT_START_BRICKED',
  'LAYOUT_NOT_FOUND',
] as const;
export type LayoutErrorCode = (typeof LAYOUT_ERROR_CODES)[number];

/**
 * A layout as a client writes it: rows of legend symbols and the start square's name (`A1`, `H8`). A plain
 * square may be written `.` as well as a space (the API prints `.`: a row's edge spaces are easily lost).
 */
export interface LayoutSpec {
  readonly rows: readonly string[];
  readonly start?: string | null;
}

/** Custom layouts are named after their hash so that two games on the same rows share one name. */
export const CUSTOM_LAYOUT_PREFIX = 'custom-';

const fail = (code: LayoutErrorCode, message: string, details: Record<string, unknown>): Result<never, RuleError> =>
  err(ruleError(code, message, details));

const LEGEND = Object.keys(PREMIUMS).join('');
const COLUMNS = 'ABCDEFGHIJKLMNOPQRSTUVWXY';

/** `sha256:` + hex of the rows (one per line) and the start square's name: the layout's identity. */
export const layoutHash = (rows: readonly string[], start: Square): string =>
  `sha256:${createHash('sha256')
    .update(`${rows.join('\n')}\nstart ${formatSquare(start)}`, 'utf8')
    .digest('hex')}`;

/** `A1`, `h8`, `Y25` → a square (column letter, 1-based row); no bounds check. */
const parseSquareName = (text: string): Square | null => {
  const m = /^([A-Za-z])(\d{1,3})$/.exec(text.trim());
  return m ? { row: Number(m[2]) - 1, col: m[1]!.toUpperCase().charCodeAt(0) - 65 } : null;
};

const checkShape = (rows: readonly string[]): Result<true, RuleError> => {
  const n = rows.length;
  if (n < MIN_BOARD_SIZE || n > MAX_BOARD_SIZE) {
    return fail(
      'LAYOUT_SIZE',
      `The layout has ${n} rows; a board is ${MIN_BOARD_SIZE}×${MIN_BOARD_SIZE} to ${MAX_BOARD_SIZE}×${MAX_BOARD_SIZE}.`,
      {
        rows: n,
        min: MIN_BOARD_SIZE,
        max: MAX_BOARD_SIZE,
      },
    );
  }
  for (let r = 0; r < n; r++) {
    const squares = [...rows[r]!];
    if (squares.length !== n) {
      return fail(
        'LAYOUT_RAGGED_ROWS',
        `Row ${r + 1} has ${squares.length} squares; a board of ${n} rows is square, so every row has ${n} (write a space for a plain square).`,
        { row: r + 1, squares: squares.length, expected: n },
      );
    }
    const c = squares.findIndex((s) => !LEGEND.includes(s));
    if (c >= 0) {
      return fail(
        'LAYOUT_UNKNOWN_SYMBOL',
        `Row ${r + 1}, column ${COLUMNS[c]} (${formatSquare({ row: r, col: c })}) holds ${JSON.stringify(squares[c])}, which is not in the legend: ` +
          `space plain, ' DL, " TL, ^ QL, - DW, = TW, ~ QW, ${BRICKED} bricked.`,
        { row: r + 1, column: COLUMNS[c], square: formatSquare({ row: r, col: c }), symbol: squares[c] },
      );
    }
  }
  return ok(true);
};

const checkStart = (rows: readonly string[], text: string | null | undefined): Result<Square, RuleError> => {
  const n = rows.length;
  if (text === undefined || text === null || text.trim() === '') {
    return fail(
      'LAYOUT_START_MISSING',
      'The layout names no start square: give `start`, the square the first play must cover (e.g. "H8").',
      {
        field: 'start',
      },
    );
  }
  const sq = parseSquareName(text);
  if (!sq || sq.row < 0 || sq.col < 0 || sq.row >= n || sq.col >= n) {
    return fail(
      'LAYOUT_START_OFF_BOARD',
      `The start square ${JSON.stringify(text)} is not on this ${n}×${n} board: name a square from A1 to ${formatSquare({ row: n - 1, col: n - 1 })}.`,
      { field: 'start', start: text, size: n },
    );
  }
  if (rows[sq.row]![sq.col] === BRICKED) {
    const name = formatSquare(sq);
    return fail('LAYOUT_START_BRICKED', `The start square ${name} is bricked: the first play could never cover it.`, {
      field: 'start',
      square: name,
    });
  }
  return ok(sq);
};

/**
 * Checks a layout given as data and names it `custom-` + the first 12 hex digits of its hash. Rows are
 * NFC-normalised and `.` read as a space first; errors, in the order checked: LAYOUT_SIZE, LAYOUT_RAGGED_ROWS,
 * LAYOUT_UNKNOWN_SYMBOL, LAYOUT_START_MISSING, LAYOUT_START_OFF_BOARD, LAYOUT_START_BRICKED.
 */
export const parseLayout = (spec: LayoutSpec): Result<Layout, RuleError> => {
  const rows = spec.rows.map((r) => r.normalize('NFC').replace(/\./g, ' '));
  const shape = checkShape(rows);
  if (!shape.ok) return shape;
  const start = checkStart(rows, spec.start);
  if (!start.ok) return start;
  const hash = layoutHash(rows, start.value);
  return ok({ name: `${CUSTOM_LAYOUT_PREFIX}${hash.slice('sha256:'.length, 'sha256:'.length + 12)}`, rows, start: start.value, hash });
};

/** A named layout (`LAYOUTS`), or LAYOUT_NOT_FOUND listing the names. */
export const namedLayout = (name: string): Result<Layout, RuleError> => {
  const found = LAYOUTS[name];
  if (found) return ok(found);
  return fail('LAYOUT_NOT_FOUND', `No layout is named ${JSON.stringify(name)}; the named layouts are ${Object.keys(LAYOUTS).join(', ')}.`, {
    name,
    known: Object.keys(LAYOUTS),
  });
};

/** The hash of any layout, named or custom (named ones are hashed on demand: they carry no hash). */
export const hashOf = (layout: Layout): string => {
  return layout.hash ?? layoutHash(layout.rows, startSquare(layout));
};
