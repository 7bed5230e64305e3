import { err, ok, type Result } from './result.js';
import { ruleError, cite, type RuleError } from './errors.js';
import { formatAnchor, parseAnchor, type Anchor } from './board.js';
import { BLANK, joinTiles } from './tiles.js';

/**
 * One move, as notation writes it: syntax only, not legality (that is `placement.ts`).
 *
 * A play's word lists every square of the main word from its first square. A square that was
 * already occupied is written either as `.` (modern records) or as its letter (older records);
 * a `letter` entry on an occupied square is resolved against the board by the placement code.
 */
export type WordTile =
  /** A tile of the word: placed from the rack this turn, or (old style) a letter already on the board. */
  | { readonly kind: 'letter'; readonly letter: string; readonly blank: boolean }
  /** `.`: a square already occupied, played through. */
  | { readonly kind: 'through' };

export interface PlayMove {
  readonly kind: 'play';
  readonly anchor: Anchor;
  readonly word: readonly WordTile[];
}

/** `-ABC` (tiles known) or `-3` (count only: `tiles` is null). `-` alone is a pass, not an exchange. */
export interface ExchangeMove {
  readonly kind: 'exchange';
  readonly tiles: readonly string[] | null;
  readonly count: number;
}

export interface PassMove {
  readonly kind: 'pass';
}

export type Move = PlayMove | ExchangeMove | PassMove;
export const MOVE_KINDS = ['play', 'exchange', 'pass'] as const;

// ---------------------------------------------------------------------------------------------
// Notation: parse and format

/** The GCG spec governs the notation (reference/gcg-format.md §3). */
const NOTATION = cite('gcg', '§3 event lines');

/** Notation error codes; every one names the offending character or token. */
export const MOVE_ERROR_CODES = ['BAD_MOVE', 'BAD_COORDINATE', 'BAD_WORD', 'BAD_EXCHANGE', 'BAD_RACK'] as const;
export type MoveErrorCode = (typeof MOVE_ERROR_CODES)[number];

const MIDDLE_DOT = '\u00b7';
const isUpper = (c: string): boolean => c !== c.toLowerCase() && c === c.toUpperCase();
/** Lowercase with a one-character uppercase form, so a blank always reads back as the same tile. */
const isLower = (c: string): boolean => c !== c.toUpperCase() && c === c.toLowerCase() && [...c.toUpperCase()].length === 1;

/** A digraph tile's face (`CH`, `L·L`): letters of one case, with `·` allowed between them. */
const digraphCase = (face: string): 'upper' | 'lower' | null => {
  const letters = [...face].filter((c) => c !== MIDDLE_DOT);
  if (letters.length < 1 || [...face].length < 2) return null;
  if (letters.every(isUpper)) return 'upper';
  if (letters.every(isLower)) return 'lower';
  return null;
};

type Lexeme =
  | { readonly kind: 'tile'; readonly face: string; readonly pos: number }
  | { readonly kind: 'mark'; readonly char: string; readonly pos: number };

/**
 * Splits notation into tiles (`A`, `a`, `[CH]`, `[ch]`) and marks (every other single character),
 * with 1-based character positions for messages. Unlike {@link splitTiles} it keeps positions and
 * reports an unclosed or malformed bracket instead of guessing.
 */
const lex = (text: string): Result<Lexeme[], { char: string; pos: number; why: string }> => {
  const chars = [...text];
  const out: Lexeme[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c !== '[') {
      out.push(/^\p{L}$/u.test(c) ? { kind: 'tile', face: c, pos: i + 1 } : { kind: 'mark', char: c, pos: i + 1 });
      continue;
    }
    const close = chars.indexOf(']', i + 1);
    if (close < 0) return err({ char: '[', pos: i + 1, why: 'opens a multi-letter tile that is never closed with ]' });
    const face = chars.slice(i + 1, close).join('');
    if (!digraphCase(face))
      return err({
        char: `[${face}]`,
        pos: i + 1,
        why: 'is not a multi-letter tile: write two or more letters of one case, e.g. [CH] or [ch] for a blank',
      });
    out.push({ kind: 'tile', face, pos: i + 1 });
    i = close;
  }
  return ok(out);
};

const tileCase = (face: string): 'upper' | 'lower' | null =>
  [...face].length > 1 ? digraphCase(face) : isUpper(face) ? 'upper' : isLower(face) ? 'lower' : null;

/**
 * Parses the word of a play: every square of the main word from its first square. Uppercase is a
 * tile from the rack (or, in old records, a letter already on the board), lowercase a blank, `.` a
 * square played through, `[CH]`/`[ch]` a digraph tile. A parenthesised group `Q(UIXOTI)C`, as some
 * tools write, marks its tiles as played through; its letters are not kept (the board supplies
 * them), exactly like `.` (reference/gcg-format.md §3 row 1).
 */
export const parseWord = (word: string): Result<WordTile[], RuleError> => {
  const bad = (char: string, pos: number, why: string) =>
    err(ruleError('BAD_WORD', `"${char}" at position ${pos} of the word "${word}" ${why}.`, { word, char, position: pos }, NOTATION));
  if (word.length === 0) return err(ruleError('BAD_WORD', 'The word is empty: write the letters of the main word.', { word }, NOTATION));
  const lexed = lex(word);
  if (!lexed.ok) return bad(lexed.error.char, lexed.error.pos, lexed.error.why);
  const out: WordTile[] = [];
  let group: { pos: number; size: number } | null = null;
  for (const x of lexed.value) {
    if (x.kind === 'tile') {
      const kase = tileCase(x.face);
      if (!kase) return bad(x.face, x.pos, 'is not a tile: letters must have a case (uppercase tile, lowercase blank)');
      if (group) {
        group.size++;
        out.push({ kind: 'through' });
      } else {
        out.push({ kind: 'letter', letter: x.face.toUpperCase(), blank: kase === 'lower' });
      }
    } else if (x.char === '.') {
      if (group) return bad('.', x.pos, 'cannot stand inside a parenthesised group: write the letters or use . alone');
      out.push({ kind: 'through' });
    } else if (x.char === '(') {
      if (group) return bad('(', x.pos, 'opens a group inside another group');
      group = { pos: x.pos, size: 0 };
    } else if (x.char === ')') {
      if (!group) return bad(')', x.pos, 'closes a group that was never opened');
      if (group.size === 0) return bad('()', group.pos, 'is an empty group');
      group = null;
    } else {
      return bad(x.char, x.pos, 'is not a tile: use letters, lowercase for a blank, . for a square played through, [CH] for a digraph');
    }
  }
  if (group) return bad('(', group.pos, 'opens a group that is never closed with )');
  return ok(out);
};

/**
 * Parses rack tiles: uppercase letters, `?` for a blank, `[CH]` for a digraph tile (gcg §3).
 * With `code` `BAD_EXCHANGE` it checks the tiles after an exchange's `-` and reports them as such.
 */
export const parseRack = (text: string, code: 'BAD_RACK' | 'BAD_EXCHANGE' = 'BAD_RACK'): Result<string[], RuleError> => {
  // An exchange is reported as written, with its leading `-`.
  const [what, shown, shift] = code === 'BAD_RACK' ? ['rack', text, 0] : ['exchange', `-${text}`, 1];
  const bad = (char: string, pos: number, why: string) =>
    err(
      ruleError(
        code,
        `"${char}" at position ${pos + shift} of the ${what} "${shown}" ${why}.`,
        { [what]: shown, char, position: pos + shift },
        NOTATION,
      ),
    );
  const lexed = lex(text);
  if (!lexed.ok) return bad(lexed.error.char, lexed.error.pos, lexed.error.why);
  const out: string[] = [];
  for (const x of lexed.value) {
    if (x.kind === 'mark' && x.char === BLANK) out.push(BLANK);
    else if (x.kind === 'tile' && tileCase(x.face) === 'upper') out.push(x.face);
    else {
      const char = x.kind === 'tile' ? ([...x.face].length > 1 ? `[${x.face}]` : x.face) : x.char;
      return bad(char, x.pos, 'is not a tile: write uppercase letters, ? for a blank, [CH] for a digraph');
    }
  }
  return ok(out);
};

/** `8H WORD` (across) or `H8 WORD` (down): the coordinate is the word's first square (gcg §3 row 1). */
export const parsePlay = (coordinate: string, word: string): Result<PlayMove, RuleError> => {
  const anchor = parseAnchor(coordinate);
  if (!anchor.ok) return err({ ...anchor.error, citation: NOTATION });
  const tiles = parseWord(word);
  if (!tiles.ok) return tiles;
  return ok({ kind: 'play', anchor: anchor.value, word: tiles.value });
};

/**
 * `-` is a pass, `-ABC` an exchange of known tiles (`?` a blank), `-3` an exchange of three
 * unknown tiles (gcg §3 rows 3–5). `--` is the GCG phony-withdrawn marker, not a move.
 */
export const parseExchange = (text: string): Result<ExchangeMove | PassMove, RuleError> => {
  const bad = (message: string) => err(ruleError('BAD_EXCHANGE', message, { exchange: text }, NOTATION));
  if (!text.startsWith('-')) return bad(`"${text}" is not an exchange or a pass: they start with -.`);
  const body = text.slice(1);
  if (body === '') return ok({ kind: 'pass' });
  if (body === '-') return bad('"--" marks a withdrawn phony in a GCG record; it is not a move.');
  if (/^\d+$/.test(body)) {
    const count = Number(body);
    if (count < 1 || body.length > 2) return bad(`"${text}" exchanges ${body} tiles: write a count from 1 to 99, or - for a pass.`);
    return ok({ kind: 'exchange', tiles: null, count });
  }
  const tiles = parseRack(body, 'BAD_EXCHANGE');
  if (!tiles.ok) return tiles;
  return ok({ kind: 'exchange', tiles: tiles.value, count: tiles.value.length });
};

/**
 * Parses one move in notation: `8H QUIXOTIC` (across), `H8 QUIXOTIC` (down), `TE.RDOWN`,
 * `QUIXoTIC` (blank), `[CH]`, `Q(UIXOTI)C`, `-ABC`, `-?`, `-3`, `-` (pass). Syntax only:
 * bounds, connection and the rack are the placement code's business (gcg §3).
 */
export const parseMove = (text: string): Result<Move, RuleError> => {
  const tokens = text
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');
  if (tokens.length === 1 && tokens[0]!.startsWith('-')) return parseExchange(tokens[0]!);
  if (tokens.length === 2) return parsePlay(tokens[0]!, tokens[1]!);
  return err(
    ruleError(
      'BAD_MOVE',
      `"${text}" is not a move: write a coordinate and a word (8H WORD across, H8 WORD down), -TILES to exchange, -N for N unknown tiles, or - to pass.`,
      { move: text },
      NOTATION,
    ),
  );
};

/** Writes a word in the canonical modern form: `.` for played-through squares, lowercase blanks. */
export const formatWord = (word: readonly WordTile[]): string =>
  word
    .map((t) => {
      if (t.kind === 'through') return '.';
      const face = t.blank ? t.letter.toLowerCase() : t.letter;
      return [...face].length > 1 ? `[${face}]` : face;
    })
    .join('');

/** Writes a move in canonical notation; `parseMove(formatMove(m))` gives `m` back. */
export const formatMove = (move: Move): string => {
  switch (move.kind) {
    case 'play':
      return `${formatAnchor(move.anchor)} ${formatWord(move.word)}`;
    case 'exchange':
      return move.tiles ? `-${joinTiles(move.tiles)}` : `-${move.count}`;
    case 'pass':
      return '-';
  }
};
