import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { JsonObject } from '../store/json.js';
import { findPlayerById } from './accounts.js';
import type { ServiceDeps, Tx } from './context.js';
import { gameRecord } from './game-record.js';

/**
 * Exporting one's data (issue 32; docs/accounts.md "Exporting your data"; GDPR art. 15 and 20): one JSON
 * document with the account, everything the player set up (e-mail, notification preferences, keys, webhooks,
 * push subscriptions, sessions, apps, grants), their ratings, tournament entries, and every game they sat in
 * with its GCG exactly as `gameRecord` gives it to them (their own rack only while a game is on; every rack
 * once it has ended). Never a secret: no password hash, key hash, webhook or app secret, push keys, nonces.
 *
 * Built in memory, a page of games at a time: a document holds at most {@link EXPORT_GAMES_PER_DOCUMENT}
 * games (about 1–3 KB of GCG each, so a few MB at most, under Lambda's 6 MB response limit); a player with
 * more asks for the next `gamePage` (`games.pages` says how many there are).
 */

export const EXPORT_FORMAT = 'arbiter-account-export/1';
export const EXPORT_GAMES_PER_DOCUMENT = 500;

export const ACCOUNT_EXPORT_ERROR_CODES = ['PLAYER_NOT_FOUND', 'EXPORT_PAGE_INVALID'] as const;

export interface AccountExport {
  /** `arbiter-<handle>-<yyyy-mm-dd>.json`: what the download is saved as. */
  readonly filename: string;
  readonly document: JsonObject;
}

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The caller's data as one JSON document; `gamePage` (1-based) picks the page of games. */
export async function exportAccount(deps: ServiceDeps, playerId: string, gamePage = 1): Promise<Result<AccountExport, RuleError>> {
  const client = deps.db.prisma;
  const player = await findPlayerById(client, playerId);
  if (!player || player.deletedAt) return err(ruleError('PLAYER_NOT_FOUND', 'This account no longer exists.', { playerId }));
  if (!Number.isInteger(gamePage) || gamePage < 1) {
    return err(ruleError('EXPORT_PAGE_INVALID', 'gamePage is a whole number from 1.', { field: 'gamePage', gamePage }));
  }
  const now = deps.now();
  const totalGames = await client.seat.count({ where: { playerId } });
  const pages = Math.max(1, Math.ceil(totalGames / EXPORT_GAMES_PER_DOCUMENT));
  if (gamePage > pages) {
    return err(
      ruleError('EXPORT_PAGE_INVALID', `gamePage is at most ${pages}: you sat in ${totalGames} game(s).`, { field: 'gamePage', pages }),
    );
  }
  const document: JsonObject = {
    format: EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    account: {
      id: player.id,
      handle: player.handle,
      displayName: player.displayName,
      role: player.role,
      createdAt: player.createdAt.toISOString(),
      profileHidden: player.profileHidden,
    },
    ...(await settingsOf(client, playerId)),
    ...(await credentialsOf(client, playerId)),
    ...(await standingOf(client, playerId)),
    games: {
      page: gamePage,
      pages,
      total: totalGames,
      perPage: EXPORT_GAMES_PER_DOCUMENT,
      items: await gamesOf(deps, playerId, gamePage),
    },
  };
  return ok({ filename: `arbiter-${player.handle}-${now.toISOString().slice(0, 10)}.json`, document });
}

/** E-mail and notification preferences (the verification nonce stays out: it is a secret of the link). */
const settingsOf = async (client: Tx, playerId: string): Promise<JsonObject> => {
  const [email, prefs] = await Promise.all([
    client.playerEmail.findUnique({ where: { playerId } }),
    client.notificationPreference.findUnique({ where: { playerId } }),
  ]);
  return {
    email: email
      ? {
          address: email.address,
          state: email.state,
          createdAt: iso(email.createdAt),
          verifiedAt: iso(email.verifiedAt),
          bouncedAt: iso(email.bouncedAt),
          bounceReason: email.bounceReason,
        }
      : null,
    notificationPreferences: prefs
      ? {
          channels: prefs.channels as JsonObject,
          emailMode: prefs.emailMode,
          digestHour: prefs.digestHour,
          timeZone: prefs.timeZone,
          quietStart: prefs.quietStart,
          quietEnd: prefs.quietEnd,
          notWhileConnected: prefs.notWhileConnected,
          updatedAt: iso(prefs.updatedAt),
        }
      : null,
  };
};

/** Keys, webhooks, push subscriptions, sessions, apps and grants: what they are, never their secrets. */
const credentialsOf = async (client: Tx, playerId: string): Promise<JsonObject> => {
  const [keys, hooks, pushes, sessions, apps, grants] = await Promise.all([
    client.apiKey.findMany({ where: { ownerId: playerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    client.webhookSubscription.findMany({ where: { ownerId: playerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    client.pushSubscription.findMany({ where: { playerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    client.session.findMany({ where: { playerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    client.oAuthApp.findMany({ where: { ownerId: playerId, deletedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    client.oAuthRecord.findMany({ where: { accountId: playerId, model: 'Grant' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  ]);
  return {
    apiKeys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      createdAt: iso(k.createdAt),
      lastUsedAt: iso(k.lastUsedAt),
      revokedAt: iso(k.revokedAt),
    })),
    webhookSubscriptions: hooks.map((h) => ({
      id: h.id,
      apiKeyId: h.apiKeyId,
      url: h.url,
      kinds: h.kinds,
      active: h.active,
      createdAt: iso(h.createdAt),
    })),
    // The endpoint is where the browser is told; its keys (p256dh, auth) are the browser's secrets.
    pushSubscriptions: pushes.map((p) => ({
      id: p.id,
      endpoint: p.endpoint,
      userAgent: p.userAgent,
      createdAt: iso(p.createdAt),
      lastSuccessAt: iso(p.lastSuccessAt),
    })),
    sessions: sessions.map((s) => ({
      id: s.id,
      userAgent: s.userAgent,
      createdAt: iso(s.createdAt),
      lastUsedAt: iso(s.lastUsedAt),
      expiresAt: iso(s.expiresAt),
      revokedAt: iso(s.revokedAt),
    })),
    apps: apps.map((a) => ({
      id: a.id,
      name: a.name,
      redirectUris: a.redirectUris,
      iconUrl: a.iconUrl,
      clientType: a.clientType,
      createdAt: iso(a.createdAt),
    })),
    grants: grants.map((g) => ({
      clientId: g.clientId,
      scope: grantScope(g.payload),
      createdAt: iso(g.createdAt),
      expiresAt: iso(g.expiresAt),
      lastUsedAt: iso(g.lastUsedAt),
    })),
  };
};

/** The scopes an oidc-provider Grant holds (`openid.scope` and each resource's scope), space-separated. */
const grantScope = (payload: unknown): string | null => {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as { openid?: { scope?: unknown }; resources?: Record<string, unknown> };
  const scopes = new Set<string>();
  const add = (s: unknown) => {
    if (typeof s === 'string') for (const x of s.split(' ')) if (x) scopes.add(x);
  };
  add(p.openid?.scope);
  for (const r of Object.values(p.resources ?? {})) add(r);
  return scopes.size ? [...scopes].join(' ') : null;
};

/** Ratings, tournament entries, directorships and uploaded word lists. */
const standingOf = async (client: Tx, playerId: string): Promise<JsonObject> => {
  const [ratings, changes, entries, directs, uploads] = await Promise.all([
    client.playerRating.findMany({ where: { playerId }, orderBy: { category: 'asc' } }),
    client.ratingChange.findMany({ where: { playerId }, orderBy: [{ ratedAt: 'asc' }, { gameId: 'asc' }] }),
    client.tournamentPlayer.findMany({
      where: { playerId },
      include: { tournament: { select: { name: true, createdAt: true } } },
      orderBy: [{ tournamentId: 'asc' }, { division: 'asc' }],
    }),
    client.organizationDirector.findMany({ where: { playerId }, include: { organization: { select: { kind: true, name: true } } } }),
    client.lexiconUpload.findMany({ where: { uploadedBy: playerId }, select: { name: true, contentHash: true, createdAt: true } }),
  ]);
  return {
    ratings: ratings.map((r) => ({
      category: r.category,
      rating: r.rating,
      deviation: r.deviation,
      volatility: r.volatility,
      games: r.games,
      provisional: r.provisional,
      lastRatedAt: iso(r.lastRatedAt),
    })),
    ratingChanges: changes.map((c) => ({
      category: c.category,
      gameId: c.gameId,
      score: c.score,
      ratingBefore: c.ratingBefore,
      ratingAfter: c.ratingAfter,
      deviationAfter: c.deviationAfter,
      ratedAt: iso(c.ratedAt),
    })),
    tournamentEntries: entries.map((e) => ({
      tournamentId: e.tournamentId,
      tournament: e.tournament.name,
      division: e.division,
      entrant: e.entrant,
    })),
    directorOf: directs.map((d) => ({ organizationId: d.organizationId, kind: d.organization.kind, name: d.organization.name })),
    lexiconUploads: uploads.map((u) => ({ name: u.name, contentHash: u.contentHash, uploadedAt: iso(u.createdAt) })),
  };
};

/** One page of the player's games, oldest first, each with the GCG the player may see (or null before it starts). */
const gamesOf = async (deps: ServiceDeps, playerId: string, page: number): Promise<JsonObject[]> => {
  const seats = await deps.db.prisma.seat.findMany({
    where: { playerId },
    include: { game: { select: { id: true, status: true, createdAt: true, ruleSetId: true, matchId: true, tournamentId: true } } },
    orderBy: [{ game: { createdAt: 'asc' } }, { gameId: 'asc' }],
    skip: (page - 1) * EXPORT_GAMES_PER_DOCUMENT,
    take: EXPORT_GAMES_PER_DOCUMENT,
  });
  const out: JsonObject[] = [];
  // One game at a time: memory holds one log besides the document.
  for (const s of seats) {
    const record = await gameRecord(deps, playerId, s.gameId);
    out.push({
      id: s.game.id,
      seat: s.seat,
      status: s.game.status,
      ruleSet: s.game.ruleSetId,
      createdAt: iso(s.game.createdAt),
      matchId: s.game.matchId,
      tournamentId: s.game.tournamentId,
      complete: record.ok ? record.value.complete : false,
      gcg: record.ok ? record.value.gcg : null,
    });
  }
  return out;
};
