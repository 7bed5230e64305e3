/**
 * `arbiter jwt-secret rotate [--data-dir DIR]`: rotates the local server's token-signing key kept in its
 * data directory (store/secret-file.ts). The previous key stays accepted for one token lifetime, so
 * nobody signed in is signed out; restart the server to load the new key. Not for a server configured
 * with ARBITER_JWT_SECRET (set ARBITER_JWT_SECRET_PREVIOUS to the old value there) nor for AWS (Secrets
 * Manager rotates on its schedule).
 */
import { rotateJwtSecret } from '../store/secret-file.js';
import { dataDirAction } from './data-dir-command.js';
import type { CliIo } from './io.js';

const USAGE = 'usage: arbiter jwt-secret rotate [--data-dir DIR]   (default ARBITER_DATA_DIR, else .arbiter-data)';

export async function run(args: string[], io: CliIo): Promise<number> {
  const dir = dataDirAction(args, 'rotate', USAGE, io);
  if (typeof dir === 'number') return dir;
  rotateJwtSecret(dir);
  io.out(`Rotated the token-signing key in ${dir}: restart the server; tokens signed with the old key stay valid for one token lifetime.`);
  return 0;
}
