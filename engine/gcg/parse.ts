import { err, ok, type Result } from '../result.js';
import { cite, type Citation, type RuleError } from '../errors.js';
import { parseAnchor } from '../board.js';
import { parseExchange, parsePlay, parseRack, type Move } from '../move.js';
import {
  GCG_HEADER_KEYWORDS,
  type GcgDocument,
  type GcgEvent,
  type GcgIncomplete,
  type GcgLastRack,
  type GcgPlayer,
  type GcgPragma,
} from './document.js';

/**
 * Syntax errors of a GCG record. Notation errors inside an event keep the move parser's codes
 * (`BAD_COORDINATE`, `BAD_WORD`, `BAD_EXCHANGE`, `BAD_RACK`).
 */
export const GCG_ERROR_CODES = [
  'EMPTY',
  'UNSUPPORTED_ENCODING',
  'ENCODING_NOT_FIRST',
  'ENCODING_MISMATCH',
  'BAD_ENCODING',
  'BAD_PRAGMA',
  'PLAYER_NUMBER_REDUNDANT',
  'DUPLICATE_NICKNAMES',
  'DUPLICATE_NAMES',
  'MISSING_PLAYERS',
  'REDUNDANT_PRAGMA',
  'PRAGMA_AFTER_EVENTS',
  'NOTE_BEFORE_EVENTS',
  'EVENT_BEFORE_PLAYERS',
  'EVENT_AFTER_LAST_RACK',
  'UNKNOWN_PLAYER',
  'BAD_EVENT',
  'UNRECOGNIZED_LINE',
  'BAD_COORDINATE',
  'BAD_WORD',
  'BAD_EXCHANGE',
  'BAD_RACK',
] as const;
export type GcgErrorCode = (typeof GCG_ERROR_CODES)[number];

/** A syntax error, with the 1-based line it was found on. */
export interface GcgError extends RuleError {
  readonly code: GcgErrorCode;
  readonly line: number;
}

const gcgError = (
  code: GcgErrorCode,
  line: number,
  message: string,
  details: Record<string, unknown> = {},
  citation?: Citation,
): GcgError => {
  const e = { code, line, message: `Line ${line}: ${message}`, details: { line, ...details } };
  return citation ? { ...e, citation } : e;
};

const LEXICAL = cite('gcg', '§1 file and lexical rules');
const PRAGMAS = cite('gcg', '§2 pragmas');
const EVENTS = cite('gcg', '§3 event lines');

// ---------------------------------------------------------------------------------------------
// Bytes → text

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
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  let end = body.findIndex((b) => b === 0x0a || b === 0x0d);
  if (end < 0) end = body.length;
  const declared = declaredEncoding(latin1(body.subarray(0, end)));
  if (!declared.ok) return declared;
  if (bom && declared.value === 'ISO-8859-1')
    return err(gcgError('ENCODING_MISMATCH', 1, 'the file starts with a UTF-8 byte-order mark but declares ISO-8859-1.', {}, LEXICAL));
  const encoding = declared.value ?? (bom ? 'UTF-8' : 'ISO-8859-1');
  if (encoding === 'ISO-8859-1') return ok(latin1(body));
  try {
    return ok(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body));
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

// ---------------------------------------------------------------------------------------------
// Text → syntax tree

const SIGNED = /^[+-]\d+$/;
const INTEGER = /^-?\d+$/;
const EVENT_LINE = /^>([^\s:]+):(.*)$/;
const HEADER = new Set<string>(GCG_HEADER_KEYWORDS);
const REPEATABLE = new Set(['tile']);

/** `-0` and `+0` are the same score; keep one zero so equal records compare equal. */
const toInt = (s: string): number => Number(s) + 0;

interface MutableEvent {
  notes: string[];
  event: Omit<GcgEvent, 'notes'>;
}

/** The record as read so far; each kind of line adds to it. */
interface Reading {
  readonly players: [GcgPlayer | null, GcgPlayer | null];
  readonly pragmas: GcgPragma[];
  /** Header keywords seen, for the ones that may appear once. */
  readonly seen: Set<string>;
  readonly events: MutableEvent[];
  readonly lastRacks: [GcgLastRack | null, GcgLastRack | null];
  incomplete: GcgIncomplete | null;
  /** The previous line was a `#note`, so an unmarked line continues it. */
  noteOpen: boolean;
}

/** One non-blank line being read: its number, its trimmed text, and how to fail on it. */
interface Line {
  readonly line: number;
  readonly content: string;
  readonly fail: (code: GcgErrorCode, message: string, citation?: Citation) => { readonly ok: false; readonly error: GcgError };
}

/** What reading a line gives: nothing when it was read, its error otherwise. */
type LineOutcome = { readonly ok: false; readonly error: GcgError } | null;

/** The record's text: a string as given (a leading BOM dropped, its declared encoding checked), bytes decoded. */
const recordText = (input: string | Uint8Array): Result<string, GcgError> => {
  if (typeof input !== 'string') return decodeGcg(input);
  const text = input.startsWith('\ufeff') ? input.slice(1) : input;
  const first = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  const declared = declaredEncoding(first);
  return declared.ok ? ok(text) : declared;
};

/** `#player1` / `#player2 NICK Full Name` (gcg §2): before the events, once each, distinct nicknames and names. */
const readPlayer = (r: Reading, l: Line, keyword: string, n: number, value: string): LineOutcome => {
  const { fail, content, line } = l;
  if (n !== 1 && n !== 2) return fail('BAD_PRAGMA', `"#${keyword}": a record has #player1 and #player2 only.`, PRAGMAS);
  if (r.events.length > 0)
    return fail('PRAGMA_AFTER_EVENTS', `"${content}" comes after the first event; players are declared before.`, PRAGMAS);
  const p = /^(\S+)\s*(.*)$/.exec(value);
  if (!p) return fail('BAD_PRAGMA', `"${content}" has no nickname: write #player${n} NICK Full Name.`, PRAGMAS);
  const nickname = p[1]!;
  if (nickname.includes(':'))
    return fail('BAD_PRAGMA', `the nickname "${nickname}" contains ":", which ends the nickname in event lines.`, PRAGMAS);
  const idx = n - 1;
  if (r.players[idx])
    return fail('PLAYER_NUMBER_REDUNDANT', `#player${n} is declared twice (first on line ${r.players[idx]!.line}).`, PRAGMAS);
  const other = r.players[1 - idx];
  const player: GcgPlayer = { nickname, name: p[2]!, line };
  if (other && other.nickname === nickname) return fail('DUPLICATE_NICKNAMES', `both players have the nickname "${nickname}".`, PRAGMAS);
  if (other && other.name !== '' && other.name === player.name)
    return fail('DUPLICATE_NAMES', `both players have the name "${player.name}".`, PRAGMAS);
  r.players[idx] = player;
  return null;
};

/** `#rack1` / `#rack2 RACK`: the last known racks of an unfinished record, once each, after both players. */
const readLastRack = (r: Reading, l: Line, keyword: string, idx: 0 | 1, value: string): LineOutcome => {
  const { fail, content, line } = l;
  if (!r.players[0] || !r.players[1]) return fail('EVENT_BEFORE_PLAYERS', `"${content}" comes before both players are declared.`, PRAGMAS);
  if (r.lastRacks[idx]) return fail('REDUNDANT_PRAGMA', `#${keyword} is given twice (first on line ${r.lastRacks[idx]!.line}).`, PRAGMAS);
  if (value === '') return fail('BAD_RACK', `"${content}" has no rack.`, PRAGMAS);
  const rack = parseRack(value);
  if (!rack.ok) return fail('BAD_RACK', rack.error.message, PRAGMAS);
  r.lastRacks[idx] = { rack: value, line };
  return null;
};

/** `#incomplete [RACK]` (Quackle): once. */
const readIncomplete = (r: Reading, l: Line, value: string): LineOutcome => {
  if (r.incomplete) return l.fail('REDUNDANT_PRAGMA', `#incomplete is given twice (first on line ${r.incomplete.line}).`, PRAGMAS);
  if (value !== '') {
    const rack = parseRack(value);
    if (!rack.ok) return l.fail('BAD_RACK', rack.error.message, PRAGMAS);
  }
  r.incomplete = { rack: value, line: l.line };
  return null;
};

/** Header pragmas, known or not: before the first event, known ones at most once. */
const readHeader = (r: Reading, l: Line, keyword: string, value: string): LineOutcome => {
  const { fail, content, line } = l;
  if (r.events.length > 0)
    return fail('PRAGMA_AFTER_EVENTS', `"${content}" comes after the first event; only #note may follow events.`, PRAGMAS);
  if (HEADER.has(keyword) && !REPEATABLE.has(keyword)) {
    if (r.seen.has(keyword)) return fail('REDUNDANT_PRAGMA', `#${keyword} is given twice.`, PRAGMAS);
    r.seen.add(keyword);
  }
  if (keyword === 'id' && value.split(/\s+/).length !== 2)
    return fail('BAD_PRAGMA', `"${content}" must give two tokens: the naming authority and the id (#id io.woogles p6QRjJHG).`, PRAGMAS);
  r.pragmas.push({ keyword, value, line });
  return null;
};

/** A `#` line (gcg §2). After a `#rack` pragma only another `#rack` or `#incomplete` may follow. */
const readPragmaLine = (r: Reading, l: Line): LineOutcome => {
  const { fail, content, line } = l;
  const m = /^#(\S*)\s*(.*)$/.exec(content)!;
  const keyword = m[1]!;
  const value = m[2]!.trim();
  r.noteOpen = false;
  const playerPragma = /^player(\d+)$/.exec(keyword);
  const rackPragma = /^rack([12])$/.exec(keyword);
  const afterRack = r.lastRacks[0] !== null || r.lastRacks[1] !== null;
  if (afterRack && !rackPragma && keyword !== 'incomplete')
    return fail(
      'EVENT_AFTER_LAST_RACK',
      `"${content}" follows a #rack pragma; only #rack1, #rack2 and #incomplete may end a record.`,
      PRAGMAS,
    );
  if (keyword === 'character-encoding') {
    return line !== 1 ? fail('ENCODING_NOT_FIRST', `"${content}" must be the first line of the record.`, LEXICAL) : null;
  }
  if (playerPragma) return readPlayer(r, l, keyword, Number(playerPragma[1]), value);
  if (keyword === 'note') {
    const last = r.events[r.events.length - 1];
    if (!last) return fail('NOTE_BEFORE_EVENTS', `"${content}" comes before any event; a note comments on the event before it.`, PRAGMAS);
    last.notes.push(value);
    r.noteOpen = true;
    return null;
  }
  if (rackPragma) return readLastRack(r, l, keyword, (Number(rackPragma[1]) - 1) as 0 | 1, value);
  if (keyword === 'incomplete') return readIncomplete(r, l, value);
  return readHeader(r, l, keyword, value);
};

/** A `>NICK:` line (gcg §3): after both players, by one of them, and not after a `#rack` pragma. */
const readEventLine = (r: Reading, l: Line): LineOutcome => {
  const { fail, content, line } = l;
  const { players } = r;
  r.noteOpen = false;
  if (r.lastRacks[0] !== null || r.lastRacks[1] !== null)
    return fail('EVENT_AFTER_LAST_RACK', `"${content}" follows a #rack pragma, which ends the record.`, PRAGMAS);
  const m = EVENT_LINE.exec(content);
  if (!m) return fail('BAD_EVENT', `"${content}" is not an event line: write >NICK: RACK MOVE +SCORE CUMULATIVE.`, EVENTS);
  if (!players[0] || !players[1]) return fail('EVENT_BEFORE_PLAYERS', `"${content}" comes before both players are declared.`, PRAGMAS);
  const nickname = m[1]!;
  const player = players[0].nickname === nickname ? 0 : players[1].nickname === nickname ? 1 : null;
  if (player === null)
    return fail('UNKNOWN_PLAYER', `"${nickname}" is not a declared nickname (${players[0].nickname}, ${players[1].nickname}).`, EVENTS);
  const event = parseEventFields(m[2]!, line, content, player);
  if (!event.ok) return event;
  r.events.push({ notes: [], event: event.value });
  return null;
};

/** Any other line: the continuation of an open `#note`, or not GCG at all (gcg §1). */
const readOtherLine = (r: Reading, l: Line): LineOutcome => {
  if (!r.noteOpen)
    return l.fail('UNRECOGNIZED_LINE', `"${l.content}" is neither a pragma (#) nor an event (>), nor the continuation of a note.`, LEXICAL);
  const notes = r.events[r.events.length - 1]!.notes;
  notes[notes.length - 1] += `\n${l.content}`;
  return null;
};

/**
 * Parses a GCG record into its syntax tree (reference/gcg-format.md §1–3). Syntax only: scores,
 * racks against the bag, turn order and board geometry are checked by replay. Bytes are decoded
 * by {@link decodeGcg}; a string is taken as already decoded (a leading BOM is dropped).
 */
export const parseGcg = (input: string | Uint8Array): Result<GcgDocument, GcgError> => {
  const text = recordText(input);
  if (!text.ok) return text;
  if (text.value.trim() === '') return err(gcgError('EMPTY', 1, 'the record is empty.', {}, LEXICAL));
  const r: Reading = {
    players: [null, null],
    pragmas: [],
    seen: new Set(),
    events: [],
    lastRacks: [null, null],
    incomplete: null,
    noteOpen: false,
  };
  const lines = text.value.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const content = lines[i]!.trim();
    if (content === '') continue;
    const fail = (code: GcgErrorCode, message: string, citation?: Citation) =>
      err(gcgError(code, line, message, { text: content }, citation));
    const l: Line = { line, content, fail };
    const read = content.startsWith('#') ? readPragmaLine : content.startsWith('>') ? readEventLine : readOtherLine;
    const failed = read(r, l);
    if (failed) return failed;
  }
  const { players } = r;
  if (!players[0] || !players[1]) {
    const missing = players[0] ? '#player2' : '#player1';
    return err(gcgError('MISSING_PLAYERS', lines.length, `the record never declares ${missing}.`, {}, PRAGMAS));
  }
  return ok({
    players: [players[0], players[1]],
    pragmas: r.pragmas,
    events: r.events.map(({ event, notes }) => ({ ...event, notes }) as GcgEvent),
    lastRacks: r.lastRacks,
    incomplete: r.incomplete,
  });
};

/**
 * The fields after `>NICK:`. The score pair is the first signed number followed by an integer,
 * so old records' trailing annotations (`+26 66  BE, ET, DO`) stay out of the fields (gcg §3 notes).
 */
const parseEventFields = (rest: string, line: number, content: string, player: 0 | 1): Result<Omit<GcgEvent, 'notes'>, GcgError> => {
  const fail = (code: GcgErrorCode, message: string) => err(gcgError(code, line, message, { text: content }, EVENTS));
  const tokens = [...rest.matchAll(/\S+/g)].map((t) => ({ text: t[0], end: t.index + t[0].length }));
  let at = -1;
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (SIGNED.test(tokens[i]!.text) && INTEGER.test(tokens[i + 1]!.text)) {
      at = i;
      break;
    }
  }
  if (at < 0) return fail('BAD_EVENT', `"${content}" does not end with a signed score and a cumulative score (+24 124).`);
  const head = tokens.slice(0, at).map((t) => t.text);
  const base = {
    line,
    player,
    score: toInt(tokens[at]!.text),
    cumulative: toInt(tokens[at + 1]!.text),
    annotation: rest.slice(tokens[at + 1]!.end).trim(),
  };

  let rack = '';
  let descriptor: string[];
  if (head.length === 3) [rack, ...descriptor] = head as [string, string, string];
  else if (head.length === 2 && parseAnchor(head[0]!).ok)
    descriptor = head; // a play with the rack left out
  else if (head.length === 2) [rack, ...descriptor] = head as [string, string];
  else if (head.length === 1) descriptor = head;
  else
    return fail('BAD_EVENT', `"${content}" has ${head.length} fields before the score; expected RACK and a move or an end-of-game token.`);

  if (rack !== '') {
    const tiles = parseRack(rack);
    if (!tiles.ok) return fail('BAD_RACK', tiles.error.message);
  }
  const withRack = { ...base, rack };

  if (descriptor.length === 2) {
    const play = parsePlay(descriptor[0]!, descriptor[1]!);
    if (!play.ok) return fail(play.error.code as GcgErrorCode, play.error.message);
    return ok({ ...withRack, kind: 'move', move: play.value as Move });
  }
  const d = descriptor[0]!;
  if (d === '--') return ok({ ...withRack, kind: 'phony-returned' });
  if (d.startsWith('-')) {
    const move = parseExchange(d);
    if (!move.ok) return fail(move.error.code as GcgErrorCode, move.error.message);
    return ok({ ...withRack, kind: 'move', move: move.value });
  }
  if (d === '(challenge)') return ok({ ...withRack, kind: 'challenge-bonus' });
  if (d === '(time)') return ok({ ...withRack, kind: 'time-penalty' });
  const paren = /^\((.*)\)$/.exec(d);
  if (paren) {
    const tiles = paren[1]!;
    const parsed = tiles === '' ? null : parseRack(tiles);
    if (!parsed || !parsed.ok) return fail('BAD_RACK', parsed ? parsed.error.message : `"${d}" holds no tiles.`);
    return ok(rack === '' ? { ...withRack, kind: 'end-rack-points', tiles } : { ...withRack, kind: 'end-rack-penalty', tiles });
  }
  return fail(
    'BAD_EVENT',
    `"${d}" is not an event: expected a coordinate and word (8H WORD), - (pass), -TILES or -N (exchange), -- (phony withdrawn), (challenge), (time) or (TILES).`,
  );
};
