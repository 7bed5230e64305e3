import type { Tx } from './db.js';
import { findPlayerById } from './players.js';

/**
 * Players' roles (issue 14, directors): `player`, `director` (rules on disputes), `admin` (grants and
 * revokes director, and is a director). Deciding who may change a role is the service's business.
 */

export const ROLES = ['player', 'director', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const isRole = (s: string): s is Role => (ROLES as readonly string[]).includes(s);

/** The role of the player with this id; `player` for an unknown id. */
export const roleOf = async (client: Tx, playerId: string): Promise<Role> => {
  const row = await findPlayerById(client, playerId);
  return row && isRole(row.role) ? row.role : 'player';
};

/** Sets the role of the player with this handle; the player's id, or null when no player has the handle. */
export const setRole = async (client: Tx, handle: string, role: Role): Promise<string | null> => {
  const rows = await client.player.updateMany({ where: { handle }, data: { role } });
  if (rows.count === 0) return null;
  const row = await client.player.findUnique({ where: { handle }, select: { id: true } });
  return row?.id ?? null;
};

/** A director rules on disputes; an admin is one too. */
export const isDirectorRole = (role: Role): boolean => role === 'director' || role === 'admin';
