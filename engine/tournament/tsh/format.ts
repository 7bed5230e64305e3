import {
  TSH_UNDEFINED,
  type TshBlankLine,
  type TshCommentLine,
  type TshDivisionFile,
  type TshLine,
  type TshPlayerLine,
} from './document.js';
import { parseTshLine } from './parse.js';

/**
 * Writes a division file. A parsed file comes back byte for byte: each player line's `raw` text is
 * written again as long as it still reads as the same line (same name, rating, opponents, scores
 * and fields), and comments, blank lines, line ends, the last line end and a byte-order mark are
 * kept. A line built or changed in code is written in tsh's own layout (`formatTshPlayer`).
 */
export function formatTsh(file: TshDivisionFile): string {
  const fallback = file.lineEnding ?? '\n';
  const last = file.lines.length - 1;
  let out = file.bom ? '\uFEFF' : '';
  file.lines.forEach((line, i) => {
    out += lineText(line);
    if (i < last || file.finalNewline !== false) out += line.eol ?? fallback;
  });
  return out;
}

/** The content a player line needs for writing; `raw` and `eol` are not looked at. */
export type TshPlayerContent = Pick<TshPlayerLine, 'name' | 'rating' | 'opponents' | 'scores' | 'fields'>;

/**
 * One player line in tsh's layout (TFile.pm `FormatLine`, tsh 3.x): the name padded to 22
 * characters, a space, the rating right-aligned in 5, a space, the opponents, `; `, the scores, then
 * `; name value …` for each field in the given order (tsh sorts them by name; Arbiter keeps yours).
 * `00` stands for an undefined entry; `\` and `;` inside field values are escaped as tsh does. A
 * field with no values is written as `; name` (tsh itself omits it; reading either back gives the
 * same). No line end.
 */
export function formatTshPlayer(line: TshPlayerContent): string {
  const name = line.name + ' '.repeat(Math.max(0, 22 - [...line.name].length));
  const rating = String(line.rating).padStart(5);
  let out = `${name} ${rating} ${line.opponents.map(numberText).join(' ')}; ${line.scores.map(numberText).join(' ')}`;
  for (const f of line.fields) out += [';', f.name, ...f.values.map(escapeValue)].join(' ');
  return out;
}

const numberText = (n: number | null): string => (n === null ? TSH_UNDEFINED : String(n));

/** tsh escapes backslashes and semicolons in field values (FormatLine: `s/[\\;]/\\$&/g`). */
const escapeValue = (v: string): string => v.replace(/[\\;]/g, (c) => `\\${c}`);

const lineText = (line: TshLine): string => {
  switch (line.kind) {
    case 'player':
      return rawStillSays(line) ? line.raw! : formatTshPlayer(line);
    case 'comment':
      return commentText(line);
    case 'blank':
      return blankText(line);
  }
};

const NEWLINE = /[\r\n]/;

/** A comment stays one comment line: a `#` is added when its text lacks one. */
const commentText = (line: TshCommentLine): string => {
  const text = line.text.replace(/[\r\n]+/g, ' ');
  return /^\s*#/.test(text) ? text : `#${text}`;
};

const blankText = (line: TshBlankLine): string => (/^[^\S\r\n]*$/.test(line.text) ? line.text : '');

/** Whether the line's `raw` text, read again, is this very line (so writing it changes nothing). */
const rawStillSays = (line: TshPlayerLine): boolean => {
  if (line.raw === undefined || NEWLINE.test(line.raw)) return false;
  const again = parseTshLine(line.raw);
  if (!again.ok || again.value.kind !== 'player') return false;
  const a = again.value;
  return (
    a.name === line.name &&
    a.rating === line.rating &&
    sameList(a.opponents, line.opponents) &&
    sameList(a.scores, line.scores) &&
    a.fields.length === line.fields.length &&
    a.fields.every((f, i) => f.name === line.fields[i]!.name && sameList(f.values, line.fields[i]!.values))
  );
};

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
