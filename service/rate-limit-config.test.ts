import { describe, expect, it } from 'vitest';
import { rateLimitConfigFromEnv } from './rate-limit-config.js';
import { DEFAULT_RATE_LIMITS, NO_RATE_LIMITS } from './rate-limits.js';

describe('rateLimitConfigFromEnv', () => {
  it('answers the defaults when nothing is set, and no limits at all for off', () => {
    expect(rateLimitConfigFromEnv({})).toEqual(DEFAULT_RATE_LIMITS);
    expect(rateLimitConfigFromEnv({ ARBITER_RATE_LIMITS: 'off', ARBITER_LOGIN_BACKOFF: 'off' })).toEqual(NO_RATE_LIMITS);
  });

  it('overrides single rules over the defaults, and lifts one with off', () => {
    const c = rateLimitConfigFromEnv({ ARBITER_RATE_LIMITS: 'login.address=120/1h, createGame.apiKey=1000/30m,register.address=off' });
    expect(c.buckets.login).toEqual({ address: { capacity: 120, periodSeconds: 3600 } });
    expect(c.buckets.createGame).toEqual({ ...DEFAULT_RATE_LIMITS.buckets.createGame, apiKey: { capacity: 1000, periodSeconds: 1800 } });
    expect(c.buckets.register).toEqual({});
    expect(c.loginBackoff).toEqual(DEFAULT_RATE_LIMITS.loginBackoff);
  });

  it('reads the login back-off per handle and per address', () => {
    const c = rateLimitConfigFromEnv({ ARBITER_LOGIN_BACKOFF: 'handle=10/1s/1h/1d,address=off' });
    expect(c.loginBackoff).toEqual({
      handle: { freeFailures: 10, firstDelaySeconds: 1, maxDelaySeconds: 3600, windowSeconds: 86_400 },
      address: null,
    });
  });

  it.each([
    [{ ARBITER_RATE_LIMITS: 'login=60/1h' }, /<action>\.<subject>/],
    [{ ARBITER_RATE_LIMITS: 'fly.address=60/1h' }, /<action>\.<subject>/],
    [{ ARBITER_RATE_LIMITS: 'login.address=60' }, /<capacity>\/<period>/],
    [{ ARBITER_RATE_LIMITS: 'login.address=60/1w' }, /not a duration/],
    [{ ARBITER_RATE_LIMITS: 'login.address=0/1h' }, /below 1/],
    [{ ARBITER_RATE_LIMITS: 'login.address' }, /key=value/],
    [{ ARBITER_LOGIN_BACKOFF: 'user=5/1s/1m' }, /neither handle nor address/],
    [{ ARBITER_LOGIN_BACKOFF: 'handle=5/1s' }, /longest delay/],
    [{ ARBITER_LOGIN_BACKOFF: 'handle=x/1s/1m' }, /non-negative number/],
  ])('refuses %j at start', (env, message) => {
    expect(() => rateLimitConfigFromEnv(env)).toThrow(message);
  });
});
