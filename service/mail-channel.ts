import type { Db } from './context.js';
import { reachableAddress } from './mail-addresses.js';
import { noticeMail } from './mail-messages.js';
import { linkTo, markBounced, sendMail, UNSUBSCRIBE_PATH, type MailDeps } from './mail-send.js';
import { signMailToken } from './mail-tokens.js';
import type { ChannelOutcome, Notice, NotificationChannel, NotificationKind } from './notification-channels.js';

/**
 * The e-mail channel of the notifier (service/notification-channels.ts): one mail per `send`, one notice
 * or a digest of several, to the player's verified address only. Each mail carries the board of each game
 * it speaks of (the player's own view: their rack, never the other's), and its unsubscribe links are
 * signed tokens naming the player and the kind (rest/email-pages.ts takes them).
 */

export type { MailDeps } from './mail-send.js';

/** At most this many boards in one digest: a mail with dozens of pictures is not read, and is large. */
const MAX_PICTURES = 6;

/** The domain of the From address, for Message-IDs and content ids. */
export const fromDomain = (from: string): string => /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1]?.toLowerCase() ?? 'arbiter.invalid';

/** A link that stops mails of `kind` (null: every mail) for the player. */
export const unsubscribeLink = (deps: MailDeps, playerId: string, kind: NotificationKind | null): string =>
  linkTo(deps, UNSUBSCRIBE_PATH, signMailToken(deps.keys, { purpose: 'unsubscribe', playerId, kind }));

const picturesOf = async (deps: MailDeps, db: Db, playerId: string, notices: readonly Notice[]): Promise<Map<string, Uint8Array>> => {
  const pictures = new Map<string, Uint8Array>();
  if (!deps.boardPng) return pictures;
  const games = [...new Set(notices.map((n) => n.gameId).filter((g): g is string => g !== null))].slice(0, MAX_PICTURES);
  for (const gameId of games) {
    try {
      const png = await deps.boardPng(db, playerId, gameId);
      if (png) pictures.set(gameId, png);
    } catch {
      // A picture that cannot be drawn does not hold the news back: the mail goes without it.
    }
  }
  return pictures;
};

export const emailChannel = (deps: MailDeps): NotificationChannel => ({
  name: 'email',
  reachable: async (db, playerId) => (await reachableAddress(db, playerId)) !== null,
  send: async (db, playerId, notices): Promise<ChannelOutcome> => {
    if (notices.length === 0) return { ok: true };
    if (notices.some((n) => n.playerId !== playerId))
      throw new Error('emailChannel.send: every notice must be for the player it is sent to');
    const to = await reachableAddress(db, playerId);
    if (to === null) return { ok: false, permanent: true, error: 'the player has no verified e-mail address' };
    const kinds = new Set(notices.map((n) => n.kind));
    const message = noticeMail({
      to,
      notices,
      unsubscribeUrl: unsubscribeLink(deps, playerId, kinds.size === 1 ? notices[0]!.kind : null),
      unsubscribeAllUrl: unsubscribeLink(deps, playerId, null),
      pictures: await picturesOf(deps, db, playerId, notices),
      domain: fromDomain(deps.from),
    });
    const { failure: _failure, ...outcome } = await sendMail(deps, message, (reason) => markBounced(db, playerId, to, reason, deps.now()));
    return outcome;
  },
});
