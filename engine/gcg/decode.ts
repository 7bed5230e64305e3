import { err, ok, type Result } from '../result.js';
import { gcgError, LEXICAL, type GcgError } from './gcg-error.js';

/** Bytes → text (gcg §1): the two encodings the spec allows, a byte-order mark, and the encoding pragma. */

export const GCG_ENCODINGS = ['ISO-8859-1', 'UTF-8'] as const;
export type GcgEncoding = (typeof GCG_ENCODINGS)[number];

const ENCODING_PRAGMA = /^#character-encoding(?:\s+(.*?))?\s*$/;

/** Names seen in the wild for the two encodings the spec allows (MAGPIE also accepts `iso 8859-1`). */
const encodingNamed = (name: string): GcgEncoding | null => {
  if (/^utf-?8$/i.test(name)) return 'UTF-8';
  if (/^(iso[-_ ]?8859-1|latin-?1)$/i.test(name)) return 'ISO-8859-1';
  return null;
};

const declaredEncoding = (firstLine: string): Result<GcgEncoding | null, GcgError> => {
  const m = ENCODING_PRAGMA.exec(firstLine.trim());
  if (!m) return ok(null);
  const name = m[1] ?? '';
  const enc = encodingNamed(name);
  if (!enc)
    return err(
      gcgError(
        'UNSUPPORTED_ENCODING',
        1,
        `the character encoding "${name}" is not supported: use UTF-8 or ISO-8859-1.`,
        { encoding: name },
        LEXICAL,
      ),
    );
  return ok(enc);
};

const latin1 = (bytes: Uint8Array): string => {
  let s = '';
  // Chunked so long files do not overflow the argument limit of fromCharCode.
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
};

/**
 * Decodes a record's bytes (gcg §1): ISO-8859-1 unless line 1 is `#character-encoding UTF-8`.
 * A UTF-8 byte-order mark also means UTF-8 (and is dropped); declaring ISO-8859-1 after one is
 * an error. Invalid UTF-8 is an error naming the line, never replaced silently.
 */
export const decodeGcg = (bytes: Uint8Array): Result<string, GcgError> => {
  const r = decodeBytes(bytes);
  return r.ok ? ok(r.value.text) : r;
};

/** A record's text and the encoding it was read in (declared, or implied by the bytes), for the writer to keep. */
export interface RecordText {
  readonly text: string;
  /** null for a string without `#character-encoding`: nothing says how it was stored. */
  readonly encoding: GcgEncoding | null;
}

const decodeBytes = (bytes: Uint8Array): Result<RecordText, GcgError> => {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  let end = body.findIndex((b) => b === 0x0a || b === 0x0d);
  if (end < 0) end = body.length;
  const declared = declaredEncoding(latin1(body.subarray(0, end)));
  if (!declared.ok) return declared;
  if (bom && declared.value === 'ISO-8859-1')
    return err(gcgError('ENCODING_MISMATCH', 1, 'the file starts with a UTF-8 byte-order mark but declares ISO-8859-1.', {}, LEXICAL));
  const encoding = declared.value ?? (bom ? 'UTF-8' : 'ISO-8859-1');
  if (encoding === 'ISO-8859-1') return ok({ text: latin1(body), encoding });
  try {
    return ok({ text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body), encoding });
  } catch {
    const lines = latin1(body).split(/\r\n|\r|\n/);
    let offset = 0;
    for (let i = 0; i < lines.length; i++) {
      const len = lines[i]!.length;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(offset, offset + len));
      } catch {
        return err(
          gcgError('BAD_ENCODING', i + 1, `the line is not valid UTF-8, as the file declares: "${lines[i]}".`, { text: lines[i] }, LEXICAL),
        );
      }
      offset += len + (body[offset + len] === 0x0d && body[offset + len + 1] === 0x0a ? 2 : 1);
    }
    return err(gcgError('BAD_ENCODING', 1, 'the file is not valid UTF-8, as it declares.', {}, LEXICAL));
  }
};

/**
 * The record's text in Unicode NFC (so `E` + combining acute and `É` are one tile) and its
 * encoding: a string as given (a leading BOM dropped, its declared encoding checked), bytes decoded.
 */
export const recordText = (input: string | Uint8Array): Result<RecordText, GcgError> => {
  if (typeof input !== 'string') {
    const r = decodeBytes(input);
    return r.ok ? ok({ text: r.value.text.normalize('NFC'), encoding: r.value.encoding }) : r;
  }
  const text = input.startsWith('\ufeff') ? input.slice(1) : input;
  const first = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  const declared = declaredEncoding(first);
  return declared.ok ? ok({ text: text.normalize('NFC'), encoding: declared.value }) : declared;
};

/** Characters ISO-8859-1 can hold (U+0000–U+00FF); a record with others is written in UTF-8. */
export const fitsLatin1 = (text: string): boolean => [...text].every((c) => c.codePointAt(0)! <= 0xff);

/** The bytes of a record's text in an encoding: ISO-8859-1 when asked for and possible, else UTF-8. */
export const encodeText = (text: string, encoding: GcgEncoding): Uint8Array =>
  encoding === 'ISO-8859-1' && fitsLatin1(text) ? Uint8Array.from(text, (c) => c.charCodeAt(0)) : new TextEncoder().encode(text);
