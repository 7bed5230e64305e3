import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { BackoffRule, BucketRule, RateLimitAction, RateLimitStore, Subject, SubjectKind } from '../store/rate-limits.js';

export { RATE_LIMIT_ACTIONS, SUBJECT_KINDS, postgresRateLimitStore } from '../store/rate-limits.js';
export type { BackoffRule, BucketRule, RateLimitAction, RateLimitStore, Subject, SubjectKind };

/**
 * Per-client limits (issue 15): token buckets per (action, subject), and the login back-off. The rules
 * are configuration (defaults below, `ARBITER_RATE_LIMITS` / `ARBITER_LOGIN_BACKOFF` to change them per
 * deployment); the state lives behind {@link RateLimitStore}, kept in Postgres by
 * store/rate-limits.ts so that every Lambda container shares it.
 */

export interface RateLimitConfig {
  readonly buckets: Readonly<Partial<Record<RateLimitAction, Readonly<Partial<Record<SubjectKind, BucketRule>>>>>>;
  readonly loginBackoff: { readonly handle: BackoffRule | null; readonly address: BackoffRule | null };
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * Defaults for a club server. A club night puts 30–40 players behind one address, all signing in within
 * minutes, and a tournament bot creates a round's games at once; an attacker gets far less than needed:
 * - login: 60 per hour per address (a room full of players signs in; a guesser gets 1 a minute);
 * - register: 30 a day per address (a sign-up evening; not a bot farm);
 * - createGame (games and matches), importGame: 60 an hour per player, 300 per API key (a pairing bot);
 * - webhookAdmin (create, pause, delete subscriptions): 30 an hour per player or key;
 * - analysis: 600 an hour per address, player or key, for analyzePosition and gameAnalysis (graph/analysis.ts).
 * - lexiconUpload: 10 a day per player or key (a list is up to 5 MB and compiling it takes seconds).
 * - oauthToken (`POST /oauth/token`, service/oauth-token-limits.ts): 300 an hour per address (a club's
 *   players behind one address each refresh about once an hour), 3000 an hour per app (client_id).
 */
export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  buckets: {
    login: { address: { capacity: 60, periodSeconds: HOUR } },
    register: { address: { capacity: 30, periodSeconds: DAY } },
    createGame: { player: { capacity: 60, periodSeconds: HOUR }, apiKey: { capacity: 300, periodSeconds: HOUR } },
    importGame: { player: { capacity: 60, periodSeconds: HOUR }, apiKey: { capacity: 300, periodSeconds: HOUR } },
    webhookAdmin: { player: { capacity: 30, periodSeconds: HOUR }, apiKey: { capacity: 30, periodSeconds: HOUR } },
    analysis: {
      address: { capacity: 600, periodSeconds: HOUR },
      player: { capacity: 600, periodSeconds: HOUR },
      apiKey: { capacity: 600, periodSeconds: HOUR },
    },
    lexiconUpload: { player: { capacity: 10, periodSeconds: DAY }, apiKey: { capacity: 10, periodSeconds: DAY } },
    oauthToken: { address: { capacity: 300, periodSeconds: HOUR }, client: { capacity: 3000, periodSeconds: HOUR } },
  },
  loginBackoff: {
    // 5 wrong passwords are a forgetful player; from the 6th, 2 s, 4 s … up to 15 min: ~100 guesses a day.
    handle: { freeFailures: 5, firstDelaySeconds: 2, maxDelaySeconds: 15 * 60, windowSeconds: HOUR },
    // An address is shared by a whole club: more slack, shorter ceiling.
    address: { freeFailures: 20, firstDelaySeconds: 1, maxDelaySeconds: 5 * 60, windowSeconds: HOUR },
  },
};

/** No limits at all (`ARBITER_RATE_LIMITS=off`): benchmarks and load tests. */
export const NO_RATE_LIMITS: RateLimitConfig = { buckets: {}, loginBackoff: { handle: null, address: null } };

export interface RateLimiter {
  readonly config: RateLimitConfig;
  readonly store: RateLimitStore;
  /** Drops idle state now and then (at most every 10 minutes per process). */
  pruneNow(now: Date): Promise<void>;
}

const PRUNE_EVERY_MS = 10 * 60_000;

/** A limiter over `store`. Rows idle for longer than the longest period or window are full or forgotten anyway, so they are pruned. */
export const createRateLimiter = (config: RateLimitConfig, store: RateLimitStore): RateLimiter => {
  const periods = [
    ...Object.values(config.buckets).flatMap((kinds) => Object.values(kinds ?? {}).map((r) => r.periodSeconds)),
    ...[config.loginBackoff.handle, config.loginBackoff.address].flatMap((r) => (r ? [r.windowSeconds, r.maxDelaySeconds] : [])),
  ];
  const keepMs = Math.max(86_400, ...periods) * 1000;
  let lastPrune = 0;
  return {
    config,
    store,
    pruneNow: async (now) => {
      if (now.getTime() - lastPrune < PRUNE_EVERY_MS) return;
      lastPrune = now.getTime();
      await store.prune(new Date(now.getTime() - keepMs)).catch(() => undefined); // housekeeping must never fail a request
    },
  };
};

const SUBJECT_NAMES: Readonly<Record<SubjectKind, string>> = { address: 'address', player: 'player', apiKey: 'API key', client: 'app' };

const rateLimited = (message: string, retryAfterSeconds: number, details: Record<string, unknown>): RuleError =>
  ruleError('RATE_LIMITED', message, { retryAfterSeconds, ...details });

/** Takes a token of `action` for `subject` (null: an anonymous caller without a known address: nothing to key on). */
export const checkRateLimit = async (
  limiter: RateLimiter,
  action: RateLimitAction,
  subject: Subject | null,
  now: Date,
): Promise<Result<void, RuleError>> => {
  const rule = subject ? limiter.config.buckets[action]?.[subject.kind] : undefined;
  if (!subject || !rule) return ok(undefined);
  await limiter.pruneNow(now);
  const taken = await limiter.store.take(action, subject, rule, now);
  if (taken.allowed) return ok(undefined);
  return err(
    rateLimited(
      `Too many ${action} requests from this ${SUBJECT_NAMES[subject.kind]}: at most ${rule.capacity} per ${rule.periodSeconds} s. Retry in ${taken.retryAfterSeconds} s.`,
      taken.retryAfterSeconds,
      { action, subjectKind: subject.kind },
    ),
  );
};

/** The key a handle's failures are counted under: as typed (trimmed, lowercased), existing or not. */
export const handleKey = (handle: string): string => handle.trim().toLowerCase().slice(0, 64);

/**
 * Opens a login attempt under the back-off: refused (RATE_LIMITED) while the handle or the address is
 * locked, else counted as a failure of both until {@link endLoginAttempt} says it succeeded.
 */
export const beginLogin = async (
  limiter: RateLimiter,
  handle: string,
  address: string | null,
  now: Date,
): Promise<Result<void, RuleError>> => {
  const subjects = loginSubjects(limiter, handle, address);
  const counted: typeof subjects = [];
  for (const s of subjects) {
    const r = await limiter.store.beginLoginAttempt(s.kind, s.id, s.rule, now);
    if (r.locked) {
      for (const c of counted) await limiter.store.cancelLoginAttempt(c.kind, c.id, c.rule);
      return err(
        rateLimited(
          `Too many failed sign-ins ${s.kind === 'handle' ? 'for this handle' : 'from this address'}: retry in ${r.retryAfterSeconds} s.`,
          r.retryAfterSeconds,
          { action: 'login', subjectKind: s.kind },
        ),
      );
    }
    counted.push(s);
  }
  return ok(undefined);
};

/** Closes an attempt that {@link beginLogin} opened: a success resets the handle's failures and takes back the address's count. */
export const endLoginAttempt = async (limiter: RateLimiter, handle: string, address: string | null, succeeded: boolean): Promise<void> => {
  if (!succeeded) return; // already counted
  for (const s of loginSubjects(limiter, handle, address)) {
    if (s.kind === 'handle') await limiter.store.resetLoginFailures(s.kind, s.id);
    else await limiter.store.cancelLoginAttempt(s.kind, s.id, s.rule);
  }
};

const loginSubjects = (limiter: RateLimiter, handle: string, address: string | null) => {
  const { handle: byHandle, address: byAddress } = limiter.config.loginBackoff;
  return [
    ...(byAddress && address !== null ? [{ kind: 'address' as const, id: address, rule: byAddress }] : []),
    ...(byHandle ? [{ kind: 'handle' as const, id: handleKey(handle), rule: byHandle }] : []),
  ];
};
