/**
 * The sweep of expired authorization-server records (service/oauth-sweep.ts, docs/apps.md#token-lifetimes),
 * on PGlite and on Postgres: expired rows of every model go, in bounded batches across runs; live rows and
 * rows without an expiry stay; and the lobby's sweep (the periodic run of the local server and of AWS) runs it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepLobby } from '../../service/lobby-sweep.js';
import { sweepExpiredOAuthRecords } from '../../service/oauth-sweep.js';
import { LEXICONS, START } from '../api/harness.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';

const MODELS = ['AuthorizationCode', 'AccessToken', 'RefreshToken', 'Grant', 'Interaction', 'Session'];

describe.each(STORE_TARGETS)('the sweep of expired OAuth records on $kind', (target) => {
  let testDb: TestDb;
  const now = () => START;

  beforeAll(async () => {
    testDb = await openTestDb(target);
  }, 60_000);
  afterAll(async () => {
    await testDb?.drop();
  });

  /** One record per model, expiring `offsetMs` from START (null: never); answers their ids. */
  const records = async (offsetMs: number | null): Promise<string[]> => {
    const rows = MODELS.map((model) => ({
      model,
      id: randomBytes(16).toString('base64url'),
      payload: { kind: model },
      expiresAt: offsetMs === null ? null : new Date(START.getTime() + offsetMs),
    }));
    await testDb.db.prisma.oAuthRecord.createMany({ data: rows });
    return rows.map((r) => r.id);
  };
  const remaining = async (ids: readonly string[]) => testDb.db.prisma.oAuthRecord.count({ where: { id: { in: [...ids] } } });

  it('deletes the expired rows of every model in bounded batches, and leaves live rows and rows without an expiry', async () => {
    const expired = [...(await records(-1)), ...(await records(-86_400_000)), ...(await records(-31_536_000_000))];
    const live = [...(await records(1000)), ...(await records(3_600_000))];
    const forever = await records(null);
    expect(expired).toHaveLength(18);

    // 18 expired, 5 a batch, at most 2 batches a run: 10, then 8, then nothing.
    const options = { batchSize: 5, maxBatches: 2 };
    expect(await sweepExpiredOAuthRecords({ db: testDb.db, now }, options)).toBe(10);
    expect(await remaining(expired)).toBe(8);
    expect(await sweepExpiredOAuthRecords({ db: testDb.db, now }, options)).toBe(8);
    expect(await sweepExpiredOAuthRecords({ db: testDb.db, now }, options)).toBe(0);
    expect(await remaining(expired)).toBe(0);
    expect(await remaining(live)).toBe(live.length);
    expect(await remaining(forever)).toBe(forever.length);

    // A row expires as time passes, and goes with the next sweep after that.
    const later = () => new Date(START.getTime() + 2000);
    expect(await sweepExpiredOAuthRecords({ db: testDb.db, now: later })).toBe(MODELS.length);
    expect(await remaining(live)).toBe(MODELS.length);
  });

  it('runs with the lobby’s sweep', async () => {
    const expired = await records(-60_000);
    const live = await records(60_000);
    await sweepLobby({ db: testDb.db, lexicons: LEXICONS, now });
    expect(await remaining(expired)).toBe(0);
    expect(await remaining(live)).toBe(live.length);
  });

  it('lets two sweeps at once split the work without deleting a row twice or waiting on each other', async () => {
    const expired = [...(await records(-5)), ...(await records(-6)), ...(await records(-7))];
    const counts = await Promise.all([
      sweepExpiredOAuthRecords({ db: testDb.db, now }, { batchSize: 4, maxBatches: 10 }),
      sweepExpiredOAuthRecords({ db: testDb.db, now }, { batchSize: 4, maxBatches: 10 }),
    ]);
    expect(counts[0]! + counts[1]!).toBe(expired.length);
    expect(await remaining(expired)).toBe(0);
  });
});
