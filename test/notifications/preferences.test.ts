import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, notificationPreferences, setNotificationPreferences } from '../../service/notification-prefs.js';
import { fanOutOutbox } from '../../service/webhook-fan-out.js';
import { createSubscription } from '../../service/webhook-subscriptions.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';
import { LOCAL_DESTINATIONS } from '../webhooks/fixture.js';
import { addPlayer, freshDb, playTurn, startGame } from './fixture.js';

const PREFS = `channels { kind channels } emailMode digestHour timeZone quietHours { start end } notWhileConnected`;
const SET = `mutation($input: SetNotificationPreferencesInput!) { setNotificationPreferences(input: $input) {
  __typename ... on NotificationPreferences { ${PREFS} } ... on NotificationPreferenceInputError { code field message } ... on Error { code message } } }`;

let api: TestApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

describe.each(STORE_TARGETS)('notification preferences on $kind', (target) => {
  if (target.kind === 'postgres') {
    it('reaches the Postgres server', () => {
      expect(target.unreachable, `Postgres at ${target.url}`).toBeUndefined();
    });
  }

  it('are the defaults for a player who never set any, and keep a kind’s default until it is changed', async () => {
    const db = await freshDb(target);
    const bob = await addPlayer(db, 'Bob');
    expect(await notificationPreferences(db, bob.id)).toEqual(DEFAULT_PREFERENCES);
    expect(DEFAULT_PREFERENCES).toMatchObject({
      emailMode: 'digest',
      digestHour: 8,
      timeZone: 'UTC',
      quietHours: { start: '22:00', end: '07:00' },
      notWhileConnected: true,
    });
    const r = await setNotificationPreferences(db, bob.id, { channels: [{ kind: 'your-turn', channels: ['push'] }], quietHours: null });
    expect(r.ok).toBe(true);
    const after = await notificationPreferences(db, bob.id);
    expect(after.channels['your-turn']).toEqual(['push']);
    expect(after.channels['game-ended']).toEqual(DEFAULT_PREFERENCES.channels['game-ended']);
    expect(after.quietHours).toBeNull();
    // The row holds only the kind changed: a later default for the others reaches this player.
    expect((await db.prisma.notificationPreference.findUniqueOrThrow({ where: { playerId: bob.id } })).channels).toEqual({
      'your-turn': ['push'],
    });
  });

  it('refuse bad input with a typed error naming the field, and change nothing', async () => {
    const db = await freshDb(target);
    const bob = await addPlayer(db, 'Bob');
    const cases = [
      [{ timeZone: 'Mars/Olympus_Mons' }, 'TIME_ZONE_INVALID', 'timeZone'],
      [{ digestHour: 24 }, 'DIGEST_HOUR_INVALID', 'digestHour'],
      [{ digestHour: 7.5 }, 'DIGEST_HOUR_INVALID', 'digestHour'],
      [{ quietHours: { start: '22:00', end: '24:00' } }, 'QUIET_HOURS_INVALID', 'quietHours.end'],
      [{ quietHours: { start: '7:00', end: '08:00' } }, 'QUIET_HOURS_INVALID', 'quietHours.start'],
      [{ quietHours: { start: '08:00', end: '08:00' } }, 'QUIET_HOURS_INVALID', 'quietHours.end'],
      [{ emailMode: 'hourly' }, 'EMAIL_MODE_INVALID', 'emailMode'],
      [
        {
          channels: [
            { kind: 'your-turn', channels: ['push'] },
            { kind: 'coffee-ready', channels: ['push'] },
          ],
        },
        'NOTIFICATION_KIND_INVALID',
        'channels[1].kind',
      ],
      [{ channels: [{ kind: 'your-turn', channels: ['sms'] }] }, 'NOTIFICATION_CHANNEL_INVALID', 'channels[0].channels'],
      [{ channels: [{ kind: 'your-turn', channels: ['push', 'push'] }] }, 'NOTIFICATION_CHANNEL_INVALID', 'channels[0].channels'],
    ] as const;
    for (const [patch, code, field] of cases) {
      // A valid field next to the bad one is not applied either.
      const r = await setNotificationPreferences(db, bob.id, { notWhileConnected: false, ...patch });
      expect(r.ok ? null : [r.error.code, r.error.details?.['field']], JSON.stringify(patch)).toEqual([code, field]);
    }
    expect(await db.prisma.notificationPreference.count()).toBe(0);
    expect(await notificationPreferences(db, bob.id)).toEqual(DEFAULT_PREFERENCES);
  });

  it('keep webhooks of a kind from a player who turned the webhook channel off for it', async () => {
    const db = await freshDb(target);
    const alice = await addPlayer(db, 'Alice');
    const bob = await addPlayer(db, 'Bob');
    for (const p of [alice, bob]) {
      const s = await createSubscription(
        db,
        { apiKeyId: p.apiKeyId, ownerId: p.id, url: 'http://127.0.0.1:9/hook', kinds: ['game-ended'] },
        LOCAL_DESTINATIONS,
      );
      expect(s.ok).toBe(true);
    }
    await setNotificationPreferences(db, bob.id, { channels: [{ kind: 'game-ended', channels: ['push'] }] });
    const gameId = await startGame(db, [alice.id, bob.id]);
    await playTurn(db, gameId, 'game-ended', { scores: [1, 2], winnerSeat: 1, loserSeat: 0, reason: 'resigned' });
    expect(await fanOutOutbox(db, { now: () => new Date() })).toMatchObject({ outboxRows: 1, deliveriesCreated: 1 });
    const deliveries = await db.prisma.webhookDelivery.findMany({ include: { subscription: true } });
    expect(deliveries.map((d) => d.subscription.ownerId)).toEqual([alice.id]);
  });

  it('are read and changed over GraphQL and REST, with typed errors', async () => {
    api = await openTestApi(target);
    const bob = await api.register('bob');
    const read = await api.gql(`{ myNotificationPreferences { __typename ... on NotificationPreferences { ${PREFS} } } }`, {}, bob.token);
    expect(read.body.data?.['myNotificationPreferences']).toMatchObject({
      emailMode: 'DIGEST',
      timeZone: 'UTC',
      quietHours: { start: '22:00', end: '07:00' },
    });
    expect(read.body.data?.['myNotificationPreferences'].channels).toContainEqual({
      kind: 'YOUR_TURN',
      channels: ['PUSH', 'EMAIL', 'WEBHOOK'],
    });

    const bad = await api.gql(SET, { input: { timeZone: 'Europe/Atlantis', digestHour: 6 } }, bob.token);
    expect(bad.body.data?.['setNotificationPreferences']).toMatchObject({
      __typename: 'NotificationPreferenceInputError',
      code: 'TIME_ZONE_INVALID',
      field: 'input.timeZone',
    });
    const good = await api.gql(
      SET,
      {
        input: {
          timeZone: 'Europe/Paris',
          digestHour: 6,
          emailMode: 'IMMEDIATE',
          quietHours: { start: '23:30', end: '06:00' },
          channels: [{ kind: 'DISPUTE_RULED', channels: ['EMAIL'] }],
        },
      },
      bob.token,
    );
    expect(good.body.data?.['setNotificationPreferences']).toMatchObject({
      __typename: 'NotificationPreferences',
      timeZone: 'Europe/Paris',
      digestHour: 6,
      emailMode: 'IMMEDIATE',
      quietHours: { start: '23:30', end: '06:00' },
    });
    expect(good.body.data?.['setNotificationPreferences'].channels).toContainEqual({ kind: 'DISPUTE_RULED', channels: ['EMAIL'] });

    const auth = { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json' };
    const put = await api.fetch('/v1/me/notification-preferences', {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ digestHour: 24 }),
    });
    expect(put.status).toBe(422);
    expect(await put.json()).toMatchObject({ code: 'DIGEST_HOUR_INVALID', field: '/digestHour' });
    const off = await api.fetch('/v1/me/notification-preferences', {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ quietHours: null }),
    });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ quietHours: null, timeZone: 'Europe/Paris', digestHour: 6 });
    const get = await api.fetch('/v1/me/notification-preferences', { headers: auth });
    expect(await get.json()).toMatchObject({ quietHours: null, emailMode: 'IMMEDIATE' });
    const list = await api.fetch('/v1/me/notifications?first=5', { headers: auth });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ items: [] });
    const anonymous = await api.fetch('/v1/me/notification-preferences');
    expect(anonymous.status).toBe(401);
  });
});
