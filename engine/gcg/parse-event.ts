import { parseAnchor } from '../board.js';
import { parseExchange, parsePlay, parseRack, type Move } from '../move.js';
import { err, ok, type Result } from '../result.js';
import type { GcgEvent } from './document.js';
import { EVENTS, gcgError, type GcgError, type GcgErrorCode } from './gcg-error.js';

/** The fields of one event line after `>NICK:` (gcg §3), with the spellings older tools wrote. */

const SIGNED = /^[+-]\d+$/;
const INTEGER = /^-?\d+$/;

/** `-0` and `+0` are the same score; keep one zero so equal records compare equal. */
const toInt = (s: string): number => Number(s) + 0;

/**
 * Racks and exchanged tiles in capitals. Old tools wrote racks in lower case; a rack holds no
 * designated blanks (a blank on a rack is `?`), so a lower-case letter there can only mean the tile.
 * A letter whose capital is not one character (`ß`) is left for the rack parser to name.
 */
export const upperTiles = (text: string): string =>
  text.replace(/\p{Ll}/gu, (c) => {
    const u = c.toUpperCase();
    return [...u].length === 1 ? u : c;
  });

/** The descriptor that is not a play: pass, exchange, `--`, `(challenge)`, `(time)` or `(TILES)`. */
const readDescriptor = (
  d: string,
  withRack: Omit<GcgEvent, 'notes' | 'kind'>,
  fail: (code: GcgErrorCode, message: string) => { readonly ok: false; readonly error: GcgError },
): Result<Omit<GcgEvent, 'notes'>, GcgError> => {
  if (d === '--') return ok({ ...withRack, kind: 'phony-returned' });
  // Quackle writes and reads `-0` for a pass (an exchange of nothing).
  if (d === '-0') return ok({ ...withRack, kind: 'move', move: { kind: 'pass' } });
  if (d.startsWith('-')) {
    const move = parseExchange(upperTiles(d));
    if (!move.ok) return fail(move.error.code as GcgErrorCode, move.error.message);
    return ok({ ...withRack, kind: 'move', move: move.value });
  }
  if (d.toLowerCase() === '(challenge)') return ok({ ...withRack, kind: 'challenge-bonus' });
  if (d.toLowerCase() === '(time)') return ok({ ...withRack, kind: 'time-penalty' });
  if (d.toLowerCase() === '(ruling)') return ok({ ...withRack, kind: 'ruling-adjustment' });
  const paren = /^\((.*)\)$/.exec(d);
  if (paren) {
    const tiles = upperTiles(paren[1]!);
    const parsed = tiles === '' ? null : parseRack(tiles);
    if (!parsed || !parsed.ok) return fail('BAD_RACK', parsed ? parsed.error.message : `"${d}" holds no tiles.`);
    return ok(withRack.rack === '' ? { ...withRack, kind: 'end-rack-points', tiles } : { ...withRack, kind: 'end-rack-penalty', tiles });
  }
  return fail(
    'BAD_EVENT',
    `"${d}" is not an event: expected a coordinate and word (8H WORD), - (pass), -TILES or -N (exchange), -- (phony withdrawn), (challenge), (time) or (TILES).`,
  );
};

/**
 * The fields after `>NICK:`. The score pair is the first signed number followed by an integer,
 * so old records' trailing annotations (`+26 66  BE, ET, DO`) stay out of the fields (gcg §3 notes).
 * Runs of spaces and tabs separate fields; racks are read in either case and kept in capitals.
 */
export const parseEventFields = (rest: string, line: number, content: string, player: 0 | 1): Result<Omit<GcgEvent, 'notes'>, GcgError> => {
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

  rack = upperTiles(rack);
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
  return readDescriptor(descriptor[0]!, withRack, fail);
};
