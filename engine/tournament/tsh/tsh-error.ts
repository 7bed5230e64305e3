import type { RuleError } from '../../errors.js';

/**
 * Why a `.t` file does not parse. Each names the 1-based line and the field: `name`, `rating`,
 * `opponents`, `scores`, or a supplementary field's own name (`p12`, `board` …).
 */
export const TSH_ERROR_CODES = [
  /** A player line with nothing before its rating. */
  'MISSING_NAME',
  /** A player line whose name is not followed by a rating. */
  'MISSING_RATING',
  /** A rating tsh reads but Arbiter does not (`1500+20`), or one that is not a number. */
  'BAD_RATING',
  /** An opponent that is not a whole number ≥ 0. */
  'BAD_OPPONENT',
  /** A score that is not a whole number (negative allowed). */
  'BAD_SCORE',
  /** A value of p12, board, newr or off outside what tsh gives it. */
  'BAD_FIELD_VALUE',
  /** An opponent number above the number of player lines in the file. */
  'OPPONENT_OUT_OF_RANGE',
] as const;
export type TshErrorCode = (typeof TSH_ERROR_CODES)[number];

export interface TshError extends RuleError {
  readonly code: TshErrorCode;
  /** 1-based line of the file. */
  readonly line: number;
  /** `name`, `rating`, `opponents`, `scores` or the supplementary field's name. */
  readonly field: string;
  readonly details: Readonly<{ line: number; field: string } & Record<string, unknown>>;
}

/** `line 12: scores: "4x3" is not a number` — the message names the line and the field first. */
export const tshError = (code: TshErrorCode, line: number, field: string, what: string, extra: Record<string, unknown> = {}): TshError => ({
  code,
  line,
  field,
  message: `line ${line}: ${field}: ${what}`,
  details: { line, field, ...extra },
});
