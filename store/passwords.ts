import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Tx } from './db.js';

/**
 * Password hashes for `players.password_hash`, self-describing so the cost can rise later:
 * `scrypt$N=<cost>,r=<blockSize>,p=<parallelization>$<salt base64>$<hash base64>`. A hash of a lower cost
 * than the configured one is replaced on the player's next successful login (service/accounts.ts).
 */
export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * OWASP Password Storage Cheat Sheet, "scrypt": "a minimum CPU/memory cost parameter of (2^17), a minimum
 * block size of 8 (1024 bytes), and a parallelization parameter of 1"
 * (https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt).
 * That is 128 MiB and a few hundred milliseconds per hash.
 */
export const SCRYPT_DEFAULTS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
/** The lowest cost `ARBITER_SCRYPT_N` may name: the cost Arbiter used before issue 32 (and the test suite's). */
export const SCRYPT_MIN_N = 2 ** 14;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

/**
 * `ARBITER_SCRYPT_N` (default 2^17 = 131072): a power of two ≥ 16384. Lower it only where many hashes are
 * made and nothing real is protected (the test suite registers thousands of players: vitest.config.ts sets
 * 16384); anything else stops the process, so a typo cannot silently weaken every new hash.
 */
export const scryptParamsFromEnv = (env: Readonly<Record<string, string | undefined>> = process.env): ScryptParams => {
  const text = env['ARBITER_SCRYPT_N'];
  if (text === undefined || text === '') return SCRYPT_DEFAULTS;
  const N = Number(text);
  if (!Number.isSafeInteger(N) || N < SCRYPT_MIN_N || (N & (N - 1)) !== 0 || N > 2 ** 24)
    throw new Error(`ARBITER_SCRYPT_N must be a power of two from ${SCRYPT_MIN_N} to ${2 ** 24}, not "${text}"`);
  return { ...SCRYPT_DEFAULTS, N };
};

/**
 * Node refuses scrypt above `maxmem` (default 32 MiB). The work area is about 128·N·r bytes plus a little
 * (OpenSSL counts 128·r·(N + p + 2)): exactly 128 MiB at the defaults would refuse them, so allow twice that.
 */
const maxmemFor = (params: ScryptParams): number => 2 * 128 * params.N * params.r * params.p;

const derive = (password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: maxmemFor(params) };
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (e, key) => (e ? reject(e) : resolve(key)));
  });

/** A new hash of `password` at `params` (default: the configured cost, {@link scryptParamsFromEnv}). */
export const hashPassword = async (password: string, params: ScryptParams = scryptParamsFromEnv()): Promise<string> => {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `scrypt$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
};

const FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** The cost a stored hash names; null when it is not one of ours. */
export const paramsOfHash = (stored: string): ScryptParams | null => {
  const m = FORMAT.exec(stored);
  return m ? { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) } : null;
};

/** True when `password` matches `stored`; false for a wrong password or a hash in an unknown format. */
export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const m = FORMAT.exec(stored);
  if (!m) return false;
  const [, N, r, p, salt, hash] = m as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) });
  return timingSafeEqual(key, expected);
};

/** The stored hash costs less than `params` in any of its parameters: re-hash it when the password is next known. */
export const needsRehash = (stored: string, params: ScryptParams = scryptParamsFromEnv()): boolean => {
  const had = paramsOfHash(stored);
  return had !== null && (had.N < params.N || had.r < params.r || had.p < params.p);
};

/**
 * Replaces a player's hash. With `expected`, only while the stored hash is still that one: a re-hash on
 * login must not overwrite a password changed meanwhile by another request. True when a row changed.
 */
export const setPasswordHash = async (client: Tx, playerId: string, hash: string, expected?: string): Promise<boolean> => {
  const r = await client.player.updateMany({
    where: { id: playerId, ...(expected === undefined ? {} : { passwordHash: expected }) },
    data: { passwordHash: hash },
  });
  return r.count > 0;
};
