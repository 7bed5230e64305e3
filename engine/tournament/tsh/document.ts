/**
 * The syntax tree of a TSH division file (`a.t`, `b.t` …): one line per player in entrant-number
 * order, as John Chew's tsh reads and writes it (TFile.pm `ParseLine`/`FormatLine`, TSH::Player's
 * list of supplementary fields; see docs/tsh.md for the sources). Syntax only: nothing here knows
 * who won. Plain, JSON-safe data.
 *
 * Every physical line of the file is one element of `lines`, so a line's number is its index + 1
 * and comments and blank lines survive a round trip. Entrant numbers count player lines only.
 */

/** A line end as found in the file; tsh itself accepts any run of CR and LF. */
export type TshLineEnding = '\n' | '\r\n' | '\r';

export interface TshDivisionFile {
  readonly lines: readonly TshLine[];
  /** The line end written after each line; absent means LF. */
  readonly lineEnding?: TshLineEnding;
  /** Whether the last line ends with a line end; absent means yes (tsh always writes one). */
  readonly finalNewline?: boolean;
  /** The file began with a byte-order mark (U+FEFF), which tsh skips. */
  readonly bom?: boolean;
}

export type TshLine = TshPlayerLine | TshCommentLine | TshBlankLine;

/** What every line may carry: its own line end, when a file mixes them (absent: the file's). */
interface TshLineBase {
  readonly eol?: TshLineEnding;
}

/**
 * `Last, First  rating  opp1 opp2 …; score1 score2 …; name value value …; …`.
 * The k-th player line is entrant k; opponents refer to entrants by that number.
 */
export interface TshPlayerLine extends TshLineBase {
  readonly kind: 'player';
  /** Everything before the rating, as written ("Smylie, Jackson"; some files have no comma). */
  readonly name: string;
  /** The pre-tournament rating (0 for an unrated player). */
  readonly rating: number;
  /**
   * Opponents by entrant number, one per paired round: 0 is a bye or a forfeit (no opponent),
   * null is tsh's `00` (no pairing recorded for that round, later rounds already paired).
   * Rounds paired but not yet scored make this list longer than `scores`.
   */
  readonly opponents: readonly (number | null)[];
  /** The player's own score per round; a bye or forfeit scores e.g. 50, -50 or 0. null is `00`. */
  readonly scores: readonly (number | null)[];
  /** The `; name value …` fields in file order, values as written (tsh's `00` kept as `'00'`). */
  readonly fields: readonly TshField[];
  /**
   * The line exactly as read. `formatTsh` writes it back while the fields above still say what it
   * says, so a parsed file formats to the same bytes; a line built or changed in code has none
   * (or a stale one) and is written in tsh's own layout.
   */
  readonly raw?: string;
}

export interface TshField {
  /** The first word of the field: `p12`, `board`, `newr`, `off`, `class`, `xtid` … */
  readonly name: string;
  /** The following words; `\;` and `\\` unescaped as tsh does. */
  readonly values: readonly string[];
}

/** A line whose first non-blank character is `#`: tsh ignores it (and does not count it). */
export interface TshCommentLine extends TshLineBase {
  readonly kind: 'comment';
  /** The whole line as written, `#` included. */
  readonly text: string;
}

/** An empty or all-blank line: tsh skips it (and does not count it). */
export interface TshBlankLine extends TshLineBase {
  readonly kind: 'blank';
  /** The blanks as written (usually ''). */
  readonly text: string;
}

/**
 * The supplementary fields whose values the parser checks, with what they mean. Source: the field
 * list in TSH::Player (tsh 3.x, "Supplementary player data") and TSH::Player::First for p12.
 * Any other field (`class`, `team`, `rtime`, `rrank`, `xtid`, `photo`, `excwins` …) is kept as written.
 */
export const TSH_CHECKED_FIELDS = [
  {
    name: 'p12',
    values: 'p12',
    meaning: 'per round: 1 went first, 2 went second, 0 neither (bye), 3 must draw, 4 not yet known',
  },
  { name: 'board', values: 'natural', meaning: 'per round: the board played at, 0 for none' },
  { name: 'newr', values: 'integer', meaning: "per round: the player's rating after that round" },
  { name: 'off', values: 'at-most-one-integer', meaning: 'withdrawn (inactive); the value is the bye spread to give, e.g. -50, 0 or 50' },
] as const;
export type TshCheckedFieldName = (typeof TSH_CHECKED_FIELDS)[number]['name'];

/** tsh's marker for an undefined entry in any list (`00`), distinct from the number 0. */
export const TSH_UNDEFINED = '00';

/** The player lines of a file in entrant order (entrant k is index k - 1). */
export const tshPlayers = (file: TshDivisionFile): TshPlayerLine[] => file.lines.filter((l): l is TshPlayerLine => l.kind === 'player');

/** The 1-based file line of each entrant (index k - 1 holds entrant k's line). */
export const tshPlayerLineNumbers = (file: TshDivisionFile): number[] => {
  const out: number[] = [];
  file.lines.forEach((l, i) => {
    if (l.kind === 'player') out.push(i + 1);
  });
  return out;
};

/** A field's values by name (the last one when a line repeats it, as tsh keeps the last). */
export const tshField = (line: TshPlayerLine, name: string): readonly string[] | undefined => {
  for (let i = line.fields.length - 1; i >= 0; i--) if (line.fields[i]!.name === name) return line.fields[i]!.values;
  return undefined;
};
