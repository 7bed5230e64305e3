import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, isTimeZone, type NotificationPreferences } from '../../service/notification-prefs.js';
import { nextDigestAt, quietUntil, scheduleOf, wallClock } from '../../service/notification-schedule.js';
import { localTime, noticeText, noticeUrl } from '../../service/notification-text.js';

const at = (iso: string) => new Date(iso);
const NIGHT = { start: '22:00', end: '07:00' };

describe('quiet hours', () => {
  it('wrap midnight in Paris (UTC+1 in winter): from 22:30 local they end at 07:00 local the next day', () => {
    expect(quietUntil(at('2030-01-15T21:30:00Z'), 'Europe/Paris', NIGHT)).toEqual(at('2030-01-16T06:00:00Z'));
    // After midnight local, the end is the same local day's.
    expect(quietUntil(at('2030-01-16T05:00:00Z'), 'Europe/Paris', NIGHT)).toEqual(at('2030-01-16T06:00:00Z'));
    // 21:30 and 07:00 local are outside them (the end is exclusive).
    expect(quietUntil(at('2030-01-15T20:30:00Z'), 'Europe/Paris', NIGHT)).toBeNull();
    expect(quietUntil(at('2030-01-16T06:00:00Z'), 'Europe/Paris', NIGHT)).toBeNull();
  });

  it('use the local date, not the UTC one: 23:30 in New York is 03:30 UTC the next day', () => {
    expect(quietUntil(at('2030-07-10T03:30:00Z'), 'America/New_York', { start: '23:00', end: '06:30' })).toEqual(
      at('2030-07-10T10:30:00Z'),
    );
  });

  it('end in summer time when the clocks go forward during the night (Paris, 31 March 2030)', () => {
    // 23:00 CET on the 30th; 07:00 on the 31st is CEST (UTC+2).
    expect(quietUntil(at('2030-03-30T22:00:00Z'), 'Europe/Paris', NIGHT)).toEqual(at('2030-03-31T05:00:00Z'));
  });

  it('may lie within one day (Tokyo 13:00–14:00) or be off (null)', () => {
    expect(quietUntil(at('2030-01-15T04:30:00Z'), 'Asia/Tokyo', { start: '13:00', end: '14:00' })).toEqual(at('2030-01-15T05:00:00Z'));
    expect(quietUntil(at('2030-01-15T05:30:00Z'), 'Asia/Tokyo', { start: '13:00', end: '14:00' })).toBeNull();
    expect(quietUntil(at('2030-01-15T23:00:00Z'), 'UTC', null)).toBeNull();
  });
});

describe('the digest hour', () => {
  it('is the next time the local clock shows it, now included', () => {
    expect(nextDigestAt(at('2030-01-15T06:00:00Z'), 'Europe/Paris', 8)).toEqual(at('2030-01-15T07:00:00Z'));
    expect(nextDigestAt(at('2030-01-15T07:00:00Z'), 'Europe/Paris', 8)).toEqual(at('2030-01-15T07:00:00Z'));
    expect(nextDigestAt(at('2030-01-15T07:30:00Z'), 'Europe/Paris', 8)).toEqual(at('2030-01-16T07:00:00Z'));
  });

  it('falls on the local date in a zone a day ahead of UTC (Auckland, UTC+13 in January)', () => {
    expect(wallClock(at('2030-01-15T12:00:00Z'), 'Pacific/Auckland')).toEqual({ year: 2030, month: 1, day: 16, minutes: 60 });
    expect(nextDigestAt(at('2030-01-15T12:00:00Z'), 'Pacific/Auckland', 8)).toEqual(at('2030-01-15T19:00:00Z'));
  });
});

describe('scheduleOf', () => {
  const paris: NotificationPreferences = { ...DEFAULT_PREFERENCES, timeZone: 'Europe/Paris' };
  const night = at('2030-01-15T23:00:00Z'); // 00:00 in Paris

  it('holds push until the quiet hours end, and digest e-mail until the digest hour, quiet or not', () => {
    expect(scheduleOf('your-turn', 'push', paris, night)).toEqual({ dueAt: at('2030-01-16T06:00:00Z'), digest: false });
    expect(scheduleOf('your-turn', 'email', paris, night)).toEqual({ dueAt: at('2030-01-16T07:00:00Z'), digest: true });
    expect(scheduleOf('your-turn', 'email', { ...paris, emailMode: 'immediate' }, night)).toEqual({
      dueAt: at('2030-01-16T06:00:00Z'),
      digest: false,
    });
    expect(scheduleOf('your-turn', 'push', { ...paris, quietHours: null }, night)).toEqual({ dueAt: night, digest: false });
  });

  it('never puts a near deadline in the digest, nor holds it past the deadline', () => {
    expect(scheduleOf('deadline-near', 'email', paris, night, at('2030-01-16T12:00:00Z'))).toEqual({
      dueAt: at('2030-01-16T06:00:00Z'),
      digest: false,
    });
    expect(scheduleOf('deadline-near', 'push', paris, night, at('2030-01-16T03:00:00Z'))).toEqual({ dueAt: night, digest: false });
  });
});

describe('time zones', () => {
  it('accepts IANA names and refuses the rest', () => {
    for (const z of ['UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) expect(isTimeZone(z), z).toBe(true);
    for (const z of ['', 'Mars/Olympus', '+02:00', 'Europe/Paris; DROP', 'x'.repeat(80)]) expect(isTimeZone(z), z).toBe(false);
  });
});

describe('the words', () => {
  it('name the opponent, the result from the reader’s side, and the deadline in the reader’s zone', () => {
    const ended = noticeText({
      kind: 'game-ended',
      payload: { scores: [412, 398], winnerSeat: 1, reason: 'went-out' },
      seat: 1,
      opponent: 'Alice',
      tournament: null,
      timeZone: 'UTC',
    });
    expect(ended).toEqual({ title: 'Your game against Alice is over', body: 'You won your game against Alice 398–412 (went out).' });
    const turn = noticeText({
      kind: 'your-turn',
      payload: { deadlineAt: '2030-01-16T06:00:00Z' },
      seat: 0,
      opponent: 'Bob',
      tournament: null,
      timeZone: 'Europe/Paris',
    });
    expect(turn.title).toBe('Your move against Bob');
    expect(turn.body).toBe(
      `It is your turn in your game against Bob. Your time runs out ${localTime('2030-01-16T06:00:00Z', 'Europe/Paris')}.`,
    );
    expect(localTime('2030-01-16T06:00:00Z', 'Europe/Paris')).toBe('Wed 16 Jan, 07:00 (Europe/Paris)');
    expect(noticeUrl('https://a.example/', 'g1', null)).toBe('https://a.example/play#game=g1');
    expect(noticeUrl('https://a.example', null, 't1')).toBe('https://a.example/tournaments/t1');
  });
});
