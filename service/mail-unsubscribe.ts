import type { RuleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import type { Db } from './context.js';
import { verifyMailToken, type MailKeys } from './mail-tokens.js';
import { NOTIFICATION_KINDS, type NotificationKind } from './notification-channels.js';
import { notificationPreferences, unsubscribeEmail } from './notification-prefs.js';

/**
 * The one-click unsubscribe of every notification mail (RFC 8058): a POST to the link of its
 * List-Unsubscribe header. The token names the player and the kind (null: every kind); it needs no
 * sign-in, for the mail program that POSTs it has none. Doing it twice changes nothing the second time.
 */

export interface Unsubscribed {
  readonly kind: NotificationKind | null;
  /** False: e-mail was already off for those kinds (a replayed link, or a player gone): nothing changed. */
  readonly changed: boolean;
}

export const unsubscribeByToken = async (db: Db, keys: MailKeys, token: unknown, now: Date): Promise<Result<Unsubscribed, RuleError>> => {
  const claims = verifyMailToken(keys, token, 'unsubscribe', now);
  if (!claims.ok) return claims;
  const { playerId, kind } = claims.value;
  const player = await db.prisma.player.findUnique({ where: { id: playerId }, select: { id: true } });
  if (!player) return ok({ kind, changed: false });
  const prefs = await notificationPreferences(db, playerId);
  const kinds = kind === null ? NOTIFICATION_KINDS : [kind];
  if (!kinds.some((k) => prefs.channels[k].includes('email'))) return ok({ kind, changed: false });
  await unsubscribeEmail(db, playerId, kind);
  return ok({ kind, changed: true });
};
