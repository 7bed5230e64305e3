import type { ApiScope, PlayerRow } from '../service/accounts.js';
import type { Db } from '../service/context.js';
import { checkOAuthAccess } from '../service/oauth-access.js';

/**
 * Cheap tells of a credential's kind: an API key starts with `arb_`, a JWT has two dots; an OAuth access
 * token (oidc-provider's opaque 43-character base64url value) has neither.
 */
export const isOAuthAccessTokenText = (credential: string): boolean =>
  !credential.startsWith('arb_') && !credential.includes('.') && /^[\w-]{43}$/.test(credential);

/** What {@link authenticateOAuthToken} answers: a `Principal` of graph/auth.ts (spelled out here, which auth.ts imports). */
export type OAuthPrincipal =
  | {
      readonly kind: 'player';
      readonly player: PlayerRow;
      readonly via: 'oauth';
      readonly apiKeyId: null;
      readonly sessionId: null;
      readonly scopes: readonly ApiScope[];
    }
  | { readonly kind: 'anonymous'; readonly problem: string };

/**
 * The principal of a third-party app's access token (service/oauth-access.ts): the player it acts for,
 * with the approved scopes. Not cached: a revoked grant must refuse the very next request, as a revoked
 * API key does.
 */
export const authenticateOAuthToken = async (
  credential: string,
  deps: { readonly db: Db; readonly now: Date },
): Promise<OAuthPrincipal> => {
  const access = await checkOAuthAccess(deps.db, credential, deps.now);
  if ('problem' in access) return { kind: 'anonymous', problem: access.problem };
  return { kind: 'player', player: access.player, via: 'oauth', apiKeyId: null, sessionId: null, scopes: access.scopes };
};
