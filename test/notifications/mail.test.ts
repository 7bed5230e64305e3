/**
 * The notifier end to end through the real e-mail channel (service/mail-channel.ts) and an SMTP server in
 * this process: a correspondence game's events become one digest mail at the player's hour, whose
 * unsubscribe link stops the next.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailChannel } from '../../service/mail-channel.js';
import { notificationPreferences, setNotificationPreferences } from '../../service/notification-prefs.js';
import { runNotifier } from '../../service/notifications.js';
import type { Player } from '../e2e/client.js';
import { createGameAs, registerPlayers } from '../e2e/fixture.js';
import { START } from '../api/harness.js';
import { linkIn, oneClick, openMailApi, pathOf, type MailApi } from '../mail/fixture.js';
import { startSmtp, type TestSmtp } from '../mail/smtp.js';
import { STORE_TARGETS } from '../store/targets.js';

describe.each(STORE_TARGETS)('notifications by e-mail on $kind', (target) => {
  let smtp: TestSmtp;
  let api: MailApi;
  let ann: Player;
  let ben: Player;
  beforeAll(async () => {
    smtp = await startSmtp();
    api = await openMailApi(target, smtp);
    [ann, ben] = await registerPlayers(api, 'ann', 'ben');
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  it('reaches a verified address as one digest at the player’s hour, and its unsubscribe link works', async () => {
    const db = api.app.services.db;
    for (const p of [ann, ben]) {
      const put = await api.fetch('/v1/me/email', {
        method: 'PUT',
        headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ address: `${p.handle}@example.org` }),
      });
      expect(put.status).toBe(200);
      const verify = linkIn((await smtp.next()).text!, '/v1/email/verify');
      expect((await api.fetch(pathOf(verify), { method: 'POST' })).status).toBe(200);
    }
    // START is 12:00 UTC: 13:00 in Paris. Ben's digest is at 07:00 there, i.e. 06:00 UTC tomorrow.
    expect((await setNotificationPreferences(db, ben.id, { timeZone: 'Europe/Paris', digestHour: 7 })).ok).toBe(true);
    const game = await createGameAs(api, ann, {
      ruleSet: 'NSA_2008',
      opponent: 'ben',
      timeControl: { type: 'CORRESPONDENCE', turnSeconds: 3 * 86400 },
    });
    const channels = [emailChannel(api.mail)];
    const quiet = () => Promise.resolve(false);
    const run = (at: Date) => runNotifier(db, { now: () => at, publicBaseUrl: 'http://arbiter.test', channels, watching: quiet });
    await run(START);
    const tomorrow = new Date('2026-11-22T06:00:00.000Z');
    const sent = await run(tomorrow);
    expect(sent.messages).toBeGreaterThanOrEqual(1);
    const mails = [];
    for (let i = 0; i < sent.messages; i++) mails.push(await smtp.next());
    const bens = mails.filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === 'ben@example.org');
    expect(bens).toHaveLength(1); // everything of the day in one mail
    const text = bens[0]!.text!;
    expect(text).toContain(`/play#game=${game.id}`);
    expect(text).toMatch(/against ANN/);
    const rows = await db.prisma.notification.findMany({ where: { playerId: ben.id, channel: 'email' } });
    expect(rows.filter((r) => r.status === 'sent').length).toBeGreaterThanOrEqual(1);
    expect(rows.every((r) => r.digest)).toBe(true);

    const unsubscribe = linkIn(text, '/v1/email/unsubscribe');
    expect((await api.fetch(pathOf(unsubscribe), oneClick())).status).toBeLessThan(300);
    const kinds = [...new Set(rows.map((r) => r.kind))] as (keyof Awaited<ReturnType<typeof notificationPreferences>>['channels'])[];
    const prefs = await notificationPreferences(db, ben.id);
    for (const k of kinds) expect(prefs.channels[k], k).not.toContain('email');
  });
});
