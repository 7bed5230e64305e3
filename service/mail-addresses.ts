import { randomBytes } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { Db } from './context.js';
import { DEFAULT_VERIFICATION_TTL_SECONDS, linkTo, markBounced, sendMail, VERIFY_PATH, type MailDeps } from './mail-send.js';
import { verificationMail } from './mail-messages.js';
import { signMailToken, verifyMailToken } from './mail-tokens.js';

/**
 * A player's e-mail address (issue 31, docs/notifications.md#e-mail): set it, and a mail with a signed
 * link goes to it; the link opens a page whose button confirms (a POST: mail scanners follow links with
 * GET, and must not verify anything); once confirmed the address is `verified` and the e-mail channel
 * may use it. A receiving server that refuses the address for good (a 5xx on RCPT) makes it `bounced`:
 * it is mailed no more until the player sets it again.
 */

export const EMAIL_STATES = ['unverified', 'verified', 'bounced'] as const;
export type EmailState = (typeof EMAIL_STATES)[number];

export interface EmailView {
  readonly address: string;
  readonly state: EmailState;
  readonly verificationSentAt: Date | null;
  readonly verifiedAt: Date | null;
  readonly bouncedAt: Date | null;
  /** The receiving server's answer when it refused the address. */
  readonly bounceReason: string | null;
}

export const EMAIL_ERROR_CODES = [
  /** `address` is not one address of the form local@domain.tld (or too long, or has spaces or control characters). */
  'EMAIL_INVALID',
  /** The player has no address to verify or remove. */
  'EMAIL_NOT_SET',
  /** The address is verified already: there is nothing to resend. */
  'EMAIL_ALREADY_VERIFIED',
  /** A verification mail went out less than a minute ago. */
  'RATE_LIMITED',
  /** This server sends no mail (a deployment without SES or SMTP). */
  'EMAIL_UNAVAILABLE',
  /** The link's address was replaced, or a newer verification mail was sent: only the newest link verifies. */
  'EMAIL_TOKEN_STALE',
] as const;

/** Between two verification mails to one player: a player cannot make this server mail a stranger over and over. */
export const RESEND_INTERVAL_SECONDS = 60;
const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

const invalid = (message: string, address: string): RuleError => ruleError('EMAIL_INVALID', message, { field: 'address', address });

/**
 * The address as stored: trimmed, the domain in lower case. Only the plain dot-atom form
 * (RFC 5322 §3.4.1) with a dotted domain is taken: no quoted local parts, display names, comments or
 * IP literals, so nothing a header could be made of reaches a mail.
 */
export const normaliseAddress = (raw: string): Result<string, RuleError> => {
  const address = raw.trim();
  if (address.length > MAX_ADDRESS) return err(invalid(`The address is longer than ${MAX_ADDRESS} characters.`, address.slice(0, 64)));
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).toLowerCase();
  const why =
    at <= 0
      ? 'has no local part before an @'
      : local.length > MAX_LOCAL || !LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')
        ? "has a local part (before the @) that is not plain letters, digits and .!#$%&'*+/=?^_`{|}~-"
        : domain.split('.').length < 2 || !domain.split('.').every((l) => LABEL.test(l)) || /^\d+$/.test(domain.split('.').pop()!)
          ? 'has no domain name like example.org after the @'
          : null;
  if (why) return err(invalid(`The address "${address.slice(0, 80)}" ${why}.`, address.slice(0, 80)));
  return ok(`${local}@${domain}`);
};

type Row = {
  address: string;
  state: string;
  nonce: string;
  verificationSentAt: Date | null;
  verifiedAt: Date | null;
  bouncedAt: Date | null;
  bounceReason: string | null;
};

const viewOf = (r: Row): EmailView => ({
  address: r.address,
  state: (EMAIL_STATES as readonly string[]).includes(r.state) ? (r.state as EmailState) : 'unverified',
  verificationSentAt: r.verificationSentAt,
  verifiedAt: r.verifiedAt,
  bouncedAt: r.bouncedAt,
  bounceReason: r.bounceReason,
});

const rowOf = (db: Db, playerId: string) => db.prisma.playerEmail.findUnique({ where: { playerId } });

export const myEmail = async (db: Db, playerId: string): Promise<EmailView | null> => {
  const row = await rowOf(db, playerId);
  return row ? viewOf(row) : null;
};

/** The address the e-mail channel may use: verified and not bounced; null otherwise. */
export const reachableAddress = async (db: Db, playerId: string): Promise<string | null> => {
  const row = await rowOf(db, playerId);
  return row?.state === 'verified' ? row.address : null;
};

/** RATE_LIMITED while the last verification mail is less than a minute old; null otherwise. */
const tooSoon = (row: Row | null, now: Date): RuleError | null => {
  const wait = row?.verificationSentAt ? Math.ceil(RESEND_INTERVAL_SECONDS - (now.getTime() - row.verificationSentAt.getTime()) / 1000) : 0;
  return wait > 0
    ? ruleError('RATE_LIMITED', `A verification mail went out less than a minute ago: try again in ${wait} s.`, { retryAfterSeconds: wait })
    : null;
};

const unavailable = (): RuleError =>
  ruleError('EMAIL_UNAVAILABLE', 'This server sends no e-mail: its operator has configured no SMTP server or SES.', {});

/** Sends the verification mail of the row's nonce; a bounce marks the address. Answers the address as it stands after. */
const sendVerification = async (db: Db, mail: MailDeps, playerId: string, row: Row): Promise<EmailView> => {
  const now = mail.now();
  const expires = Math.floor(now.getTime() / 1000) + (mail.verificationTtlSeconds ?? DEFAULT_VERIFICATION_TTL_SECONDS);
  const token = signMailToken(mail.keys, { purpose: 'verify', playerId, nonce: row.nonce, expires });
  const player = await db.prisma.player.findUniqueOrThrow({ where: { id: playerId }, select: { handle: true, displayName: true } });
  const message = verificationMail({ to: row.address, link: linkTo(mail, VERIFY_PATH, token), expires: new Date(expires * 1000), player });
  const sent = await sendMail(mail, message, (reason) => markBounced(db, playerId, row.address, reason, now));
  if (sent.ok)
    await db.prisma.playerEmail.updateMany({ where: { playerId, nonce: row.nonce }, data: { verificationSentAt: now, updatedAt: now } });
  return viewOf((await rowOf(db, playerId)) ?? row);
};

/**
 * Sets the player's address and sends it a verification mail. The same address again keeps its state (a
 * verified one stays verified, no mail; a bounced one is tried again); another address starts unverified.
 */
export const setEmail = async (db: Db, mail: MailDeps | null, playerId: string, raw: string): Promise<Result<EmailView, RuleError>> => {
  const address = normaliseAddress(raw);
  if (!address.ok) return address;
  if (!mail) return err(unavailable());
  const current = await rowOf(db, playerId);
  if (current?.address === address.value && current.state === 'verified') return ok(viewOf(current));
  const now = mail.now();
  // Each new address is mailed at once: without a pause, one account could make this server mail strangers in a loop.
  const wait = tooSoon(current, now);
  if (wait) return err(wait);
  const fresh = {
    address: address.value,
    state: 'unverified',
    nonce: randomBytes(12).toString('base64url'),
    verificationSentAt: null,
    verifiedAt: null,
    bouncedAt: null,
    bounceReason: null,
    updatedAt: now,
  };
  const row = await db.prisma.playerEmail.upsert({ where: { playerId }, create: { playerId, ...fresh }, update: fresh });
  return ok(await sendVerification(db, mail, playerId, row));
};

/** A new verification mail (with a new link: the older ones stop working), at most one a minute. */
export const resendEmailVerification = async (db: Db, mail: MailDeps | null, playerId: string): Promise<Result<EmailView, RuleError>> => {
  if (!mail) return err(unavailable());
  const current = await rowOf(db, playerId);
  if (!current) return err(ruleError('EMAIL_NOT_SET', 'You have no e-mail address to verify: set one first (setEmail).', {}));
  if (current.state === 'verified')
    return err(ruleError('EMAIL_ALREADY_VERIFIED', `${current.address} is verified already.`, { address: current.address }));
  const now = mail.now();
  const wait = tooSoon(current, now);
  if (wait) return err(wait);
  const nonce = randomBytes(12).toString('base64url');
  const row = await db.prisma.playerEmail.update({ where: { playerId }, data: { nonce, state: 'unverified', updatedAt: now } });
  return ok(await sendVerification(db, mail, playerId, row));
};

/** Forgets the player's address: no mail goes to it any more. */
export const removeEmail = async (db: Db, playerId: string): Promise<Result<{ address: string }, RuleError>> => {
  const current = await rowOf(db, playerId);
  if (!current) return err(ruleError('EMAIL_NOT_SET', 'You have no e-mail address to remove.', {}));
  await db.prisma.playerEmail.deleteMany({ where: { playerId } });
  return ok({ address: current.address });
};

export interface Verified {
  readonly address: string;
  /** True when the link had been used already: nothing changed. */
  readonly already: boolean;
}

/** Confirms the address of a verification link (the POST of its page). A replayed link is a no-op; a stale or altered one an error. */
export const verifyEmail = async (db: Db, mail: Pick<MailDeps, 'keys' | 'now'>, token: unknown): Promise<Result<Verified, RuleError>> => {
  const now = mail.now();
  const claims = verifyMailToken(mail.keys, token, 'verify', now);
  if (!claims.ok) return claims;
  const { playerId, nonce } = claims.value;
  const row = await rowOf(db, playerId);
  if (!row || row.nonce !== nonce)
    return err(
      ruleError(
        'EMAIL_TOKEN_STALE',
        'This verification link is no longer valid: the address was changed or a newer verification mail was sent. Use the newest mail.',
        { field: 'token' },
      ),
    );
  if (row.state === 'verified') return ok({ address: row.address, already: true });
  const changed = await db.prisma.playerEmail.updateMany({
    where: { playerId, nonce, state: { not: 'verified' } },
    data: { state: 'verified', verifiedAt: now, bouncedAt: null, bounceReason: null, updatedAt: now },
  });
  return ok({ address: row.address, already: changed.count === 0 });
};
