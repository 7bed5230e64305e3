/** The Postgres rate-limit store (store/rate-limits.ts) on PGlite and Postgres: refill arithmetic, locks, pruning. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresRateLimitStore } from '../../store/rate-limits.js';
import { openTestDb, STORE_TARGETS, type TestDb } from './targets.js';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

describe.each(STORE_TARGETS)('rate-limit store on $kind', (target) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(target);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('takes tokens until the bucket is empty, answers when the next one comes, refills continuously up to capacity', async () => {
    const store = postgresRateLimitStore(t.db);
    const rule = { capacity: 2, periodSeconds: 60 }; // one token every 30 s
    const subject = { kind: 'address', id: '203.0.113.1' } as const;
    expect(await store.take('register', subject, rule, at(0))).toEqual({ allowed: true });
    expect(await store.take('register', subject, rule, at(0))).toEqual({ allowed: true });
    expect(await store.take('register', subject, rule, at(10))).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(await store.take('register', subject, rule, at(30))).toEqual({ allowed: true });
    // A long quiet period fills the bucket to capacity, not beyond.
    expect(await store.take('register', subject, rule, at(10_000))).toEqual({ allowed: true });
    expect(await store.take('register', subject, rule, at(10_000))).toEqual({ allowed: true });
    expect((await store.take('register', subject, rule, at(10_000))).allowed).toBe(false);
    // Another action or subject has its own bucket.
    expect(await store.take('login', subject, rule, at(10_000))).toEqual({ allowed: true });
    expect(await store.take('register', { kind: 'address', id: '203.0.113.2' }, rule, at(10_000))).toEqual({ allowed: true });
  });

  it('locks after the free failures, forgets them after the window, and takes an attempt back', async () => {
    const store = postgresRateLimitStore(t.db);
    const rule = { freeFailures: 1, firstDelaySeconds: 10, maxDelaySeconds: 15, windowSeconds: 100 };
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(0))).toEqual({ locked: false }); // 1: free
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(0))).toEqual({ locked: false }); // 2: locks 10 s
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(4))).toEqual({ locked: true, retryAfterSeconds: 6 });
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(10))).toEqual({ locked: false }); // 3: 20 s, capped at 15
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(11))).toEqual({ locked: true, retryAfterSeconds: 14 });
    // Back to 2 failures: the 3rd's 15 s lock goes, the 10 s of two failures stays (from the last failure, at 10 s).
    await store.cancelLoginAttempt('handle', 'zed', rule);
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(11))).toEqual({ locked: true, retryAfterSeconds: 9 });
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(20))).toEqual({ locked: false });
    // 200 s later (past the 100 s window) counting starts again: the next failure is free.
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(300))).toEqual({ locked: false });
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(300))).toEqual({ locked: false });
    expect((await store.beginLoginAttempt('handle', 'zed', rule, at(300))).locked).toBe(true);
    await store.resetLoginFailures('handle', 'zed');
    expect(await store.beginLoginAttempt('handle', 'zed', rule, at(300))).toEqual({ locked: false });
  });

  it('prunes rows idle since before a given time', async () => {
    const store = postgresRateLimitStore(t.db);
    await store.take('analysis', { kind: 'player', id: 'p-old' }, { capacity: 5, periodSeconds: 60 }, at(0));
    await store.take('analysis', { kind: 'player', id: 'p-new' }, { capacity: 5, periodSeconds: 60 }, at(5000));
    await store.beginLoginAttempt(
      'address',
      '198.51.100.1',
      { freeFailures: 5, firstDelaySeconds: 1, maxDelaySeconds: 1, windowSeconds: 60 },
      at(0),
    );
    expect(await store.prune(at(1000))).toBeGreaterThanOrEqual(2);
    const ids = (await t.db.prisma.rateLimitBucket.findMany({ where: { action: 'analysis' } })).map((b) => b.subjectId);
    expect(ids).toEqual(['p-new']);
    expect(await t.db.prisma.loginFailure.count({ where: { subjectId: '198.51.100.1' } })).toBe(0);
  });
});
