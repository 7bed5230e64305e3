import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dummyHash } from '../../service/accounts.js';
import { hashPassword, needsRehash, paramsOfHash, SCRYPT_DEFAULTS, scryptParamsFromEnv, verifyPassword } from '../../store/passwords.js';
import { openTestApi, START, STORE_TARGETS, type TestApi } from './harness.js';

/**
 * The scrypt cost (issue 32, docs/accounts.md "Passwords"): OWASP's N=2^17 by default, lowered for the test
 * suite only (vitest.config.ts), and a stored hash of a lower cost re-hashed on the next successful login.
 */

describe('the scrypt cost setting', () => {
  it('is OWASP’s N=2^17, r=8, p=1 unless ARBITER_SCRYPT_N says otherwise', () => {
    expect(SCRYPT_DEFAULTS).toEqual({ N: 131072, r: 8, p: 1 });
    expect(scryptParamsFromEnv({})).toEqual({ N: 131072, r: 8, p: 1 });
    expect(scryptParamsFromEnv({ ARBITER_SCRYPT_N: '' })).toEqual({ N: 131072, r: 8, p: 1 });
    expect(scryptParamsFromEnv({ ARBITER_SCRYPT_N: '32768' })).toEqual({ N: 32768, r: 8, p: 1 });
  });

  it.each(['8192', '20000', 'abc', '-16384', '16384.5', String(2 ** 25)])('stops on ARBITER_SCRYPT_N=%j', (value) => {
    expect(() => scryptParamsFromEnv({ ARBITER_SCRYPT_N: value })).toThrow(/ARBITER_SCRYPT_N must be a power of two from 16384/);
  });

  it('is lowered to 2^14 for this test run only (vitest.config.ts)', () => {
    expect(process.env['ARBITER_SCRYPT_N']).toBe('16384');
  });

  it('hashes and verifies at the full 2^17 (128 MiB: within the memory limit it sets)', async () => {
    const stored = await hashPassword('a long enough passphrase', SCRYPT_DEFAULTS);
    expect(stored).toMatch(/^scrypt\$N=131072,r=8,p=1\$/);
    expect(await verifyPassword('a long enough passphrase', stored)).toBe(true);
    expect(await verifyPassword('a long enough passphrasE', stored)).toBe(false);
    expect(needsRehash(stored, SCRYPT_DEFAULTS)).toBe(false);
  });

  it('tells a hash of a lower cost, in any parameter', () => {
    const at = (N: number, r = 8, p = 1) => `scrypt$N=${N},r=${r},p=${p}$c2FsdHNhbHRzYWx0c2FsdA==$${'A'.repeat(43)}=`;
    expect(needsRehash(at(16384), SCRYPT_DEFAULTS)).toBe(true);
    expect(needsRehash(at(131072, 4), SCRYPT_DEFAULTS)).toBe(true);
    expect(needsRehash(at(262144), SCRYPT_DEFAULTS)).toBe(false); // a higher one stays
    expect(needsRehash('bcrypt$whatever', SCRYPT_DEFAULTS)).toBe(false); // not ours: nothing to upgrade from
  });
});

describe.each(STORE_TARGETS)('re-hashing on login on $kind', (target) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(target);
  });
  afterAll(() => api?.close());
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const LOGIN = `mutation($h: String!, $p: String!) { login(handle: $h, password: $p) { __typename ... on Error { code } } }`;
  const storedHash = async (id: string) =>
    (await api.app.services.db.prisma.player.findUniqueOrThrow({ where: { id }, select: { passwordHash: true } })).passwordHash!;

  it('replaces a 2^14 hash at the configured cost on the next successful login, not on a failed one', async () => {
    api.setNow(START);
    const p = await api.register('rehash1'); // at the suite's 2^14
    const before = await storedHash(p.id);
    expect(paramsOfHash(before)).toEqual({ N: 16384, r: 8, p: 1 });

    vi.stubEnv('ARBITER_SCRYPT_N', '32768'); // the deployment raised the cost
    expect((await api.gql(LOGIN, { h: 'rehash1', p: 'wrong-password' })).body.data!['login'].code).toBe('UNAUTHENTICATED');
    expect(await storedHash(p.id)).toBe(before); // a failure writes nothing

    expect((await api.gql(LOGIN, { h: 'rehash1', p: 'rehash1-password' })).body.data!['login'].__typename).toBe('AuthPayload');
    const after = await storedHash(p.id);
    expect(paramsOfHash(after)).toEqual({ N: 32768, r: 8, p: 1 });
    expect(await verifyPassword('rehash1-password', after)).toBe(true);

    // Already at the cost: the next login leaves it.
    expect((await api.gql(LOGIN, { h: 'rehash1', p: 'rehash1-password' })).body.data!['login'].__typename).toBe('AuthPayload');
    expect(await storedHash(p.id)).toBe(after);
  });

  it('verifies an unknown handle against a dummy hash of the configured cost (no timing oracle)', async () => {
    expect(paramsOfHash(await dummyHash())?.N).toBe(16384);
    vi.stubEnv('ARBITER_SCRYPT_N', '32768');
    expect(paramsOfHash(await dummyHash())?.N).toBe(32768);
    vi.unstubAllEnvs();
    expect(paramsOfHash(await dummyHash())?.N).toBe(16384);
  });
});
