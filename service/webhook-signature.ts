import { createHmac, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from '../engine/result.js';
import { ruleError, type RuleError } from '../engine/errors.js';

/**
 * Webhook signatures, Stripe style: `Arbiter-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` where the
 * HMAC key is the subscription secret (its UTF-8 bytes, `whsec_…` prefix included) and the signed text is
 * `<t>.<raw body>`. The timestamp is inside the MAC, so a captured request cannot be replayed later
 * than the receiver's tolerance. This module is pure and has no Arbiter dependencies besides
 * `Result`, so integrators can copy it.
 */

export const SIGNATURE_HEADER = 'Arbiter-Signature';
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

export const SIGNATURE_ERROR_CODES = [
  /** The header is missing a `t=` timestamp or a `v1=` signature. */
  'SIGNATURE_MALFORMED',
  /** The timestamp is further from `now` than the tolerance: a replay, or a badly wrong clock. */
  'SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE',
  /** No `v1` signature matches the body under this secret. */
  'SIGNATURE_MISMATCH',
] as const;
export type SignatureErrorCode = (typeof SIGNATURE_ERROR_CODES)[number];

export interface SignatureError extends RuleError {
  readonly code: SignatureErrorCode;
}

const signatureError = (code: SignatureErrorCode, message: string, details: Record<string, unknown>): SignatureError =>
  ruleError(code, message, details) as SignatureError;

const unixSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);

const hmacHex = (secret: string, t: number, body: string): string =>
  createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');

/** The `Arbiter-Signature` header value for `body` sent at `timestamp` (whole seconds). */
export const signPayload = (secret: string, timestamp: Date, body: string): string => {
  const t = unixSeconds(timestamp);
  return `t=${t},v1=${hmacHex(secret, t, body)}`;
};

/**
 * Checks an `Arbiter-Signature` header against the raw request body (the exact bytes received, before
 * any JSON parsing). Accepts any of several `v1=` entries (room for secret rotation). Rejects a timestamp
 * more than `toleranceSeconds` before or after `now`. Answers the signed timestamp.
 */
export const verifySignature = (
  secret: string,
  header: string,
  body: string,
  now: Date,
  toleranceSeconds: number = DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
): Result<{ readonly timestamp: Date }, SignatureError> => {
  let t: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (t === undefined || signatures.length === 0) {
    return err(
      signatureError(
        'SIGNATURE_MALFORMED',
        `The ${SIGNATURE_HEADER} header needs "t=<unix seconds>" and at least one "v1=<64 hex digits>".`,
        {
          field: SIGNATURE_HEADER,
          header,
        },
      ),
    );
  }
  const skew = Math.abs(unixSeconds(now) - t);
  if (skew > toleranceSeconds) {
    return err(
      signatureError(
        'SIGNATURE_TIMESTAMP_OUT_OF_TOLERANCE',
        `The ${SIGNATURE_HEADER} timestamp t=${t} is ${skew} s away from now, more than the ${toleranceSeconds} s tolerance.`,
        { field: SIGNATURE_HEADER, timestamp: t, now: unixSeconds(now), toleranceSeconds },
      ),
    );
  }
  const expected = Buffer.from(hmacHex(secret, t, body), 'hex');
  const matches = signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected));
  if (!matches) {
    return err(
      signatureError('SIGNATURE_MISMATCH', `No v1 signature in the ${SIGNATURE_HEADER} header matches the body.`, {
        field: SIGNATURE_HEADER,
      }),
    );
  }
  return ok({ timestamp: new Date(t * 1000) });
};
