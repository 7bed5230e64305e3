/**
 * `arbiter jwt-secret rotate [--data-dir DIR]`: rotates the local server's token-signing key kept in its
 * data directory (store/secret-file.ts). The previous key stays accepted for one token lifetime, so
 * nobody signed in is signed out; restart the server to load the new key. Not for a server configured
 * with ARBITER_JWT_SECRET (set ARBITER_JWT_SECRET_PREVIOUS to the old value there) nor for AWS (Secrets
 * Manager rotates on its schedule).
 */
import { DEFAULT_DATA_DIR } from '../store/db.js';
import { rotateJwtSecret } from '../store/secret-file.js';
import type { CliIo } from './io.js';

const USAGE = 'usage: arbiter jwt-secret rotate [--data-dir DIR]   (default ARBITER_DATA_DIR, else .arbiter-data)';

export async function run(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action === '--help' || action === '-h') {
    io.out(USAGE);
    return 0;
  }
  if (action !== 'rotate') {
    io.err(USAGE);
    return 2;
  }
  let dir = process.env['ARBITER_DATA_DIR'] ?? DEFAULT_DATA_DIR;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--data-dir' && rest[i + 1]) dir = rest[++i]!;
    else {
      io.err(USAGE);
      return 2;
    }
  }
  rotateJwtSecret(dir);
  io.out(`Rotated the token-signing key in ${dir}: restart the server; tokens signed with the old key stay valid for one token lifetime.`);
  return 0;
}
