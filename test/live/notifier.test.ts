/**
 * The live streams' wake-ups (service/live-notifier.ts over `Db.listen`): a notification of a game's
 * channel wakes that game's subscribers only, of this database's schema only; on Postgres one sent by
 * another connection (another worker) arrives too, and after the listening connection is killed the
 * process listens again and wakes everybody (whatever was sent meanwhile is re-read, not lost).
 */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { GAME_EVENTS_CHANNEL, onGameEvents } from '../../service/live-notifier.js';
import type { Db } from '../../store/db.js';
import { openTestDb, STORE_TARGETS, type TestDb } from '../store/targets.js';

const GAME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

const notify = (db: Db, payload: string) => db.withSession((s) => s.query('SELECT pg_notify($1, $2)', [GAME_EVENTS_CHANNEL, payload]));

/** Resolves true once `count()` reaches `n`, false after `ms`. */
const reaches = async (count: () => number, n: number, ms = 3000): Promise<boolean> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (count() >= n) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return count() >= n;
};

describe.each(STORE_TARGETS)('live notifier on $kind', (target) => {
  let testDb: TestDb | undefined;
  afterEach(async () => {
    await testDb?.drop();
    testDb = undefined;
  });

  it("wakes the subscribers of the game notified, in this database's schema only, until they unsubscribe", async () => {
    testDb = await openTestDb(target);
    const { db } = testDb;
    let mine = 0;
    let other = 0;
    const stop = await onGameEvents(db, GAME, () => mine++);
    await onGameEvents(db, OTHER, () => other++);
    await notify(db, `${db.schema}:${GAME.toUpperCase()}`);
    expect(await reaches(() => mine, 1)).toBe(true);
    await notify(db, `some_other_schema:${GAME}`);
    await notify(db, `${db.schema}:${OTHER}`);
    expect(await reaches(() => other, 1)).toBe(true);
    expect(mine).toBe(1);
    stop();
    await notify(db, `${db.schema}:${GAME}`);
    await notify(db, `${db.schema}:${OTHER}`);
    expect(await reaches(() => other, 2)).toBe(true);
    expect(mine).toBe(1);
  });

  it.runIf(target.kind === 'postgres')(
    'hears another connection, and listens again after its connection is killed',
    async () => {
      testDb = await openTestDb(target);
      const { db } = testDb;
      const second = await testDb.reopen({ migrate: false });
      let woken = 0;
      await onGameEvents(db, GAME, () => woken++);
      await notify(second, `${db.schema}:${GAME}`);
      expect(await reaches(() => woken, 1)).toBe(true);
      // Kill the listening connection (what a database restart or failover does to it).
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      try {
        const killed = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'arbiter-listen' AND query LIKE 'LISTEN ${GAME_EVENTS_CHANNEL}%'`,
        );
        expect(killed.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      // Reconnected: everybody is woken once to re-read, then notifications arrive again.
      expect(await reaches(() => woken, 2, 5000)).toBe(true);
      const before = woken;
      await notify(second, `${db.schema}:${GAME}`);
      expect(await reaches(() => woken, before + 1)).toBe(true);
    },
    15_000,
  );
});
