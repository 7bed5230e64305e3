import { describe, expect, test } from 'vitest';
import { resolveDatabaseConnection, resolveDatabaseUrl, type SecretReader } from '../../functions/secrets.js';

const DB_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-AbCdEf';
const JWT_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:jwt-GhIjKl';

/** A fake Secrets Manager that records what was read. */
const fakeReader = (values: Record<string, string>) => {
  const reads: string[] = [];
  const read: SecretReader = async (arn) => {
    reads.push(arn);
    const v = values[arn];
    if (v === undefined) throw new Error(`no secret ${arn}`);
    return v;
  };
  return { read, reads };
};

const dbSecret = JSON.stringify({
  engine: 'postgres',
  host: 'cluster.internal',
  port: 5432,
  dbname: 'arbiter',
  username: 'arbiter',
  password: 'p@ss/w:rd',
});
const AWS_ENV = {
  ARBITER_DB_SECRET_ARN: DB_ARN,
  ARBITER_DB_HOST: 'arbiter.proxy-abc.eu-west-1.rds.amazonaws.com',
  ARBITER_DB_PORT: '5432',
  ARBITER_DB_NAME: 'arbiter',
  ARBITER_JWT_SECRET_ARN: JWT_ARN,
};

describe('resolveDatabaseUrl', () => {
  test('a plain DATABASE_URL wins and nothing is read', async () => {
    const f = fakeReader({});
    expect(await resolveDatabaseUrl({ ...AWS_ENV, DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/test' }, f.read)).toBe(
      'postgresql://postgres@127.0.0.1:5432/test',
    );
    expect(f.reads).toEqual([]);
  });

  test('builds the proxy URL from the secret, escaping the password, with TLS verified', async () => {
    const f = fakeReader({ [DB_ARN]: dbSecret });
    const url = await resolveDatabaseUrl(AWS_ENV, f.read);
    // '@', '/' and ':' in the password are percent-encoded; the host is the proxy, not the secret's cluster host.
    expect(url).toBe('postgresql://arbiter:p%40ss%2Fw%3Ard@arbiter.proxy-abc.eu-west-1.rds.amazonaws.com:5432/arbiter?sslmode=verify-full');
    const parsed = new URL(url);
    expect(decodeURIComponent(parsed.password)).toBe('p@ss/w:rd');
    expect(f.reads).toEqual([DB_ARN]);
  });

  test('database name and port fall back to the secret', async () => {
    const f = fakeReader({ [DB_ARN]: JSON.stringify({ username: 'u', password: 'p', dbname: 'games', port: 6543 }) });
    const url = await resolveDatabaseUrl({ ARBITER_DB_SECRET_ARN: DB_ARN, ARBITER_DB_HOST: 'proxy' }, f.read);
    expect(url).toBe('postgresql://u:p@proxy:6543/games?sslmode=verify-full');
  });

  test.each([
    ['nothing configured', {}, /set DATABASE_URL, or ARBITER_DB_SECRET_ARN and ARBITER_DB_HOST/],
    ['ARN without host', { ARBITER_DB_SECRET_ARN: DB_ARN }, /ARBITER_DB_HOST/],
  ])('%s is an error', async (_name, env, message) => {
    await expect(resolveDatabaseUrl(env, fakeReader({}).read)).rejects.toThrow(message);
  });

  test.each([
    ['not JSON', 'hunter2', /is not JSON/],
    ['no password', JSON.stringify({ username: 'u' }), /lacks username\/password/],
  ])('a secret that is %s is an error naming the ARN', async (_name, value, message) => {
    const f = fakeReader({ [DB_ARN]: value });
    await expect(resolveDatabaseUrl(AWS_ENV, f.read)).rejects.toThrow(message);
    await expect(resolveDatabaseUrl(AWS_ENV, f.read)).rejects.toThrow(DB_ARN);
  });
});

describe('resolveDatabaseConnection', () => {
  test('a plain DATABASE_URL is used as it is, with no password source', async () => {
    expect(await resolveDatabaseConnection({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/test' }, fakeReader({}).read)).toEqual({
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/test',
    });
  });

  test('keeps the password out of the URL, caches it, and reads it again after the TTL or a refusal', async () => {
    const values = { [DB_ARN]: dbSecret };
    const f = fakeReader(values);
    let now = 0;
    const c = await resolveDatabaseConnection(AWS_ENV, f.read, { ttlMs: 1000, clock: () => now });
    expect(c.databaseUrl).toBe('postgresql://arbiter@arbiter.proxy-abc.eu-west-1.rds.amazonaws.com:5432/arbiter?sslmode=verify-full');
    expect(await c.password!.get()).toBe('p@ss/w:rd');
    expect(await c.password!.get()).toBe('p@ss/w:rd');
    const readsAfterTwo = f.reads.length;
    // Rotation: a new password in the secret.
    values[DB_ARN] = JSON.stringify({ username: 'arbiter', password: 'rotated' });
    expect(await c.password!.get()).toBe('p@ss/w:rd'); // cached
    c.password!.invalidate(); // the server refused it
    expect(await c.password!.get()).toBe('rotated');
    values[DB_ARN] = JSON.stringify({ username: 'arbiter', password: 'rotated-again' });
    now = 1001;
    expect(await c.password!.get()).toBe('rotated-again'); // past the TTL
    expect(f.reads.length).toBe(readsAfterTwo + 2);
  });
});
