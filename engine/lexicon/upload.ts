import { err, ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import type { Distribution } from '../tiles.js';
import { lexiconError } from './codes.js';
import { tileSpellings } from './kwg-build.js';
import { normaliseLexiconName, normaliseWordList, type WordList } from './wordlist.js';

/**
 * A word list uploaded by a player (issue 21), checked before it is compiled and stored: size caps,
 * normalisation (NFC, upper case — `String.prototype.toUpperCase`, the Unicode default casing; a
 * language with its own rules, such as Turkish dotted/dotless I, is out of scope), and the words the
 * tile set cannot spell. Those stay in the list, as `arbiter lexicon compile` keeps them (the content
 * hash is the whole list's), but can never be played; the answer counts them and shows the first few.
 */

/** An upload's text may be at most this many bytes (UTF-8): a national list is 2–3 MB. */
export const MAX_UPLOAD_BYTES = 5_000_000;
/** …and hold at most this many words (Collins holds about 280 000). */
export const MAX_UPLOAD_WORDS = 500_000;
/** How many unspellable words the answer shows. */
export const UNSPELLABLE_SHOWN = 20;

export interface UploadCheck {
  readonly name: string;
  readonly list: WordList;
  /** How many words the tile set cannot spell, and the first {@link UNSPELLABLE_SHOWN} of them. */
  readonly unspellableCount: number;
  readonly unspellable: readonly string[];
}

const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

/** Checks an upload (name, size, words) against a tile set; errors LEXICON_BAD_NAME, LEXICON_TOO_LARGE, LEXICON_BAD_WORD, LEXICON_EMPTY. */
export const checkUpload = (rawName: string, distribution: Distribution, text: string): Result<UploadCheck, RuleError> => {
  const name = normaliseLexiconName(rawName);
  if (!name.ok) return name;
  const bytes = utf8Length(text);
  if (bytes > MAX_UPLOAD_BYTES) {
    return err(
      lexiconError('LEXICON_TOO_LARGE', `The word list is ${bytes} bytes; an upload is at most ${MAX_UPLOAD_BYTES} bytes (UTF-8).`, {
        bytes,
        maxBytes: MAX_UPLOAD_BYTES,
      }),
    );
  }
  const list = normaliseWordList(text);
  if (!list.ok) return list;
  if (list.value.words.length > MAX_UPLOAD_WORDS) {
    return err(
      lexiconError(
        'LEXICON_TOO_LARGE',
        `The word list holds ${list.value.words.length} words; an upload holds at most ${MAX_UPLOAD_WORDS}.`,
        {
          words: list.value.words.length,
          maxWords: MAX_UPLOAD_WORDS,
        },
      ),
    );
  }
  const alphabet = distribution.letters.map((l) => l.letter);
  const unspellable: string[] = [];
  let unspellableCount = 0;
  for (const w of list.value.words) {
    if (tileSpellings(w, alphabet).length > 0) continue;
    unspellableCount++;
    if (unspellable.length < UNSPELLABLE_SHOWN) unspellable.push(w);
  }
  return ok({ name: name.value, list: list.value, unspellableCount, unspellable });
};
