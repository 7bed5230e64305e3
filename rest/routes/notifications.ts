import { LEAVES, type Shape } from '../shape.js';
import { body, query, type Route } from '../route.js';

/** Your notification preferences and your latest notifications (docs/notifications.md). */

const PREFERENCES: Shape = { name: 'NotificationPreferences', expand: { channels: LEAVES, quietHours: LEAVES } };

export const NOTIFICATION_ROUTES: readonly Route[] = [
  {
    operationId: 'getNotificationPreferences',
    method: 'GET',
    path: '/me/notification-preferences',
    tag: 'Notifications',
    summary: 'Your notification preferences',
    description:
      'Every kind with its channels, e-mail mode and digest hour, time zone, quiet hours, not-while-connected. The defaults until you change them.',
    field: 'myNotificationPreferences',
    args: {},
    reply: { kind: 'object' },
    shape: PREFERENCES,
    auth: 'player',
    replaces: 'GET /rest/my-notification-preferences',
  },
  {
    operationId: 'setNotificationPreferences',
    method: 'PUT',
    path: '/me/notification-preferences',
    tag: 'Notifications',
    summary: 'Change your notification preferences',
    description:
      'Any of channels (only the kinds listed change), emailMode, digestHour, timeZone, quietHours (null: none), notWhileConnected; fields left out keep their value. Checked whole: a bad field (TIME_ZONE_INVALID, DIGEST_HOUR_INVALID, QUIET_HOURS_INVALID …, `field` names it) changes nothing. Answers the preferences afterwards.',
    field: 'setNotificationPreferences',
    args: { input: body() },
    reply: { kind: 'object' },
    shape: PREFERENCES,
    auth: 'scope:webhooks:manage',
    replaces: 'POST /rest/set-notification-preferences',
  },
  {
    operationId: 'listNotifications',
    method: 'GET',
    path: '/me/notifications',
    tag: 'Notifications',
    summary: 'Your latest notifications',
    description: 'Newest first, on every channel, each with its state (pending, sent, skipped with a reason, dead).',
    field: 'myNotifications',
    args: { first: query('first', 'How many, 1–100 (default 20).') },
    reply: { kind: 'list', field: 'notifications' },
    shape: LEAVES,
    auth: 'player',
    replaces: 'GET /rest/my-notifications',
  },
];
