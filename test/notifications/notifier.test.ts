import { describe, expect, it } from 'vitest';
import type { Db } from '../../store/db.js';
import { noticeDeadlines } from '../../service/notification-deadlines.js';
import { fanOutNotifications } from '../../service/notification-fan-out.js';
import { setNotificationPreferences, unsubscribeEmail } from '../../service/notification-prefs.js';
import { sendDueNotifications, type SendDeps } from '../../service/notification-send.js';
import { runNotifier } from '../../service/notifications.js';
import { enterGame } from '../../service/presence.js';
import { STORE_TARGETS } from '../store/targets.js';
import { addPlayer, BASE, correspondenceGame, freshDb, playTurn, recordingChannel, startGame, testClock, toMove } from './fixture.js';

const HOUR = 3600_000;
const NOON = new Date('2030-01-15T12:00:00.000Z');

const rows = (db: Db, playerId: string) =>
  db.prisma.notification.findMany({ where: { playerId }, orderBy: [{ createdAt: 'asc' }, { channel: 'asc' }, { version: 'asc' }] });

const setPrefs = async (db: Db, playerId: string, patch: Parameters<typeof setNotificationPreferences>[2]) => {
  const r = await setNotificationPreferences(db, playerId, patch);
  if (!r.ok) throw new Error(r.error.message);
};

/** Alice (seat 0) and Bob (seat 1); Bob to move, announced by a your-turn row. */
const bobsTurn = async (db: Db) => {
  const alice = await addPlayer(db, 'Alice');
  const bob = await addPlayer(db, 'Bob');
  const gameId = await startGame(db, [alice.id, bob.id]);
  const version = await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id, deadlineAt: '2030-01-18T12:00:00.000Z' });
  await toMove(db, gameId, 1);
  return { alice, bob, gameId, version };
};

describe.each(STORE_TARGETS)('the notifier on $kind', (target) => {
  if (target.kind === 'postgres') {
    it('reaches the Postgres server', () => {
      expect(target.unreachable, `Postgres at ${target.url}`).toBeUndefined();
    });
  }

  it('fans an outbox row out once per player and channel, with its own marker, and a repeat adds nothing', async () => {
    const db = await freshDb(target);
    const { alice, bob, gameId, version } = await bobsTurn(db);
    const deps = { now: () => NOON, publicBaseUrl: BASE };
    expect(await fanOutNotifications(db, deps)).toEqual({ outboxRows: 1, pending: 2, skipped: 0 });
    const bobs = await rows(db, bob.id);
    expect(bobs.map((r) => [r.channel, r.status, r.digest, r.dueAt.toISOString()])).toEqual([
      ['email', 'pending', true, '2030-01-16T08:00:00.000Z'], // the default digest: 08:00 UTC
      ['push', 'pending', false, NOON.toISOString()],
    ]);
    expect(bobs[1]).toMatchObject({
      kind: 'your-turn',
      gameId,
      version,
      title: 'Your move against Alice',
      url: `${BASE}/play#game=${gameId}`,
    });
    expect(await rows(db, alice.id)).toEqual([]); // your-turn goes to the player to move only
    const outbox = await db.prisma.outboxMessage.findFirstOrThrow({ where: { gameId } });
    expect(outbox.notifiedAt).toEqual(NOON);
    expect(outbox.deliveredAt).toBeNull(); // the webhook fan-out's marker is not ours

    expect(await fanOutNotifications(db, deps)).toEqual({ outboxRows: 0, pending: 0, skipped: 0 });
    // A crash after writing but before marking: the batch runs again and adds nothing.
    await db.prisma.outboxMessage.updateMany({ data: { notifiedAt: null } });
    expect(await fanOutNotifications(db, deps)).toEqual({ outboxRows: 1, pending: 0, skipped: 0 });
    expect(await db.prisma.notification.count()).toBe(2);

    // game-ended reaches both players; a channel the preferences leave out is written as skipped.
    await setPrefs(db, alice.id, { channels: [{ kind: 'game-ended', channels: ['email'] }] });
    await playTurn(db, gameId, 'game-ended', { scores: [300, 350], winnerSeat: 1, loserSeat: 0, reason: 'resigned' });
    expect(await fanOutNotifications(db, deps)).toEqual({ outboxRows: 1, pending: 3, skipped: 1 });
    const alicePush = (await rows(db, alice.id)).find((r) => r.channel === 'push');
    expect(alicePush).toMatchObject({
      status: 'skipped',
      reason: 'preference',
      body: 'You lost your game against Bob 300–350 (resigned).',
    });
  });

  it('holds push through quiet hours that cross midnight in Paris and sends it when they end', async () => {
    const db = await freshDb(target);
    const clock = testClock(new Date('2030-01-15T22:30:00.000Z')); // 23:30 in Paris
    const { bob } = await (async () => {
      const alice = await addPlayer(db, 'Alice');
      const bob = await addPlayer(db, 'Bob');
      await setPrefs(db, bob.id, { timeZone: 'Europe/Paris', emailMode: 'immediate' });
      const gameId = await startGame(db, [alice.id, bob.id]);
      await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id });
      await toMove(db, gameId, 1);
      return { bob };
    })();
    const push = recordingChannel('push');
    const email = recordingChannel('email');
    const deps = { now: clock.now, publicBaseUrl: BASE, channels: [push.channel, email.channel], watching: () => Promise.resolve(false) };
    expect(await runNotifier(db, deps)).toMatchObject({ pending: 2, sent: 0 });
    const due = new Date('2030-01-16T06:00:00.000Z'); // 07:00 in Paris
    expect((await rows(db, bob.id)).map((r) => r.dueAt)).toEqual([due, due]);
    clock.set(new Date(due.getTime() - 60_000));
    expect(await runNotifier(db, deps)).toMatchObject({ sent: 0 });
    clock.set(due);
    expect(await runNotifier(db, deps)).toMatchObject({ sent: 2, messages: 2 });
    expect(push.sends).toHaveLength(1);
    expect(email.sends[0]!.notices[0]).toMatchObject({ playerId: bob.id, kind: 'your-turn', title: 'Your move against Alice' });
    expect((await rows(db, bob.id)).map((r) => [r.status, r.sentAt])).toEqual([
      ['sent', due],
      ['sent', due],
    ]);
  });

  it('gathers a day of e-mail into one digest at the chosen hour, dropping what is no longer news', async () => {
    const db = await freshDb(target);
    const clock = testClock(new Date('2030-01-15T13:00:00.000Z')); // 08:00 in New York: today's digest has gone
    const alice = await addPlayer(db, 'Alice');
    const bob = await addPlayer(db, 'Bob');
    const carol = await addPlayer(db, 'Carol');
    await setPrefs(db, carol.id, { channels: [{ kind: 'game-ended', channels: [] }] });
    await setPrefs(db, bob.id, { timeZone: 'America/New_York', digestHour: 7, quietHours: null });
    const g1 = await startGame(db, [alice.id, bob.id]);
    const g2 = await startGame(db, [carol.id, bob.id]);
    const push = recordingChannel('push');
    const email = recordingChannel('email');
    const deps = { now: clock.now, publicBaseUrl: BASE, channels: [push.channel, email.channel], watching: () => Promise.resolve(false) };
    await playTurn(db, g1, 'your-turn', { seat: 1, playerId: bob.id });
    await toMove(db, g1, 1);
    await runNotifier(db, deps);
    clock.advance(3 * HOUR);
    await playTurn(db, g2, 'game-ended', { scores: [280, 410], winnerSeat: 1, loserSeat: 0, reason: 'went-out' });
    await runNotifier(db, deps);
    clock.advance(3 * HOUR);
    // Bob's turn again in g1 (he moved, Alice moved): the first your-turn is superseded.
    await playTurn(db, g1, 'your-turn', { seat: 1, playerId: bob.id });
    await runNotifier(db, deps);
    expect(push.sends.filter((x) => x.playerId === bob.id)).toHaveLength(3); // push goes at once, one by one
    expect(email.sends).toHaveLength(0);

    const digestAt = new Date('2030-01-16T12:00:00.000Z'); // 07:00 in New York
    clock.set(new Date(digestAt.getTime() - 1000));
    expect(await runNotifier(db, deps)).toMatchObject({ messages: 0 });
    clock.set(digestAt);
    expect(await runNotifier(db, deps)).toMatchObject({ messages: 1, sent: 2, skipped: 1 });
    expect(email.sends).toHaveLength(1);
    expect(email.sends[0]!.notices.map((n) => [n.kind, n.gameId, n.version])).toEqual([
      ['game-ended', g2, 2],
      ['your-turn', g1, 3],
    ]);
    const stale = await db.prisma.notification.findFirstOrThrow({ where: { playerId: bob.id, channel: 'email', version: 2, gameId: g1 } });
    expect(stale).toMatchObject({ status: 'skipped', reason: 'stale' });
  });

  it('sends nothing about a game the player has open (live stream presence), unless they asked to be told anyway', async () => {
    const db = await freshDb(target);
    const { bob, gameId } = await bobsTurn(db);
    await setPrefs(db, bob.id, { emailMode: 'immediate', quietHours: null });
    const push = recordingChannel('push');
    const email = recordingChannel('email');
    const deps = { now: () => NOON, publicBaseUrl: BASE, channels: [push.channel, email.channel] };
    const presence = await enterGame(db, bob.id, gameId, NOON);
    expect(await runNotifier(db, deps)).toMatchObject({ sent: 0, skipped: 2 });
    expect((await rows(db, bob.id)).map((r) => [r.status, r.reason])).toEqual([
      ['skipped', 'watching'],
      ['skipped', 'watching'],
    ]);
    await setPrefs(db, bob.id, { notWhileConnected: false });
    await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id });
    expect(await runNotifier(db, deps)).toMatchObject({ sent: 2 });
    await presence.end();
  });

  it('skips a player a channel cannot reach, or a channel this process does not have', async () => {
    const db = await freshDb(target);
    const { bob } = await bobsTurn(db);
    await setPrefs(db, bob.id, { emailMode: 'immediate', quietHours: null });
    const push = recordingChannel('push');
    push.unreachable.add(bob.id);
    expect(
      await runNotifier(db, { now: () => NOON, publicBaseUrl: BASE, channels: [push.channel], watching: () => Promise.resolve(false) }),
    ).toMatchObject({
      sent: 0,
      skipped: 2,
    });
    expect((await rows(db, bob.id)).map((r) => r.reason)).toEqual(['unreachable', 'unreachable']);
    expect(push.sends).toHaveLength(0);
  });

  it('retries a failed send with back-off, and gives up on a permanent failure or after the last attempt', async () => {
    const db = await freshDb(target);
    const { bob, gameId } = await bobsTurn(db);
    await setPrefs(db, bob.id, {
      channels: [
        { kind: 'your-turn', channels: ['push'] },
        { kind: 'game-ended', channels: ['email'] },
      ],
      emailMode: 'immediate',
      quietHours: null,
    });
    await fanOutNotifications(db, { now: () => NOON, publicBaseUrl: BASE });
    const clock = testClock(NOON);
    const push = recordingChannel('push', [
      { ok: false, permanent: false, error: 'push service 503' },
      { ok: false, permanent: false, error: 'timeout' },
    ]);
    const deps: SendDeps = { now: clock.now, channels: [push.channel], watching: () => Promise.resolve(false), maxAttempts: 3 };
    expect(await sendDueNotifications(db, deps)).toMatchObject({ retrying: 1 });
    const first = await db.prisma.notification.findFirstOrThrow({ where: { playerId: bob.id, channel: 'push' } });
    expect(first).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'push service 503',
      dueAt: new Date(NOON.getTime() + 60_000),
    });
    clock.advance(59_000);
    expect(await sendDueNotifications(db, deps)).toMatchObject({ messages: 0 });
    clock.advance(1000);
    expect(await sendDueNotifications(db, deps)).toMatchObject({ retrying: 1 });
    clock.advance(4 * 60_000); // the second wait is four times the first
    expect(await sendDueNotifications(db, deps)).toMatchObject({ sent: 1 });
    expect(await db.prisma.notification.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: 'sent',
      attempts: 3,
      lastError: null,
    });
    expect(push.sends.map((s) => s.notices[0]!.id)).toEqual([first.id, first.id, first.id]); // the same id on every retry

    // A permanent failure is dead at once; a transient one dead after maxAttempts.
    await playTurn(db, gameId, 'game-ended', { scores: [1, 2], winnerSeat: 1, loserSeat: 0, reason: 'resigned' });
    await fanOutNotifications(db, { now: clock.now, publicBaseUrl: BASE });
    const email = recordingChannel('email', [{ ok: false, permanent: true, error: 'no verified address' }]);
    expect(await sendDueNotifications(db, { ...deps, channels: [email.channel] })).toMatchObject({ dead: 1 });
    const dead = await db.prisma.notification.findFirstOrThrow({ where: { playerId: bob.id, channel: 'email', kind: 'game-ended' } });
    expect(dead).toMatchObject({ status: 'dead', attempts: 1, lastError: 'no verified address' });
    await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id });
    await fanOutNotifications(db, { now: clock.now, publicBaseUrl: BASE });
    const failing = recordingChannel(
      'push',
      [0, 1, 2].map(() => ({ ok: false as const, permanent: false, error: 'down' })),
    );
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(await sendDueNotifications(db, { ...deps, channels: [failing.channel], backoff: () => 0 }));
    }
    expect(outcomes.map((o) => [o.retrying, o.dead])).toEqual([
      [1, 0],
      [1, 0],
      [0, 1],
    ]);
  });

  it('unsubscribing from e-mail skips what waits and stops the next, keeping push', async () => {
    const db = await freshDb(target);
    const { bob, gameId } = await bobsTurn(db);
    await fanOutNotifications(db, { now: () => NOON, publicBaseUrl: BASE });
    await unsubscribeEmail(db, bob.id, null);
    expect((await rows(db, bob.id)).map((r) => [r.channel, r.status, r.reason])).toEqual([
      ['email', 'skipped', 'preference'],
      ['push', 'pending', null],
    ]);
    await playTurn(db, gameId, 'game-ended', { scores: [1, 2], winnerSeat: 1, loserSeat: 0, reason: 'resigned' });
    // Alice's push and e-mail, Bob's push; Bob's e-mail skipped.
    expect(await fanOutNotifications(db, { now: () => NOON, publicBaseUrl: BASE })).toMatchObject({ pending: 3, skipped: 1 });
  });

  it('warns the player to move once per turn when the deadline is within the window (at most half the turn time)', async () => {
    const db = await freshDb(target);
    const alice = await addPlayer(db, 'Alice');
    const bob = await addPlayer(db, 'Bob');
    await setPrefs(db, bob.id, { quietHours: null });
    const gameId = await correspondenceGame(db, [alice.id, bob.id], 3 * 24 * 3600);
    const deadline = new Date(NOON.getTime() + 30 * HOUR);
    const version = await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id, deadlineAt: deadline.toISOString() });
    await toMove(db, gameId, 1, deadline);
    const clock = testClock(NOON);
    const deps = { now: clock.now, publicBaseUrl: BASE };
    expect(await noticeDeadlines(db, deps)).toEqual({ games: 0, pending: 0, skipped: 0 }); // 30 h away
    clock.set(new Date(deadline.getTime() - 23 * HOUR));
    expect(await noticeDeadlines(db, deps)).toEqual({ games: 1, pending: 2, skipped: 0 });
    const warned = await db.prisma.notification.findMany({ where: { playerId: bob.id, kind: 'deadline-near' } });
    expect(warned.map((w) => [w.channel, w.digest, w.source, w.dueAt])).toEqual(
      expect.arrayContaining([
        ['push', false, `deadline:${gameId}:${version}`, clock.now()],
        ['email', false, `deadline:${gameId}:${version}`, clock.now()], // never in the digest
      ]),
    );
    expect(warned[0]!.title).toBe('Your time against Alice runs out soon');
    // Later runs, and a pause that moves the deadline, warn no more in this turn.
    clock.advance(HOUR);
    await playTurn(db, gameId, 'your-turn', {
      seat: 1,
      playerId: bob.id,
      paused: true,
      deadlineAt: new Date(deadline.getTime() + HOUR).toISOString(),
    });
    await toMove(db, gameId, 1, new Date(deadline.getTime() + HOUR));
    expect(await noticeDeadlines(db, deps)).toMatchObject({ pending: 0 });
    // A new turn is warned again.
    const next = await playTurn(db, gameId, 'your-turn', { seat: 1, playerId: bob.id });
    expect(await noticeDeadlines(db, deps)).toEqual({ games: 1, pending: 2, skipped: 0 });
    expect(await db.prisma.notification.count({ where: { source: `deadline:${gameId}:${next}` } })).toBe(2);

    // A one-day turn is warned at half its turn time (12 h), not 24 h.
    const short = await correspondenceGame(db, [alice.id, bob.id], 24 * 3600);
    const end = new Date(clock.now().getTime() + 20 * HOUR);
    await playTurn(db, short, 'your-turn', { seat: 1, playerId: bob.id, deadlineAt: end.toISOString() });
    await toMove(db, short, 1, end);
    expect(await noticeDeadlines(db, deps)).toMatchObject({ pending: 0 });
    clock.set(new Date(end.getTime() - 11 * HOUR));
    expect(await noticeDeadlines(db, deps)).toMatchObject({ pending: 2 });
  });
});
