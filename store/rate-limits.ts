import type { Db } from './db.js';

/** What is limited (service/rate-limits.ts holds the rules). `oauthToken` is the authorization server's `POST /oauth/token`. */
export const RATE_LIMIT_ACTIONS = [
  'login',
  'register',
  'createGame',
  'importGame',
  'webhookAdmin',
  'analysis',
  'lexiconUpload',
  'oauthToken',
] as const;
export type RateLimitAction = (typeof RATE_LIMIT_ACTIONS)[number];

/** Who a bucket belongs to: a client address (anonymous callers), a player (token), an API key, an OAuth client (an app's client_id). */
export const SUBJECT_KINDS = ['address', 'player', 'apiKey', 'client'] as const;
export type SubjectKind = (typeof SUBJECT_KINDS)[number];

export interface Subject {
  readonly kind: SubjectKind;
  readonly id: string;
}

/** A token bucket: holds `capacity` tokens, refills `capacity` every `periodSeconds` (continuously); a request takes one. */
export interface BucketRule {
  readonly capacity: number;
  readonly periodSeconds: number;
}

/** The login back-off for one kind of subject: `freeFailures` without delay, then `firstDelaySeconds`, doubling up to `maxDelaySeconds`. */
export interface BackoffRule {
  readonly freeFailures: number;
  readonly firstDelaySeconds: number;
  readonly maxDelaySeconds: number;
  /** Failures are forgotten after this long without one. */
  readonly windowSeconds: number;
}

/** Where buckets and failure counts live. store/rate-limits.ts keeps them in Postgres; any shared store fits. */
export interface RateLimitStore {
  /** Takes one token if there is one; else how long until there is. */
  take(
    action: RateLimitAction,
    subject: Subject,
    rule: BucketRule,
    now: Date,
  ): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
  /**
   * Counts a login attempt as a failure up front (so that parallel guesses cannot all pass before the
   * count rises), unless the subject is locked: then answers how long it stays locked, counting nothing.
   */
  beginLoginAttempt(
    kind: 'handle' | 'address',
    id: string,
    rule: BackoffRule,
    now: Date,
  ): Promise<{ locked: false } | { locked: true; retryAfterSeconds: number }>;
  /** Takes back an attempt counted by beginLoginAttempt (it succeeded, or another subject was locked). */
  cancelLoginAttempt(kind: 'handle' | 'address', id: string, rule: BackoffRule): Promise<void>;
  /** Forgets every failure of the subject (a successful login resets the handle). */
  resetLoginFailures(kind: 'handle' | 'address', id: string): Promise<void>;
  /** Removes buckets full again and failures forgotten, older than `before`. */
  prune(before: Date): Promise<number>;
}

/**
 * The rate-limit state in Postgres (tables `rate_limit_buckets`, `login_failures`): one statement per
 * decision, each an upsert whose condition and update run under the row's lock, so that concurrent
 * requests on any number of Lambdas never take the same token twice nor slip past a lock.
 */

// A bucket refills continuously: what it holds at $5 is min(capacity, tokens + elapsed × rate).
const REFILLED = `LEAST($4::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM ($5::timestamptz - b.refilled_at))::float8) * $6::float8)`;

const TAKE = `
INSERT INTO rate_limit_buckets AS b (action, subject_kind, subject_id, tokens, refilled_at)
VALUES ($1, $2, $3, $4::float8 - 1, $5::timestamptz)
ON CONFLICT (action, subject_kind, subject_id) DO UPDATE
  SET tokens = ${REFILLED} - 1, refilled_at = GREATEST(b.refilled_at, $5::timestamptz)
  WHERE ${REFILLED} >= 1
RETURNING tokens`;

const AVAILABLE = `SELECT ${REFILLED} AS available FROM rate_limit_buckets b WHERE action = $1 AND subject_kind = $2 AND subject_id = $3`;

// Failures after this attempt: counting restarts after a quiet window ($5 seconds).
const COUNT = `(CASE WHEN f.last_failure_at < $3::timestamptz - make_interval(secs => $5::float8) THEN 1 ELSE f.failures + 1 END)`;
// Locked from the (free + 1)-th failure: first delay × 2^(n − free − 1), at most the longest delay.
const lockAfter = (n: string) =>
  `(CASE WHEN ${n} > $4::int THEN $3::timestamptz + make_interval(secs => LEAST($7::float8, $6::float8 * power(2, ${n} - $4::int - 1))) END)`;

const BEGIN = `
INSERT INTO login_failures AS f (subject_kind, subject_id, failures, last_failure_at, locked_until)
VALUES ($1, $2, 1, $3::timestamptz, ${lockAfter('1')})
ON CONFLICT (subject_kind, subject_id) DO UPDATE
  SET failures = ${COUNT}, last_failure_at = $3::timestamptz, locked_until = ${lockAfter(COUNT)}
  WHERE f.locked_until IS NULL OR f.locked_until <= $3::timestamptz
RETURNING failures`;

export const postgresRateLimitStore = (db: Db): RateLimitStore => ({
  take: async (action: RateLimitAction, subject: Subject, rule: BucketRule, now: Date) => {
    const rate = rule.capacity / rule.periodSeconds;
    const params = [action, subject.kind, subject.id, rule.capacity, now, rate] as const;
    const taken = await db.prisma.$queryRawUnsafe<{ tokens: number }[]>(TAKE, ...params);
    if (taken.length > 0) return { allowed: true };
    const [row] = await db.prisma.$queryRawUnsafe<{ available: number }[]>(AVAILABLE, ...params);
    const missing = 1 - Number(row?.available ?? 0);
    // (less a hair, so that float noise does not round 20.000000001 s up to 21)
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(missing / rate - 1e-6)) };
  },

  beginLoginAttempt: async (kind, id, rule: BackoffRule, now) => {
    const counted = await db.prisma.$queryRawUnsafe<{ failures: number }[]>(
      BEGIN,
      kind,
      id,
      now,
      rule.freeFailures,
      rule.windowSeconds,
      rule.firstDelaySeconds,
      rule.maxDelaySeconds,
    );
    if (counted.length > 0) return { locked: false };
    const row = await db.prisma.loginFailure.findUnique({ where: { subjectKind_subjectId: { subjectKind: kind, subjectId: id } } });
    const ms = (row?.lockedUntil?.getTime() ?? now.getTime()) - now.getTime();
    return { locked: true, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000 - 1e-6)) };
  },

  cancelLoginAttempt: async (kind, id, rule) => {
    // One failure fewer, and the lock that count calls for, reckoned from the last failure.
    await db.prisma.$executeRawUnsafe(
      `UPDATE login_failures SET failures = GREATEST(failures - 1, 0),
         locked_until = CASE WHEN failures - 1 > $3::int
           THEN last_failure_at + make_interval(secs => LEAST($5::float8, $4::float8 * power(2, failures - 1 - $3::int - 1))) END
       WHERE subject_kind = $1 AND subject_id = $2`,
      kind,
      id,
      rule.freeFailures,
      rule.firstDelaySeconds,
      rule.maxDelaySeconds,
    );
  },

  resetLoginFailures: async (kind, id) => {
    await db.prisma.loginFailure.deleteMany({ where: { subjectKind: kind, subjectId: id } });
  },

  prune: async (before) => {
    const buckets = await db.prisma.rateLimitBucket.deleteMany({ where: { refilledAt: { lt: before } } });
    const failures = await db.prisma.loginFailure.deleteMany({
      where: { lastFailureAt: { lt: before }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: before } }] },
    });
    return buckets.count + failures.count;
  },
});
