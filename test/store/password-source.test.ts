/** A Postgres password read per connection (store/db.ts `password`), so that a rotated one is picked up; refused ones re-read. */
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDb, watchAuthFailures } from '../../store/db.js';
import { STORE_TARGETS } from './targets.js';

const postgres = STORE_TARGETS.filter((t) => t.kind === 'postgres' && !t.unreachable);

describe.runIf(postgres.length > 0)('a password source on Postgres', () => {
  it('connects with the URL taken apart (host, database, user, schema) and the password from the source', async () => {
    const url = new URL(postgres[0]!.url!);
    url.searchParams.set('schema', `pw_${process.pid}_${Date.now()}`);
    const db = await createDb({
      databaseUrl: url.toString(),
      migrate: false,
      password: { get: async () => 'unused', invalidate: () => undefined },
    });
    try {
      // (The test server trusts local connections, so it never asks for the password.)
      expect(
        await db.prisma.$queryRawUnsafe<{ db: string; schema: string }[]>('SELECT current_database() AS db, current_schema() AS schema'),
      ).toEqual([{ db: url.pathname.slice(1), schema: db.schema }]);
      await db.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${db.schema}" CASCADE`);
    } finally {
      await db.close();
    }
  });
});

describe('watchAuthFailures', () => {
  const refused = Object.assign(new Error('password authentication failed for user "arbiter"'), { code: '28P01' });
  const fakePool = (error: Error) =>
    ({
      connect: (cb?: (e: Error | undefined) => void) => (cb ? cb(error) : Promise.reject(error)),
    }) as unknown as pg.Pool;

  it.each([
    ['a refused password (promise form)', refused, 1],
    ['another connection error', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 0],
  ])('tells the source about %s', async (_, error, expected) => {
    let invalidated = 0;
    const pool = fakePool(error);
    watchAuthFailures(pool, { get: async () => 'x', invalidate: () => void invalidated++ });
    await expect(pool.connect()).rejects.toBe(error);
    expect(invalidated).toBe(expected);
  });

  it('in the callback form too (pool.query uses it)', async () => {
    let invalidated = 0;
    const pool = fakePool(refused);
    watchAuthFailures(pool, { get: async () => 'x', invalidate: () => void invalidated++ });
    const seen = await new Promise<unknown>((resolve) =>
      (pool.connect as unknown as (cb: (e: unknown) => void) => void)((e) => resolve(e)),
    );
    expect([seen, invalidated]).toEqual([refused, 1]);
  });
});
