import {
  DEFAULT_RATE_LIMITS,
  NO_RATE_LIMITS,
  RATE_LIMIT_ACTIONS,
  SUBJECT_KINDS,
  type BackoffRule,
  type BucketRule,
  type RateLimitAction,
  type RateLimitConfig,
  type SubjectKind,
} from './rate-limits.js';

/**
 * The limits of a deployment from its environment, over {@link DEFAULT_RATE_LIMITS}:
 *
 * - `ARBITER_RATE_LIMITS`: `off`, or a comma-separated list of `<action>.<subject>=<capacity>/<period>`
 *   (or `=off`), e.g. `login.address=120/1h,createGame.apiKey=1000/1h,register.address=off`. Periods are
 *   `<n>s`, `m`, `h` or `d`.
 * - `ARBITER_LOGIN_BACKOFF`: `off`, or `handle=<free>/<first delay>/<longest delay>[/<window>]` and the
 *   same for `address`, e.g. `handle=5/2s/15m,address=20/1s/5m/1h`; either may be `off`.
 *
 * A malformed value stops the server at start (a typo must not silently turn limits off).
 */
type Env = Readonly<Record<string, string | undefined>>;

const UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

const seconds = (text: string, name: string): number => {
  const m = /^(\d+(?:\.\d+)?)([smhd])$/.exec(text.trim());
  if (!m) throw new Error(`${name}: "${text}" is not a duration like 30s, 15m, 1h or 1d`);
  return Number(m[1]) * UNITS[m[2]!]!;
};

const positive = (text: string, name: string): number => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || text.trim() === '') throw new Error(`${name}: "${text}" is not a non-negative number`);
  return n;
};

const entries = (value: string, name: string): [string, string][] =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) throw new Error(`${name}: "${part}" is not key=value`);
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    });

const bucketsFrom = (value: string): RateLimitConfig['buckets'] => {
  const name = 'ARBITER_RATE_LIMITS';
  const out: Partial<Record<RateLimitAction, Partial<Record<SubjectKind, BucketRule>>>> = {};
  for (const [action, kind] of Object.entries(DEFAULT_RATE_LIMITS.buckets)) out[action as RateLimitAction] = { ...kind };
  for (const [key, rule] of entries(value, name)) {
    const [action, kind] = key.split('.') as [string, string | undefined];
    if (!(RATE_LIMIT_ACTIONS as readonly string[]).includes(action) || !(SUBJECT_KINDS as readonly string[]).includes(kind ?? '')) {
      throw new Error(
        `${name}: "${key}" is not <action>.<subject> (actions ${RATE_LIMIT_ACTIONS.join(', ')}; subjects ${SUBJECT_KINDS.join(', ')})`,
      );
    }
    const rules = (out[action as RateLimitAction] ??= {});
    if (rule === 'off') {
      delete rules[kind as SubjectKind];
      continue;
    }
    const [capacity, period] = rule.split('/');
    if (period === undefined) throw new Error(`${name}: "${rule}" is not <capacity>/<period>`);
    const c = positive(capacity!, name);
    if (c < 1) throw new Error(`${name}: a capacity below 1 would refuse everything; use ${key}=off to lift the limit instead`);
    rules[kind as SubjectKind] = { capacity: c, periodSeconds: seconds(period, name) };
  }
  return out;
};

const backoffFrom = (value: string): RateLimitConfig['loginBackoff'] => {
  const name = 'ARBITER_LOGIN_BACKOFF';
  const out: { handle: BackoffRule | null; address: BackoffRule | null } = { ...DEFAULT_RATE_LIMITS.loginBackoff };
  for (const [kind, rule] of entries(value, name)) {
    if (kind !== 'handle' && kind !== 'address') throw new Error(`${name}: "${kind}" is neither handle nor address`);
    if (rule === 'off') {
      out[kind] = null;
      continue;
    }
    const [free, first, max, window] = rule.split('/');
    if (first === undefined || max === undefined)
      throw new Error(`${name}: "${rule}" is not <free failures>/<first delay>/<longest delay>[/<window>]`);
    out[kind] = {
      freeFailures: positive(free!, name),
      firstDelaySeconds: seconds(first, name),
      maxDelaySeconds: seconds(max, name),
      windowSeconds: window === undefined ? (out[kind]?.windowSeconds ?? 3600) : seconds(window, name),
    };
  }
  return out;
};

export const rateLimitConfigFromEnv = (env: Env = process.env): RateLimitConfig => {
  const buckets = env['ARBITER_RATE_LIMITS']?.trim();
  const backoff = env['ARBITER_LOGIN_BACKOFF']?.trim();
  return {
    buckets: buckets === 'off' ? NO_RATE_LIMITS.buckets : buckets ? bucketsFrom(buckets) : DEFAULT_RATE_LIMITS.buckets,
    loginBackoff: backoff === 'off' ? NO_RATE_LIMITS.loginBackoff : backoff ? backoffFrom(backoff) : DEFAULT_RATE_LIMITS.loginBackoff,
  };
};
