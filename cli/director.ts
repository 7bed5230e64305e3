/**
 * `arbiter director grant|revoke <handle> [--admin]`: sets a player's role on the database `npm run migrate`
 * opens (DATABASE_URL, else PGlite in ARBITER_DATA_DIR or .arbiter-data/). This is how the first admin is
 * made: the API lets an admin grant and revoke director (grantDirector), never make an admin.
 */
import { createDb } from '../store/db.js';
import { setRole, type Role } from '../store/roles.js';
import type { CliIo } from './io.js';

const USAGE = 'usage: arbiter director grant|revoke <handle> [--admin]   (grant --admin makes an admin; revoke makes a player)';

/** The role the arguments ask for, or null when they are not a valid command. */
export const roleFor = (args: readonly string[]): { handle: string; role: Role } | null => {
  const [action, handle, ...flags] = args;
  const admin = flags.length === 1 && flags[0] === '--admin';
  if (!handle || (flags.length > 0 && !admin)) return null;
  if (action === 'grant') return { handle, role: admin ? 'admin' : 'director' };
  if (action === 'revoke' && !admin) return { handle, role: 'player' };
  return null;
};

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    io.out(USAGE);
    return 0;
  }
  const wanted = roleFor(args);
  if (!wanted) {
    io.err(USAGE);
    return 2;
  }
  const db = await createDb();
  try {
    const id = await setRole(db.prisma, wanted.handle, wanted.role);
    if (id === null) {
      io.err(`No player has the handle "${wanted.handle}".`);
      return 1;
    }
    io.out(`${wanted.handle} is now ${wanted.role === 'player' ? 'a player' : `a${wanted.role === 'admin' ? 'n' : ''} ${wanted.role}`}.`);
    return 0;
  } finally {
    await db.close();
  }
}
