/**
 * The Arbiter DAWG file format (`.dawg`, "Arbiter DAWG v1"; not the KWG of wolges, see kwg.ts), all integers little-endian:
 *
 * | offset   | size | field                                                              |
 * |----------|------|--------------------------------------------------------------------|
 * | 0        | 4    | magic `ALEX`                                                       |
 * | 4        | 2    | format version (1)                                                 |
 * | 6        | 2    | flags (0; reserved for a GADDAG section)                           |
 * | 8        | 4    | H: header length in bytes                                          |
 * | 12       | 4    | N: number of 32-bit graph entries                                  |
 * | 16       | H    | header: UTF-8 JSON `{name, hash, wordCount, alphabet}`, space-padded so the graph starts 4-byte aligned |
 * | 16 + H   | 4·N  | the arc array described in `graph.ts`                              |
 *
 * Decoding wraps the arc array in a `Uint32Array` over the same `ArrayBuffer` (no copy, no
 * per-node objects) when the bytes are aligned and the host is little-endian, which it is on
 * every platform Node supports; otherwise it copies once.
 */
import { err, ok, type Result } from '../result.js';
import type { RuleError } from '../errors.js';
import { lexiconError } from './codes.js';
import { ARC_CHILD_MASK, ARC_LAST, ARC_LETTER_SHIFT, GraphLexicon, MAX_ALPHABET } from './graph.js';
import { normaliseLexiconName } from './wordlist.js';

export const DAWG_MAGIC = 'ALEX';
export const DAWG_FORMAT_VERSION = 1;
const FIXED = 16;
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

interface Header {
  name: string;
  hash: string;
  wordCount: number;
  alphabet: string;
}

/** Serialises a lexicon into the Arbiter DAWG format (`.dawg`). */
export const encodeDawgFile = (lex: GraphLexicon): Uint8Array => {
  const header: Header = { name: lex.name, hash: lex.hash, wordCount: lex.wordCount, alphabet: lex.alphabet.join('') };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const h = Math.ceil(json.length / 4) * 4;
  const n = lex.nodes.length;
  const bytes = new Uint8Array(FIXED + h + 4 * n);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = DAWG_MAGIC.charCodeAt(i);
  view.setUint16(4, DAWG_FORMAT_VERSION, true);
  view.setUint16(6, 0, true);
  view.setUint32(8, h, true);
  view.setUint32(12, n, true);
  bytes.set(json, FIXED);
  bytes.fill(0x20, FIXED + json.length, FIXED + h);
  if (LITTLE_ENDIAN_HOST) bytes.set(new Uint8Array(lex.nodes.buffer, lex.nodes.byteOffset, 4 * n), FIXED + h);
  else for (let i = 0; i < n; i++) view.setUint32(FIXED + h + 4 * i, lex.nodes[i]!, true);
  return bytes;
};

/** Reads the name, hash, word count and version without decoding the graph (for listings). */
export const peekDawgHeader = (
  bytes: Uint8Array,
): Result<{ name: string; hash: string; wordCount: number; version: number }, RuleError> => {
  const pre = checkPreamble(bytes);
  if (!pre.ok) return pre;
  const header = parseHeader(bytes, pre.value.headerBytes);
  if (!header.ok) return header;
  const { name, hash, wordCount } = header.value;
  return ok({ name, hash, wordCount, version: pre.value.version });
};

const checkPreamble = (bytes: Uint8Array): Result<{ version: number; headerBytes: number; entries: number }, RuleError> => {
  for (let i = 0; i < Math.min(4, bytes.length); i++) {
    if (bytes[i] !== DAWG_MAGIC.charCodeAt(i)) {
      return err(lexiconError('LEXICON_BAD_MAGIC', `The data is not an Arbiter lexicon: it does not start with "${DAWG_MAGIC}".`, {}));
    }
  }
  if (bytes.length < FIXED) {
    return err(
      lexiconError('LEXICON_TRUNCATED', `The lexicon is truncated: ${bytes.length} bytes, shorter than its ${FIXED}-byte preamble.`, {
        bytes: bytes.length,
      }),
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(4, true);
  if (version !== DAWG_FORMAT_VERSION) {
    return err(
      lexiconError(
        'LEXICON_BAD_VERSION',
        `The lexicon has format version ${version}; this Arbiter reads version ${DAWG_FORMAT_VERSION}. Recompile it.`,
        {
          version,
          supported: DAWG_FORMAT_VERSION,
        },
      ),
    );
  }
  const headerBytes = view.getUint32(8, true);
  const entries = view.getUint32(12, true);
  if (headerBytes % 4 !== 0) {
    return err(lexiconError('LEXICON_BAD_HEADER', `The lexicon header length ${headerBytes} is not a multiple of 4.`, { headerBytes }));
  }
  const expected = FIXED + headerBytes + 4 * entries;
  if (bytes.length < expected) {
    return err(
      lexiconError('LEXICON_TRUNCATED', `The lexicon is truncated: ${bytes.length} bytes where its header announces ${expected}.`, {
        bytes: bytes.length,
        expected,
      }),
    );
  }
  if (bytes.length > expected) {
    return err(
      lexiconError('LEXICON_CORRUPT', `The lexicon has ${bytes.length - expected} bytes after its graph.`, {
        bytes: bytes.length,
        expected,
      }),
    );
  }
  return ok({ version, headerBytes, entries });
};

const HASH = /^sha256:[0-9a-f]{64}$/;

const parseHeader = (bytes: Uint8Array, headerBytes: number): Result<Header, RuleError> => {
  const bad = (why: string): Result<Header, RuleError> =>
    err(lexiconError('LEXICON_BAD_HEADER', `The lexicon header is invalid: ${why}.`, { reason: why }));
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(FIXED, FIXED + headerBytes)));
  } catch {
    return bad('it is not UTF-8 JSON');
  }
  if (typeof raw !== 'object' || raw === null) return bad('it is not an object');
  const h = raw as Record<string, unknown>;
  if (typeof h.name !== 'string' || !normaliseLexiconName(h.name).ok || h.name !== h.name.toUpperCase())
    return bad('"name" is not a lexicon name');
  if (typeof h.hash !== 'string' || !HASH.test(h.hash)) return bad('"hash" is not sha256:<64 hex digits>');
  if (typeof h.wordCount !== 'number' || !Number.isSafeInteger(h.wordCount) || h.wordCount < 0) return bad('"wordCount" is not a count');
  if (typeof h.alphabet !== 'string' || h.alphabet.length > MAX_ALPHABET) return bad('"alphabet" is not a string of at most 255 letters');
  for (let i = 0; i < h.alphabet.length; i++) {
    const c = h.alphabet.charCodeAt(i);
    if ((c >= 0xd800 && c <= 0xdfff) || (i > 0 && c <= h.alphabet.charCodeAt(i - 1)))
      return bad('"alphabet" is not sorted distinct letters');
  }
  return ok({ name: h.name, hash: h.hash, wordCount: h.wordCount, alphabet: h.alphabet });
};

/**
 * Checks the arc array in one pass: letters inside the alphabet, siblings in increasing letter
 * order, children pointing backwards (so the graph is acyclic) and the last entry closing its
 * list (so no sibling scan runs off the end). Returns the offending entry, or -1.
 */
const firstBadArc = (nodes: Uint32Array, letters: number): number => {
  const n = nodes.length;
  if (n === 0) return 0;
  const root = nodes[0]!;
  if (root >>> ARC_LETTER_SHIFT !== 0 || (root & ARC_CHILD_MASK) >= n || ((root & ARC_CHILD_MASK) === 0) !== (n === 1)) return 0;
  if ((nodes[n - 1]! & ARC_LAST) === 0) return n - 1;
  let prevLetter = 0;
  for (let i = 1; i < n; i++) {
    const e = nodes[i]!;
    const l = e >>> ARC_LETTER_SHIFT;
    if (l === 0 || l > letters || l <= prevLetter) return i;
    const child = e & ARC_CHILD_MASK;
    if (child >= i) return i;
    prevLetter = (e & ARC_LAST) !== 0 ? 0 : l;
  }
  return -1;
};

/** Loads a lexicon from `.dawg` bytes; pure, near zero-copy (see the format above). */
export const decodeDawgFile = (bytes: Uint8Array): Result<GraphLexicon, RuleError> => {
  const pre = checkPreamble(bytes);
  if (!pre.ok) return pre;
  const { headerBytes, entries } = pre.value;
  const header = parseHeader(bytes, headerBytes);
  if (!header.ok) return header;
  const start = bytes.byteOffset + FIXED + headerBytes;
  let nodes: Uint32Array;
  if (LITTLE_ENDIAN_HOST && start % 4 === 0) {
    nodes = new Uint32Array(bytes.buffer, start, entries);
  } else {
    nodes = new Uint32Array(entries);
    const view = new DataView(bytes.buffer, start, 4 * entries);
    for (let i = 0; i < entries; i++) nodes[i] = view.getUint32(4 * i, true);
  }
  const { name, hash, wordCount, alphabet } = header.value;
  const bad = firstBadArc(nodes, alphabet.length);
  if (bad >= 0) {
    return err(lexiconError('LEXICON_CORRUPT', `The lexicon graph is corrupt at entry ${bad}.`, { entry: bad, entries }));
  }
  return ok(new GraphLexicon({ name, hash, wordCount }, { alphabet: [...alphabet], nodes }));
};
