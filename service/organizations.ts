import type { RuleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import { findPlayerByHandle } from '../store/players.js';
import {
  directsOrganization,
  findOrganization,
  insertOrganization,
  listOrganizations,
  organizationOfGame,
  ORGANIZATION_KINDS,
  setOrganizationDirector,
  type OrganizationKind,
  type OrganizationRow,
} from '../store/organizations.js';
import { isDirectorRole, roleOf } from '../store/roles.js';
import type { ServiceDeps } from './context.js';
import { fail } from './game-errors.js';

export { ORGANIZATION_KINDS, type OrganizationKind, type OrganizationRow } from '../store/organizations.js';

/**
 * Clubs and events (issue 14, item 4): an admin makes one and grants players the director role in it; a
 * game placed under one when it is created may then be ruled on by that organization's directors. A global
 * director or an admin (store/roles.ts) still rules on any game. Names and directors are public.
 */

export const MAX_ORGANIZATION_NAME_LENGTH = 100;

/** Why `name` (trimmed already) cannot name a club or an event, or null when it can; `arbiter director create` asks too. */
export const organizationNameProblem = (name: string): string | null =>
  name === '' || name.length > MAX_ORGANIZATION_NAME_LENGTH ? `name must be 1–${MAX_ORGANIZATION_NAME_LENGTH} characters.` : null;

const notFound = (id: string, field: string) =>
  fail('ORGANIZATION_NOT_FOUND', `No club or event has the id "${id}".`, { field, organizationId: id });

/** An admin makes a club or an event. Errors: NOT_ADMIN, BAD_INPUT (kind, name), ORGANIZATION_EXISTS. */
export async function createOrganization(
  deps: ServiceDeps,
  adminId: string,
  input: { readonly kind: string; readonly name: string },
): Promise<Result<OrganizationRow, RuleError>> {
  if ((await roleOf(deps.db.prisma, adminId)) !== 'admin') return fail('NOT_ADMIN', 'Only an admin makes a club or an event.');
  if (!(ORGANIZATION_KINDS as readonly string[]).includes(input.kind))
    return fail('BAD_INPUT', `kind must be club or event, not "${input.kind}".`, { field: 'kind' });
  const name = input.name.trim();
  const problem = organizationNameProblem(name);
  if (problem) return fail('BAD_INPUT', problem, { field: 'name' });
  const made = await insertOrganization(deps.db.prisma, { kind: input.kind as OrganizationKind, name, createdBy: adminId });
  return made ? ok(made) : fail('ORGANIZATION_EXISTS', `A ${input.kind} named "${name}" exists already.`, { field: 'name' });
}

/** Every club and event with its directors' handles (public). */
export const organizations = (deps: ServiceDeps): Promise<OrganizationRow[]> => listOrganizations(deps.db.prisma);

/** One organization, or ORGANIZATION_NOT_FOUND naming `field`. */
export async function organization(deps: ServiceDeps, id: string, field = 'organization'): Promise<Result<OrganizationRow, RuleError>> {
  const o = await findOrganization(deps.db.prisma, id);
  return o ? ok(o) : notFound(id, field);
}

/** The organization a new game names (null when it names none), or ORGANIZATION_NOT_FOUND naming `organization`. */
export async function organizationNamed(
  deps: ServiceDeps,
  id: string | null | undefined,
): Promise<Result<OrganizationRow | null, RuleError>> {
  return id ? organization(deps, id) : ok(null);
}

/** The organization a game is placed under (the game snapshot's `organizationId`); null for none. */
export const gameOrganization = (deps: ServiceDeps, organizationId: string | null): Promise<OrganizationRow | null> =>
  organizationId === null ? Promise.resolve(null) : findOrganization(deps.db.prisma, organizationId);

/**
 * An admin grants (or takes back) the director role in one organization. Errors: NOT_ADMIN,
 * ORGANIZATION_NOT_FOUND, PLAYER_NOT_FOUND.
 */
export async function setOrganizationDirectorRole(
  deps: ServiceDeps,
  adminId: string,
  organizationId: string,
  handle: string,
  grant: boolean,
): Promise<Result<{ readonly handle: string; readonly organization: OrganizationRow }, RuleError>> {
  if ((await roleOf(deps.db.prisma, adminId)) !== 'admin')
    return fail('NOT_ADMIN', 'Only an admin grants or revokes the director role of a club or an event.');
  const org = await organization(deps, organizationId);
  if (!org.ok) return org;
  const target = await findPlayerByHandle(deps.db.prisma, handle);
  if (!target) return fail('PLAYER_NOT_FOUND', `No player has the handle "${handle}".`, { field: 'handle' });
  await setOrganizationDirector(deps.db.prisma, organizationId, target.id, grant, adminId);
  const after = await organization(deps, organizationId);
  return after.ok ? ok({ handle, organization: after.value }) : after;
}

/** By what right a player directs a game: globally (organization null) or as a director of the game's organization. */
export interface DirectorAuthority {
  readonly organization: string | null;
}

/**
 * Whether `playerId` may act as a director on game `gameId`: a global director or admin on any game; a
 * director of a club or event only on the games placed under it. NOT_DIRECTOR otherwise, with
 * `details.reason` (NOT_A_DIRECTOR, GAME_HAS_NO_ORGANIZATION, NOT_DIRECTOR_OF_ORGANIZATION) and the game's
 * organization.
 */
export async function directorAuthority(
  deps: ServiceDeps,
  playerId: string,
  gameId: string,
): Promise<Result<DirectorAuthority, RuleError>> {
  if (isDirectorRole(await roleOf(deps.db.prisma, playerId))) return ok({ organization: null });
  const orgId = await organizationOfGame(deps.db.prisma, gameId);
  if (orgId !== null && (await directsOrganization(deps.db.prisma, orgId, playerId))) return ok({ organization: orgId });
  const directsAny = (await deps.db.prisma.organizationDirector.count({ where: { playerId } })) > 0;
  if (!directsAny)
    return fail('NOT_DIRECTOR', 'Only a director rules on a dispute (an admin grants the role: grantDirector).', {
      reason: 'NOT_A_DIRECTOR',
    });
  if (orgId === null)
    return fail(
      'NOT_DIRECTOR',
      'This game is placed under no club or event, so only a global director rules on it; you direct a club or event only.',
      { reason: 'GAME_HAS_NO_ORGANIZATION', organizationId: null },
    );
  const org = await findOrganization(deps.db.prisma, orgId);
  return fail(
    'NOT_DIRECTOR',
    `This game is played under the ${org?.kind ?? 'organization'} "${org?.name ?? orgId}", which you do not direct.`,
    {
      reason: 'NOT_DIRECTOR_OF_ORGANIZATION',
      organizationId: orgId,
    },
  );
}
