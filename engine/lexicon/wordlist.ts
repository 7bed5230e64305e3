import { createHash } from 'node:crypto';
import { err, ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import { lexiconError } from './codes.js';

/** A normalised word list: uppercase, sorted by UTF-16 code unit, without duplicates. */
export interface WordList {
  readonly words: readonly string[];
  /** `sha256:` + hex of `words.join('\n')` (no trailing newline). */
  readonly hash: string;
}

// Letters of any script, combining marks, and the Catalan middle dot (U+00B7: L·L is one tile), written as
// an escape so that the Lambda script bundle stays ASCII (functions/code-cache.ts reads it faster so).
const LETTERS = /^[\p{L}\p{M}\u00B7]+$/u;
const NOT_LETTER = /[^\p{L}\p{M}\u00B7]|[\uD800-\uDFFF]/u;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Normalises one entry; `undefined` for lines that hold no word (blank, `#` comment). The word is
 * NFC-normalised and uppercased so that `ñ` and `n` + combining tilde are the same letter.
 */
const normaliseLine = (line: string): string | undefined => {
  const t = line.trim();
  if (t === '' || t.startsWith('#')) return undefined;
  return t.normalize('NFC').toUpperCase();
};

/**
 * Normalises a word list given as lines (1-based line numbers in errors): trims, drops blank lines
 * and `#` comments, uppercases, sorts and removes duplicates. A word with any character that is not
 * a letter (digits, spaces, hyphens, apostrophes, `?`) is rejected, naming the line, rather than
 * silently dropped: a user's list is their licensed lexicon and must be taken whole or not at all.
 */
export const normaliseWords = (lines: readonly string[]): Result<WordList, RuleError> => {
  const words: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const w = normaliseLine(lines[i]!);
    if (w === undefined) continue;
    if (!LETTERS.test(w) || SURROGATE.test(w)) {
      const bad = NOT_LETTER.exec(w)?.[0] ?? w;
      return err(
        lexiconError('LEXICON_BAD_WORD', `Line ${i + 1}: "${lines[i]!.trim()}" contains ${JSON.stringify(bad)}, which is not a letter.`, {
          line: i + 1,
          word: lines[i]!.trim(),
          character: bad,
        }),
      );
    }
    words.push(w);
  }
  if (words.length === 0) return err(lexiconError('LEXICON_EMPTY', 'The word list holds no words.', {}));
  words.sort();
  let n = 0;
  for (let i = 0; i < words.length; i++) if (i === 0 || words[i] !== words[n - 1]) words[n++] = words[i]!;
  words.length = n;
  return ok({ words, hash: contentHash(words) });
};

/** {@link normaliseWords} over a text file's contents (LF or CRLF line ends). */
export const normaliseWordList = (text: string): Result<WordList, RuleError> => normaliseWords(text.split(/\r?\n/));

/**
 * The content hash that identifies a lexicon: `sha256:` + hex of the normalised words joined by
 * `\n`. It depends only on the words, never on the binary encoding, so a stored game's lexicon
 * can be re-derived from the plain list. `words` must already be normalised.
 */
export const contentHash = (words: readonly string[]): string =>
  `sha256:${createHash('sha256').update(words.join('\n'), 'utf8').digest('hex')}`;

const NAME = /^[A-Z0-9][A-Z0-9_-]{0,63}$/;

/**
 * Lexicon names are case-insensitive and stored uppercase (`sowpods` → `SOWPODS`); they become
 * file names, so only letters A–Z, digits, `_` and `-` are allowed (at most 64).
 */
export const normaliseLexiconName = (raw: string): Result<string, RuleError> => {
  const name = raw.trim().toUpperCase();
  return NAME.test(name)
    ? ok(name)
    : err(
        lexiconError(
          'LEXICON_BAD_NAME',
          `Lexicon name "${raw}" is not valid: use 1–64 characters A–Z, 0–9, "_" or "-", starting with a letter or digit.`,
          { name: raw },
        ),
      );
};
