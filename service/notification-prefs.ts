import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { Db, Tx } from './context.js';
import {
  isNotificationKind,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannelName,
  type NotificationKind,
} from './notification-channels.js';

/**
 * A player's notification preferences (issue 31, docs/notifications.md#preferences): which kinds reach
 * them on which channels, e-mail now or in a daily digest, quiet hours, and "not while I am connected".
 * A player without a row has {@link DEFAULT_PREFERENCES}; a row keeps only the kinds the player changed,
 * so a kind added later gets its default rather than "nothing".
 */

export const EMAIL_MODES = ['immediate', 'digest'] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

export interface QuietHours {
  /** `HH:MM` in the player's zone; `end` before `start` wraps midnight. */
  readonly start: string;
  readonly end: string;
}

export interface NotificationPreferences {
  readonly channels: Readonly<Record<NotificationKind, readonly NotificationChannelName[]>>;
  readonly emailMode: EmailMode;
  /** 0–23 in `timeZone`: when the day's digest e-mail goes. */
  readonly digestHour: number;
  /** An IANA zone name (`Europe/Paris`). */
  readonly timeZone: string;
  /** When push and immediate e-mail wait; null = never. */
  readonly quietHours: QuietHours | null;
  /** No push or e-mail about a game while the player holds a live stream of it. */
  readonly notWhileConnected: boolean;
}

/**
 * What a correspondence player wants before they say otherwise (the reasons are in
 * docs/notifications.md#defaults): their turn and a near deadline matter most; results and rulings they
 * want to know soon; tournament business is slow and fits e-mail; every kind stays on webhooks, which a
 * player only has by registering one on purpose.
 */
export const DEFAULT_CHANNELS: Readonly<Record<NotificationKind, readonly NotificationChannelName[]>> = {
  'your-turn': ['push', 'email', 'webhook'],
  'game-started': ['push', 'email', 'webhook'],
  'game-ended': ['push', 'email', 'webhook'],
  'deadline-near': ['push', 'email', 'webhook'],
  'challenge-resolved': ['push', 'webhook'],
  'dispute-filed': ['push', 'webhook'],
  'dispute-ruled': ['push', 'webhook'],
  'round-paired': ['email', 'webhook'],
  'result-recorded': ['email', 'webhook'],
  'slip-submitted': ['email', 'webhook'],
  'standings-changed': ['email', 'webhook'],
  // The lobby (docs/notifications.md#defaults): a challenge waits on the player's answer and an accepted
  // seek or a pairing is a game already started, so push; an answer to one's own challenge is news, not an
  // obligation (an accepted one also sends game-started), so e-mail.
  'challenge-received': ['push', 'email', 'webhook'],
  'challenge-answered': ['email', 'webhook'],
  'seek-accepted': ['push', 'email', 'webhook'],
  'pairing-found': ['push', 'email', 'webhook'],
  // No one was found: the player decides whether to play a robot, at leisure (the offer stays open).
  'robot-offered': ['email', 'webhook'],
};

export const DEFAULT_PREFERENCES: NotificationPreferences = {
  channels: DEFAULT_CHANNELS,
  emailMode: 'digest',
  digestHour: 8,
  timeZone: 'UTC',
  quietHours: { start: '22:00', end: '07:00' },
  notWhileConnected: true,
};

export const NOTIFICATION_PREFERENCE_ERROR_CODES = [
  /** `timeZone` is not an IANA zone this runtime knows. */
  'TIME_ZONE_INVALID',
  /** `digestHour` is not an integer from 0 to 23. */
  'DIGEST_HOUR_INVALID',
  /** `quietHours` is not two `HH:MM` times (00:00–23:59) that differ. */
  'QUIET_HOURS_INVALID',
  /** A kind that is not one of NOTIFICATION_KINDS. */
  'NOTIFICATION_KIND_INVALID',
  /** A channel that is not push, email or webhook, or one named twice. */
  'NOTIFICATION_CHANNEL_INVALID',
  /** `emailMode` is not immediate or digest. */
  'EMAIL_MODE_INVALID',
] as const;
export type NotificationPreferenceErrorCode = (typeof NOTIFICATION_PREFERENCE_ERROR_CODES)[number];

/** A `RuleError` whose `details.field` names the offending input field. */
export interface NotificationPreferenceError extends RuleError {
  readonly code: NotificationPreferenceErrorCode;
}

const prefError = (code: NotificationPreferenceErrorCode, field: string, message: string): NotificationPreferenceError =>
  ruleError(code, message, { field }) as NotificationPreferenceError;

/** Whether Intl knows `zone` (`Europe/Paris`, `UTC`); offsets like `+02:00` are refused: they ignore summer time. */
export const isTimeZone = (zone: string): boolean => {
  if (zone.length === 0 || zone.length > 64 || !/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of an `HH:MM` time, or null when it is not one. */
export const minutesOf = (hhmm: string): number | null => {
  const m = HH_MM.exec(hhmm);
  return m === null ? null : Number(m[1]) * 60 + Number(m[2]);
};

/** What a caller may change; absent fields keep their value. `channels` lists only the kinds being changed. */
export interface NotificationPreferencesPatch {
  readonly channels?: readonly { readonly kind: string; readonly channels: readonly string[] }[];
  readonly emailMode?: string;
  readonly digestHour?: number;
  readonly timeZone?: string;
  /** null turns quiet hours off. */
  readonly quietHours?: { readonly start: string; readonly end: string } | null;
  readonly notWhileConnected?: boolean;
}

type Row = {
  channels: unknown;
  emailMode: string;
  digestHour: number;
  timeZone: string;
  quietStart: string | null;
  quietEnd: string | null;
  notWhileConnected: boolean;
};

/** The stored overrides, read leniently: an entry a later version would refuse falls back to its default. */
const channelsOf = (stored: unknown): Record<NotificationKind, readonly NotificationChannelName[]> => {
  const out = { ...DEFAULT_CHANNELS };
  if (typeof stored !== 'object' || stored === null) return out;
  for (const [kind, list] of Object.entries(stored)) {
    if (!isNotificationKind(kind) || !Array.isArray(list)) continue;
    out[kind] = NOTIFICATION_CHANNELS.filter((c) => list.includes(c));
  }
  return out;
};

const fromRow = (row: Row | null): NotificationPreferences =>
  row === null
    ? DEFAULT_PREFERENCES
    : {
        channels: channelsOf(row.channels),
        emailMode: row.emailMode === 'immediate' ? 'immediate' : 'digest',
        digestHour: row.digestHour,
        timeZone: row.timeZone,
        quietHours: row.quietStart !== null && row.quietEnd !== null ? { start: row.quietStart, end: row.quietEnd } : null,
        notWhileConnected: row.notWhileConnected,
      };

/** The player's preferences (the defaults when they never set any). */
export const notificationPreferences = async (db: Db | Tx, playerId: string): Promise<NotificationPreferences> => {
  const client = 'prisma' in db ? db.prisma : db;
  return fromRow(await client.notificationPreference.findUnique({ where: { playerId } }));
};

/** The preferences of several players at once (fan-out); players without a row get the defaults. */
export const preferencesOf = async (tx: Tx, playerIds: readonly string[]): Promise<Map<string, NotificationPreferences>> => {
  const rows = playerIds.length === 0 ? [] : await tx.notificationPreference.findMany({ where: { playerId: { in: [...playerIds] } } });
  const byId = new Map(rows.map((r) => [r.playerId, r]));
  return new Map(playerIds.map((id) => [id, fromRow(byId.get(id) ?? null)]));
};

/** The channel overrides a patch sets, or the first bad entry (`field` indexes into `channels`). */
const checkChannels = (
  entries: NonNullable<NotificationPreferencesPatch['channels']>,
): Result<Partial<Record<NotificationKind, NotificationChannelName[]>>, NotificationPreferenceError> => {
  const out: Partial<Record<NotificationKind, NotificationChannelName[]>> = {};
  for (const [i, e] of entries.entries()) {
    if (!isNotificationKind(e.kind)) {
      return err(
        prefError(
          'NOTIFICATION_KIND_INVALID',
          `channels[${i}].kind`,
          `Unknown notification kind "${e.kind}"; one of ${NOTIFICATION_KINDS.join(', ')}.`,
        ),
      );
    }
    const bad = e.channels.find((c) => !(NOTIFICATION_CHANNELS as readonly string[]).includes(c));
    if (bad !== undefined) {
      return err(
        prefError(
          'NOTIFICATION_CHANNEL_INVALID',
          `channels[${i}].channels`,
          `Unknown channel "${bad}"; one of ${NOTIFICATION_CHANNELS.join(', ')}.`,
        ),
      );
    }
    if (new Set(e.channels).size !== e.channels.length) {
      return err(prefError('NOTIFICATION_CHANNEL_INVALID', `channels[${i}].channels`, `A channel is named twice for ${e.kind}.`));
    }
    out[e.kind] = e.channels as NotificationChannelName[];
  }
  return ok(out);
};

/** The first invalid scalar field of a patch, if any. */
const checkScalars = (p: NotificationPreferencesPatch): NotificationPreferenceError | null => {
  if (p.emailMode !== undefined && !(EMAIL_MODES as readonly string[]).includes(p.emailMode)) {
    return prefError('EMAIL_MODE_INVALID', 'emailMode', `emailMode must be immediate or digest, not "${p.emailMode}".`);
  }
  if (p.digestHour !== undefined && !(Number.isInteger(p.digestHour) && p.digestHour >= 0 && p.digestHour <= 23)) {
    return prefError('DIGEST_HOUR_INVALID', 'digestHour', `digestHour must be an integer from 0 to 23, not ${p.digestHour}.`);
  }
  if (p.timeZone !== undefined && !isTimeZone(p.timeZone)) {
    return prefError(
      'TIME_ZONE_INVALID',
      'timeZone',
      `"${p.timeZone}" is not an IANA time zone (e.g. Europe/Paris, America/New_York, UTC).`,
    );
  }
  const q = p.quietHours;
  if (q !== undefined && q !== null) {
    for (const f of ['start', 'end'] as const) {
      if (minutesOf(q[f]) === null)
        return prefError('QUIET_HOURS_INVALID', `quietHours.${f}`, `quietHours.${f} must be HH:MM from 00:00 to 23:59, not "${q[f]}".`);
    }
    if (q.start === q.end)
      return prefError(
        'QUIET_HOURS_INVALID',
        'quietHours.end',
        'quietHours.start and quietHours.end must differ; give null for no quiet hours.',
      );
  }
  return null;
};

/**
 * Validates `patch` whole, then applies it in one upsert: a bad field changes nothing. The result is
 * the player's preferences afterwards.
 */
export const setNotificationPreferences = async (
  db: Db,
  playerId: string,
  patch: NotificationPreferencesPatch,
): Promise<Result<NotificationPreferences, NotificationPreferenceError>> => {
  const scalarError = checkScalars(patch);
  if (scalarError !== null) return err(scalarError);
  const changed = patch.channels === undefined ? ok({}) : checkChannels(patch.channels);
  if (!changed.ok) return changed;
  return ok(
    await db.transaction(async (tx) => {
      const row = await tx.notificationPreference.findUnique({ where: { playerId } });
      const stored = typeof row?.channels === 'object' && row.channels !== null ? (row.channels as Record<string, string[]>) : {};
      const data = {
        channels: { ...stored, ...changed.value },
        ...(patch.emailMode === undefined ? {} : { emailMode: patch.emailMode }),
        ...(patch.digestHour === undefined ? {} : { digestHour: patch.digestHour }),
        ...(patch.timeZone === undefined ? {} : { timeZone: patch.timeZone }),
        ...(patch.quietHours === undefined ? {} : { quietStart: patch.quietHours?.start ?? null, quietEnd: patch.quietHours?.end ?? null }),
        ...(patch.notWhileConnected === undefined ? {} : { notWhileConnected: patch.notWhileConnected }),
        updatedAt: new Date(),
      };
      const saved = await tx.notificationPreference.upsert({ where: { playerId }, create: { playerId, ...data }, update: data });
      return fromRow(saved);
    }),
  );
};

/**
 * The unsubscribe link of an e-mail: no more e-mail of `kind` (null: of any kind). Other channels of the
 * kind stay as they were; the player can turn e-mail back on with {@link setNotificationPreferences}.
 * Idempotent. Pending e-mails of those kinds that have not gone yet are skipped ('preference').
 */
export const unsubscribeEmail = async (db: Db, playerId: string, kind: NotificationKind | null): Promise<void> => {
  const kinds = kind === null ? NOTIFICATION_KINDS : [kind];
  await db.transaction(async (tx) => {
    const row = await tx.notificationPreference.findUnique({ where: { playerId } });
    const current = fromRow(row);
    const stored = typeof row?.channels === 'object' && row.channels !== null ? (row.channels as Record<string, string[]>) : {};
    const channels = {
      ...stored,
      ...(Object.fromEntries(kinds.map((k) => [k, current.channels[k].filter((c) => c !== 'email')])) as Record<string, string[]>),
    };
    const now = new Date();
    await tx.notificationPreference.upsert({
      where: { playerId },
      create: { playerId, channels, updatedAt: now },
      update: { channels, updatedAt: now },
    });
    await tx.notification.updateMany({
      where: { playerId, channel: 'email', status: 'pending', kind: { in: [...kinds] } },
      data: { status: 'skipped', reason: 'preference', updatedAt: now },
    });
  });
};
