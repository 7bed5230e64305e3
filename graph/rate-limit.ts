import { checkRateLimit, type RateLimitAction, type Subject } from '../service/rate-limits.js';
import type { Context } from './context.js';
import { unwrap } from './errors.js';

/**
 * The per-client limits at the edge (issue 15): who a request counts against, and the check a resolver
 * makes before doing the work. A refusal is the typed RateLimitedError (RATE_LIMITED, retryAfterSeconds)
 * of the field's `…Result` union; on REST, 429 with Retry-After (`restRateLimitHeaders`).
 */

/** An API key counts for itself, a signed-in player for themself, anyone else by address (null: unknown). */
export const subjectOf = (ctx: Context): Subject | null => {
  if (ctx.principal.kind === 'player') {
    return ctx.principal.via === 'api-key' && ctx.principal.apiKeyId
      ? { kind: 'apiKey', id: ctx.principal.apiKeyId }
      : { kind: 'player', id: ctx.principal.player.id };
  }
  return ctx.clientAddress === null ? null : { kind: 'address', id: ctx.clientAddress };
};

/** The caller's address as a subject (registration and login count by address whoever calls). */
export const addressSubjectOf = (ctx: Context): Subject | null =>
  ctx.clientAddress === null ? null : { kind: 'address', id: ctx.clientAddress };

/** Takes one token of `action` (throws RateLimitedError when there is none). */
export const enforceRateLimit = async (ctx: Context, action: RateLimitAction, subject: Subject | null = subjectOf(ctx)): Promise<void> => {
  unwrap(await checkRateLimit(ctx.rateLimits, action, subject, ctx.now()));
};

/**
 * The Retry-After header for a REST error body (`{ code, details: { retryAfterSeconds } }`, or
 * `retryAfterSeconds` at the top): empty for any other body. For every REST room: pair it with
 * `restStatusFor` (RATE_LIMITED is 429).
 */
export const restRateLimitHeaders = (body: unknown): Record<string, string> => {
  if (typeof body !== 'object' || body === null) return {};
  const b = body as { code?: unknown; retryAfterSeconds?: unknown; details?: { retryAfterSeconds?: unknown } | null };
  if (b.code !== 'RATE_LIMITED') return {};
  const seconds = Number(b.retryAfterSeconds ?? b.details?.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds > 0 ? { 'retry-after': String(Math.ceil(seconds)) } : {};
};
