/**
 * The notifications part of `npm run rest-examples` (scripts/rest-examples.ts): Alice's preferences read,
 * changed, refused for a time zone that does not exist, and her latest notifications after one notifier
 * run (no channel is set up here, so they show as pending for the digest or skipped as unreachable).
 */
import type { Db } from '../store/db.js';
import { runNotifier } from '../service/notifications.js';
import type { Call } from './rest-examples-tournaments.js';

export const recordNotificationExamples = async (call: Call, token: string, db: Db, now: () => Date): Promise<void> => {
  await call('getNotificationPreferences', 'GET', '/me/notification-preferences', token);
  await call('setNotificationPreferences', 'PUT', '/me/notification-preferences', token, {
    timeZone: 'Europe/Paris',
    digestHour: 7,
    quietHours: { start: '23:00', end: '07:30' },
    channels: [{ kind: 'GAME_ENDED', channels: ['PUSH', 'EMAIL', 'WEBHOOK'] }],
  });
  await call('setNotificationPreferences', 'PUT', '/me/notification-preferences', token, { timeZone: 'Europe/Atlantis' });
  await runNotifier(db, { now, publicBaseUrl: 'https://arbiter.example.org', channels: [], watching: () => Promise.resolve(false) });
  await call('listNotifications', 'GET', '/me/notifications?first=2', token);
};
