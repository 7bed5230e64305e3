/**
 * Tiles put on the board before a play is sent: pure functions over plain data (unit-tested in
 * placement.test.ts), so the page can say what it will send before asking the server.
 */

export interface Cell {
  /** What the tile reads as, uppercase (a digraph tile is one cell: CH). */
  readonly letter: string;
  readonly blank: boolean;
}

export interface Square {
  readonly row: number;
  readonly col: number;
}

export interface Placed extends Square, Cell {
  /** Index of the rack tile it came from. */
  readonly rackIndex: number;
}

export type Direction = 'across' | 'down';

const COLUMNS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const squareName = (s: Square): string => `${COLUMNS[s.col]}${s.row + 1}`;

export const parseSquare = (name: string): Square | null => {
  const m = /^([A-Z])(\d{1,2})$/.exec(name);
  return m ? { row: Number(m[2]) - 1, col: COLUMNS.indexOf(m[1]!) } : null;
};

/** Splits tile text into tiles: `[CH]` is one tile, every other character one (`?` a blank). */
export const splitTiles = (text: string): string[] => {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '[') {
      const j = text.indexOf(']', i);
      out.push(text.slice(i + 1, j < 0 ? text.length : j));
      i = j < 0 ? text.length : j;
    } else out.push(text[i]!);
  }
  return out;
};

/** The API's board rows (`.` empty, lowercase = blank, `[CH]` a digraph) as a grid of cells. */
export const parseRows = (rows: readonly string[]): (Cell | null)[][] =>
  rows.map((row) => splitTiles(row).map((t) => (t === '.' ? null : { letter: t.toUpperCase(), blank: t !== t.toUpperCase() })));

const face = (c: Cell): string => {
  const l = c.blank ? c.letter.toLowerCase() : c.letter;
  return l.length > 1 ? `[${l}]` : l;
};

export type Notation =
  { readonly ok: true; readonly move: string; readonly dir: Direction } | { readonly ok: false; readonly message: string };

const occupied = (board: readonly (readonly (Cell | null)[])[], r: number, c: number): boolean => Boolean(board[r]?.[c]);

/**
 * The GCG notation of the placed tiles (`8H CAT` across, `H8 CAT` down, `.` for a tile already on the
 * board, lowercase for a blank), or why there is none. A single tile runs the way it joins a word.
 */
export const notationOf = (board: readonly (readonly (Cell | null)[])[], placed: readonly Placed[]): Notation => {
  if (placed.length === 0) return { ok: false, message: 'Place tiles on the board first.' };
  const rows = new Set(placed.map((p) => p.row));
  const cols = new Set(placed.map((p) => p.col));
  let dir: Direction;
  if (placed.length === 1) {
    const p = placed[0]!;
    const across = occupied(board, p.row, p.col - 1) || occupied(board, p.row, p.col + 1);
    const down = occupied(board, p.row - 1, p.col) || occupied(board, p.row + 1, p.col);
    dir = !across && down ? 'down' : 'across';
  } else if (rows.size === 1) dir = 'across';
  else if (cols.size === 1) dir = 'down';
  else return { ok: false, message: 'Place the tiles in one row or one column.' };
  const at = (i: number): Square => (dir === 'across' ? { row: placed[0]!.row, col: i } : { row: i, col: placed[0]!.col });
  const index = (s: Square) => (dir === 'across' ? s.col : s.row);
  const mine = new Map(placed.map((p) => [index(p), p]));
  let start = Math.min(...mine.keys());
  let end = Math.max(...mine.keys());
  const filled = (i: number) => mine.has(i) || occupied(board, at(i).row, at(i).col);
  while (start > 0 && filled(start - 1)) start--;
  while (filled(end + 1) && end + 1 < board.length) end++;
  let word = '';
  for (let i = start; i <= end; i++) {
    const p = mine.get(i);
    if (p) word += face(p);
    else if (occupied(board, at(i).row, at(i).col)) word += '.';
    else return { ok: false, message: 'There is a gap between your tiles: they must form one word with the tiles between them.' };
  }
  const first = at(start);
  const move = dir === 'across' ? `${first.row + 1}${COLUMNS[first.col]} ${word}` : `${COLUMNS[first.col]}${first.row + 1} ${word}`;
  return { ok: true, move, dir };
};
