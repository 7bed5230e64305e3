import { err, ok, type Result } from '../../result.js';
import { TSH_UNDEFINED, type TshDivisionFile, type TshField, type TshLine, type TshLineEnding, type TshPlayerLine } from './document.js';
import { tshError, type TshError } from './tsh-error.js';

/**
 * Reads a TSH division file into its syntax tree. The grammar is tsh's own (TFile.pm, tsh 3.x):
 * lines end at CR, LF or CRLF; a line whose first non-blank character is `#` is a comment; a blank
 * line is skipped; any other line is a player: name, rating, opponents, `;`, scores, then
 * `; name value …` fields, with `\;` and `\\` escapes inside fields. A line with no `;` has no
 * scores (tsh appends one). See docs/tsh.md for where Arbiter is stricter than tsh.
 *
 * Only what the syntax itself implies is checked: numbers are numbers, p12/board/newr/off hold
 * the values tsh gives them, and no opponent number exceeds the number of player lines (a check
 * across lines, reported on the line that holds the number). Who played whom is `checkTsh`'s job.
 */
export function parseTsh(text: string): Result<TshDivisionFile, TshError> {
  const bom = text.charCodeAt(0) === 0xfeff;
  const rows = splitLines(bom ? text.slice(1) : text);
  const lineEnding: TshLineEnding = rows.find((r) => r.eol !== '')?.eol || '\n';
  const lines: TshLine[] = [];
  for (const [i, row] of rows.entries()) {
    const parsed = parseLine(row.text, i + 1);
    if (!parsed.ok) return parsed;
    lines.push(row.eol !== '' && row.eol !== lineEnding ? { ...parsed.value, eol: row.eol } : parsed.value);
  }
  const range = checkOpponentRange(lines);
  if (range) return err(range);
  const finalNewline = rows.length === 0 || rows[rows.length - 1]!.eol !== '';
  return ok({
    lines,
    ...(lineEnding !== '\n' ? { lineEnding } : {}),
    ...(finalNewline ? {} : { finalNewline }),
    ...(bom ? { bom } : {}),
  });
}

/**
 * One line of a file, read on its own (no check across lines): a comment, a blank line or a
 * player. `formatTsh` uses it to see whether a line's `raw` text still says what the line says.
 */
export function parseTshLine(text: string, lineNumber = 1): Result<TshLine, TshError> {
  return parseLine(text, lineNumber);
}

interface Row {
  readonly text: string;
  readonly eol: TshLineEnding | '';
}

/** Splits at CRLF, CR or LF, keeping each line's end; a last line without one has eol ''. */
const splitLines = (body: string): Row[] => {
  const rows: Row[] = [];
  const re = /\r\n|\r|\n/g;
  let start = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    rows.push({ text: body.slice(start, m.index), eol: m[0] as TshLineEnding });
    start = m.index + m[0].length;
  }
  if (start < body.length) rows.push({ text: body.slice(start), eol: '' });
  return rows;
};

const BLANK = /^\s*$/;
const COMMENT = /^\s*#/;

const parseLine = (text: string, line: number): Result<TshLine, TshError> => {
  if (BLANK.test(text)) return ok({ kind: 'blank', text });
  if (COMMENT.test(text)) return ok({ kind: 'comment', text });
  return parsePlayer(text, line);
};

/** A rating: digits, optionally with a decimal part. tsh also reads `1500+20`; Arbiter does not. */
const RATING = /^\d+(?:\.\d+)?$/;
/** A word that starts like a number ends the name: it must be the rating. */
const NUMBER_LIKE = /^[-+.\d]/;
const DIGITS = /^\d+$/;
const SCORE = /^-?\d+$/;

const parsePlayer = (text: string, line: number): Result<TshPlayerLine, TshError> => {
  // tsh drops a trailing "; # 17" (an old line-number annotation) before parsing.
  const body = text.trim().replace(/; # \d+\s*$/, ';');
  const first = body.indexOf(';');
  const headText = first < 0 ? body : body.slice(0, first);
  const rest = first < 0 ? '' : body.slice(first + 1);
  const second = rest.indexOf(';');
  const scoresText = second < 0 ? rest : rest.slice(0, second);
  const head = parseHead(headText, line);
  if (!head.ok) return head;
  const scores = parseNumbers(scoresText, SCORE, 'scores', line);
  if (!scores.ok) return scores;
  const fields = parseFields(second < 0 ? '' : rest.slice(second));
  const bad = checkFieldValues(fields, line);
  if (bad) return err(bad);
  return ok({ kind: 'player', ...head.value, scores: scores.value, fields, raw: text });
};

interface Head {
  readonly name: string;
  readonly rating: number;
  readonly opponents: readonly (number | null)[];
}

/**
 * `name rating opp opp …`. The name is every word up to the first word after the first one that
 * starts like a number; that word is the rating and every later word an opponent. (tsh's own
 * pattern lets a name hold numbers and backtracks; this reading refuses such names instead of
 * silently moving a mistyped opponent into the name.)
 */
const parseHead = (head: string, line: number): Result<Head, TshError> => {
  const words = [...head.matchAll(/\S+/g)];
  if (words.length === 0) return err(tshError('MISSING_NAME', line, 'name', 'the line has no player name'));
  const at = words.findIndex((w, i) => i > 0 && NUMBER_LIKE.test(w[0]));
  if (at < 0) {
    if (words.length === 1 && NUMBER_LIKE.test(words[0]![0])) {
      return err(tshError('MISSING_NAME', line, 'name', `no player name before the rating "${words[0]![0]}"`, { token: words[0]![0] }));
    }
    return err(tshError('MISSING_RATING', line, 'rating', `no rating after the name "${head.trim()}"`, { name: head.trim() }));
  }
  const last = words[at - 1]!;
  const name = head.slice(0, last.index + last[0].length).trim();
  if (at === 1 && DIGITS.test(name)) {
    return err(tshError('MISSING_NAME', line, 'name', `no player name before the numbers "${head.trim()}"`, { token: name }));
  }
  const ratingText = words[at]![0];
  if (!RATING.test(ratingText)) {
    return err(tshError('BAD_RATING', line, 'rating', `"${ratingText}" is not a number`, { token: ratingText, name }));
  }
  const opponents = parseNumbers(head.slice(words[at]!.index + ratingText.length), DIGITS, 'opponents', line);
  if (!opponents.ok) return opponents;
  return ok({ name, rating: Number(ratingText), opponents: opponents.value });
};

const CODES = { opponents: 'BAD_OPPONENT', scores: 'BAD_SCORE' } as const;

/** Whitespace-separated numbers; tsh's `00` (undefined) is null. */
const parseNumbers = (text: string, shape: RegExp, field: 'opponents' | 'scores', line: number): Result<(number | null)[], TshError> => {
  const out: (number | null)[] = [];
  for (const word of text.split(/\s+/)) {
    if (word === '') continue;
    if (word === TSH_UNDEFINED) out.push(null);
    else if (shape.test(word)) out.push(Number(word));
    else {
      const what = field === 'opponents' ? 'is not an entrant number (0 for a bye)' : 'is not a number';
      return err(tshError(CODES[field], line, field, `"${word}" ${what}`, { token: word, round: out.length + 1 }));
    }
  }
  return ok(out);
};

/**
 * The `; name value …` fields, read as TFile.pm does: `\;` and `\\` are escapes, a segment with
 * nothing but blanks is skipped, the first word names the field and the rest are its values.
 */
const parseFields = (etc: string): TshField[] => {
  const fields: TshField[] = [];
  const n = etc.length;
  let i = 0;
  while (i < n) {
    let extra = '';
    while (i < n) {
      const c = etc[i]!;
      if (c === '\\' && (etc[i + 1] === '\\' || etc[i + 1] === ';')) {
        extra += etc[i + 1];
        i += 2;
      } else if (c === ';') {
        i++;
        while (i < n && /\s/.test(etc[i]!)) i++;
        break;
      } else {
        extra += c;
        i++;
      }
    }
    const words = extra.trim().split(/\s+/);
    if (words[0] !== '') fields.push({ name: words[0]!, values: words.slice(1) });
  }
  return fields;
};

const P12 = /^[0-4]$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** The values tsh gives the fields it computes with (TSH::Player); other fields are free text. */
const checkFieldValues = (fields: readonly TshField[], line: number): TshError | undefined => {
  for (const f of fields) {
    if (f.name === 'off' && f.values.length > 1) {
      return tshError('BAD_FIELD_VALUE', line, 'off', `takes at most one value (the bye spread), found ${f.values.length}`, {
        values: f.values,
      });
    }
    const rule = FIELD_RULES[f.name];
    if (!rule) continue;
    const bad = f.values.find((v) => v !== TSH_UNDEFINED && !rule.shape.test(v));
    if (bad !== undefined) return tshError('BAD_FIELD_VALUE', line, f.name, `"${bad}" ${rule.what}`, { token: bad });
  }
  return undefined;
};

const FIELD_RULES: Readonly<Record<string, { shape: RegExp; what: string }>> = {
  p12: { shape: P12, what: 'is not 0, 1, 2, 3 or 4 (neither, first, second, must draw, unknown)' },
  board: { shape: DIGITS, what: 'is not a board number' },
  newr: { shape: NUMBER, what: 'is not a rating' },
  off: { shape: /^-?\d+$/, what: 'is not a bye spread (a whole number such as -50, 0 or 50)' },
};

/** No opponent may name an entrant the file does not have (reported where the number is). */
const checkOpponentRange = (lines: readonly TshLine[]): TshError | undefined => {
  const count = lines.reduce((n, l) => n + (l.kind === 'player' ? 1 : 0), 0);
  for (const [i, l] of lines.entries()) {
    if (l.kind !== 'player') continue;
    const round = l.opponents.findIndex((o) => o !== null && o > count);
    if (round >= 0) {
      const o = l.opponents[round]!;
      return tshError(
        'OPPONENT_OUT_OF_RANGE',
        i + 1,
        'opponents',
        `round ${round + 1} names entrant ${o}, but the file has ${count} players`,
        {
          round: round + 1,
          opponent: o,
          players: count,
        },
      );
    }
  }
  return undefined;
};
