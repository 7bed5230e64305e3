/**
 * `arbiter director …`: roles on the database `npm run migrate` opens (DATABASE_URL, else PGlite in
 * ARBITER_DATA_DIR or .arbiter-data/). This is how the first admin is made: the API lets an admin grant and
 * revoke director (grantDirector), never make an admin. Clubs and events can be made and their director
 * role granted here too, as an admin does through the API (createOrganization, grantDirector(organization:)).
 */
import { organizationNameProblem } from '../service/organizations.js';
import { createDb } from '../store/db.js';
import { findPlayerByHandle } from '../store/players.js';
import {
  findOrganizationByName,
  insertOrganization,
  listOrganizations,
  setOrganizationDirector,
  type OrganizationKind,
} from '../store/organizations.js';
import { setRole, type Role } from '../store/roles.js';
import type { CliIo } from './io.js';

const USAGE = [
  'usage: arbiter director grant|revoke <handle> [--admin]   (grant --admin makes an admin; revoke makes a player)',
  '       arbiter director grant|revoke <handle> --club|--event <name>   (the director role in that club or event only)',
  '       arbiter director create --club|--event <name>   (makes a club or an event)',
  '       arbiter director list   (clubs and events with their directors)',
].join('\n');

/** The role the arguments ask for, or null when they are not a valid command. */
export const roleFor = (args: readonly string[]): { handle: string; role: Role } | null => {
  const [action, handle, ...flags] = args;
  const admin = flags.length === 1 && flags[0] === '--admin';
  if (!handle || (flags.length > 0 && !admin)) return null;
  if (action === 'grant') return { handle, role: admin ? 'admin' : 'director' };
  if (action === 'revoke' && !admin) return { handle, role: 'player' };
  return null;
};

export type OrganizationCommand =
  | { readonly kind: 'grant'; readonly handle: string; readonly grant: boolean; readonly org: OrganizationKind; readonly name: string }
  | { readonly kind: 'create'; readonly org: OrganizationKind; readonly name: string }
  | { readonly kind: 'list' };

const orgFlag = (flag: string | undefined): OrganizationKind | null => (flag === '--club' ? 'club' : flag === '--event' ? 'event' : null);

/** The club-or-event command the arguments ask for, or null when they are none. */
export const organizationCommandFor = (args: readonly string[]): OrganizationCommand | null => {
  const [action, ...rest] = args;
  if (action === 'list' && rest.length === 0) return { kind: 'list' };
  if (action === 'create' && rest.length === 2 && orgFlag(rest[0]) && rest[1]!.trim())
    return { kind: 'create', org: orgFlag(rest[0])!, name: rest[1]!.trim() };
  if ((action === 'grant' || action === 'revoke') && rest.length === 3 && orgFlag(rest[1]) && rest[2]!.trim())
    return { kind: 'grant', handle: rest[0]!, grant: action === 'grant', org: orgFlag(rest[1])!, name: rest[2]!.trim() };
  return null;
};

type Db = Awaited<ReturnType<typeof createDb>>;

const runOrganization = async (db: Db, cmd: OrganizationCommand, io: CliIo): Promise<number> => {
  if (cmd.kind === 'list') {
    for (const o of await listOrganizations(db.prisma))
      io.out(`${o.kind}\t${o.name}\t${o.id}\t${o.directors.length ? o.directors.join(', ') : '(no directors)'}`);
    return 0;
  }
  if (cmd.kind === 'create') {
    const made = await insertOrganization(db.prisma, { kind: cmd.org, name: cmd.name, createdBy: null });
    if (!made) {
      io.err(`A ${cmd.org} named "${cmd.name}" exists already.`);
      return 1;
    }
    io.out(`Made the ${cmd.org} "${made.name}" (${made.id}).`);
    return 0;
  }
  const org = await findOrganizationByName(db.prisma, cmd.org, cmd.name);
  const player = await findPlayerByHandle(db.prisma, cmd.handle);
  if (!org || !player) {
    io.err(org ? `No player has the handle "${cmd.handle}".` : `No ${cmd.org} is named "${cmd.name}".`);
    return 1;
  }
  await setOrganizationDirector(db.prisma, org.id, player.id, cmd.grant, null);
  io.out(`${cmd.handle} is ${cmd.grant ? 'now' : 'no longer'} a director of the ${cmd.org} "${org.name}".`);
  return 0;
};

export async function run(args: string[], io: CliIo): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h') {
    io.out(USAGE);
    return 0;
  }
  const org = organizationCommandFor(args);
  const wanted = org ? null : roleFor(args);
  if (!org && !wanted) {
    io.err(USAGE);
    return 2;
  }
  // The API's rule for a new name (service/organizations.ts), so the command line makes no club it would refuse.
  const badName = org?.kind === 'create' ? organizationNameProblem(org.name) : null;
  if (badName) {
    io.err(badName);
    return 2;
  }
  const db = await createDb();
  try {
    if (org) return await runOrganization(db, org, io);
    const id = await setRole(db.prisma, wanted!.handle, wanted!.role);
    if (id === null) {
      io.err(`No player has the handle "${wanted!.handle}".`);
      return 1;
    }
    io.out(
      `${wanted!.handle} is now ${wanted!.role === 'player' ? 'a player' : `a${wanted!.role === 'admin' ? 'n' : ''} ${wanted!.role}`}.`,
    );
    return 0;
  } finally {
    await db.close();
  }
}
