import { err, ok, type Result } from '../result.js';
import type { Citation } from '../errors.js';
import { parseRack } from '../move.js';
import {
  GCG_HEADER_KEYWORDS,
  type GcgDocument,
  type GcgEvent,
  type GcgIncomplete,
  type GcgLastRack,
  type GcgPlayer,
  type GcgPragma,
} from './document.js';
import { recordText } from './decode.js';
import { parseEventFields, upperTiles } from './parse-event.js';
import { EVENTS, gcgError, LEXICAL, PRAGMAS, type GcgError, type GcgErrorCode } from './gcg-error.js';

export { GCG_ERROR_CODES, type GcgError, type GcgErrorCode } from './gcg-error.js';
export { decodeGcg, GCG_ENCODINGS, type GcgEncoding } from './decode.js';

// ---------------------------------------------------------------------------------------------
// Text → syntax tree

/** `>NICK: …`; old files put spaces around the nickname (`> Joel :`). */
const EVENT_LINE = /^>\s*([^\s:]+)\s*:(.*)$/;
const HEADER = new Set<string>(GCG_HEADER_KEYWORDS);
const REPEATABLE = new Set(['tile']);
/** macondo's header notes (gcgio writeGCGHeader): settings GCG has no pragma for, written before the events. */
const HEADER_NOTE = /^(Variant|BoardLayout|LetterDistribution)\s*:/i;

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
  const tiles = upperTiles(value);
  const rack = parseRack(tiles);
  if (!rack.ok) return fail('BAD_RACK', rack.error.message, PRAGMAS);
  r.lastRacks[idx] = { rack: tiles, line };
  return null;
};

/** `#incomplete [RACK]` (Quackle): once. */
const readIncomplete = (r: Reading, l: Line, value: string): LineOutcome => {
  if (r.incomplete) return l.fail('REDUNDANT_PRAGMA', `#incomplete is given twice (first on line ${r.incomplete.line}).`, PRAGMAS);
  const tiles = upperTiles(value);
  if (tiles !== '') {
    const rack = parseRack(tiles);
    if (!rack.ok) return l.fail('BAD_RACK', rack.error.message, PRAGMAS);
  }
  r.incomplete = { rack: tiles, line: l.line };
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
    if (!last && HEADER_NOTE.test(value)) return readHeader(r, l, keyword, value);
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
 * Players for the `#player` slots a record never declares (older tools wrote none): the event
 * nicknames not declared, in the order they first move, with no full name. Only when every
 * missing slot can be filled; otherwise the usual errors name what is missing.
 */
const inferredPlayers = (lines: readonly string[]): [GcgPlayer | null, GcgPlayer | null] => {
  const declared = new Map<number, string>();
  const movers: { nickname: string; line: number }[] = [];
  let repeated = false;
  lines.forEach((text, i) => {
    const content = text.trim();
    const player = /^#player([12])\s+(\S+)/.exec(content);
    if (player) {
      repeated ||= declared.has(Number(player[1]));
      declared.set(Number(player[1]), player[2]!);
    }
    const event = EVENT_LINE.exec(content);
    if (event && !movers.some((m) => m.nickname === event[1])) movers.push({ nickname: event[1]!, line: i + 1 });
  });
  const candidates = movers.filter((m) => ![...declared.values()].includes(m.nickname));
  const slots = [1, 2].filter((n) => !declared.has(n));
  if (repeated || slots.length === 0 || candidates.length < slots.length) return [null, null];
  const out: [GcgPlayer | null, GcgPlayer | null] = [null, null];
  slots.forEach((n, i) => (out[n - 1] = { nickname: candidates[i]!.nickname, name: '', line: candidates[i]!.line }));
  return out;
};

/**
 * Parses a GCG record into its syntax tree (reference/gcg-format.md §1–3). Syntax only: scores,
 * racks against the bag, turn order and board geometry are checked by replay. Bytes are decoded
 * by {@link decodeGcg}; a string is taken as already decoded (a leading BOM is dropped).
 */
export const parseGcg = (input: string | Uint8Array): Result<GcgDocument, GcgError> => {
  const read = recordText(input);
  if (!read.ok) return read;
  const { text, encoding } = read.value;
  if (text.trim() === '') return err(gcgError('EMPTY', 1, 'the record is empty.', {}, LEXICAL));
  const lines = text.split(/\r\n|\r|\n/);
  const r: Reading = {
    players: inferredPlayers(lines),
    pragmas: [],
    seen: new Set(),
    events: [],
    lastRacks: [null, null],
    incomplete: null,
    noteOpen: false,
  };
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
    encoding,
  });
};
