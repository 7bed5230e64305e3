import type { Tx } from './db.js';
import { isUuid } from './ids.js';

/**
 * Ends every OAuth grant of a player: deletes the authorization server's records that act for them
 * (`oauth_records.account_id`: grants, authorization codes, access and refresh tokens, its sessions). The
 * adapter (store/oauth-adapter.ts) finds nothing for a deleted record, so each of those tokens is refused
 * from then on. Called in the caller's transaction by a password change (service/password-change.ts) and an
 * account deletion; returns how many records went.
 */
export const revokeOAuthGrantsOf = async (tx: Tx, playerId: string): Promise<number> => {
  if (!isUuid(playerId)) return 0;
  const r = await tx.oAuthRecord.deleteMany({ where: { accountId: playerId } });
  return r.count;
};
