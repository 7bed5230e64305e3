import { err, ok, type Result } from './result.js';
import { ruleError, type RuleError } from './errors.js';

/**
 * Board layouts as data: one string per row, one character per square, in the legend of
 * reference/tiles-and-boards.md (`=` TWS, `-` DWS, `"` TLS, `'` DLS, `~` QWS, `^` QLS, space plain),
 * extended with `#` for a bricked square, which no tile may ever occupy (MAGPIE's blocked squares).
 * Boards are square, 5×5 to 25×25 (`layout.ts` checks a layout given as data).
 */
export interface Layout {
  readonly name: string;
  readonly rows: readonly string[];
  /** The square the first play must cover; absent = the centre (odd sizes only: `layout.ts` requires it otherwise). */
  readonly start?: Square;
  /** `sha256:` + hex of the canonical rows and start (`layout.ts`), for layouts given as data. */
  readonly hash?: string;
  /** One line on what the layout is for (named layouts). */
  readonly description?: string;
}

/** The bricked square's symbol: no tile may be placed there, and words stop at it as at the edge. */
export const BRICKED = '#';

export const PREMIUMS = {
  ' ': { letter: 1, word: 1 },
  "'": { letter: 2, word: 1 },
  '"': { letter: 3, word: 1 },
  '^': { letter: 4, word: 1 },
  '-': { letter: 1, word: 2 },
  '=': { letter: 1, word: 3 },
  '~': { letter: 1, word: 4 },
  [BRICKED]: { letter: 1, word: 1 },
} as const;
export type PremiumSymbol = keyof typeof PREMIUMS;

/** The standard 15×15 board (macondo `CrosswordGameBoard`); the centre H8 is a DWS and the start square. */
export const STANDARD_LAYOUT: Layout = {
  name: 'CrosswordGame',
  description: 'The standard 15×15 board; the first play covers the centre H8.',
  rows: [
    `=  '   =   '  =`,
    ` -   "   "   - `,
    `  -   ' '   -  `,
    `'  -   '   -  '`,
    `    -     -    `,
    ` "   "   "   " `,
    `  '   ' '   '  `,
    `=  '   -   '  =`,
    `  '   ' '   '  `,
    ` "   "   "   " `,
    `    -     -    `,
    `'  -   '   -  '`,
    `  -   ' '   -  `,
    ` -   "   "   - `,
    `=  '   =   '  =`,
  ],
};

/**
 * The 21×21 super board (macondo `SuperCrosswordGameBoard`). The source's row 11 ends in three
 * spaces where every other row is mirror-symmetric; we use the symmetric DLS at 11U.
 */
export const SUPER_LAYOUT: Layout = {
  name: 'SuperCrosswordGame',
  description: 'The 21×21 super board with quadruple premiums; the first play covers the centre K11.',
  rows: [
    `~  '   =  '  =   '  ~`,
    ` -  "   -   -   "  - `,
    `  -  ^   - -   ^  -  `,
    `'  =  '   =   '  =  '`,
    ` "  -   "   "   -  " `,
    `  ^  -   ' '   -  ^  `,
    `   '  -   '   -  '   `,
    `=      -     -      =`,
    ` -  "   "   "   "  - `,
    `  -  '   ' '   '  -  `,
    `'  =  '   -   '  =  '`,
    `  -  '   ' '   '  -  `,
    ` -  "   "   "   "  - `,
    `=      -     -      =`,
    `   '  -   '   -  '   `,
    `  ^  -   ' '   -  ^  `,
    ` "  -   "   "   -  " `,
    `'  =  '   =   '  =  '`,
    `  -  ^   - -   ^  -  `,
    ` -  "   -   -   "  - `,
    `~  '   =  '  =   '  ~`,
  ],
};

/** The standard board's size and centre without premiums: a plain board for tests and teaching. */
export const NO_PREMIUM_LAYOUT: Layout = {
  name: 'NoPremium15',
  description: 'A 15×15 board without premium squares; the first play covers the centre H8.',
  rows: new Array<string>(15).fill(' '.repeat(15)),
};

/** A test board: 7×7 with the start in the top-left corner A1 and one of each premium, quadruples included. */
export const START_CORNER_LAYOUT: Layout = {
  name: 'TestStartCorner7',
  description: 'A 7×7 test board whose first play covers the corner A1; it has every premium, quadruples included.',
  start: { row: 0, col: 0 },
  rows: [`-  '  ~`, ` "   " `, `  ^ ^  `, `'  =  '`, `  ^ ^  `, ` "   " `, `~  '  -`],
};

/** A test board: 11×11 with a 3×3 box of bricked squares E5–G7 in the middle and the start at F2. */
export const BRICKED_BOX_LAYOUT: Layout = {
  name: 'TestBrickedBox11',
  description: 'An 11×11 test board with a bricked 3×3 box E5–G7 in the middle; the first play covers F2.',
  start: { row: 1, col: 5 },
  rows: [
    `=    -    =`,
    ` "   '   " `,
    `  '     '  `,
    `   -   -   `,
    `    ###    `,
    `-   ###   -`,
    `    ###    `,
    `   -   -   `,
    `  '     '  `,
    ` "   '   " `,
    `=    -    =`,
  ],
};

/** The named layouts, by name: what `board.layout` of a rule set may name and the `layouts` query lists. */
export const LAYOUTS: Readonly<Record<string, Layout>> = {
  [STANDARD_LAYOUT.name]: STANDARD_LAYOUT,
  [SUPER_LAYOUT.name]: SUPER_LAYOUT,
  [NO_PREMIUM_LAYOUT.name]: NO_PREMIUM_LAYOUT,
  [START_CORNER_LAYOUT.name]: START_CORNER_LAYOUT,
  [BRICKED_BOX_LAYOUT.name]: BRICKED_BOX_LAYOUT,
};

export const layoutSize = (layout: Layout): number => layout.rows.length;
export const centreIndex = (layout: Layout): number => (layout.rows.length - 1) / 2;

/** The square the first play must cover: the layout's own, else the centre. */
export const startSquare = (layout: Layout): Square => {
  if (layout.start) return layout.start;
  const c = centreIndex(layout);
  return { row: c, col: c };
};

export const isBricked = (layout: Layout, row: number, col: number): boolean => layout.rows[row]?.[col] === BRICKED;

export const premiumAt = (layout: Layout, row: number, col: number): { letter: number; word: number } =>
  PREMIUMS[(layout.rows[row]?.[col] ?? ' ') as PremiumSymbol] ?? PREMIUMS[' '];

// ---------------------------------------------------------------------------------------------
// Coordinates

export const DIRECTIONS = ['across', 'down'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** A square, 0-based. Row 0 is GCG row 1; column 0 is GCG column A. */
export interface Square {
  readonly row: number;
  readonly col: number;
}

/** Where a play starts and which way it runs. */
export interface Anchor extends Square {
  readonly dir: Direction;
}

const COLUMNS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `H8` style name of a square (column letter, 1-based row). */
export const formatSquare = (sq: Square): string => `${COLUMNS[sq.col]}${sq.row + 1}`;

/**
 * Parses a GCG coordinate: row number first (`8H`) is across, column letter first (`H8`) is down.
 * Case-insensitive, as old records write `n8` and `8d`. Bounds are checked by {@link checkAnchor}.
 */
export const parseAnchor = (text: string): Result<Anchor, RuleError> => {
  const across = /^(\d{1,2})([A-Za-z])$/.exec(text);
  const down = /^([A-Za-z])(\d{1,2})$/.exec(text);
  if (across) return ok({ row: Number(across[1]) - 1, col: COLUMNS.indexOf(across[2]!.toUpperCase()), dir: 'across' });
  if (down) return ok({ row: Number(down[2]) - 1, col: COLUMNS.indexOf(down[1]!.toUpperCase()), dir: 'down' });
  return err(
    ruleError('BAD_COORDINATE', `"${text}" is not a coordinate: write 8H (row 8, column H) for across or H8 for down.`, {
      coordinate: text,
    }),
  );
};

export const formatAnchor = (a: Anchor): string => (a.dir === 'across' ? `${a.row + 1}${COLUMNS[a.col]}` : `${COLUMNS[a.col]}${a.row + 1}`);

export const onBoard = (layout: Layout, row: number, col: number): boolean =>
  row >= 0 && col >= 0 && row < layout.rows.length && col < layout.rows.length;

// ---------------------------------------------------------------------------------------------
// Board state

/** A tile on the board: `letter` is what it reads as (uppercase); `blank` marks a designated blank. */
export interface PlacedTile {
  readonly letter: string;
  readonly blank: boolean;
}

/**
 * A tile put down this turn (letter uppercase; `blank` true for a designated blank). It lives with the
 * board rather than in `placement.ts` because scoring and the game state need it too, and neither
 * should depend on the legality checks.
 */
export interface Placement extends Square, PlacedTile {}

/** An immutable board position: row-major cells, `null` for empty. */
export interface Board {
  readonly layout: Layout;
  readonly cells: readonly (PlacedTile | null)[];
  readonly tileCount: number;
}

export const emptyBoard = (layout: Layout = STANDARD_LAYOUT): Board => ({
  layout,
  cells: new Array<PlacedTile | null>(layout.rows.length * layout.rows.length).fill(null),
  tileCount: 0,
});

export const tileAt = (board: Board, row: number, col: number): PlacedTile | null => {
  const n = board.layout.rows.length;
  if (row < 0 || col < 0 || row >= n || col >= n) return null;
  return board.cells[row * n + col] ?? null;
};

/** Returns a new board with the tiles placed; the caller has already checked legality. */
export const withTiles = (board: Board, placed: readonly Placement[]): Board => {
  const n = board.layout.rows.length;
  const cells = board.cells.slice();
  for (const p of placed) cells[p.row * n + p.col] = { letter: p.letter, blank: p.blank };
  return { layout: board.layout, cells, tileCount: board.tileCount + placed.length };
};

/** Returns a new board without the tiles on these squares (a withdrawn phony, a substituted blank). */
export const withoutTiles = (board: Board, squares: readonly Square[]): Board => {
  const n = board.layout.rows.length;
  const cells = board.cells.slice();
  let removed = 0;
  for (const s of squares) {
    if (cells[s.row * n + s.col]) removed++;
    cells[s.row * n + s.col] = null;
  }
  return { layout: board.layout, cells, tileCount: board.tileCount - removed };
};

/** Text picture of the board for logs, tests and the CLI: letters, lowercase blanks, `.` empty. */
export const formatBoard = (board: Board): string => {
  const n = board.layout.rows.length;
  const lines: string[] = [];
  for (let r = 0; r < n; r++) {
    let line = '';
    for (let c = 0; c < n; c++) {
      const t = tileAt(board, r, c);
      const face = t ? (t.blank ? t.letter.toLowerCase() : t.letter) : '.';
      line += face.length > 1 ? `[${face}]` : face;
    }
    lines.push(line);
  }
  return lines.join('\n');
};
