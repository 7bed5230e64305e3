/**
 * Where mails go from the settings (functions/mail-settings.ts): without SMTP, `npm start` writes each
 * mail as a .eml file into the data directory's mailbox folder, which a mail parser reads back; the key of
 * the links is made once and kept. And the signed tokens on their own: purpose, rotation, expiry.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { mailFromEnv, MAIL_SECRET_FILE } from '../../functions/mail-settings.js';
import { emailChannel } from '../../service/mail-channel.js';
import { setEmail } from '../../service/mail-addresses.js';
import { signMailToken, verifyMailToken } from '../../service/mail-tokens.js';
import { LEXICONS } from '../api/harness.js';
import { openTestDb, STORE_TARGETS } from '../store/targets.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbiter-mail-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
};

describe('mail settings', () => {
  it('falls back to the mailbox folder and keeps one key across restarts', async () => {
    const dir = await tempDir();
    const logs: string[] = [];
    const env = { ARBITER_DATA_DIR: dir, PORT: '4100' };
    const first = (await mailFromEnv(env, { lexicons: LEXICONS, log: (m) => logs.push(m) }))!;
    expect(first.where).toContain(join(dir, 'mailbox'));
    expect(first.baseUrl).toBe('http://localhost:4100');
    expect(first.from).toBe('Arbiter <arbiter@localhost.localdomain>');
    expect(logs).toHaveLength(1);
    expect((await stat(join(dir, MAIL_SECRET_FILE))).mode & 0o777).toBe(0o600);
    const again = (await mailFromEnv(env, { lexicons: LEXICONS, log: (m) => logs.push(m) }))!;
    expect(Buffer.from(again.keys[0]!).equals(Buffer.from(first.keys[0]!))).toBe(true);
    expect(logs).toHaveLength(1);
  });

  it('sends nothing on Lambda without SES or SMTP, and refuses an unknown ARBITER_MAIL or a short key', async () => {
    expect(await mailFromEnv({ AWS_LAMBDA_FUNCTION_NAME: 'api' }, { lexicons: LEXICONS })).toBeNull();
    await expect(mailFromEnv({ ARBITER_MAIL: 'pigeon' }, { lexicons: LEXICONS })).rejects.toThrow(/"ses" or "mailbox"/);
    await expect(
      mailFromEnv({ ARBITER_SMTP_URL: 'smtp://127.0.0.1:1', ARBITER_MAIL_SECRET: 'short' }, { lexicons: LEXICONS }),
    ).rejects.toThrow(/at least 32/);
    const ses = await mailFromEnv(
      {
        ARBITER_MAIL: 'ses',
        ARBITER_MAIL_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:mail',
        ARBITER_PUBLIC_URL: 'https://arbiter.example.org',
        AWS_REGION: 'eu-west-1',
      },
      { lexicons: LEXICONS, readSecret: async () => 'k'.repeat(48) },
    );
    expect(ses).toMatchObject({
      where: 'Amazon SES',
      from: 'Arbiter <arbiter@arbiter.example.org>',
      baseUrl: 'https://arbiter.example.org',
    });
  });
});

describe.each(STORE_TARGETS)('the mailbox folder on $kind', (target) => {
  it('writes the verification mail as a .eml file a mail parser reads', async () => {
    const dir = await tempDir();
    const { db, drop } = await openTestDb(target);
    cleanups.push(drop);
    const mail = (await mailFromEnv({ ARBITER_DATA_DIR: dir }, { lexicons: LEXICONS, log: () => undefined }))!;
    const player = await db.prisma.player.create({ data: { handle: 'fay', displayName: 'Fay' } });
    const set = await setEmail(db, mail, player.id, 'fay@example.org');
    expect(set).toMatchObject({ ok: true, value: { state: 'unverified', address: 'fay@example.org' } });
    const files = await readdir(join(dir, 'mailbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const parsed = await simpleParser(await readFile(join(dir, 'mailbox', files[0]!)));
    expect(parsed.subject).toBe('Confirm your e-mail address for Arbiter');
    expect(parsed.to).toMatchObject({ value: [{ address: 'fay@example.org' }] });
    expect(parsed.text).toMatch(/http:\/\/localhost:4000\/v1\/email\/verify\?token=[\w.-]+/);
    expect(parsed.html).toContain('Confirm this address');
    expect(await emailChannel(mail).reachable(db, player.id)).toBe(false);
  });
});

describe('mail tokens', () => {
  const key = new TextEncoder().encode('k'.repeat(40));
  const old = new TextEncoder().encode('o'.repeat(40));
  const playerId = '0b7e2f4c-1d2e-4f5a-8b9c-0d1e2f3a4b5c';
  const now = new Date('2026-11-21T12:00:00Z');

  it('verifies what it signed, for its purpose only, under the current or the previous key', () => {
    const unsub = signMailToken([key], { purpose: 'unsubscribe', playerId, kind: 'your-turn' });
    expect(verifyMailToken([key], unsub, 'unsubscribe', now)).toEqual({
      ok: true,
      value: { purpose: 'unsubscribe', playerId, kind: 'your-turn' },
    });
    expect(verifyMailToken([key], unsub, 'verify', now)).toMatchObject({ ok: false, error: { code: 'EMAIL_TOKEN_INVALID' } });
    const signedBefore = signMailToken([old], { purpose: 'unsubscribe', playerId, kind: null });
    expect(verifyMailToken([key, old], signedBefore, 'unsubscribe', now)).toMatchObject({ ok: true, value: { kind: null } });
    expect(verifyMailToken([key], signedBefore, 'unsubscribe', now)).toMatchObject({ ok: false, error: { code: 'EMAIL_TOKEN_INVALID' } });
    for (const bad of [null, 42, '', '.', 'a.b.c', unsub.replace('.', '.x')]) {
      expect(verifyMailToken([key], bad, 'unsubscribe', now)).toMatchObject({
        ok: false,
        error: { code: 'EMAIL_TOKEN_INVALID', details: { field: 'token' } },
      });
    }
  });

  it('refuses a verification token after it expires, and claims that are not ours even when signed', () => {
    const expires = Math.floor(now.getTime() / 1000) + 60;
    const token = signMailToken([key], { purpose: 'verify', playerId, nonce: 'n1', expires });
    expect(verifyMailToken([key], token, 'verify', now)).toMatchObject({ ok: true, value: { nonce: 'n1' } });
    expect(verifyMailToken([key], token, 'verify', new Date(now.getTime() + 61_000))).toMatchObject({
      ok: false,
      error: { code: 'EMAIL_TOKEN_EXPIRED' },
    });
    const notAPlayer = signMailToken([key], { purpose: 'unsubscribe', playerId: 'not-a-uuid', kind: null });
    expect(verifyMailToken([key], notAPlayer, 'unsubscribe', now)).toMatchObject({ ok: false, error: { code: 'EMAIL_TOKEN_INVALID' } });
  });
});
