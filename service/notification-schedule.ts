import type { NotificationChannelName, NotificationKind } from './notification-channels.js';
import { minutesOf, type NotificationPreferences, type QuietHours } from './notification-prefs.js';

/**
 * When a notification may go (docs/notifications.md#delivery), from the player's preferences: the
 * quiet hours and the digest hour are wall-clock times in the player's zone, so summer time and zones
 * east or west of UTC move them; everything here works in real instants and asks Intl for the wall clock.
 */

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** Minutes after local midnight. */
  readonly minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

const formatter = (zone: string): Intl.DateTimeFormat => {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
};

/** The wall clock in `zone` at instant `at`. */
export const wallClock = (at: Date, zone: string): WallClock => {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts['year']),
    month: Number(parts['month']),
    day: Number(parts['day']),
    minutes: (Number(parts['hour']) % 24) * 60 + Number(parts['minute']),
  };
};

/** How far `zone` is ahead of UTC at `at`, in minutes. */
const offsetAt = (at: Date, zone: string): number => {
  const w = wallClock(at, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day) + w.minutes * MINUTE;
  return Math.round((asUtc - Math.floor(at.getTime() / MINUTE) * MINUTE) / MINUTE);
};

/**
 * The instant the wall clock in `zone` shows `minutes` after midnight on the local date `days` after the
 * date of `w`. In the hour a summer-time change skips, that is the instant just after the gap.
 */
const instantOf = (w: WallClock, days: number, minutes: number, zone: string): Date => {
  const naive = Date.UTC(w.year, w.month - 1, w.day + days) + minutes * MINUTE;
  // Two rounds settle the offset unless the time falls into a gap, where the later guess is after the gap.
  const first = naive - offsetAt(new Date(naive), zone) * MINUTE;
  const second = naive - offsetAt(new Date(first), zone) * MINUTE;
  return new Date(Math.max(first, second));
};

/** Whether wall-clock `m` lies in [start, end), wrapping midnight when end < start. */
const within = (m: number, start: number, end: number): boolean => (start < end ? m >= start && m < end : m >= start || m < end);

/** When the quiet hours around `now` end; null when `now` is not in them (or there are none). */
export const quietUntil = (now: Date, zone: string, quiet: QuietHours | null): Date | null => {
  if (quiet === null) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === null || end === null || start === end) return null;
  const w = wallClock(now, zone);
  if (!within(w.minutes, start, end)) return null;
  // Before midnight in a window that wraps, the end is tomorrow's.
  const days = start > end && w.minutes >= start ? 1 : 0;
  return instantOf(w, days, end, zone);
};

/** The next instant at or after `now` when the wall clock in `zone` shows `hour`:00. */
export const nextDigestAt = (now: Date, zone: string, hour: number): Date => {
  const w = wallClock(now, zone);
  for (let days = 0; days <= 2; days++) {
    const at = instantOf(w, days, hour * 60, zone);
    if (at.getTime() >= Math.floor(now.getTime() / MINUTE) * MINUTE) return at;
  }
  return new Date(now.getTime() + DAY_MINUTES * MINUTE);
};

export interface Schedule {
  readonly dueAt: Date;
  /** An e-mail that waits for the daily digest. */
  readonly digest: boolean;
}

/**
 * When a notification of `kind` on `channel` goes. Push, and e-mail in `immediate` mode, go now or at
 * the end of quiet hours; e-mail in `digest` mode waits for the digest hour (the hour the player chose,
 * quiet or not). A near deadline never waits for a digest, nor past the deadline itself: a warning that
 * arrives after the clock ran out is worse than one at night.
 */
export const scheduleOf = (
  kind: NotificationKind,
  channel: Exclude<NotificationChannelName, 'webhook'>,
  prefs: NotificationPreferences,
  now: Date,
  deadline: Date | null = null,
): Schedule => {
  if (channel === 'email' && prefs.emailMode === 'digest' && kind !== 'deadline-near') {
    return { dueAt: nextDigestAt(now, prefs.timeZone, prefs.digestHour), digest: true };
  }
  const quietEnd = quietUntil(now, prefs.timeZone, prefs.quietHours);
  if (quietEnd === null) return { dueAt: now, digest: false };
  if (deadline !== null && quietEnd.getTime() >= deadline.getTime()) return { dueAt: now, digest: false };
  return { dueAt: quietEnd, digest: false };
};
