import { createHmac, timingSafeEqual } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import { isNotificationKind, type NotificationKind } from './notification-channels.js';

/**
 * The signed tokens of the e-mail links (docs/notifications.md#e-mail): the verification link of an
 * address and the one-click unsubscribe link of every mail. A token is `<claims>.<signature>`, both
 * base64url: the claims are JSON, the signature an HMAC-SHA256 over the claims' text under a key derived
 * from the mail key with the token's purpose as label, so a verification token never passes as an
 * unsubscribe token (or the reverse) even with the same claims. Nothing is stored per token: what a
 * token may still do is decided by the database (the address's nonce), so a replay is a no-op, not a
 * second effect.
 */

export const MAIL_TOKEN_PURPOSES = ['verify', 'unsubscribe'] as const;
export type MailTokenPurpose = (typeof MAIL_TOKEN_PURPOSES)[number];

/** A verification link: this player's address as it was when the mail was sent (`nonce`), until `expires` (epoch seconds). */
export interface VerifyClaims {
  readonly purpose: 'verify';
  readonly playerId: string;
  readonly nonce: string;
  readonly expires: number;
}

/** An unsubscribe link: this player's mails of `kind`, or all of them (null). Unsubscribe links do not expire (RFC 8058 asks that they keep working). */
export interface UnsubscribeClaims {
  readonly purpose: 'unsubscribe';
  readonly playerId: string;
  readonly kind: NotificationKind | null;
}

export type MailClaims = VerifyClaims | UnsubscribeClaims;

/** The mail keys: the first signs, every one verifies (the previous key during a rotation). */
export type MailKeys = readonly Uint8Array[];

export const MAIL_TOKEN_ERROR_CODES = ['EMAIL_TOKEN_INVALID', 'EMAIL_TOKEN_EXPIRED'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Tokens are short; anything much longer is not ours and is refused before any work. */
const MAX_TOKEN_LENGTH = 512;

const subKey = (key: Uint8Array, purpose: MailTokenPurpose): Buffer =>
  createHmac('sha256', key).update(`arbiter mail token v1: ${purpose}`).digest();

const mac = (key: Uint8Array, purpose: MailTokenPurpose, text: string): Buffer =>
  createHmac('sha256', subKey(key, purpose)).update(text).digest();

const compact = (c: MailClaims): Record<string, unknown> =>
  c.purpose === 'verify' ? { p: c.playerId, n: c.nonce, e: c.expires } : { p: c.playerId, k: c.kind };

export const signMailToken = (keys: MailKeys, claims: MailClaims): string => {
  const key = keys[0];
  if (!key) throw new Error('no mail key to sign with');
  const text = Buffer.from(JSON.stringify(compact(claims))).toString('base64url');
  return `${text}.${mac(key, claims.purpose, text).toString('base64url')}`;
};

const invalid = (purpose: MailTokenPurpose): RuleError =>
  ruleError(
    'EMAIL_TOKEN_INVALID',
    `The ${purpose === 'verify' ? 'verification' : 'unsubscribe'} link's token is not one this server signed: it was altered or cut short. Open the link from the mail again, exactly as it was sent.`,
    { field: 'token' },
  );

const claimsOf = (purpose: MailTokenPurpose, raw: Record<string, unknown>): MailClaims | null => {
  if (typeof raw['p'] !== 'string' || !UUID.test(raw['p'])) return null;
  if (purpose === 'verify') {
    const { n, e } = raw;
    if (typeof n !== 'string' || typeof e !== 'number' || !Number.isSafeInteger(e)) return null;
    return { purpose, playerId: raw['p'], nonce: n, expires: e };
  }
  const k = raw['k'];
  if (k !== null && !isNotificationKind(k)) return null;
  return { purpose, playerId: raw['p'], kind: k };
};

/** The claims of `token` when one of `keys` signed it for `purpose` (and, for verification, it has not expired at `now`). */
export function verifyMailToken(keys: MailKeys, token: unknown, purpose: 'verify', now: Date): Result<VerifyClaims, RuleError>;
export function verifyMailToken(keys: MailKeys, token: unknown, purpose: 'unsubscribe', now: Date): Result<UnsubscribeClaims, RuleError>;
export function verifyMailToken(keys: MailKeys, token: unknown, purpose: MailTokenPurpose, now: Date): Result<MailClaims, RuleError> {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return err(invalid(purpose));
  const [text, signature, extra] = token.split('.');
  if (!text || !signature || extra !== undefined || !/^[\w-]+$/.test(text) || !/^[\w-]+$/.test(signature)) return err(invalid(purpose));
  const given = Buffer.from(signature, 'base64url');
  const signed = keys.some((key) => {
    const expected = mac(key, purpose, text);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!signed) return err(invalid(purpose));
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return err(invalid(purpose));
  }
  const claims = typeof raw === 'object' && raw !== null ? claimsOf(purpose, raw as Record<string, unknown>) : null;
  if (!claims) return err(invalid(purpose));
  if (claims.purpose === 'verify' && claims.expires * 1000 < now.getTime())
    return err(
      ruleError('EMAIL_TOKEN_EXPIRED', 'This verification link has expired: ask for a new verification mail (resendEmailVerification).', {
        field: 'token',
        expiredAt: new Date(claims.expires * 1000).toISOString(),
      }),
    );
  return ok(claims);
}
