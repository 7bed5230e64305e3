import type { SendMailOptions } from 'nodemailer';
import type { Db } from './context.js';
import type { ChannelOutcome } from './notification-channels.js';
import type { MailKeys } from './mail-tokens.js';

/**
 * What the e-mail channel is given (functions/mail-settings.ts makes it from the settings): where mails go,
 * who they are from, the key of the signed links, the address the links point at, and how to draw a
 * game's board. The transport is nodemailer's: SMTP, Amazon SES, or the mailbox folder of `npm start`;
 * the service never knows which.
 */

/** Any nodemailer transporter (or a stand-in with the same `sendMail`). */
export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<unknown>;
}

export interface MailDeps {
  readonly transport: MailTransport;
  /** The From header: `Arbiter <arbiter@example.org>`. */
  readonly from: string;
  readonly keys: MailKeys;
  /** The server's public address, without a trailing slash: the links of the mails start with it. */
  readonly baseUrl: string;
  readonly now: () => Date;
  /** One sentence for people: where mails go ("SMTP at mail.example.org:587", "the folder …/mailbox"). */
  readonly where: string;
  /**
   * The game's board as `playerId` may see it (their own rack, never another's), as PNG; null when there
   * is none (the game has no board yet, or the player may not see it). Absent: mails go without a picture.
   */
  readonly boardPng?: (db: Db, playerId: string, gameId: string) => Promise<Uint8Array | null>;
  /** How long a verification link works (default 48 hours). */
  readonly verificationTtlSeconds?: number;
}

export const DEFAULT_VERIFICATION_TTL_SECONDS = 48 * 3600;

export const VERIFY_PATH = '/v1/email/verify';
export const UNSUBSCRIBE_PATH = '/v1/email/unsubscribe';

export const linkTo = (deps: MailDeps, path: string, token: string): string => `${deps.baseUrl}${path}?token=${encodeURIComponent(token)}`;

/** What an SMTP server's refusal means for the address. */
export type SendFailure =
  /** 5xx on RCPT TO: the receiving server says the address does not take mail: it bounces. */
  | { readonly kind: 'bounced'; readonly reason: string }
  /** Any other 5xx: this message will never go through as it is (too big, refused content, a bad sender). */
  | { readonly kind: 'permanent'; readonly reason: string }
  /** 4xx, a dropped connection, a timeout, a throttled API: try again later. */
  | { readonly kind: 'transient'; readonly reason: string };

interface SmtpErrorLike {
  readonly message?: unknown;
  readonly responseCode?: unknown;
  readonly command?: unknown;
  readonly response?: unknown;
  readonly name?: unknown;
}

/** Reads nodemailer's error (SMTP: `responseCode` and `command`; SES: the SDK's error name). */
export const classifySendError = (e: unknown): SendFailure => {
  const x = (typeof e === 'object' && e !== null ? e : {}) as SmtpErrorLike;
  const reason = String(typeof x.response === 'string' && x.response ? x.response : (x.message ?? e)).slice(0, 500);
  const code = typeof x.responseCode === 'number' ? x.responseCode : null;
  if (code !== null && code >= 500 && code < 600) return { kind: x.command === 'RCPT TO' ? 'bounced' : 'permanent', reason };
  // SES refuses an unverified recipient in its sandbox, or one on the account's suppression list, with MessageRejected.
  if (x.name === 'MessageRejected') return { kind: 'bounced', reason };
  return { kind: 'transient', reason };
};

/**
 * Sends `message`; a refusal that makes the address undeliverable is handed to `onBounce` (which marks
 * the address bounced) before the outcome is answered. Never throws.
 */
export const sendMail = async (
  deps: MailDeps,
  message: SendMailOptions,
  onBounce: (reason: string) => Promise<void>,
): Promise<ChannelOutcome & { readonly failure?: SendFailure }> => {
  try {
    await deps.transport.sendMail({ from: deps.from, ...message });
    return { ok: true };
  } catch (e) {
    const failure = classifySendError(e);
    if (failure.kind === 'bounced') await onBounce(failure.reason);
    return { ok: false, permanent: failure.kind !== 'transient', error: failure.reason, failure };
  }
};

/** Marks the player's address bounced (only the address the mail went to: a newer one set meanwhile stays). */
export const markBounced = async (db: Db, playerId: string, address: string, reason: string, at: Date): Promise<void> => {
  await db.prisma.playerEmail.updateMany({
    where: { playerId, address },
    data: { state: 'bounced', bouncedAt: at, bounceReason: reason.slice(0, 500), updatedAt: at },
  });
};
