import type { RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
import { PASSWORD_ERROR_CODES } from '../service/password-policy.js';
import { FieldInputError, fieldInputErrorType, unwrap } from './errors.js';

/**
 * A new password the policy refused (service/password-policy.ts): PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG,
 * PASSWORD_TOO_COMMON; `field` names the input (`input.password` of registerPlayer, `input.newPassword` of
 * changePassword).
 */
export class PasswordInputError extends FieldInputError {}

fieldInputErrorType(
  PasswordInputError,
  'PasswordInputError',
  'A new password the policy refused (docs/accounts.md#passwords): PASSWORD_TOO_SHORT (fewer than 8 characters), PASSWORD_TOO_LONG (more than 200), PASSWORD_TOO_COMMON (one of the most common passwords, whatever its case); `field` names the input.',
  'input.password, input.newPassword',
);

const POLICY_CODES: ReadonlySet<string> = new Set(PASSWORD_ERROR_CODES);

/** A service result's value; a password-policy refusal as a {@link PasswordInputError}, any other error as `unwrap` maps it. */
export const unwrapPassword = <T>(r: Result<T, RuleError>): T => {
  if (!r.ok && POLICY_CODES.has(r.error.code)) throw new PasswordInputError(r.error, String(r.error.details?.['field'] ?? ''));
  return unwrap(r);
};
