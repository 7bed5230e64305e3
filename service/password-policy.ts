import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';

/**
 * What a new password must be (registering, changing it; docs/accounts.md "Passwords"):
 * - at least 8 characters: NIST SP 800-63B (rev. 3, §5.1.1.2) and the OWASP Authentication Cheat Sheet
 *   ("passwords shorter than 8 characters are considered to be weak"), together with the list below;
 * - at most 200, so that a request cannot make the server hash megabytes (NIST asks for at least 64 allowed);
 * - not one of the most common passwords, compared case-insensitively: NIST asks verifiers to refuse
 *   "passwords obtained from previous breach corpuses" and "dictionary words". The list is the ~49 000 most
 *   common of @zxcvbn-ts/language-common (the maintained successor of Dropbox's zxcvbn, MIT), loaded on the
 *   first check only: half a megabyte that a Lambda's cold start, a turn, never needs.
 * No composition rules (a digit, a symbol …): NIST and OWASP both advise against them.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

export const PASSWORD_ERROR_CODES = ['PASSWORD_TOO_SHORT', 'PASSWORD_TOO_LONG', 'PASSWORD_TOO_COMMON'] as const;

let common: Promise<ReadonlySet<string>> | undefined;

/** The common-password list, lowercased, loaded once (on first use). */
export const commonPasswords = (): Promise<ReadonlySet<string>> =>
  (common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
  ));

/** Characters as a person counts them (code points, after NFC), the same text the hash takes. */
const lengthOf = (password: string): number => [...password.normalize('NFC')].length;

/**
 * `password` as a new password, or why not (`field`: the input that holds it, e.g. `input.newPassword`).
 * Errors: PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG, PASSWORD_TOO_COMMON.
 */
export const checkNewPassword = async (password: string, field: string): Promise<Result<void, RuleError>> => {
  const length = lengthOf(password);
  if (length < PASSWORD_MIN_LENGTH)
    return err(
      ruleError('PASSWORD_TOO_SHORT', `${field}: the password is shorter than ${PASSWORD_MIN_LENGTH} characters.`, {
        field,
        minLength: PASSWORD_MIN_LENGTH,
      }),
    );
  if (length > PASSWORD_MAX_LENGTH)
    return err(
      ruleError('PASSWORD_TOO_LONG', `${field}: the password is longer than ${PASSWORD_MAX_LENGTH} characters.`, {
        field,
        maxLength: PASSWORD_MAX_LENGTH,
      }),
    );
  if ((await commonPasswords()).has(password.normalize('NFC').toLowerCase()))
    return err(
      ruleError(
        'PASSWORD_TOO_COMMON',
        `${field}: this password is one of the most common ones, which are tried first by anyone guessing; choose another (a few unrelated words make a good one).`,
        { field },
      ),
    );
  return ok(undefined);
};
