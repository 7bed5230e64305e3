/**
 * Sessions survive a restart (issue 15, deliverable 7): the local server keeps its signing key in the data
 * directory (0600); rotation accepts the previous key for one token lifetime, locally (file or
 * ARBITER_JWT_SECRET_PREVIOUS) and with Secrets Manager (AWSCURRENT + AWSPREVIOUS, re-read on a TTL and on
 * a signature failure).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/app.js';
import { localJwtConfig, secretsManagerJwtSource } from '../../functions/jwt-keys.js';
import type { SecretVersionReader } from '../../functions/secrets.js';
import { issuePlayerToken, verifyPlayerToken, type JwtConfig } from '../../graph/auth.js';
import { rotateJwtSecret } from '../../store/secret-file.js';
import { LEXICONS } from '../api/harness.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'arbiter-jwt-'));
  dirs.push(d);
  return d;
};
const quiet = () => undefined;

describe('the local server’s signing key', () => {
  it('is made once in the data directory, readable by the owner only, and a token survives a restart', async () => {
    const dataDir = await tempDir();
    const env = { ARBITER_DATA_DIR: dataDir };
    const start = () => createApp({ env, dbOptions: { dataDir }, lexicons: LEXICONS, jwt: localJwtConfig(env, quiet), warn: quiet });

    const first = await start();
    const registered = await first.yoga.fetch('http://local/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation { registerPlayer(input: { handle: "restart", displayName: "R", password: "restart-pw" }) { ... on AuthPayload { token } } }`,
      }),
    });
    const { token } = ((await registered.json()) as { data: { registerPlayer: { token: string } } }).data.registerPlayer;
    await first.close();
    expect((await stat(join(dataDir, 'jwt-secret'))).mode & 0o777).toBe(0o600);

    const second = await start();
    try {
      const me = await second.yoga.fetch('http://local/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ me { __typename ... on Player { handle } } }' }),
      });
      expect(((await me.json()) as { data: unknown }).data).toEqual({ me: { __typename: 'Player', handle: 'restart' } });
    } finally {
      await second.close();
    }
  });

  it('after a rotation signs with the new key and accepts the previous one for one token lifetime', async () => {
    const dataDir = await tempDir();
    const env = { ARBITER_DATA_DIR: dataDir, ARBITER_JWT_TTL_SECONDS: '600' };
    const before = localJwtConfig(env, quiet);
    const now = new Date();
    const old = await issuePlayerToken(before, 'player-1', now);
    rotateJwtSecret(dataDir);
    const after = localJwtConfig(env, quiet);
    expect(Buffer.from(after.secret).equals(Buffer.from(before.secret))).toBe(false);
    expect((await stat(join(dataDir, 'jwt-secret.previous'))).mode & 0o777).toBe(0o600);
    expect(await verifyPlayerToken(after, old.token, now)).toEqual({ playerId: 'player-1' });
    const fresh = await issuePlayerToken(after, 'player-1', now);
    expect(await verifyPlayerToken({ ...after, previous: [] }, fresh.token, now)).toEqual({ playerId: 'player-1' });
    // Past the grace period (one token lifetime after the rotation), the old key is refused (the token itself lives 600 s too).
    const later = new Date(after.previous![0]!.until!.getTime() + 1000);
    const longLived = await issuePlayerToken({ ...before, ttlSeconds: 7200 }, 'player-1', now);
    expect(await verifyPlayerToken(after, longLived.token, now)).toEqual({ playerId: 'player-1' });
    expect(await verifyPlayerToken(after, longLived.token, later)).toEqual({ problem: 'The token is not valid: sign in again (login).' });
  });

  it('takes ARBITER_JWT_SECRET when set, with ARBITER_JWT_SECRET_PREVIOUS accepted, and writes no file', async () => {
    const dataDir = await tempDir();
    const oldKey = 'the-old-signing-key-of-32-characters-at-least';
    const env = {
      ARBITER_DATA_DIR: dataDir,
      ARBITER_JWT_SECRET: 'the-new-signing-key-of-32-characters-at-least',
      ARBITER_JWT_SECRET_PREVIOUS: oldKey,
    };
    const config = localJwtConfig(env, quiet);
    const now = new Date();
    const old = await issuePlayerToken({ ...config, secret: new TextEncoder().encode(oldKey) }, 'p', now);
    expect(await verifyPlayerToken(config, old.token, now)).toEqual({ playerId: 'p' });
    await expect(stat(join(dataDir, 'jwt-secret'))).rejects.toThrow(/ENOENT/);
    expect(() => localJwtConfig({ ...env, ARBITER_JWT_SECRET_PREVIOUS: 'short' }, quiet)).toThrow(
      /ARBITER_JWT_SECRET_PREVIOUS must be at least 32/,
    );
  });
});

describe('keys from Secrets Manager', () => {
  const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:jwt';
  const A = 'key-a-is-a-long-random-string-of-64-characters-0000000000000000000';
  const B = 'key-b-is-a-long-random-string-of-64-characters-1111111111111111111';
  const T0 = new Date('2030-01-01T00:00:00.000Z');

  /** A fake secret: AWSCURRENT / AWSPREVIOUS as rotation leaves them. */
  const fakeSecret = () => {
    const state = { current: { value: A, createdDate: T0 }, previous: null as { value: string; createdDate: Date } | null };
    let reads = 0;
    const read: SecretVersionReader = async (_arn, stage) => {
      reads++;
      return stage === 'AWSCURRENT' ? state.current : state.previous;
    };
    const rotate = (value: string, at: Date) => {
      state.previous = state.current;
      state.current = { value, createdDate: at };
    };
    return { read, rotate, reads: () => reads };
  };
  const configOver = (read: SecretVersionReader, clock: () => number): JwtConfig => ({
    secret: new Uint8Array(0),
    source: secretsManagerJwtSource(ARN, read, { graceSeconds: 3600, ttlMs: 300_000, clock }),
    ttlSeconds: 3600,
    issuer: 'arbiter',
  });

  it('picks up a rotation: at once on a token signed with the new key, within the TTL for signing, and keeps the old key for the grace period', async () => {
    const secret = fakeSecret();
    let ms = 0;
    const clock = () => ms;
    const mine = configOver(secret.read, clock); // this container
    const t1 = await issuePlayerToken(mine, 'p1', T0);
    expect(secret.reads()).toBe(2);

    const rotatedAt = new Date(T0.getTime() + 60_000);
    secret.rotate(B, rotatedAt);
    ms = 60_000;
    // Another container already signs with B; ours still has A cached, fails the signature, refreshes once.
    const other = configOver(secret.read, clock);
    const t2 = await issuePlayerToken(other, 'p2', rotatedAt);
    expect(await verifyPlayerToken(mine, t2.token, rotatedAt)).toEqual({ playerId: 'p2' });
    // The old key still verifies during the grace period, then not.
    expect(await verifyPlayerToken(mine, t1.token, new Date(rotatedAt.getTime() + 1000))).toEqual({ playerId: 'p1' });
    const t3 = await issuePlayerToken(mine, 'p3', rotatedAt); // now signed with B
    expect(await verifyPlayerToken({ ...other, source: undefined, secret: new TextEncoder().encode(B) }, t3.token, rotatedAt)).toEqual({
      playerId: 'p3',
    });
    const t1Long = await issuePlayerToken({ secret: new TextEncoder().encode(A), ttlSeconds: 86_400, issuer: 'arbiter' }, 'p1', T0);
    expect(await verifyPlayerToken(mine, t1Long.token, new Date(rotatedAt.getTime() + 3601_000))).toEqual({
      problem: 'The token is not valid: sign in again (login).',
    });
  });

  it('does not re-read on every bad token: at most once per 10 s', async () => {
    const secret = fakeSecret();
    let ms = 0;
    const mine = configOver(secret.read, () => ms);
    await mine.source!.keys(T0);
    const forged = await issuePlayerToken({ secret: new TextEncoder().encode('x'.repeat(40)), ttlSeconds: 60, issuer: 'arbiter' }, 'p', T0);
    ms = 20_000;
    for (let i = 0; i < 5; i++) await verifyPlayerToken(mine, forged.token, T0);
    expect(secret.reads()).toBe(4); // the first load and one refresh
  });
});
