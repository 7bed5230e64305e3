import { ruleError, type RuleError } from '../errors.js';

/**
 * Every way building, encoding or loading a lexicon can fail. No rule document governs word lists
 * (the lexicon is chosen by the event), so these errors carry no citation.
 */
export const LEXICON_ERROR_CODES = [
  'LEXICON_BAD_WORD',
  'LEXICON_EMPTY',
  'LEXICON_TOO_LARGE',
  'LEXICON_BAD_NAME',
  'LEXICON_BAD_MAGIC',
  'LEXICON_BAD_VERSION',
  'LEXICON_TRUNCATED',
  'LEXICON_BAD_HEADER',
  'LEXICON_CORRUPT',
  'LEXICON_NOT_FOUND',
  'LEXICON_UNREADABLE',
  'LEXICON_HASH_MISMATCH',
] as const;
export type LexiconErrorCode = (typeof LEXICON_ERROR_CODES)[number];

export const lexiconError = (code: LexiconErrorCode, message: string, details?: Record<string, unknown>): RuleError =>
  ruleError(code, message, details);
