import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes for `players.password_hash`, self-describing so the cost can rise later:
 * `scrypt$N=<cost>,r=<blockSize>,p=<parallelization>$<salt base64>$<hash base64>`.
 */
export const SCRYPT_DEFAULTS = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

const derive = (password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (e, key) => (e ? reject(e) : resolve(key)));
  });

export const hashPassword = async (password: string, params: { N: number; r: number; p: number } = SCRYPT_DEFAULTS): Promise<string> => {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `scrypt$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
};

const FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

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
