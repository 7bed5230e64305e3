import type { Prisma } from '../generated/prisma/client.js';
import { isPrismaKnownError } from './prisma-errors.js';
import type { Tx } from './db.js';
import { isUuid } from './ids.js';

/**
 * Clubs and events (issue 14, item 4) and their directors: plain reads and writes. Who may make one or
 * grant its director role, and what the role allows, is the service's business (service/organizations.ts).
 */

export const ORGANIZATION_KINDS = ['club', 'event'] as const;
export type OrganizationKind = (typeof ORGANIZATION_KINDS)[number];

export interface OrganizationRow {
  readonly id: string;
  readonly kind: OrganizationKind;
  readonly name: string;
  readonly createdAt: Date;
  /** The handles of its directors, in handle order. */
  readonly directors: readonly string[];
}

const WITH_DIRECTORS = {
  id: true,
  kind: true,
  name: true,
  createdAt: true,
  directors: { select: { player: { select: { handle: true } } } },
} as const;

type Selected = Prisma.OrganizationGetPayload<{ select: typeof WITH_DIRECTORS }>;
const rowOf = (o: Selected): OrganizationRow => ({
  id: o.id,
  kind: o.kind as OrganizationKind,
  name: o.name,
  createdAt: o.createdAt,
  directors: o.directors.map((d) => d.player.handle).sort(),
});

/** Makes an organization; null when one of that kind already has the name. */
export const insertOrganization = async (
  client: Tx,
  org: { readonly kind: OrganizationKind; readonly name: string; readonly createdBy: string | null },
): Promise<OrganizationRow | null> => {
  try {
    return rowOf(await client.organization.create({ data: org, select: WITH_DIRECTORS }));
  } catch (e) {
    if (isPrismaKnownError(e) && e.code === 'P2002') return null;
    throw e;
  }
};

/** The organization with this id; null for an unknown id or one that is not a uuid. */
export const findOrganization = async (client: Tx, id: string): Promise<OrganizationRow | null> => {
  if (!isUuid(id)) return null;
  const o = await client.organization.findUnique({ where: { id }, select: WITH_DIRECTORS });
  return o ? rowOf(o) : null;
};

/** The club or event of that name; null when there is none. */
export const findOrganizationByName = async (client: Tx, kind: OrganizationKind, name: string): Promise<OrganizationRow | null> => {
  const o = await client.organization.findUnique({ where: { kind_name: { kind, name } }, select: WITH_DIRECTORS });
  return o ? rowOf(o) : null;
};

/** Every organization, clubs then events, by name. */
export const listOrganizations = async (client: Tx): Promise<OrganizationRow[]> =>
  (await client.organization.findMany({ select: WITH_DIRECTORS, orderBy: [{ kind: 'asc' }, { name: 'asc' }] })).map(rowOf);

/** Grants (or, with `grant` false, takes back) the director role in an organization; idempotent. */
export const setOrganizationDirector = async (
  client: Tx,
  organizationId: string,
  playerId: string,
  grant: boolean,
  grantedBy: string | null,
): Promise<void> => {
  if (grant)
    await client.organizationDirector.upsert({
      where: { organizationId_playerId: { organizationId, playerId } },
      create: { organizationId, playerId, grantedBy },
      update: {},
    });
  else await client.organizationDirector.deleteMany({ where: { organizationId, playerId } });
};

/** Whether the player directs the organization. */
export const directsOrganization = async (client: Tx, organizationId: string, playerId: string): Promise<boolean> =>
  isUuid(playerId) && (await client.organizationDirector.count({ where: { organizationId, playerId } })) > 0;

/** The organization a game is placed under (its id), or null. */
export const organizationOfGame = async (client: Tx, gameId: string): Promise<string | null> => {
  if (!isUuid(gameId)) return null;
  const g = await client.game.findUnique({ where: { id: gameId }, select: { organizationId: true } });
  return g?.organizationId ?? null;
};
