import { randomBytes } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import { revokeOAuthGrantsOf } from '../store/oauth-revocation.js';
import { HANDLE_PATTERN, findPlayerById } from './accounts.js';
import type { Db, ServiceDeps, Tx } from './context.js';
import { forgetLog } from './log-cache.js';
import { login } from './login.js';
import { handleKey, type RateLimiter } from './rate-limits.js';
import { announceSeeksClosed } from './seek-events.js';

/**
 * Deleting an account (issue 32; docs/accounts.md "Deleting your account"): the player's personal data is
 * erased (GDPR art. 17(1)) while the other players' games stay whole (art. 17(3) and their legitimate
 * interest, art. 6(1)(f)): the row stays, because seats, ratings and tournament entries point at it, under a
 * pseudonym; the names in the append-only logs are rewritten to the pseudonym through the one update the
 * logs' triggers let through (migrations/20270103120000_account_erasure); everything else personal goes.
 */

export const ACCOUNT_DELETION_ERROR_CODES = ['CONFIRMATION_MISMATCH', 'ACCOUNT_HAS_ACTIVE_GAMES', 'PLAYER_NOT_FOUND'] as const;
export type AccountDeletionErrorCode = (typeof ACCOUNT_DELETION_ERROR_CODES)[number];
const fail = (code: AccountDeletionErrorCode, message: string, details: Record<string, unknown> = {}) =>
  err(ruleError(code, message, details));

/** What a deleted account shows where its games are read: the pseudonymous handle and this name. */
export const DELETED_DISPLAY_NAME = 'Deleted player';

/** The sentence the player types to confirm: the handle in it makes a confirmation for another account useless. */
export const deletionConfirmation = (handle: string): string => `DELETE ${handle}`;

/** The active games a refusal lists at most (a count says how many there are in all). */
const LISTED_GAMES = 50;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `deleted-` and 8 base32 letters (40 bits): a valid handle (HANDLE_PATTERN) that says nothing of the person. */
export const newPseudonym = (): string => {
  const bytes = randomBytes(8);
  const handle = `deleted-${[...bytes].map((b) => BASE32[b & 31]).join('')}`;
  if (!HANDLE_PATTERN.test(handle)) throw new Error(`pseudonym ${handle} breaks HANDLE_PATTERN`);
  return handle;
};

export interface DeleteAccountInput {
  readonly playerId: string;
  /** The current password, typed again: checked under the login back-off (service/login.ts). */
  readonly password: string;
  /** Must be exactly {@link deletionConfirmation} of the player's handle. */
  readonly confirm: string;
  /** The client's address key for the login back-off; null in-process. */
  readonly address: string | null;
}

export interface DeletedAccount {
  readonly playerId: string;
  /** The handle the account now carries in every game record. */
  readonly pseudonym: string;
  readonly deletedAt: Date;
  /** Games whose stored log was rewritten (the player sat in them). */
  readonly gamesPseudonymized: number;
  /** Tournament entries whose `player-added` event was rewritten. */
  readonly tournamentEntriesPseudonymized: number;
}

/** An active game listed by ACCOUNT_HAS_ACTIVE_GAMES. */
export interface ActiveGame {
  readonly id: string;
  readonly status: string;
}

/** Games the player holds a seat in that have started and not ended: they must be resigned (or ended) first. */
export const activeGamesOf = async (client: Tx, playerId: string): Promise<{ games: ActiveGame[]; total: number }> => {
  const where = { seats: { some: { playerId } }, status: { in: ['playing', 'waiting-final'] } };
  const [games, total] = await Promise.all([
    client.game.findMany({ where, select: { id: true, status: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: LISTED_GAMES }),
    client.game.count({ where }),
  ]);
  return { games, total };
};

/**
 * Deletes the caller's account. Order: the confirmation (no secret involved), then the password under the
 * login back-off (a wrong one counts as a failed login, so the endpoint is no way around the back-off), then
 * the active games; only then one transaction erases. Errors: CONFIRMATION_MISMATCH (field `confirm`),
 * BAD_CREDENTIALS (field `password`), RATE_LIMITED, ACCOUNT_HAS_ACTIVE_GAMES (details.games, details.total),
 * PLAYER_NOT_FOUND (already deleted). Nothing is written on any error but the back-off's count.
 */
export async function deleteAccount(
  deps: Pick<ServiceDeps, 'db' | 'now'> & { readonly limiter: RateLimiter },
  input: DeleteAccountInput,
): Promise<Result<DeletedAccount, RuleError>> {
  const { db } = deps;
  const player = await findPlayerById(db.prisma, input.playerId);
  if (!player || player.deletedAt) return fail('PLAYER_NOT_FOUND', 'This account no longer exists.', { playerId: input.playerId });
  const expected = deletionConfirmation(player.handle);
  if (input.confirm !== expected) {
    return fail('CONFIRMATION_MISMATCH', `To delete the account, type exactly "${expected}" as input.confirm.`, {
      field: 'input.confirm',
      expected,
    });
  }
  const checked = await login(
    db.prisma,
    deps.limiter,
    { handle: player.handle, password: input.password, address: input.address },
    deps.now(),
  );
  if (!checked.ok) {
    return checked.error.code === 'BAD_CREDENTIALS'
      ? err(ruleError('BAD_CREDENTIALS', 'The password is wrong.', { field: 'input.password' }))
      : checked;
  }
  if (checked.value.id !== player.id) return fail('PLAYER_NOT_FOUND', 'This account no longer exists.', { playerId: input.playerId });
  const active = await activeGamesOf(db.prisma, player.id);
  if (active.total > 0) {
    return fail(
      'ACCOUNT_HAS_ACTIVE_GAMES',
      `You have ${active.total} game(s) in progress: resign them (submitTurn with action.resign) or finish them before deleting the account, so that each opponent's game ends by its rules.`,
      { games: active.games, total: active.total },
    );
  }
  const now = deps.now();
  const erased = await db.transaction((tx) => erase(tx, player.id, player.handle, player.displayName, now));
  if (!erased) return fail('PLAYER_NOT_FOUND', 'This account no longer exists.', { playerId: input.playerId });
  forgetGames(db, erased.gameIds);
  return ok({
    playerId: player.id,
    pseudonym: erased.pseudonym,
    deletedAt: now,
    gamesPseudonymized: erased.gameIds.length,
    tournamentEntriesPseudonymized: erased.tournamentEntries,
  });
}

/** This process's known logs of the rewritten games hold the old names: read them again (service/log-cache.ts). */
const forgetGames = (db: Db, gameIds: readonly string[]): void => {
  for (const id of gameIds) forgetLog(db, id);
};

interface Erased {
  readonly pseudonym: string;
  readonly gameIds: readonly string[];
  readonly tournamentEntries: number;
}

/** The erasure, in the caller's transaction; null when the account was deleted meanwhile. */
const erase = async (tx: Tx, playerId: string, oldHandle: string, oldName: string, now: Date): Promise<Erased | null> => {
  const pseudonym = await freePseudonym(tx);
  const marked = await tx.player.updateMany({
    where: { id: playerId, deletedAt: null },
    data: {
      handle: pseudonym,
      displayName: DELETED_DISPLAY_NAME,
      passwordHash: null,
      role: 'player',
      deletedAt: now,
      profileHidden: true,
    },
  });
  if (marked.count === 0) return null;
  // Only this transaction, only this player: what the logs' triggers check before they let the names change.
  await tx.$executeRaw`SELECT set_config('arbiter.erasure', ${playerId}, true)`;
  const games = await tx.$queryRaw<{ game_id: string }[]>`
    UPDATE "game_events" e
       SET "payload" = jsonb_set(e."payload", ARRAY['players', s."seat"::text], jsonb_build_object('name', ${DELETED_DISPLAY_NAME}::text, 'id', ${pseudonym}::text))
      FROM "seats" s
     WHERE s."game_id" = e."game_id" AND s."player_id" = ${playerId}::uuid
       AND e."type" = 'game-created' AND jsonb_typeof(e."payload" -> 'players') = 'array'
    RETURNING e."game_id"::text AS game_id`;
  const entries = await eraseFromTournaments(tx, playerId, pseudonym);
  await tx.$executeRaw`SELECT set_config('arbiter.erasure', '', true)`;
  const gameIds = games.map((g) => g.game_id);
  await scrubOthersNotifications(tx, playerId, gameIds, [oldName, oldHandle], [DELETED_DISPLAY_NAME, pseudonym]);
  await withdrawOpenOffers(tx, playerId, pseudonym, now);
  await removePersonalRows(tx, playerId, oldHandle);
  return { pseudonym, gameIds, tournamentEntries: entries };
};

/**
 * The tournament logs: the player's name as the actor (`by.name`) of every event they caused, and as the entrant
 * of their `player-added` events (whose imported TSH line, which repeats the name, goes); how many entries.
 */
const eraseFromTournaments = async (tx: Tx, playerId: string, pseudonym: string): Promise<number> => {
  const rows = await tx.$queryRaw<{ added: boolean }[]>`
    WITH concerned AS (
      SELECT "tournament_id", "seq",
             lower("payload" -> 'by' ->> 'playerId') IS NOT DISTINCT FROM lower(${playerId}) AS acted,
             ("type" = 'player-added' AND lower("payload" -> 'entrant' ->> 'playerId') IS NOT DISTINCT FROM lower(${playerId})) AS added
        FROM "tournament_events"
       WHERE "payload" -> 'by' ->> 'playerId' ILIKE ${playerId} OR "payload" -> 'entrant' ->> 'playerId' ILIKE ${playerId}
    ), renamed AS (
      SELECT c."tournament_id", c."seq", c.added,
             CASE WHEN c.acted THEN jsonb_set(e."payload", '{by,name}', to_jsonb(${pseudonym}::text)) ELSE e."payload" END AS p
        FROM concerned c JOIN "tournament_events" e ON e."tournament_id" = c."tournament_id" AND e."seq" = c."seq"
       WHERE c.acted OR c.added
    )
    UPDATE "tournament_events" t
       SET "payload" = CASE WHEN r.added
                            THEN jsonb_set(r.p, '{entrant}', ((r.p -> 'entrant') - 'tsh') || jsonb_build_object('name', ${pseudonym}::text))
                            ELSE r.p END
      FROM renamed r
     WHERE t."tournament_id" = r."tournament_id" AND t."seq" = r."seq"
    RETURNING r.added`;
  return rows.filter((r) => r.added).length;
};

const freePseudonym = async (tx: Tx): Promise<string> => {
  for (;;) {
    const candidate = newPseudonym();
    if (!(await tx.player.findUnique({ where: { handle: candidate }, select: { id: true } }))) return candidate;
  }
};

/**
 * The opponents' stored notifications about these games were written with the old name ("alice played …"):
 * the name becomes the pseudonym there too. The longer text first, so a name inside the handle (or the
 * other way round) is not half-replaced.
 */
const scrubOthersNotifications = async (
  tx: Tx,
  playerId: string,
  gameIds: readonly string[],
  olds: readonly [string, string],
  news: readonly [string, string],
): Promise<void> => {
  if (gameIds.length === 0) return;
  const pairs = olds.map((o, i) => [o, news[i]!] as const).sort((a, b) => b[0].length - a[0].length);
  for (const [from, to] of pairs) {
    if (from.trim() === '') continue;
    await tx.$executeRaw`
      UPDATE "notifications" SET "title" = replace("title", ${from}, ${to}), "body" = replace("body", ${from}, ${to})
       WHERE "game_id" = ANY(${[...gameIds]}::uuid[]) AND "player_id" <> ${playerId}::uuid
         AND (strpos("title", ${from}) > 0 OR strpos("body", ${from}) > 0)`;
  }
};

/**
 * What others could still take up: a proposal nobody joined yet (its log names nobody, `game-proposed`) gives
 * its seat back, and an open match of the player is aborted, so that nobody sits down against an account
 * that will never move; the lobby's open seeks, challenges and pairing requests are withdrawn. The seek
 * stream is told (`seek-closed`), and its `seek-opened` rows, which named the author, name the pseudonym.
 */
const withdrawOpenOffers = async (tx: Tx, playerId: string, pseudonym: string, now: Date): Promise<void> => {
  await tx.match.updateMany({ where: { creatorId: playerId, status: 'open' }, data: { status: 'aborted', updatedAt: now } });
  await tx.seat.updateMany({ where: { playerId, game: { status: 'open' } }, data: { playerId: null } });
  const seeks = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "seeks" SET "status" = 'withdrawn', "closed_at" = ${now} WHERE "author_id" = ${playerId}::uuid AND "status" = 'open' RETURNING "id"::text AS id`;
  await announceSeeksClosed(
    tx,
    seeks.map((s) => ({ seekId: s.id, reason: 'withdrawn' as const })),
  );
  await tx.$executeRaw`
    UPDATE "outbox" SET "payload" = "payload" || jsonb_build_object('authorHandle', ${pseudonym}::text,
           'authorDisplayName', ${DELETED_DISPLAY_NAME}::text, 'authorRating', NULL::jsonb)
     WHERE "kind" = 'seek-opened' AND "payload"->>'seekId' IN (SELECT "id"::text FROM "seeks" WHERE "author_id" = ${playerId}::uuid)`;
  await tx.$executeRaw`UPDATE "challenges" SET "status" = CASE WHEN "challenger_id" = ${playerId}::uuid THEN 'withdrawn' ELSE 'declined' END
     WHERE (${playerId}::uuid IN ("challenger_id", "challenged_id")) AND "status" = 'open'`;
  await tx.$executeRaw`UPDATE "pairing_requests" SET "status" = 'withdrawn'
     WHERE "player_id" = ${playerId}::uuid AND "status" IN ('waiting', 'robot-offered')`;
};

/** Every row that is the player's own and personal: gone (webhook deliveries and attempts go with their subscriptions). */
const removePersonalRows = async (tx: Tx, playerId: string, oldHandle: string): Promise<void> => {
  const keys = await tx.apiKey.findMany({ where: { ownerId: playerId }, select: { id: true } });
  await tx.webhookSubscription.deleteMany({ where: { ownerId: playerId } });
  await tx.apiKey.deleteMany({ where: { ownerId: playerId } });
  await tx.pushSubscription.deleteMany({ where: { playerId } });
  await tx.playerEmail.deleteMany({ where: { playerId } });
  await tx.notificationPreference.deleteMany({ where: { playerId } });
  await tx.notification.deleteMany({ where: { playerId } });
  await tx.streamPresence.deleteMany({ where: { playerId } });
  await tx.session.deleteMany({ where: { playerId } });
  const apps = await tx.oAuthApp.findMany({ where: { ownerId: playerId }, select: { id: true } });
  if (apps.length > 0) await tx.oAuthRecord.deleteMany({ where: { clientId: { in: apps.map((a) => a.id) } } });
  await tx.oAuthApp.deleteMany({ where: { ownerId: playerId } });
  await revokeOAuthGrantsOf(tx, playerId);
  await tx.organizationDirector.deleteMany({ where: { playerId } });
  await tx.loginFailure.deleteMany({ where: { subjectKind: 'handle', subjectId: handleKey(oldHandle) } });
  await tx.rateLimitBucket.deleteMany({
    where: {
      OR: [
        { subjectKind: 'player', subjectId: playerId },
        ...(keys.length > 0 ? [{ subjectKind: 'apiKey', subjectId: { in: keys.map((k) => k.id) } }] : []),
      ],
    },
  });
  await tx.idempotencyKey.deleteMany({ where: { scope: `player:${playerId}` } });
};
