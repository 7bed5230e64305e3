import type { OAuthApp } from '../generated/prisma/client.js';
import type { Tx } from './db.js';
import { isUuid } from './ids.js';

/**
 * Third-party apps (`oauth_apps`) and the grants players gave them (`oauth_records` rows of model
 * `Grant`). Plain reads and writes; who may do what and what an input may be is service/oauth-apps.ts's
 * business. Here rather than in the service because the authorization server's adapter (store/) reads
 * apps too, and must read them exactly as the owner's list does: a deleted app is no app.
 */

export type OAuthAppRow = OAuthApp;

/** The model name oidc-provider gives its grants (lib/models/grant.js); the adapter stores it in `model`. */
export const GRANT_MODEL = 'Grant';

export interface NewOAuthAppRow {
  readonly id: string;
  readonly ownerId: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly iconUrl: string | null;
  readonly clientType: 'public' | 'confidential';
  readonly secret: string | null;
  /** The service's clock, so that createdAt and updatedAt agree with the rest of the API's times. */
  readonly createdAt: Date;
}

export const insertOAuthApp = (client: Tx, app: NewOAuthAppRow): Promise<OAuthAppRow> =>
  client.oAuthApp.create({ data: { ...app, redirectUris: [...app.redirectUris], updatedAt: app.createdAt } });

/** The app whose client_id is `id`, unless it was deleted: what the authorization server may know. */
export const findLiveOAuthApp = (client: Tx, id: string): Promise<OAuthAppRow | null> =>
  client.oAuthApp.findFirst({ where: { id, deletedAt: null } });

/** One of `ownerId`'s live apps; null when it is someone else's, deleted, or nothing. */
export const findOwnedOAuthApp = (client: Tx, ownerId: string, id: string): Promise<OAuthAppRow | null> =>
  isUuid(ownerId) ? client.oAuthApp.findFirst({ where: { id, ownerId, deletedAt: null } }) : Promise.resolve(null);

/** The owner's live apps, oldest first. */
export const listOwnedOAuthApps = (client: Tx, ownerId: string): Promise<OAuthAppRow[]> =>
  isUuid(ownerId)
    ? client.oAuthApp.findMany({ where: { ownerId, deletedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })
    : Promise.resolve([]);

export const countOwnedOAuthApps = (client: Tx, ownerId: string): Promise<number> =>
  client.oAuthApp.count({ where: { ownerId, deletedAt: null } });

/**
 * Locks the owner's `players` row until the caller's transaction ends, so that registrations of one player
 * run one after the other: each then counts the apps the ones before it committed (read committed reads
 * anew per statement), and a cap checked by count-then-insert holds under concurrency. `FOR NO KEY UPDATE`
 * does not wait on the key-share locks that inserts referencing the player take (a game, a seat).
 */
export const lockOwnerForApps = async (client: Tx, ownerId: string): Promise<void> => {
  if (!isUuid(ownerId)) return;
  await client.$queryRawUnsafe(`SELECT 1 FROM players WHERE id = $1::uuid FOR NO KEY UPDATE`, ownerId);
};

export interface OAuthAppChanges {
  readonly name?: string;
  readonly redirectUris?: readonly string[];
  readonly iconUrl?: string | null;
  readonly secret?: string;
}

/** Changes one of the owner's live apps; null when it is not theirs (nothing is written then). */
export const updateOwnedOAuthApp = async (
  client: Tx,
  ownerId: string,
  id: string,
  changes: OAuthAppChanges,
  now: Date,
): Promise<OAuthAppRow | null> => {
  if (!isUuid(ownerId)) return null;
  const { redirectUris, ...rest } = changes;
  const data = { ...rest, ...(redirectUris ? { redirectUris: [...redirectUris] } : {}), updatedAt: now };
  const updated = await client.oAuthApp.updateMany({ where: { id, ownerId, deletedAt: null }, data });
  return updated.count === 1 ? client.oAuthApp.findUnique({ where: { id } }) : null;
};

/**
 * Marks one of the owner's apps deleted and removes every authorization-server record of it (grants,
 * codes, tokens, interactions), so that nothing issued to it works any more. Call inside a transaction.
 * False when it is not the owner's live app.
 */
export const softDeleteOwnedOAuthApp = async (client: Tx, ownerId: string, id: string, now: Date): Promise<boolean> => {
  if (!isUuid(ownerId)) return false;
  const marked = await client.oAuthApp.updateMany({ where: { id, ownerId, deletedAt: null }, data: { deletedAt: now, updatedAt: now } });
  if (marked.count !== 1) return false;
  await client.oAuthRecord.deleteMany({ where: { clientId: id } });
  return true;
};

export interface GrantRow {
  readonly id: string;
  readonly clientId: string | null;
  readonly payload: unknown;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date | null;
}

const GRANT_COLUMNS = { id: true, clientId: true, payload: true, createdAt: true, lastUsedAt: true, expiresAt: true } as const;

/** The player's grants (any app, live or not: the caller drops those it cannot show), newest first. */
export const listGrantRows = (client: Tx, accountId: string): Promise<GrantRow[]> =>
  isUuid(accountId)
    ? client.oAuthRecord.findMany({
        where: { model: GRANT_MODEL, accountId },
        select: GRANT_COLUMNS,
        orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      })
    : Promise.resolve([]);

/** The apps these ids name, deleted ones included (their grants are gone with them, but a race may show one). */
export const findOAuthAppsByIds = (client: Tx, ids: readonly string[]): Promise<OAuthAppRow[]> =>
  ids.length === 0 ? Promise.resolve([]) : client.oAuthApp.findMany({ where: { id: { in: [...ids] } } });

/**
 * Deletes one of the player's grants with every record issued under it (codes, access and refresh
 * tokens, whose `grant_id` is the grant's id). Call inside a transaction. False when the player has no
 * grant with that id (nothing is deleted then).
 */
export const deleteGrantWithRecords = async (client: Tx, accountId: string, grantId: string): Promise<boolean> => {
  if (!isUuid(accountId)) return false;
  const grant = await client.oAuthRecord.deleteMany({ where: { model: GRANT_MODEL, id: grantId, accountId } });
  if (grant.count !== 1) return false;
  await client.oAuthRecord.deleteMany({ where: { grantId } });
  return true;
};
