import { randomBytes } from 'node:crypto';
import { err, ok, type Result } from '../engine/result.js';
import {
  countOwnedOAuthApps,
  lockOwnerForApps,
  deleteGrantWithRecords,
  findOAuthAppsByIds,
  findOwnedOAuthApp,
  insertOAuthApp,
  listGrantRows,
  listOwnedOAuthApps,
  softDeleteOwnedOAuthApp,
  updateOwnedOAuthApp,
  type OAuthAppChanges,
  type OAuthAppRow,
} from '../store/oauth-apps.js';
import { API_SCOPES, type ApiScope } from './accounts.js';
import type { Db } from './context.js';
import { checkRedirectUris, checkIconUrl, checkAppName } from './oauth-app-input.js';
import { appError, type AppError } from './oauth-app-errors.js';

export { APP_ERROR_CODES, type AppError, type AppErrorCode } from './oauth-app-errors.js';
export { LOOPBACK_HOSTS, MAX_REDIRECT_URIS, applicationTypeOf } from './oauth-app-input.js';

/**
 * Third-party apps a player registers (docs/apps.md), and the grants a player gave apps. An app's id
 * is its OAuth `client_id`; a confidential app's secret is answered at registration and on rotation
 * only. Only the owner sees or changes an app: anyone else's id is APP_NOT_FOUND, as is a deleted app's,
 * so an id tells nobody whether it exists. The authorization server itself (oidc-provider, over
 * store/oauth-adapter.ts) reads the same rows through store/oauth-apps.ts.
 */

export const CLIENT_TYPES = ['public', 'confidential'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];
/** Live apps per player: room for a developer's dev, staging and production apps of a few projects, not for a registration loop. */
export const MAX_APPS_PER_PLAYER = 20;

export interface OAuthAppView {
  /** The OAuth client_id. */
  readonly id: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly iconUrl: string | null;
  readonly clientType: ClientType;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** An app with its secret, at registration or rotation: the only answers that carry the secret. */
export interface OAuthAppCredentials {
  readonly app: OAuthAppView;
  /** The client_secret of a confidential app; null for a public one. */
  readonly clientSecret: string | null;
}

export interface NewApp {
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly iconUrl?: string | null;
  readonly clientType: string;
}

/** Absent fields stay as they are; `iconUrl: null` removes the icon. */
export interface AppUpdate {
  readonly name?: string | null;
  readonly redirectUris?: readonly string[] | null;
  readonly iconUrl?: string | null;
}

const toView = (row: OAuthAppRow): OAuthAppView => ({
  id: row.id,
  name: row.name,
  redirectUris: row.redirectUris,
  iconUrl: row.iconUrl,
  clientType: row.clientType === 'confidential' ? 'confidential' : 'public',
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

// 128 bits each: the client_id is public but must not be guessable (it names a consent screen); the secret is a password.
const newClientId = (): string => `app_${randomBytes(16).toString('base64url')}`;
const newClientSecret = (): string => `appsec_${randomBytes(32).toString('base64url')}`;

const appNotFound = (id: string): AppError => appError('APP_NOT_FOUND', 'id', `You have no app with the id "${id}".`, { id });

/**
 * Registers an app for `ownerId`. Errors: APP_NAME_INVALID, APP_REDIRECT_URI_INVALID (naming the URI
 * and why), APP_ICON_URL_INVALID, APP_CLIENT_TYPE_INVALID, APP_LIMIT_REACHED.
 */
export const registerApp = async (db: Db, ownerId: string, input: NewApp, now: Date): Promise<Result<OAuthAppCredentials, AppError>> => {
  const name = checkAppName(input.name);
  if (!name.ok) return name;
  const redirectUris = checkRedirectUris(input.redirectUris);
  if (!redirectUris.ok) return redirectUris;
  const iconUrl = input.iconUrl == null ? ok(null) : checkIconUrl(input.iconUrl);
  if (!iconUrl.ok) return iconUrl;
  if (!(CLIENT_TYPES as readonly string[]).includes(input.clientType)) {
    return err(
      appError('APP_CLIENT_TYPE_INVALID', 'clientType', `The client type "${input.clientType}" is neither public nor confidential.`, {
        allowed: [...CLIENT_TYPES],
      }),
    );
  }
  const clientType = input.clientType as ClientType;
  const clientSecret = clientType === 'confidential' ? newClientSecret() : null;
  const row = await db.transaction(async (tx) => {
    // Count under the owner's lock: two registrations at once must not both see 19 and make 21.
    await lockOwnerForApps(tx, ownerId);
    if ((await countOwnedOAuthApps(tx, ownerId)) >= MAX_APPS_PER_PLAYER) return null;
    return insertOAuthApp(tx, {
      id: newClientId(),
      ownerId,
      name: name.value,
      redirectUris: redirectUris.value,
      iconUrl: iconUrl.value,
      clientType,
      secret: clientSecret,
      createdAt: now,
    });
  });
  if (!row) {
    return err(
      appError('APP_LIMIT_REACHED', 'input', `You have ${MAX_APPS_PER_PLAYER} apps, the most a player may have: delete one first.`, {
        limit: MAX_APPS_PER_PLAYER,
      }),
    );
  }
  return ok({ app: toView(row), clientSecret });
};

/** The owner's apps, oldest first, without secrets. */
export const listMyApps = async (db: Db, ownerId: string): Promise<OAuthAppView[]> =>
  (await listOwnedOAuthApps(db.prisma, ownerId)).map(toView);

/** One of the owner's apps. Error: APP_NOT_FOUND (also for another player's app). */
export const getMyApp = async (db: Db, ownerId: string, id: string): Promise<Result<OAuthAppView, AppError>> => {
  const row = await findOwnedOAuthApp(db.prisma, ownerId, id);
  return row ? ok(toView(row)) : err(appNotFound(id));
};

/**
 * Changes an app's name, redirect URIs or icon. Its grants and tokens stay valid: a redirect URI taken
 * away only stops new authorizations from returning there. Errors: those of {@link registerApp} for the
 * fields given, APP_NOT_FOUND.
 */
export const updateApp = async (
  db: Db,
  ownerId: string,
  id: string,
  update: AppUpdate,
  now: Date,
): Promise<Result<OAuthAppView, AppError>> => {
  const changes: { -readonly [K in keyof OAuthAppChanges]: OAuthAppChanges[K] } = {};
  if (update.name != null) {
    const name = checkAppName(update.name);
    if (!name.ok) return name;
    changes.name = name.value;
  }
  if (update.redirectUris != null) {
    const uris = checkRedirectUris(update.redirectUris);
    if (!uris.ok) return uris;
    changes.redirectUris = uris.value;
  }
  if (update.iconUrl !== undefined) {
    const icon = update.iconUrl === null ? ok(null) : checkIconUrl(update.iconUrl);
    if (!icon.ok) return icon;
    changes.iconUrl = icon.value;
  }
  const row = await updateOwnedOAuthApp(db.prisma, ownerId, id, changes, now);
  return row ? ok(toView(row)) : err(appNotFound(id));
};

/**
 * A new secret for a confidential app, answered this once; the old one stops working at once (a token
 * request with it is refused), while tokens already issued stay valid. Errors: APP_NOT_FOUND,
 * APP_NOT_CONFIDENTIAL (a public app has no secret to rotate).
 */
export const rotateAppSecret = async (db: Db, ownerId: string, id: string, now: Date): Promise<Result<OAuthAppCredentials, AppError>> => {
  const app = await findOwnedOAuthApp(db.prisma, ownerId, id);
  if (!app) return err(appNotFound(id));
  if (app.clientType !== 'confidential') {
    return err(
      appError('APP_NOT_CONFIDENTIAL', 'id', `The app "${app.name}" is a public client: it has no secret to rotate.`, {
        id,
        clientType: app.clientType,
      }),
    );
  }
  const clientSecret = newClientSecret();
  const row = await updateOwnedOAuthApp(db.prisma, ownerId, id, { secret: clientSecret }, now);
  return row ? ok({ app: toView(row), clientSecret }) : err(appNotFound(id));
};

/** Deletes an app with every grant, code and token issued to it, in one transaction. Error: APP_NOT_FOUND. */
export const deleteApp = async (db: Db, ownerId: string, id: string, now: Date): Promise<Result<{ readonly id: string }, AppError>> => {
  const deleted = await db.transaction((tx) => softDeleteOwnedOAuthApp(tx, ownerId, id, now));
  return deleted ? ok({ id }) : err(appNotFound(id));
};

// ---------------------------------------------------------------------------------------------
// Grants: what a player allowed an app, as oidc-provider's Grant records it (lib/models/grant.js)

export interface GrantView {
  /** The grant's id (oidc-provider's jti; the `grant_id` of every token issued under it). */
  readonly id: string;
  readonly app: { readonly id: string; readonly name: string; readonly iconUrl: string | null };
  /** The API scopes granted, in API_SCOPES order. */
  readonly scopes: readonly ApiScope[];
  readonly createdAt: Date;
  /** When a token of the grant was last used; null before its first use. */
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date | null;
}

interface ScopeHolder {
  readonly openid?: { readonly scope?: unknown } | null;
  readonly resources?: Readonly<Record<string, unknown>> | null;
}

const scopeWords = (holder: ScopeHolder | null | undefined): Set<string> => {
  const texts = [holder?.openid?.scope, ...Object.values(holder?.resources ?? {})];
  return new Set(texts.flatMap((t) => (typeof t === 'string' ? t.split(' ') : [])));
};

/**
 * The API scopes a Grant payload grants: those of `openid.scope` (Grant#addOIDCScope) and of every
 * resource (Grant#addResourceScope), less the rejected ones, as Grant#getOIDCScope computes them.
 * Non-API scopes (openid, offline_access) are not shown.
 */
export const grantedScopes = (payload: unknown): ApiScope[] => {
  const grant = (typeof payload === 'object' && payload !== null ? payload : {}) as ScopeHolder & { readonly rejected?: ScopeHolder };
  const granted = scopeWords(grant);
  const rejected = scopeWords(grant.rejected);
  return API_SCOPES.filter((s) => granted.has(s) && !rejected.has(s));
};

/** The apps the player has authorized, newest grant first: expired grants and those of deleted apps are left out. */
export const listMyGrants = async (db: Db, accountId: string, now: Date): Promise<GrantView[]> => {
  const rows = (await listGrantRows(db.prisma, accountId)).filter((r) => r.expiresAt === null || r.expiresAt > now);
  const apps = new Map(
    (await findOAuthAppsByIds(db.prisma, [...new Set(rows.flatMap((r) => (r.clientId ? [r.clientId] : [])))])).map((a) => [a.id, a]),
  );
  return rows.flatMap((r) => {
    const app = r.clientId ? apps.get(r.clientId) : undefined;
    if (!app || app.deletedAt) return [];
    return [
      {
        id: r.id,
        app: { id: app.id, name: app.name, iconUrl: app.iconUrl },
        scopes: grantedScopes(r.payload),
        createdAt: r.createdAt,
        lastUsedAt: r.lastUsedAt,
        expiresAt: r.expiresAt,
      },
    ];
  });
};

/**
 * Revokes one of the player's grants: the grant and every code and token issued under it go in one
 * transaction, so the app's refresh token fails at once and its access tokens at their next use.
 * Error: GRANT_NOT_FOUND (also for another player's grant).
 */
export const revokeGrant = async (db: Db, accountId: string, grantId: string): Promise<Result<{ readonly id: string }, AppError>> => {
  const deleted = await db.transaction((tx) => deleteGrantWithRecords(tx, accountId, grantId));
  return deleted
    ? ok({ id: grantId })
    : err(appError('GRANT_NOT_FOUND', 'id', `You have authorized no app under the grant id "${grantId}".`, { id: grantId }));
};
