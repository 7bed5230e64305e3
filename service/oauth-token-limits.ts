import type { RuleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import { checkRateLimit, type RateLimiter } from './rate-limits.js';

/**
 * The limit of the authorization server's token endpoint (`POST /oauth/token`, docs/apps.md): a bucket per
 * client address and one per app (its client_id), both action `oauthToken` of service/rate-limits.ts. The
 * address is taken first, and a request it refuses takes nothing from the app's bucket: one address cannot
 * drain an app's bucket faster than its own limit lets it, so spending an app's allowance takes many addresses.
 */

/** What our client ids look like (service/oauth-apps.ts `newClientId`): anything else gets no bucket of its own. */
const CLIENT_ID = /^app_[\w-]{22}$/;

export const checkOAuthTokenLimit = async (
  limiter: RateLimiter,
  request: { readonly clientId: string | null; readonly address: string | null },
  now: Date,
): Promise<Result<void, RuleError>> => {
  const byAddress = await checkRateLimit(
    limiter,
    'oauthToken',
    request.address === null ? null : { kind: 'address', id: request.address },
    now,
  );
  if (!byAddress.ok) return byAddress;
  // An id of no possible app is refused by the server anyway (invalid_client); a bucket for it would only fill the table.
  const clientId = request.clientId !== null && CLIENT_ID.test(request.clientId) ? request.clientId : null;
  if (clientId === null) return ok(undefined);
  return checkRateLimit(limiter, 'oauthToken', { kind: 'client', id: clientId }, now);
};
