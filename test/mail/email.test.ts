/**
 * The e-mail channel end to end (issue 31, item 4), on each store target: an address set over /v1, the
 * verification mail as a real SMTP server receives it, its link (a GET shows a page, a POST verifies),
 * a notification mail with text, HTML, the inline board and RFC 8058's headers, the one-click
 * unsubscribe, altered and replayed tokens, a 550 on RCPT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailChannel } from '../../service/mail-channel.js';
import { notificationPreferences } from '../../service/notification-prefs.js';
import { registerPlayers, createGameAs, createApiKey } from '../e2e/fixture.js';
import type { Player } from '../e2e/client.js';
import { START } from '../api/harness.js';
import { STORE_TARGETS } from '../store/targets.js';
import { linkIn, notice, oneClick, openMailApi, pathOf, type MailApi } from './fixture.js';
import { startSmtp, type TestSmtp } from './smtp.js';

const MY_EMAIL = '{ address state verifiedAt bouncedAt bounceReason available }';

describe.each(STORE_TARGETS)('e-mail on $kind', (target) => {
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

  const setAddress = (p: Player, address: string) =>
    api.fetch('/v1/me/email', {
      method: 'PUT',
      headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address }),
    });
  const myEmail = async (p: Player) => (await api.gql(`{ myEmail { ... on MyEmail ${MY_EMAIL} } }`, {}, p.token)).body.data!['myEmail'];
  const state = async (p: Player) => (await myEmail(p)).state as string | null;

  /** Sets the address, takes its verification mail and POSTs its link: the address is verified. */
  const verified = async (p: Player, address: string) => {
    expect((await setAddress(p, address)).status).toBe(200);
    const mail = await smtp.next();
    expect((await api.fetch(pathOf(linkIn(mail.text!, '/v1/email/verify')), { method: 'POST' })).status).toBe(200);
    expect(await state(p)).toBe('VERIFIED');
  };

  it('sends a verification mail whose link shows a page on GET and verifies on POST, once', async () => {
    const res = await setAddress(ann, ' Ann.Player+arbiter@Example.ORG ');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ address: 'Ann.Player+arbiter@example.org', state: 'UNVERIFIED', available: true });
    const mail = await smtp.next();
    expect(mail.to).toMatchObject({ value: [{ address: 'Ann.Player+arbiter@example.org' }] });
    expect(mail.from?.value[0]?.address).toBe('arbiter@arbiter.test');
    expect(mail.subject).toBe('Confirm your e-mail address for Arbiter');
    const link = linkIn(mail.text!, '/v1/email/verify');
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
    expect(await emailChannel(api.mail).reachable(api.app.services.db, ann.id)).toBe(false);

    // A scanner opening the link changes nothing.
    const page = await api.fetch(pathOf(link));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<form method="post"');
    expect(await state(ann)).toBe('UNVERIFIED');

    const confirm = await api.fetch(pathOf(link), { method: 'POST' });
    expect(confirm.status).toBe(200);
    expect(await confirm.json()).toEqual({ address: 'Ann.Player+arbiter@example.org', verified: true, changed: true });
    expect(await state(ann)).toBe('VERIFIED');
    expect(await emailChannel(api.mail).reachable(api.app.services.db, ann.id)).toBe(true);

    // Replayed: a no-op.
    const again = await api.fetch(pathOf(link), { method: 'POST', headers: { accept: 'text/html' } });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('was confirmed already');
  });

  it('mails a notice with text, HTML, the board inline and one-click unsubscribe headers', async () => {
    const game = await createGameAs(api, ann, { opponent: ben.handle });
    const sent = await emailChannel(api.mail).send(api.app.services.db, ann.id, [
      notice(ann.id, game.id, 'your-turn', 'Your move against BEN'),
    ]);
    expect(sent).toEqual({ ok: true });
    const mail = await smtp.next();
    expect(mail.subject).toBe('Your move against BEN');
    expect(mail.text).toContain('Your move against BEN');
    expect(mail.text).toContain(`http://arbiter.test/play?game=${game.id}`);
    const image = mail.attachments.find((a) => a.contentType === 'image/png')!;
    expect(image.contentDisposition).toBe('inline');
    expect(image.content.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(mail.html).toContain(`src="cid:${image.cid}"`);
    const header = (name: string) =>
      mail.headerLines
        .find((h) => h.key === name)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n\s+/g, '');
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(header('list-unsubscribe')).toMatch(/^<http:\/\/arbiter\.test\/v1\/email\/unsubscribe\?token=[\w.%-]+>$/);
  });

  it('sends several notices as one digest listing each with its link', async () => {
    const db = api.app.services.db;
    const notices = [
      notice(ann.id, null, 'round-paired', 'Round 2 is paired'),
      notice(ann.id, null, 'standings-changed', 'Standings moved'),
    ];
    expect(await emailChannel(api.mail).send(db, ann.id, notices)).toEqual({ ok: true });
    const mail = await smtp.next();
    expect(mail.subject).toBe('2 updates from Arbiter');
    for (const n of notices) {
      expect(mail.text).toContain(n.title);
      expect(mail.html).toContain(n.title);
    }
    expect(mail.text).toContain('Stop every Arbiter mail: http://arbiter.test/v1/email/unsubscribe?token=');
  });

  it('unsubscribes on the one-click POST (not on GET), refuses an altered token and ignores a replay', async () => {
    const db = api.app.services.db;
    await emailChannel(api.mail).send(db, ann.id, [notice(ann.id, null, 'your-turn', 'Your move')]);
    const mail = await smtp.next();
    const link = /<([^>]+)>/.exec(mail.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.replace(/\r?\n\s+/g, ''))![1]!;
    const emailOn = async () => (await notificationPreferences(db, ann.id)).channels['your-turn'].includes('email');
    expect(await emailOn()).toBe(true);

    expect((await api.fetch(pathOf(link))).status).toBe(200);
    expect(await emailOn()).toBe(true);

    const token = new URL(link).searchParams.get('token')!;
    const [claims, signature] = token.split('.') as [string, string];
    const otherKind = Buffer.from(JSON.stringify({ p: ann.id, k: null })).toString('base64url');
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    for (const bad of [`${otherKind}.${signature}`, `${claims}.${flipped}`, claims, 'x'.repeat(600), '']) {
      const res = await api.fetch(`/v1/email/unsubscribe?token=${encodeURIComponent(bad)}`, oneClick());
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(await res.json()).toMatchObject({ code: 'EMAIL_TOKEN_INVALID', field: 'token' });
    }
    const noBody = await api.fetch(pathOf(link), { method: 'POST' });
    expect(noBody.status).toBe(400);
    expect(await noBody.json()).toMatchObject({ code: 'VALIDATION', issues: [{ field: 'List-Unsubscribe' }] });
    expect(await emailOn()).toBe(true);

    const first = await api.fetch(pathOf(link), oneClick());
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ kind: 'your-turn', changed: true });
    expect(await emailOn()).toBe(false);
    expect((await notificationPreferences(db, ann.id)).channels['game-ended']).toContain('email');

    const replay = await api.fetch(pathOf(link), oneClick());
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ kind: 'your-turn', changed: false });
  });

  it('refuses altered, stale and expired verification links with a typed 400, changing nothing', async () => {
    await setAddress(ben, 'ben@example.org');
    const firstLink = linkIn((await smtp.next()).text!, '/v1/email/verify');
    // Another address at once would mail a second stranger: one confirmation mail a minute.
    const again = await setAddress(ben, 'ben.two@example.org');
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('60');
    const altered = firstLink.replace(/token=(.)/, (_m, c: string) => `token=${c === 'e' ? 'f' : 'e'}`);
    const bad = await api.fetch(pathOf(altered), { method: 'POST' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'EMAIL_TOKEN_INVALID' });

    api.setNow(new Date(START.getTime() + 61_000));
    const resent = await api.gql(`mutation { resendEmailVerification { __typename ... on MyEmail { state } } }`, {}, ben.token);
    expect(resent.body.data!['resendEmailVerification']).toEqual({ __typename: 'MyEmail', state: 'UNVERIFIED' });
    const secondLink = linkIn((await smtp.next()).text!, '/v1/email/verify');
    const stale = await api.fetch(pathOf(firstLink), { method: 'POST' });
    expect(stale.status).toBe(400);
    expect(await stale.json()).toMatchObject({ code: 'EMAIL_TOKEN_STALE' });

    const tooSoon = await api.fetch('/v1/me/email/verification', { method: 'POST', headers: { authorization: `Bearer ${ben.token}` } });
    expect(tooSoon.status).toBe(429);

    api.setNow(new Date(START.getTime() + 49 * 3600_000));
    const expired = await api.fetch(pathOf(secondLink), { method: 'POST', headers: { accept: 'text/html' } });
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('EMAIL_TOKEN_EXPIRED');
    api.setNow(START); // the players' tokens live an hour
    expect(await state(ben)).toBe('UNVERIFIED');
  });

  it('marks an address bounced on a 550 at RCPT, at verification and at a notice', async () => {
    const [cat, dan] = await registerPlayers(api, 'cat', 'dan');
    smtp.refuse.add('nobody@example.net');
    const res = await setAddress(cat, 'nobody@example.net');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ state: 'BOUNCED' });
    expect(body.bounceReason).toMatch(/550/);

    await verified(dan, 'dan@example.net');
    smtp.refuse.add('dan@example.net');
    const db = api.app.services.db;
    const sent = await emailChannel(api.mail).send(db, dan.id, [notice(dan.id, null, 'game-ended', 'Game over')]);
    expect(sent).toMatchObject({ ok: false, permanent: true });
    expect(await state(dan)).toBe('BOUNCED');
    expect(await emailChannel(api.mail).reachable(db, dan.id)).toBe(false);
    expect(await emailChannel(api.mail).send(db, dan.id, [notice(dan.id, null, 'game-ended', 'Game over')])).toMatchObject({
      ok: false,
      permanent: true,
    });
  });

  it('refuses a bad address with a typed error naming the field, and an API key', async () => {
    const before = await myEmail(ann);
    for (const address of [
      'not an address',
      'a@b',
      'ann@example.org\r\nBcc: all@example.org',
      '"quoted"@example.org',
      `${'x'.repeat(250)}@e.org`,
    ]) {
      const res = await setAddress(ann, address);
      expect(res.status).toBe(400);
      // REST names a body field by its JSON pointer.
      expect(await res.json()).toMatchObject({ code: 'EMAIL_INVALID', field: '/address' });
    }
    const gql = await api.gql(`mutation { setEmail(address: "nope") { __typename ... on EmailError { code field } } }`, {}, ann.token);
    expect(gql.body.data!['setEmail']).toEqual({ __typename: 'EmailError', code: 'EMAIL_INVALID', field: 'address' });
    const key = await createApiKey(api, ann, 'bot', ['games:read']);
    const byKey = await api.fetch('/v1/me/email', {
      method: 'PUT',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address: 'evil@example.org' }),
    });
    expect(byKey.status).toBe(403);
    expect(await myEmail(ann)).toEqual(before);
  });

  it('removes the address: nothing is mailed after', async () => {
    const [eve] = await registerPlayers(api, 'eve');
    await verified(eve, 'eve@example.org');
    expect((await api.fetch('/v1/me/email', { method: 'DELETE', headers: { authorization: `Bearer ${eve.token}` } })).status).toBe(204);
    expect(await myEmail(eve)).toMatchObject({ address: null, state: null, available: true });
    expect((await api.fetch('/v1/me/email', { method: 'DELETE', headers: { authorization: `Bearer ${eve.token}` } })).status).toBe(404);
    expect(await emailChannel(api.mail).reachable(api.app.services.db, eve.id)).toBe(false);
  });
});
