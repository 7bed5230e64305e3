import { describe, expect, it } from 'vitest';
import { createNotificationHandler, notifierSettingsFromEnv } from '../../functions/notifications.js';
import { createNotificationWorker } from '../../service/notifications.js';
import { STORE_TARGETS } from '../store/targets.js';
import { addPlayer, BASE, freshDb, playTurn, recordingChannel, startGame, toMove } from './fixture.js';

const NOON = new Date('2030-01-15T12:00:00.000Z');

describe('the notifier’s settings', () => {
  it('read the sweep, the deadline window and the public address, refusing nonsense with a warning', () => {
    expect(notifierSettingsFromEnv({})).toEqual({ sweepMs: 30_000, windowMs: 24 * 3600_000, publicBaseUrl: 'http://localhost:4000' });
    const warnings: string[] = [];
    const s = notifierSettingsFromEnv(
      { ARBITER_NOTIFY_SWEEP_MS: '5000', ARBITER_DEADLINE_NOTICE_HOURS: 'soon', ARBITER_PUBLIC_URL: 'https://arbiter.example.org/' },
      (w) => warnings.push(w),
    );
    expect(s).toEqual({ sweepMs: 5000, windowMs: 24 * 3600_000, publicBaseUrl: 'https://arbiter.example.org' });
    expect(warnings).toEqual(['ARBITER_DEADLINE_NOTICE_HOURS must be a positive number, not "soon": using 24']);
  });
});

describe.each(STORE_TARGETS)('the notifier’s runs on $kind', (target) => {
  if (target.kind === 'postgres') {
    it('reaches the Postgres server', () => {
      expect(target.unreachable, `Postgres at ${target.url}`).toBeUndefined();
    });
  }

  it('the scheduled function runs it once per invocation and logs the counts; the in-process worker never runs two at once', async () => {
    const db = await freshDb(target);
    const alice = await addPlayer(db, 'Alice');
    const bob = await addPlayer(db, 'Bob');
    const gameId = await startGame(db, [alice.id, bob.id]);
    await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id });
    await toMove(db, gameId, 1);
    const push = recordingChannel('push');
    const lines: string[] = [];
    const handler = createNotificationHandler({
      getDb: () => Promise.resolve(db),
      getChannels: () => Promise.resolve([push.channel]),
      settings: { sweepMs: 0, windowMs: 24 * 3600_000, publicBaseUrl: BASE },
      now: () => NOON,
      log: (l) => lines.push(l),
      options: { watching: () => Promise.resolve(false) },
    });
    expect(await handler()).toMatchObject({ outboxRows: 1, pending: 2, sent: 1 });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ msg: 'notifications.run', outboxRows: 1, sent: 1 });
    expect(push.sends.map((s) => s.notices[0]!.url)).toEqual([`${BASE}/play#game=${gameId}`]);

    await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id });
    const worker = createNotificationWorker(
      db,
      { now: () => NOON, publicBaseUrl: BASE, channels: [push.channel], watching: () => Promise.resolve(false) },
      0,
    );
    const [a, b] = await Promise.all([worker.run(), worker.run()]);
    expect(a.sent + b.sent).toBe(1);
    await worker.idle();
    worker.stop();
    expect(push.sends).toHaveLength(2);
  });
});
