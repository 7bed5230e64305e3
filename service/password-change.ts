import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { Db } from '../store/db.js';
import { revokeOAuthGrantsOf } from '../store/oauth-revocation.js';
import { hashPassword, setPasswordHash, verifyPassword } from '../store/passwords.js';
import { findPlayerById } from '../store/players.js';
import { checkNewPassword } from './password-policy.js';
import { beginLogin, endLoginAttempt, type RateLimiter } from './rate-limits.js';
import { endSessions } from './sessions.js';

/**
 * Changing one's password (issue 32; docs/accounts.md "Changing your password"). The current password is
 * checked under the login back-off of the player's handle and the caller's address (service/login.ts), so a
 * stolen session cannot be used to guess it faster than a login could. The new one must pass the policy.
 * Then, in one transaction: the new hash, every other session of the player revoked (the one making the change
 * stays), every OAuth grant of the player deleted (its apps' access and refresh tokens stop working). API keys
 * stay: they are the owner's own tool, listed and revoked one by one (revokeApiKey). The caller clears its
 * process's token cache; other processes refuse the revoked sessions within their cache's life.
 */
export interface PasswordChange {
  readonly playerId: string;
  /** The session making the change: kept. */
  readonly sessionId: string;
  readonly currentPassword: string;
  readonly newPassword: string;
  /** The client's address key (graph/client-address.ts); null when unknown. */
  readonly address: string | null;
}

export interface PasswordChanged {
  /** Sessions ended (every live one but the caller's). */
  readonly endedSessions: number;
  /** OAuth records deleted (grants and their codes and tokens). */
  readonly revokedOAuthRecords: number;
}

/** Errors: `BAD_CREDENTIALS` (the current password is wrong), `RATE_LIMITED`, and the policy's codes naming `input.newPassword`. */
export const changePassword = async (
  db: Db,
  limiter: RateLimiter,
  input: PasswordChange,
  now: Date,
): Promise<Result<PasswordChanged, RuleError>> => {
  const player = await findPlayerById(db.prisma, input.playerId);
  if (!player) return err(ruleError('BAD_CREDENTIALS', 'The current password is wrong.', { field: 'input.currentPassword' }));
  const opened = await beginLogin(limiter, player.handle, input.address, now);
  if (!opened.ok) return opened;
  const matches = player.passwordHash !== null && (await verifyPassword(input.currentPassword, player.passwordHash));
  await endLoginAttempt(limiter, player.handle, input.address, matches);
  if (!matches) return err(ruleError('BAD_CREDENTIALS', 'The current password is wrong.', { field: 'input.currentPassword' }));
  const policy = await checkNewPassword(input.newPassword, 'input.newPassword');
  if (!policy.ok) return policy;
  const hash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    // Over the hash just verified only: two changes at once cannot both win with different current passwords.
    if (!(await setPasswordHash(tx, player.id, hash, player.passwordHash!)))
      return err(ruleError('BAD_CREDENTIALS', 'The current password is wrong.', { field: 'input.currentPassword' }));
    const endedSessions = await endSessions(tx, player.id, now, input.sessionId);
    const revokedOAuthRecords = await revokeOAuthGrantsOf(tx, player.id);
    return ok({ endedSessions, revokedOAuthRecords });
  });
};
