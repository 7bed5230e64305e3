import { cite, type Citation, type RuleError } from '../errors.js';

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

export const gcgError = (
  code: GcgErrorCode,
  line: number,
  message: string,
  details: Record<string, unknown> = {},
  citation?: Citation,
): GcgError => {
  const e = { code, line, message: `Line ${line}: ${message}`, details: { line, ...details } };
  return citation ? { ...e, citation } : e;
};

export const LEXICAL = cite('gcg', '§1 file and lexical rules');
export const PRAGMAS = cite('gcg', '§2 pragmas');
export const EVENTS = cite('gcg', '§3 event lines');
