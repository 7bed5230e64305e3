import { findOAuthAccess, touchOAuthGrant } from '../store/oauth-adapter.js';
import { API_SCOPES, findPlayerByIdStatement, isApiScope, type ApiScope, type PlayerRow } from './accounts.js';
import type { Db } from './context.js';

/**
 * An OAuth access token presented to the API (docs/apps.md#the-authorization-server): oidc-provider's
 * opaque tokens are looked up in its records. A token acts for its player with the scopes the player
 * approved, never more than the API's scopes; a player's own limits (seats, roles) still apply since the
 * token acts as the player. Refused: an unknown or expired token, a revoked or expired grant (RFC 7009
 * revocation, reuse of a code or refresh token, a password change or deletion delete the grant's rows),
 * a deleted app, a deleted player.
 */
/**
 * The scopes an app may be granted: the API's, less those that would outlive the grant or reach beyond it
 * (`keys:manage` mints API keys, which a revocation of the grant would not end; `apps:manage` reaches the
 * player's own grants and apps). A player uses those through their own session or key.
 */
export const OAUTH_SCOPES: readonly ApiScope[] = API_SCOPES.filter((s) => s !== 'keys:manage' && s !== 'apps:manage');

export type OAuthAccess = { readonly player: PlayerRow; readonly scopes: readonly ApiScope[] } | { readonly problem: string };

/** How often a grant's `last_used_at` is written at most: the apps list needs no finer figure, a turn no extra write. */
export const GRANT_TOUCH_MS = 60_000;

const INVALID = 'The access token is not valid (expired, revoked, or its app was removed): authorize the app again.';

export const checkOAuthAccess = async (db: Db, token: string, now: Date): Promise<OAuthAccess> => {
  const access = await findOAuthAccess(db, token, now);
  if (!access || !access.grantLive) return { problem: INVALID };
  if (access.expiresAt && access.expiresAt.getTime() <= now.getTime())
    return { problem: 'The access token has expired: use the refresh token or authorize the app again.' };
  const player = await findPlayerByIdStatement(db, access.accountId);
  if (!player || player.deletedAt) return { problem: INVALID };
  const asked = new Set(access.scope.split(' '));
  const scopes = OAUTH_SCOPES.filter((s) => asked.has(s) && isApiScope(s));
  const since = new Date(now.getTime() - GRANT_TOUCH_MS);
  if (!access.grantLastUsedAt || access.grantLastUsedAt < since) await touchOAuthGrant(db, access.grantId, now, since);
  return { player, scopes };
};
