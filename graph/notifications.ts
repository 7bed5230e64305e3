import * as z from 'zod';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannelName,
  type NotificationKind,
} from '../service/notification-channels.js';
import {
  EMAIL_MODES,
  notificationPreferences,
  setNotificationPreferences,
  type EmailMode,
  type NotificationPreferences,
  type QuietHours,
} from '../service/notification-prefs.js';
import { MAX_NOTIFICATIONS_PAGE, recentNotifications, type NotificationView } from '../service/notifications.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { enumName } from './enums.js';
import { AUTH_ERRORS, FieldInputError, fieldInputErrorType, INPUT_ERRORS, RateLimitedError, resultUnion } from './errors.js';
import { enforceRateLimit } from './rate-limit.js';

/**
 * A player's notification preferences and their recent notifications (issue 31,
 * docs/notifications.md#preferences), over service/notification-prefs.ts and service/notifications.ts.
 * Reading needs any credential of the player; changing them needs a player token or an API key with
 * webhooks:manage (which already decides where the player's events go).
 */

/** A preference the service refused: `code` names what (TIME_ZONE_INVALID …), `field` the input field. */
export class NotificationPreferenceInputError extends FieldInputError {}

fieldInputErrorType(
  NotificationPreferenceInputError,
  'NotificationPreferenceInputError',
  'A preference the service refused: TIME_ZONE_INVALID, DIGEST_HOUR_INVALID, QUIET_HOURS_INVALID, EMAIL_MODE_INVALID, NOTIFICATION_KIND_INVALID or NOTIFICATION_CHANNEL_INVALID; `field` names the input field. Nothing was changed.',
  'input.timeZone, input.quietHours.start',
);

const KIND_ABOUT: Readonly<Record<NotificationKind, string>> = {
  'your-turn': 'It is your move (or a pause moved your deadline).',
  'game-started': 'A game of yours has started.',
  'game-ended': 'A game of yours is over.',
  'challenge-resolved': 'A challenge in your game was decided.',
  'dispute-filed': 'A dispute was filed in your game.',
  'dispute-ruled': 'A dispute in your game was ruled on.',
  'deadline-near': 'Your time to move runs out soon (once per turn).',
  'round-paired': 'A round of your tournament is paired.',
  'result-recorded': 'A result of your tournament was recorded.',
  'slip-submitted': 'A tally slip of your tournament was submitted.',
  'standings-changed': 'Your tournament’s standings changed.',
  'challenge-received': 'A player challenged you (or asked for a rematch).',
  'challenge-answered': 'A challenge of yours was accepted, declined or withdrawn.',
  'seek-accepted': 'Your seek was accepted: the game has started.',
  'pairing-found': 'Your pairing request found an opponent: the game has started.',
  'robot-offered': 'Nobody was paired with you in time: a robot game is offered.',
};

const CHANNEL_ABOUT: Readonly<Record<NotificationChannelName, string>> = {
  push: 'Web Push to the browsers you subscribed.',
  email: 'E-mail to your verified address (at once or in the daily digest, as emailMode says).',
  webhook: 'Your webhook subscriptions that list the event.',
};

type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** An UPPER_SNAKE enum whose internal values are the service's own strings (as graph/enums.ts does). */
const enumOf = <K extends string>(name: string, description: string, values: readonly K[], about: (v: K) => string) =>
  builder.enumType(name, {
    description,
    values: Object.fromEntries(values.map((v) => [enumName(v), { value: v, description: about(v) }])),
  }) as unknown as PothosSchemaTypes.EnumRef<BuilderTypes, K, K>;

export const NotificationKindEnum = enumOf(
  'NotificationKind',
  'What a player can be told about.',
  NOTIFICATION_KINDS,
  (k) => KIND_ABOUT[k],
);
export const NotificationChannelEnum = enumOf(
  'NotificationChannel',
  'A way to reach a player.',
  NOTIFICATION_CHANNELS,
  (c) => CHANNEL_ABOUT[c],
);
const EmailModeEnum = enumOf<EmailMode>('EmailMode', 'When e-mail goes.', EMAIL_MODES, (m) =>
  m === 'immediate' ? 'Each e-mail at once (after quiet hours).' : 'One e-mail a day at digestHour with everything since the last.',
);
const NotificationStateEnum = enumOf(
  'NotificationState',
  'Where a notification stands.',
  ['pending', 'sent', 'skipped', 'dead'] as const,
  (s) =>
    ({
      pending: 'Waiting for its time (quiet hours, the digest) or for a retry.',
      sent: 'Handed to the channel.',
      skipped: 'Not sent: `reason` says why.',
      dead: 'Failed for good: `lastError` says why.',
    })[s],
);

type KindChannels = { readonly kind: NotificationKind; readonly channels: readonly NotificationChannelName[] };

const KindChannelsType = builder.objectRef<KindChannels>('NotificationKindChannels').implement({
  description: 'The channels one kind of notification reaches you on.',
  fields: (t) => ({
    kind: t.field({ type: NotificationKindEnum, description: 'The kind.', resolve: (k) => k.kind }),
    channels: t.field({
      type: [NotificationChannelEnum],
      description: 'Its channels; empty: you are not told.',
      resolve: (k) => [...k.channels],
    }),
  }),
});

const QuietHoursType = builder.objectRef<QuietHours>('QuietHours').implement({
  description: 'When push and immediate e-mail wait, as HH:MM in your time zone; end before start wraps midnight.',
  fields: (t) => ({
    start: t.exposeString('start', { description: 'When quiet begins, HH:MM.' }),
    end: t.exposeString('end', { description: 'When quiet ends (held notifications go then), HH:MM.' }),
  }),
});

const PreferencesType = builder.objectRef<NotificationPreferences>('NotificationPreferences').implement({
  description: 'How you are told about your games and tournaments (docs/notifications.md). Defaults until you change them.',
  fields: (t) => ({
    channels: t.field({
      type: [KindChannelsType],
      description: 'Every kind with its channels.',
      resolve: (p) => NOTIFICATION_KINDS.map((kind) => ({ kind, channels: p.channels[kind] })),
    }),
    emailMode: t.field({ type: EmailModeEnum, description: 'E-mail at once, or in one daily digest.', resolve: (p) => p.emailMode }),
    digestHour: t.exposeInt('digestHour', { description: 'The hour (0–23, in timeZone) the digest goes.' }),
    timeZone: t.exposeString('timeZone', {
      description: 'Your IANA time zone (Europe/Paris), for quiet hours, the digest and times in the text.',
    }),
    quietHours: t.field({ type: QuietHoursType, nullable: true, description: 'Null: none.', resolve: (p) => p.quietHours }),
    notWhileConnected: t.exposeBoolean('notWhileConnected', {
      description: 'True: no push or e-mail about a game while you hold a live stream of it (the play page is open).',
    }),
  }),
});

const NotificationType = builder.objectRef<NotificationView>('Notification').implement({
  description: 'Something you were (or will be, or were not) told, on one channel.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The notification’s id: the same on every retry (e-mails carry it).' }),
    kind: t.field({ type: NotificationKindEnum, description: 'What it is about.', resolve: (n) => n.kind }),
    channel: t.field({ type: NotificationChannelEnum, description: 'PUSH or EMAIL.', resolve: (n) => n.channel }),
    gameId: t.exposeID('gameId', { nullable: true, description: 'The game (Game.id); null for a tournament’s.' }),
    tournamentId: t.exposeID('tournamentId', { nullable: true, description: 'The tournament (Tournament.id), for its kinds.' }),
    title: t.exposeString('title', { description: 'One line.' }),
    body: t.exposeString('body', { description: 'One or two plain sentences.' }),
    url: t.exposeString('url', { description: 'The page it links to.' }),
    state: t.field({ type: NotificationStateEnum, description: 'Where it stands.', resolve: (n) => n.status as 'pending' }),
    reason: t.string({
      nullable: true,
      description:
        'Why skipped: preference (you turned the channel off), stale (no longer your move), watching (you had the game open), unreachable (no verified address or browser).',
      resolve: (n) => n.reason,
    }),
    digest: t.exposeBoolean('digest', { description: 'An e-mail waiting for (or sent in) the daily digest.' }),
    dueAt: t.expose('dueAt', { type: 'DateTime', description: 'When it may go (or went, or next retries).' }),
    sentAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the channel took it; null until then.',
      resolve: (n) => n.sentAt,
    }),
    attempts: t.exposeInt('attempts', { description: 'Sending attempts so far.' }),
    lastError: t.string({ nullable: true, description: 'Why the last attempt failed.', resolve: (n) => n.lastError }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the event happened (the notification was made).' }),
  }),
});

const KindChannelsInput = builder.inputType('NotificationKindChannelsInput', {
  description: 'The channels of one kind: the whole set (empty: not told).',
  fields: (t) => ({
    kind: t.field({ type: NotificationKindEnum, required: true, description: 'The kind.' }),
    channels: t.field({
      type: [NotificationChannelEnum],
      required: true,
      description: 'Its channels, each once.',
      validate: z.array(z.string()).max(3),
    }),
  }),
});

const QuietHoursInput = builder.inputType('QuietHoursInput', {
  description: 'Quiet hours as HH:MM (00:00–23:59) in your time zone; end before start wraps midnight.',
  fields: (t) => ({
    start: t.string({ required: true, description: 'When quiet begins.', validate: z.string().max(5) }),
    end: t.string({ required: true, description: 'When quiet ends.', validate: z.string().max(5) }),
  }),
});

const SetPreferencesInput = builder.inputType('SetNotificationPreferencesInput', {
  description: 'What to change; fields left out keep their value. Checked whole: a bad field changes nothing.',
  fields: (t) => ({
    channels: t.field({
      type: [KindChannelsInput],
      required: false,
      description: 'The kinds to change (others keep theirs).',
      validate: z.array(z.unknown()).max(NOTIFICATION_KINDS.length).nullish(),
    }),
    emailMode: t.field({ type: EmailModeEnum, required: false, description: 'IMMEDIATE or DIGEST.' }),
    digestHour: t.int({ required: false, description: 'The digest’s hour, 0–23.' }),
    timeZone: t.string({
      required: false,
      description: 'An IANA zone (Europe/Paris, America/New_York, UTC).',
      validate: z.string().max(64).nullish(),
    }),
    quietHours: t.field({ type: QuietHoursInput, required: false, description: 'Null turns quiet hours off.' }),
    notWhileConnected: t.boolean({ required: false, description: 'No push or e-mail about a game you have open.' }),
  }),
});

builder.queryFields((t) => ({
  myNotificationPreferences: t.field({
    type: PreferencesType,
    description: 'Your notification preferences (the defaults until you change them).',
    authScopes: { loggedIn: true },
    errors: {
      types: [...AUTH_ERRORS],
      directResult: true,
      union: resultUnion('MyNotificationPreferencesResult', 'NotificationPreferences'),
    },
    resolve: (_root, _args, ctx) => notificationPreferences(ctx.db, requirePlayer(ctx).player.id),
  }),
  myNotifications: t.field({
    type: [NotificationType],
    description: `Your latest notifications on every channel, newest first, with where each stands (first ≤ ${MAX_NOTIFICATIONS_PAGE}).`,
    authScopes: { loggedIn: true },
    args: {
      first: t.arg.int({
        required: false,
        defaultValue: 20,
        description: `How many, 1–${MAX_NOTIFICATIONS_PAGE}.`,
        validate: z.number().int().min(1).max(MAX_NOTIFICATIONS_PAGE),
      }),
    },
    errors: {
      types: [...AUTH_ERRORS, ...INPUT_ERRORS],
      union: resultUnion('MyNotificationsResult', 'NotificationList'),
      result: { name: 'NotificationList', description: 'Your latest notifications.' },
      dataField: { name: 'notifications', description: 'Newest first.' },
    },
    resolve: (_root, args, ctx) => recentNotifications(ctx.db, requirePlayer(ctx).player.id, args.first ?? 20),
  }),
}));

builder.mutationFields((t) => ({
  setNotificationPreferences: t.field({
    type: PreferencesType,
    description: 'Changes your notification preferences; answers them afterwards. Player tokens, or API keys with webhooks:manage.',
    authScopes: { scope: 'webhooks:manage' },
    errors: {
      types: [...AUTH_ERRORS, NotificationPreferenceInputError, RateLimitedError, ...INPUT_ERRORS],
      directResult: true,
      union: resultUnion('SetNotificationPreferencesResult', 'NotificationPreferences'),
    },
    args: { input: t.arg({ type: SetPreferencesInput, required: true, description: 'What to change.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requirePlayer(ctx);
      await enforceRateLimit(ctx, 'webhookAdmin');
      const r = await setNotificationPreferences(ctx.db, me.player.id, {
        ...(input.channels == null ? {} : { channels: input.channels.map((c) => ({ kind: c.kind, channels: c.channels })) }),
        ...(input.emailMode == null ? {} : { emailMode: input.emailMode }),
        ...(input.digestHour == null ? {} : { digestHour: input.digestHour }),
        ...(input.timeZone == null ? {} : { timeZone: input.timeZone }),
        ...(input.quietHours === undefined ? {} : { quietHours: input.quietHours }),
        ...(input.notWhileConnected == null ? {} : { notWhileConnected: input.notWhileConnected }),
      });
      if (!r.ok) throw new NotificationPreferenceInputError(r.error, `input.${String(r.error.details?.['field'] ?? '')}`);
      return r.value;
    },
  }),
}));
