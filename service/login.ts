import type { RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
import { authenticatePassword, type PlayerRow } from './accounts.js';
import type { Tx } from './context.js';
import { beginLogin, checkRateLimit, endLoginAttempt, type RateLimiter } from './rate-limits.js';

/**
 * Password login under the limits (issue 15): the address's login bucket, then the back-off of the
 * handle and of the address, then the password. While the handle or the address is locked the answer is
 * RATE_LIMITED at once, without looking the handle up, so it is the same, in content and in time,
 * whether the handle exists or not; otherwise an unknown handle is verified against a dummy hash
 * (`authenticatePassword`), so BAD_CREDENTIALS takes as long either way. The attempt is counted as a
 * failure before the password is checked, so that parallel guesses cannot all get in under the count;
 * a success takes the address's count back and resets the handle's.
 */
export interface LoginInput {
  readonly handle: string;
  readonly password: string;
  /** The client's address key (graph/client-address.ts); null when unknown (in-process calls). */
  readonly address: string | null;
}

export const login = async (client: Tx, limiter: RateLimiter, input: LoginInput, now: Date): Promise<Result<PlayerRow, RuleError>> => {
  const bucket = await checkRateLimit(limiter, 'login', input.address === null ? null : { kind: 'address', id: input.address }, now);
  if (!bucket.ok) return bucket;
  const opened = await beginLogin(limiter, input.handle, input.address, now);
  if (!opened.ok) return opened;
  const result = await authenticatePassword(client, input.handle, input.password);
  await endLoginAttempt(limiter, input.handle, input.address, result.ok);
  return result;
};
