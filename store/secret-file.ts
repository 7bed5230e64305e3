import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local server's token-signing key, kept in its data directory (issue 15: sessions survive a
 * restart). `jwt-secret` holds the current key, `jwt-secret.previous` the one before the last rotation;
 * both are readable by the owner only (0600). Used by functions/jwt-keys.ts (the server) and
 * `arbiter jwt-secret rotate` (cli/jwt-secret.ts).
 */
export const JWT_SECRET_FILE = 'jwt-secret';
export const JWT_PREVIOUS_SECRET_FILE = 'jwt-secret.previous';

const newSecret = (): string => randomBytes(48).toString('base64url'); // 64 characters

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
};

/** Writes `value` to `path`, readable by the owner only; `exclusive` fails if it exists (two servers starting at once keep one key). */
const writeSecret = (path: string, value: string, exclusive: boolean): void => {
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: exclusive ? 'wx' : 'w' });
  chmodSync(path, 0o600); // an existing file keeps its mode on 'w'; make sure
};

/** The current key in `dir`, made (and the folder with it) on first use. */
export const readOrCreateJwtSecret = (dir: string): { secret: string; created: boolean } => {
  const path = join(dir, JWT_SECRET_FILE);
  const existing = read(path);
  if (existing) return { secret: existing, created: false };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeSecret(path, newSecret(), true);
    return { secret: read(path)!, created: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { secret: read(path)!, created: false };
    throw e;
  }
};

/** The key before the last rotation and when it was retired, or null. */
export const readPreviousJwtSecret = (dir: string): { secret: string; retiredAt: Date } | null => {
  const path = join(dir, JWT_PREVIOUS_SECRET_FILE);
  const secret = read(path);
  return secret ? { secret, retiredAt: statSync(path).mtime } : null;
};

/** Rotates: the current key becomes the previous one (retired now), a new key becomes current. */
export const rotateJwtSecret = (dir: string): void => {
  const current = join(dir, JWT_SECRET_FILE);
  readOrCreateJwtSecret(dir);
  const next = join(dir, `${JWT_SECRET_FILE}.next`);
  writeSecret(next, newSecret(), false);
  renameSync(current, join(dir, JWT_PREVIOUS_SECRET_FILE));
  renameSync(next, current);
};
