/**
 * The VAPID keys kept like the token-signing key (functions/vapid-keys.ts, store/vapid-file.ts): a file
 * in the data directory made once with mode 0600 and read again after a restart, replaced by
 * `arbiter vapid-keys replace`; keys from the environment checked; on AWS read from Secrets Manager.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { DEFAULT_VAPID_SUBJECT, pushSettingsFromEnv, secretsManagerVapidKeys } from '../../functions/vapid-keys.js';
import { checkVapidKeyPair, VAPID_KEYS_FILE } from '../../store/vapid-file.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'arbiter-vapid-'));
  dirs.push(d);
  return d;
};
const noSecrets = () => () => Promise.reject(new Error('no Secrets Manager here'));

describe('the local key file', () => {
  it('is made on first use only, 0600, and the same pair comes back after a restart', async () => {
    const dir = join(await tempDir(), 'data');
    const logs: string[] = [];
    const first = pushSettingsFromEnv({ ARBITER_DATA_DIR: dir }, noSecrets, (m) => logs.push(m))!;
    await expect(stat(join(dir, VAPID_KEYS_FILE))).rejects.toThrow(); // nothing written until a key is needed
    const keys = await first.vapidKeys();
    expect(checkVapidKeyPair(keys, 'test')).toEqual(keys);
    expect((await stat(join(dir, VAPID_KEYS_FILE))).mode & 0o777).toBe(0o600);
    expect(logs).toEqual([expect.stringContaining('Made a Web Push key pair')]);
    const restarted = pushSettingsFromEnv({ ARBITER_DATA_DIR: dir }, noSecrets, (m) => logs.push(m))!;
    expect(await restarted.vapidKeys()).toEqual(keys);
    expect(logs).toHaveLength(1);
    expect(first.subject).toBe(DEFAULT_VAPID_SUBJECT);
  });

  it('`arbiter vapid-keys replace` makes a new pair that the next start reads', async () => {
    const dir = await tempDir();
    const before = await pushSettingsFromEnv({ ARBITER_DATA_DIR: dir }, noSecrets, () => undefined)!.vapidKeys();
    const out: string[] = [];
    const code = await main(['vapid-keys', 'replace', '--data-dir', dir], {
      out: (s: string) => out.push(s),
      err: (s: string) => out.push(s),
    } as never);
    expect(code).toBe(0);
    const after = await pushSettingsFromEnv({ ARBITER_DATA_DIR: dir }, noSecrets, () => undefined)!.vapidKeys();
    expect(after.publicKey).not.toBe(before.publicKey);
    expect(out.join('\n')).toContain(after.publicKey);
    expect((await stat(join(dir, VAPID_KEYS_FILE))).mode & 0o777).toBe(0o600);
  });
});

describe('keys and subject from the environment', () => {
  it('takes a pair from ARBITER_VAPID_PUBLIC_KEY/PRIVATE_KEY, and refuses halves that do not belong together', async () => {
    const pair = webpush.generateVAPIDKeys();
    const other = webpush.generateVAPIDKeys();
    const settings = pushSettingsFromEnv(
      {
        ARBITER_VAPID_PUBLIC_KEY: pair.publicKey,
        ARBITER_VAPID_PRIVATE_KEY: pair.privateKey,
        ARBITER_VAPID_SUBJECT: 'https://arbiter.example.org/contact',
      },
      noSecrets,
    )!;
    expect(await settings.vapidKeys()).toEqual(pair);
    expect(settings.subject).toBe('https://arbiter.example.org/contact');
    expect(() =>
      pushSettingsFromEnv({ ARBITER_VAPID_PUBLIC_KEY: other.publicKey, ARBITER_VAPID_PRIVATE_KEY: pair.privateKey }, noSecrets),
    ).toThrow(/publicKey is not the public half/);
    expect(() => pushSettingsFromEnv({ ARBITER_VAPID_PUBLIC_KEY: pair.publicKey }, noSecrets)).toThrow(/expected \{"publicKey"/);
  });

  it.each(['http://arbiter.example.org', 'arbiter@example.org', 'ftp://x'])('refuses the subject %s', (subject) => {
    expect(() => pushSettingsFromEnv({ ARBITER_VAPID_SUBJECT: subject }, noSecrets)).toThrow(
      /ARBITER_VAPID_SUBJECT must be a mailto: address or an https: URL/,
    );
  });

  it('on Lambda without a secret or keys, Web Push is off (null), and no file is written', () => {
    expect(pushSettingsFromEnv({ AWS_LAMBDA_FUNCTION_NAME: 'api' }, noSecrets)).toBeNull();
  });
});

describe('Secrets Manager (ARBITER_VAPID_SECRET_ARN)', () => {
  it('reads the JSON pair, keeps it for the ttl, reads again after it, and does not keep a failed read', async () => {
    const pair = webpush.generateVAPIDKeys();
    let value = JSON.stringify(pair);
    let reads = 0;
    let t = 0;
    const keys = secretsManagerVapidKeys(
      'arn:vapid',
      async () => {
        reads += 1;
        return value;
      },
      { ttlMs: 1000, clock: () => t },
    );
    expect(await keys()).toEqual(pair);
    expect(await keys()).toEqual(pair);
    expect(reads).toBe(1);
    value = 'not json';
    t = 2000;
    await expect(keys()).rejects.toThrow(/is not JSON/);
    const next = webpush.generateVAPIDKeys();
    value = JSON.stringify(next);
    expect(await keys()).toEqual(next);
    expect(reads).toBe(3);
  });

  it('is what the settings use when the ARN is set', async () => {
    const pair = webpush.generateVAPIDKeys();
    const settings = pushSettingsFromEnv({ ARBITER_VAPID_SECRET_ARN: 'arn:x', AWS_LAMBDA_FUNCTION_NAME: 'api' }, () => async (arn) => {
      expect(arn).toBe('arn:x');
      return JSON.stringify(pair);
    })!;
    expect(await settings.vapidKeys()).toEqual(pair);
  });
});
