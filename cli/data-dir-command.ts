import { DEFAULT_DATA_DIR } from '../store/db.js';
import type { CliIo } from './io.js';

/**
 * The arguments of the commands that act on a key kept in the local server's data directory
 * (`arbiter jwt-secret rotate`, `arbiter vapid-keys replace`): `<action> [--data-dir DIR]`. Returns the
 * directory to act on, or the exit code when there is nothing to do (help: 0, bad arguments: 2).
 */
export const dataDirAction = (args: readonly string[], action: string, usage: string, io: CliIo): string | number => {
  const [given, ...rest] = args;
  if (given === '--help' || given === '-h') {
    io.out(usage);
    return 0;
  }
  if (given !== action) {
    io.err(usage);
    return 2;
  }
  let dir = process.env['ARBITER_DATA_DIR'] ?? DEFAULT_DATA_DIR;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--data-dir' && rest[i + 1]) dir = rest[++i]!;
    else {
      io.err(usage);
      return 2;
    }
  }
  return dir;
};
