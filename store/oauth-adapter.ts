import type { Prisma } from '../generated/prisma/client.js';
import type { Db } from './db.js';
import { isUuid } from './ids.js';

/**
 * The authorization server's storage (oidc-provider's Adapter contract, docs/apps.md#the-authorization-server):
 * every model but `Client` is a row of `oauth_records` keyed by (model, id), the payload as oidc-provider
 * gave it, with the columns it looks rows up by copied out of it. `account_id` is the player the record acts
 * for, so that a password change or a deletion ends all of a player's grants, tokens and OAuth sign-ins with
 * one delete (store/oauth-revocation.ts). Clients are the registered apps of `oauth_apps`, read only here
 * (service/oauth-apps.ts registers them). An expired row is treated as absent (a sweep may delete it later).
 */

/** What oidc-provider stores: a JSON object with a few well-known fields. */
export interface OAuthPayload {
  readonly [key: string]: unknown;
  readonly grantId?: string;
  readonly uid?: string;
  readonly userCode?: string;
  readonly accountId?: string;
  readonly clientId?: string;
  readonly consumed?: unknown;
}

/** The instance side of oidc-provider's Adapter interface. */
export interface OAuthAdapter {
  upsert(id: string, payload: OAuthPayload, expiresIn: number): Promise<void>;
  find(id: string): Promise<OAuthPayload | undefined>;
  findByUid(uid: string): Promise<OAuthPayload | undefined>;
  findByUserCode(userCode: string): Promise<OAuthPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** The client metadata oidc-provider needs of a registered app (RFC 7591 names). */
export interface OAuthClientMetadata {
  readonly client_id: string;
  readonly client_name: string;
  readonly redirect_uris: readonly string[];
  readonly grant_types: readonly string[];
  readonly response_types: readonly string[];
  readonly token_endpoint_auth_method: 'none' | 'client_secret_basic' | 'client_secret_post';
  readonly client_secret?: string;
  readonly logo_uri?: string;
  readonly application_type: 'web' | 'native';
}

const CLIENT_MODEL = 'Client';

/** A registered app, live (neither it nor its owner deleted), as client metadata; undefined otherwise. */
export const findOAuthClient = async (db: Db, clientId: string): Promise<OAuthClientMetadata | undefined> => {
  const app = await db.prisma.oAuthApp.findFirst({
    where: { id: clientId, deletedAt: null, owner: { deletedAt: null } },
  });
  if (!app) return undefined;
  const confidential = app.clientType === 'confidential' && app.secret !== null;
  return {
    client_id: app.id,
    client_name: app.name,
    redirect_uris: app.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // A confidential client may send its secret either way RFC 6749 allows; a public one has none to send.
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    ...(confidential ? { client_secret: app.secret! } : {}),
    ...(app.iconUrl ? { logo_uri: app.iconUrl } : {}),
    // The rule of applicationTypeOf (service/oauth-app-input.ts): a native app's redirect URIs are its own scheme or
    // loopback http, where oidc-provider lets the port vary (RFC 8252 §7.3); every other URI is matched exactly.
    application_type: app.redirectUris.every((u) => u.startsWith('https://')) ? 'web' : 'native',
  };
};

const asJson = (payload: OAuthPayload): Prisma.InputJsonValue => payload as Prisma.InputJsonValue;

const live = (now: Date) => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] });

/**
 * The adapter class oidc-provider constructs once per model name (`new Adapter('AccessToken')`), bound to
 * `db`. `now` is the real clock: oidc-provider computes every expiry from it.
 */
export const oauthAdapterClass = (db: Db, now: () => Date = () => new Date()): new (model: string) => OAuthAdapter =>
  class RecordAdapter implements OAuthAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: OAuthPayload, expiresIn: number): Promise<void> {
      if (this.model === CLIENT_MODEL) return; // apps are registered through service/oauth-apps.ts only
      const columns = {
        payload: asJson(payload),
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        // Only a player's id names a row of players; anything else would break the foreign key.
        accountId: typeof payload.accountId === 'string' && isUuid(payload.accountId) ? payload.accountId : null,
        clientId: payload.clientId ?? null,
        expiresAt: expiresIn ? new Date(now().getTime() + expiresIn * 1000) : null,
      };
      await db.prisma.oAuthRecord.upsert({
        where: { model_id: { model: this.model, id } },
        create: { model: this.model, id, ...columns },
        update: columns,
      });
    }

    async find(id: string): Promise<OAuthPayload | undefined> {
      if (this.model === CLIENT_MODEL) return findOAuthClient(db, id) as Promise<OAuthPayload | undefined>;
      return this.first({ id });
    }

    findByUid(uid: string): Promise<OAuthPayload | undefined> {
      return this.first({ uid });
    }

    findByUserCode(userCode: string): Promise<OAuthPayload | undefined> {
      return this.first({ userCode });
    }

    async consume(id: string): Promise<void> {
      const at = now();
      const row = await db.prisma.oAuthRecord.findUnique({ where: { model_id: { model: this.model, id } } });
      if (!row) return;
      const payload = { ...(row.payload as Record<string, unknown>), consumed: Math.floor(at.getTime() / 1000) };
      await db.prisma.oAuthRecord.updateMany({
        where: { model: this.model, id },
        data: { consumedAt: at, payload: asJson(payload) },
      });
    }

    async destroy(id: string): Promise<void> {
      await db.prisma.oAuthRecord.deleteMany({ where: { model: this.model, id } });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.prisma.oAuthRecord.deleteMany({ where: { model: this.model, grantId } });
    }

    private async first(where: Prisma.OAuthRecordWhereInput): Promise<OAuthPayload | undefined> {
      const row = await db.prisma.oAuthRecord.findFirst({ where: { model: this.model, ...where, ...live(now()) } });
      return row ? (row.payload as OAuthPayload) : undefined;
    }
  };

/** An access token's record and what it rests on, for the API's check of a bearer token (graph/oauth-principal.ts). */
export interface OAuthAccessRecord {
  readonly accountId: string;
  readonly clientId: string;
  readonly grantId: string;
  readonly scope: string;
  readonly expiresAt: Date | null;
  /** The grant is still there (not revoked, not expired) and its app is live. */
  readonly grantLive: boolean;
  readonly grantLastUsedAt: Date | null;
}

/** The access token with this value (oidc-provider's opaque tokens are their own id), or null. */
export const findOAuthAccess = async (db: Db, token: string, now: Date): Promise<OAuthAccessRecord | null> => {
  const row = await db.prisma.oAuthRecord.findUnique({ where: { model_id: { model: 'AccessToken', id: token } } });
  if (!row?.grantId || !row.accountId || !row.clientId) return null;
  const [grant, client] = await Promise.all([
    db.prisma.oAuthRecord.findFirst({ where: { model: 'Grant', id: row.grantId, ...live(now) } }),
    findOAuthClient(db, row.clientId),
  ]);
  const payload = row.payload as OAuthPayload;
  return {
    accountId: row.accountId,
    clientId: row.clientId,
    grantId: row.grantId,
    scope: typeof payload['scope'] === 'string' ? payload['scope'] : '',
    expiresAt: row.expiresAt,
    grantLive: grant !== null && client !== undefined && grant.accountId === row.accountId,
    grantLastUsedAt: grant?.lastUsedAt ?? null,
  };
};

/** Records that a grant's token was used (the apps list shows it), unless that was recorded after `since`. */
export const touchOAuthGrant = async (db: Db, grantId: string, now: Date, since: Date): Promise<void> => {
  await db.prisma.oAuthRecord.updateMany({
    where: { model: 'Grant', id: grantId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: since } }] },
    data: { lastUsedAt: now },
  });
};

/** What the consent page shows of an app: its name, icon and who registered it; null for a deleted app. */
export const findOAuthAppForConsent = async (
  db: Db,
  clientId: string,
): Promise<{ readonly name: string; readonly iconUrl: string | null; readonly ownerHandle: string } | null> => {
  const app = await db.prisma.oAuthApp.findFirst({
    where: { id: clientId, deletedAt: null, owner: { deletedAt: null } },
    select: { name: true, iconUrl: true, owner: { select: { handle: true } } },
  });
  return app ? { name: app.name, iconUrl: app.iconUrl, ownerHandle: app.owner.handle } : null;
};

/**
 * Deletes up to `limit` records that expired before `before` (oldest first) and answers how many. Rows
 * another sweep holds are skipped (`SKIP LOCKED`), so overlapping sweeps split the work instead of waiting.
 * Each call is one statement: a batch commits on its own, and a long backlog never holds one long transaction.
 */
export const deleteExpiredOAuthRecords = (db: Db, before: Date, limit: number): Promise<number> =>
  db.prisma.$executeRawUnsafe(
    `DELETE FROM oauth_records WHERE (model, id) IN (
       SELECT model, id FROM oauth_records WHERE expires_at < $1::timestamptz ORDER BY expires_at LIMIT $2::int FOR UPDATE SKIP LOCKED)`,
    before,
    limit,
  );
