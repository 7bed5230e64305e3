/**
 * CGP (Crossword Game Position), the one-line position format of macondo, MAGPIE and Woogles:
 * `<board> <racks> <scores> <zero turns> [opcode operands; …]`. The board is its rows separated by
 * `/`, a number for a run of empty squares, uppercase letters for tiles, lowercase for blanks and
 * `[CH]`/`[ch]` for a multi-letter tile; racks and scores are `/`-separated, the player to move first.
 * Pure parse and format; `positionFromCgp` turns a parsed record into a move-generation `Position`.
 */
import { emptyBoard, LAYOUTS, STANDARD_LAYOUT, SUPER_LAYOUT, withTiles, type Board, type Layout, type Placement } from '../board.js';
import { ruleError, type RuleError } from '../errors.js';
import { other, type Seat } from '../game/events.js';
import { without } from '../game/multiset.js';
import type { GameState } from '../game/state.js';
import { err, ok, type Result } from '../result.js';
import { BLANK, DISTRIBUTIONS, ENGLISH, ENGLISH_SUPER, fullBag, joinTiles, splitTiles, type Distribution } from '../tiles.js';
import type { Position } from './position.js';

export const CGP_ERROR_CODES = ['BAD_CGP'] as const;

export interface CgpOperation {
  readonly code: string;
  /** The operands as written (trimmed), e.g. `CSW21` for `lex CSW21;`. */
  readonly operands: string;
}

/** A parsed CGP record: what it says, nothing inferred. */
export interface Cgp {
  readonly board: Board;
  readonly distribution: Distribution;
  /** Racks in playing order, the player to move first; a rack lists only the tiles known. */
  readonly racks: readonly (readonly string[])[];
  readonly scores: readonly number[];
  readonly zeroTurns: number;
  /** Operations in the order written (`lm` may repeat). */
  readonly operations: readonly CgpOperation[];
}

const bad = (field: string, message: string): Result<never, RuleError> => err(ruleError('BAD_CGP', `CGP ${field}: ${message}`, { field }));

/** The value of the first operation with this opcode. */
export const cgpOperand = (cgp: Cgp, code: string): string | undefined => cgp.operations.find((o) => o.code === code)?.operands;

const parseOperations = (text: string): Result<CgpOperation[], RuleError> => {
  const out: CgpOperation[] = [];
  const trimmed = text.trim();
  if (trimmed === '') return ok(out);
  if (!trimmed.endsWith(';')) return bad('operations', `"${trimmed}" does not end with ";" (write "opcode operands;").`);
  for (const part of trimmed.slice(0, -1).split(';')) {
    const m = /^\s*([a-z]+)\s*(.*?)\s*$/.exec(part);
    if (!m) return bad('operations', `"${part.trim()}" is not "opcode operands;".`);
    out.push({ code: m[1]!, operands: m[2]! });
  }
  return ok(out);
};

/** Splits one board row into cells: a string per tile, a number per run of empty squares. */
const rowCells = (row: string, r: number): Result<(string | number)[], RuleError> => {
  const out: (string | number)[] = [];
  const chars = [...row];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (/\d/.test(c)) {
      let j = i;
      while (j < chars.length && /\d/.test(chars[j]!)) j++;
      out.push(Number(chars.slice(i, j).join('')));
      i = j - 1;
    } else if (c === '[') {
      const j = chars.indexOf(']', i);
      if (j < 0 || j === i + 1) return bad('board', `row ${r + 1} has an unclosed "[".`);
      out.push(chars.slice(i + 1, j).join(''));
      i = j;
    } else out.push(c);
  }
  return ok(out);
};

const layoutFor = (name: string | undefined, size: number): Result<Layout, RuleError> => {
  if (name !== undefined) {
    const l = LAYOUTS[name];
    return l && l.rows.length === size
      ? ok(l)
      : bad('bdn', `board "${name}" is not a known ${size}×${size} layout (${Object.keys(LAYOUTS).join(', ')}).`);
  }
  if (size === STANDARD_LAYOUT.rows.length) return ok(STANDARD_LAYOUT);
  if (size === SUPER_LAYOUT.rows.length) return ok(SUPER_LAYOUT);
  return bad('board', `${size} rows match no layout; name it with "bdn".`);
};

/** Parses the board field against a distribution (tiles must be its letters). */
const parseBoard = (text: string, layoutName: string | undefined, dist: Distribution): Result<Board, RuleError> => {
  const rows = text.split('/');
  const layout = layoutFor(layoutName, rows.length);
  if (!layout.ok) return layout;
  const n = rows.length;
  const letters = new Set(dist.letters.map((l) => l.letter));
  const placed: Placement[] = [];
  for (let r = 0; r < n; r++) {
    const cells = rowCells(rows[r]!, r);
    if (!cells.ok) return cells;
    let col = 0;
    for (const cell of cells.value) {
      if (typeof cell === 'number') {
        col += cell;
        continue;
      }
      const upper = cell.toUpperCase();
      if (!letters.has(upper)) return bad('board', `row ${r + 1} has "${cell}", which is not a ${dist.name} tile.`);
      if (col < n) placed.push({ row: r, col, letter: upper, blank: cell !== upper });
      col++;
    }
    if (col !== n) return bad('board', `row ${r + 1} covers ${col} squares, not ${n}.`);
  }
  return ok(withTiles(emptyBoard(layout.value), placed));
};

const parseRacks = (text: string, dist: Distribution): Result<string[][], RuleError> => {
  const letters = new Set([...dist.letters.map((l) => l.letter), BLANK]);
  const racks: string[][] = [];
  for (const part of text.split('/')) {
    const tiles = splitTiles(part);
    if (!tiles) return bad('racks', `"${part}" has an unclosed "[".`);
    const unknown = tiles.find((t) => !letters.has(t));
    if (unknown !== undefined) return bad('racks', `"${part}" has "${unknown}", which is not a ${dist.name} tile.`);
    racks.push(tiles);
  }
  return ok(racks);
};

/** Parses a CGP line. The distribution comes from `ld` (default English, or English super on a 21×21 board). */
export const parseCgp = (text: string): Result<Cgp, RuleError> => {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 4) return bad('record', 'needs at least four fields: board, racks, scores, zero turns.');
  const ops = parseOperations(fields.slice(4).join(' '));
  if (!ops.ok) return ops;
  const ld = ops.value.find((o) => o.code === 'ld')?.operands;
  const size = fields[0]!.split('/').length;
  const dist = ld !== undefined ? DISTRIBUTIONS[ld] : size === SUPER_LAYOUT.rows.length ? ENGLISH_SUPER : ENGLISH;
  if (!dist) return bad('ld', `letter distribution "${ld}" is not one of ${Object.keys(DISTRIBUTIONS).join(', ')}.`);
  const board = parseBoard(fields[0]!, ops.value.find((o) => o.code === 'bdn')?.operands, dist);
  if (!board.ok) return board;
  const racks = parseRacks(fields[1]!, dist);
  if (!racks.ok) return racks;
  const scores = fields[2]!.split('/').map(Number);
  if (scores.some((s) => !Number.isInteger(s))) return bad('scores', `"${fields[2]}" is not whole numbers separated by "/".`);
  if (scores.length !== racks.value.length) return bad('scores', `${scores.length} scores for ${racks.value.length} racks.`);
  if (!/^\d+$/.test(fields[3]!)) return bad('zero turns', `"${fields[3]}" is not a count.`);
  return ok({ board: board.value, distribution: dist, racks: racks.value, scores, zeroTurns: Number(fields[3]), operations: ops.value });
};

const face = (letter: string, blank: boolean): string => {
  const f = blank ? letter.toLowerCase() : letter;
  return f.length > 1 ? `[${f}]` : f;
};

/** Writes a CGP line; `parseCgp(formatCgp(x))` gives `x` back. */
export const formatCgp = (cgp: Cgp): string => {
  const n = cgp.board.layout.rows.length;
  const rows: string[] = [];
  for (let r = 0; r < n; r++) {
    let row = '';
    let gap = 0;
    for (let c = 0; c < n; c++) {
      const t = cgp.board.cells[r * n + c];
      if (!t) {
        gap++;
        continue;
      }
      if (gap > 0) row += String(gap);
      gap = 0;
      row += face(t.letter, t.blank);
    }
    rows.push(gap > 0 ? row + String(gap) : row);
  }
  const ops = cgp.operations.map((o) => (o.operands === '' ? `${o.code};` : `${o.code} ${o.operands};`));
  return [rows.join('/'), cgp.racks.map(joinTiles).join('/'), cgp.scores.join('/'), String(cgp.zeroTurns), ...ops].join(' ');
};

/**
 * The position of the player to move. The unseen tiles are the distribution minus the board and
 * that rack; the opponent is taken to hold a full rack of them (or all, near the end), the rest
 * being the bag. `bb` and `etl` set the bingo bonus and the exchange limit.
 */
export const positionFromCgp = (cgp: Cgp, rackSize = 7): Position => {
  const onBoard = cgp.board.cells.flatMap((t) => (t ? [t.blank ? BLANK : t.letter] : []));
  const rack = cgp.racks[0] ?? [];
  const unseen = without(without(fullBag(cgp.distribution), onBoard) ?? [], rack) ?? [];
  const bb = cgpOperand(cgp, 'bb');
  const etl = cgpOperand(cgp, 'etl');
  return {
    board: cgp.board,
    distribution: cgp.distribution,
    rack,
    bagCount: Math.max(0, unseen.length - Math.min(rackSize, unseen.length)),
    unseen,
    rules: {
      rackSize,
      ...(bb !== undefined ? { bingoBonus: Number(bb) } : {}),
      ...(etl !== undefined ? { exchangeMinBag: Number(etl) } : {}),
    },
  };
};

/**
 * A game state as CGP, from the side of `viewer` (the player on turn first): only the racks of the
 * seats in `revealed` are written, so nobody's hidden tiles leak (an empty list writes none).
 */
export const cgpFromState = (state: GameState, revealed: readonly Seat[], lexicon?: string): string => {
  const first = state.turn;
  const seats: Seat[] = [first, other(first)];
  const lex = lexicon ?? state.lexicon?.name;
  const operations: CgpOperation[] = [
    { code: 'bb', operands: String(state.rules.board.bingoBonus) },
    // A board given as data (issue 21) is named custom-<hash>; its rows are the game's own (GCG #board-row).
    { code: 'bdn', operands: state.board.layout.name },
    { code: 'ld', operands: state.distribution.name },
    ...(lex ? [{ code: 'lex', operands: lex }] : []),
  ];
  return formatCgp({
    board: state.board,
    distribution: state.distribution,
    racks: seats.map((s) => (revealed.includes(s) ? state.racks[s].tiles : [])),
    scores: seats.map((s) => state.scores[s]),
    zeroTurns: state.scorelessTurns,
    operations,
  });
};
