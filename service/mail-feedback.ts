import type { Db } from './context.js';
import { normaliseAddress } from './mail-addresses.js';
import { markBounced } from './mail-send.js';
import { unsubscribeEmail } from './notification-prefs.js';

/**
 * What SES tells us after a mail left (docs/notifications.md, "Bounces and complaints on AWS"): a bounce
 * or a complaint arrives minutes or days later as an SNS notification, not as an SMTP answer. Issue 31
 * says a bouncing address is never mailed, so:
 *
 * - a Permanent bounce makes the recipient's address `bounced` (as a 5xx on RCPT does over SMTP);
 * - a complaint (the recipient pressed "this is spam") turns e-mail off for every kind, as the
 *   "stop every Arbiter mail" link does (`unsubscribeEmail(db, playerId, null)`);
 * - a Transient or Undetermined bounce changes nothing (SES retried already; the next mail may pass);
 * - anything else (a Delivery, an Open, a message that is not SES's JSON) is ignored.
 *
 * Both shapes are read: identity notifications (`notificationType`) and configuration-set event
 * publishing (`eventType`), as documented at
 * https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html and
 * https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html.
 * Nothing here throws on a bad message: a throw would make Lambda retry a message that can never succeed.
 */

export type MailFeedback =
  | {
      readonly kind: 'bounce';
      /** Permanent: the address does not take mail. Transient / Undetermined: it may later. */
      readonly bounceType: string;
      readonly bounceSubType: string;
      readonly recipients: readonly { readonly address: string; readonly reason: string }[];
      /** When SES saw the bounce: a notification older than the address's last change is stale. */
      readonly at: Date;
    }
  | {
      readonly kind: 'complaint';
      readonly recipients: readonly string[];
      readonly feedbackType: string | null;
      readonly at: Date;
    }
  | { readonly kind: 'ignored'; readonly why: string };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** SES's ISO time, else the mail's, else now (a notification without a usable time is still acted on). */
const timeOf = (event: Json, inner: Json, now: Date): Date => {
  const mail = isObject(event['mail']) ? event['mail'] : {};
  for (const raw of [inner['timestamp'], mail['timestamp']]) {
    const t = typeof raw === 'string' ? Date.parse(raw) : NaN;
    if (Number.isFinite(t)) return new Date(t);
  }
  return now;
};

/** `emailAddress` of each entry; an address we could never have stored (a display name, junk) is dropped. */
const addressesOf = (list: unknown): { address: string; reason: string }[] =>
  (Array.isArray(list) ? list : []).flatMap((r: unknown) => {
    if (!isObject(r)) return [];
    const raw = str(r['emailAddress']);
    const address = raw ? normaliseAddress(raw.replace(/^.*<([^<>]+)>\s*$/, '$1')) : null;
    if (!address?.ok) return [];
    const reason = str(r['diagnosticCode']) ?? str(r['status']) ?? '';
    return [{ address: address.value, reason }];
  });

/** Reads one SNS `Message` (a JSON string, or the object already parsed). Never throws. */
export const parseSesNotification = (message: unknown, now: Date = new Date()): MailFeedback => {
  let event: unknown = message;
  if (typeof message === 'string') {
    try {
      event = JSON.parse(message);
    } catch {
      return { kind: 'ignored', why: 'the message is not JSON' };
    }
  }
  if (!isObject(event)) return { kind: 'ignored', why: 'the message is not a JSON object' };
  const type = str(event['eventType']) ?? str(event['notificationType']);
  if (type === 'Bounce' && isObject(event['bounce'])) {
    const bounce = event['bounce'];
    const recipients = addressesOf(bounce['bouncedRecipients']);
    if (recipients.length === 0) return { kind: 'ignored', why: 'a bounce without a recipient address' };
    return {
      kind: 'bounce',
      bounceType: str(bounce['bounceType']) ?? 'Undetermined',
      bounceSubType: str(bounce['bounceSubType']) ?? 'Undetermined',
      recipients,
      at: timeOf(event, bounce, now),
    };
  }
  if (type === 'Complaint' && isObject(event['complaint'])) {
    const complaint = event['complaint'];
    const recipients = addressesOf(complaint['complainedRecipients']).map((r) => r.address);
    if (recipients.length === 0) return { kind: 'ignored', why: 'a complaint without a recipient address' };
    return { kind: 'complaint', recipients, feedbackType: str(complaint['complaintFeedbackType']), at: timeOf(event, complaint, now) };
  }
  return {
    kind: 'ignored',
    why: type ? `a ${type.slice(0, 40)} notification (only Bounce and Complaint are read)` : 'not an SES notification',
  };
};

export interface FeedbackOutcome {
  readonly kind: MailFeedback['kind'];
  /** Players whose address this made `bounced` (none on a replay). */
  readonly bounced: readonly string[];
  /** Players whose e-mail this turned off, after a complaint. */
  readonly emailOff: readonly string[];
  /** One sentence for the log. */
  readonly note: string;
}

export interface FeedbackDeps {
  readonly now?: () => Date;
  readonly log?: (level: 'info' | 'warn', line: Record<string, unknown>) => void;
}

/**
 * The rows of these addresses not changed since `at`: a late or replayed notification must not bounce an
 * address the player set again (or verified) after it. Case-insensitive: SES reports the address as it
 * was sent, and a mailbox that differs only in case is the same mailbox in practice.
 */
const rowsOf = (db: Db, address: string, at: Date) =>
  db.prisma.playerEmail.findMany({
    where: { address: { equals: address, mode: 'insensitive' }, updatedAt: { lte: at } },
    select: { playerId: true, address: true, state: true },
  });

const applyBounce = async (db: Db, f: Extract<MailFeedback, { kind: 'bounce' }>): Promise<string[]> => {
  const bounced: string[] = [];
  for (const r of f.recipients)
    for (const row of await rowsOf(db, r.address, f.at)) {
      if (row.state === 'bounced') continue; // a replay: keep the first bounce's time and reason
      const reason = `SES ${f.bounceType}/${f.bounceSubType}${r.reason ? `: ${r.reason}` : ''}`;
      await markBounced(db, row.playerId, row.address, reason, f.at);
      bounced.push(row.playerId);
    }
  return bounced;
};

/** E-mail off for every kind, unless the player changed their preferences after the complaint (they turned it on again). */
const applyComplaint = async (db: Db, f: Extract<MailFeedback, { kind: 'complaint' }>): Promise<string[]> => {
  const off: string[] = [];
  for (const address of f.recipients)
    for (const row of await db.prisma.playerEmail.findMany({
      where: { address: { equals: address, mode: 'insensitive' } },
      select: { playerId: true },
    })) {
      const prefs = await db.prisma.notificationPreference.findUnique({ where: { playerId: row.playerId }, select: { updatedAt: true } });
      if (prefs && prefs.updatedAt > f.at) continue;
      await unsubscribeEmail(db, row.playerId, null);
      off.push(row.playerId);
    }
  return off;
};

/** Acts on one SES notification (an SNS message) and logs one line. Idempotent; never throws on the message's content. */
export const handleSesNotification = async (db: Db, message: unknown, deps: FeedbackDeps = {}): Promise<FeedbackOutcome> => {
  const log = deps.log ?? ((level, line) => console[level](JSON.stringify(line)));
  const f = parseSesNotification(message, (deps.now ?? (() => new Date()))());
  let outcome: FeedbackOutcome;
  if (f.kind === 'ignored') outcome = { kind: f.kind, bounced: [], emailOff: [], note: `ignored: ${f.why}` };
  else if (f.kind === 'bounce' && f.bounceType !== 'Permanent')
    outcome = { kind: f.kind, bounced: [], emailOff: [], note: `${f.bounceType} bounce: the address stays as it is` };
  else if (f.kind === 'bounce') {
    const bounced = await applyBounce(db, f);
    outcome = { kind: f.kind, bounced, emailOff: [], note: `Permanent bounce: ${bounced.length} address(es) marked bounced` };
  } else {
    const emailOff = await applyComplaint(db, f);
    outcome = { kind: f.kind, bounced: [], emailOff, note: `complaint: e-mail turned off for ${emailOff.length} player(s)` };
  }
  log(f.kind === 'ignored' ? 'warn' : 'info', {
    msg: 'mail.feedback',
    ...outcome,
    ...(f.kind === 'bounce' ? { bounceType: f.bounceType, bounceSubType: f.bounceSubType, recipients: f.recipients.length } : {}),
    ...(f.kind === 'complaint' ? { feedbackType: f.feedbackType, recipients: f.recipients.length } : {}),
  });
  return outcome;
};
