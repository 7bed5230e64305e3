import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { renderBoardSvg, svgToPng } from '../render/index.js';
import { gamePictures } from '../service/game-pictures.js';
import type { LexiconRegistry } from '../service/lexicons.js';
import type { MailDeps, MailTransport } from '../service/mail-send.js';
import { DEFAULT_DATA_DIR } from '../store/db.js';
import type { SecretReader } from './secrets.js';
import { publicBaseUrlFromEnv } from './webhooks.js';

/**
 * Where the e-mails of the notifications go (docs/notifications.md#e-mail), from the settings:
 *
 * - `ARBITER_SMTP_URL` (`smtp://user:pass@host:587`, `smtps://…:465`): nodemailer's SMTP transport;
 * - `ARBITER_MAIL=ses`: Amazon SES (API v2) with the function's own credentials (the stack grants
 *   `ses:SendEmail` on the sender's identity), through the configuration set `ARBITER_SES_CONFIGURATION_SET`
 *   when there is one (its bounces and complaints: service/mail-feedback.ts);
 * - neither, locally: a mailbox folder, `<data dir>/mailbox/`, one `.eml` file per mail, which any mail
 *   program opens; on Lambda: no mail at all (setting an address answers EMAIL_UNAVAILABLE).
 *
 * The links' key: `ARBITER_MAIL_SECRET` (at least 32 characters; `ARBITER_MAIL_SECRET_PREVIOUS` is still
 * accepted during a rotation), else the secret named by `ARBITER_MAIL_SECRET_ARN` (Secrets Manager), else
 * a key made once in the data directory (`mail-secret`, mode 0600). It is its own key, not the JWT key:
 * that one rotates every month, and an unsubscribe link must keep working far longer than a month.
 */

type Env = Readonly<Record<string, string | undefined>>;

export const MAIL_ENV = {
  SMTP_URL: 'ARBITER_SMTP_URL',
  MAIL: 'ARBITER_MAIL',
  FROM: 'ARBITER_MAIL_FROM',
  SECRET: 'ARBITER_MAIL_SECRET',
  SECRET_PREVIOUS: 'ARBITER_MAIL_SECRET_PREVIOUS',
  SECRET_ARN: 'ARBITER_MAIL_SECRET_ARN',
  SES_CONFIGURATION_SET: 'ARBITER_SES_CONFIGURATION_SET',
} as const;

export const MAIL_SECRET_FILE = 'mail-secret';
const MIN_SECRET = 32;

const keyOf = (value: string, what: string): Uint8Array => {
  if (value.length < MIN_SECRET) throw new Error(`${what} must be at least ${MIN_SECRET} characters`);
  return new TextEncoder().encode(value);
};

/** The key kept in the data directory, made on first use; two processes starting at once keep one (exclusive create). */
export const readOrCreateMailSecret = (dir: string): { secret: string; created: boolean } => {
  const path = join(dir, MAIL_SECRET_FILE);
  const read = (): string | null => {
    try {
      return readFileSync(path, 'utf8').trim() || null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  };
  const existing = read();
  if (existing) return { secret: existing, created: false };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(path, 0o600);
    return { secret: read()!, created: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { secret: read()!, created: false };
    throw e;
  }
};

const mailKeys = async (env: Env, dataDir: string, log: (m: string) => void, read?: SecretReader): Promise<Uint8Array[] | null> => {
  const plain = env[MAIL_ENV.SECRET];
  if (plain) {
    const previous = env[MAIL_ENV.SECRET_PREVIOUS];
    return [keyOf(plain, MAIL_ENV.SECRET), ...(previous ? [keyOf(previous, MAIL_ENV.SECRET_PREVIOUS)] : [])];
  }
  const arn = env[MAIL_ENV.SECRET_ARN];
  if (arn) {
    const reader = read ?? (await import('./secrets.js')).secretsManagerReader();
    return [keyOf(await reader(arn), `the secret ${arn}`)];
  }
  if (env['AWS_LAMBDA_FUNCTION_NAME']) return null; // no data directory worth keeping a key in
  const { secret, created } = readOrCreateMailSecret(dataDir);
  if (created)
    log(
      `Made the e-mail links' signing key in ${dataDir}/${MAIL_SECRET_FILE} (kept across restarts; set ${MAIL_ENV.SECRET} to use your own).`,
    );
  return [keyOf(secret, `${dataDir}/${MAIL_SECRET_FILE}`)];
};

/** The folder transport of `npm start` without SMTP: nodemailer builds the message, we keep it as `<time>-<id>.eml`. */
export const mailboxTransport = (dir: string): MailTransport => {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    sendMail: async (message) => {
      const info = await builder.sendMail(message);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const id = String(info.messageId ?? randomBytes(8).toString('hex')).replace(/[^\w.-]+/g, '');
      await writeFile(join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`), info.message as Buffer, { mode: 0o600 });
      return info;
    },
  };
};

/**
 * SES v2 with the function's own credentials. With a configuration set (`ARBITER_SES_CONFIGURATION_SET`,
 * set by the stack), every mail names it (nodemailer's `ses.ConfigurationSetName`, given as a default of
 * each message): SES then publishes the mail's bounces and complaints to the stack's topic, which
 * functions/mail-feedback.ts reads. `client` stands in for the SDK's in tests.
 */
export const sesTransport = async (configurationSet?: string, client?: unknown): Promise<MailTransport> => {
  const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
  const sesClient = (client as InstanceType<typeof SESv2Client> | undefined) ?? new SESv2Client({});
  return nodemailer.createTransport(
    { SES: { sesClient, SendEmailCommand } },
    configurationSet ? { ses: { ConfigurationSetName: configurationSet } } : {},
  );
};

/** Where the URL points, without its credentials, for the start-up line. */
const smtpWhere = (url: string): string => {
  try {
    const u = new URL(url);
    return `SMTP at ${u.hostname}:${u.port || (u.protocol === 'smtps:' ? 465 : 587)}`;
  } catch {
    throw new Error(`${MAIL_ENV.SMTP_URL} is not a URL such as smtp://user:password@mail.example.org:587`);
  }
};

const transportOf = async (env: Env, dataDir: string): Promise<{ transport: MailTransport; where: string } | null> => {
  const smtp = env[MAIL_ENV.SMTP_URL]?.trim();
  if (smtp) return { where: smtpWhere(smtp), transport: nodemailer.createTransport(smtp) };
  const kind = env[MAIL_ENV.MAIL]?.trim();
  if (kind === 'ses') {
    const set = env[MAIL_ENV.SES_CONFIGURATION_SET]?.trim() || undefined;
    return { where: `Amazon SES${set ? ` (configuration set ${set})` : ''}`, transport: await sesTransport(set) };
  }
  if (kind && kind !== 'mailbox') throw new Error(`${MAIL_ENV.MAIL} must be "ses" or "mailbox", not "${kind}"`);
  if (env['AWS_LAMBDA_FUNCTION_NAME'] && kind !== 'mailbox') return null;
  const dir = resolve(dataDir, 'mailbox');
  return { where: `the folder ${dir} (one .eml file per mail; set ${MAIL_ENV.SMTP_URL} to send them)`, transport: mailboxTransport(dir) };
};

/** The game's board as the player sees it, 600 pixels wide. */
const boardPng =
  (lexicons: LexiconRegistry, now: () => Date): NonNullable<MailDeps['boardPng']> =>
  async (db, playerId, gameId) => {
    const found = await gamePictures({ db, lexicons, now }, playerId, gameId);
    if (!found.ok) return null;
    const last = found.value.turns[found.value.turns.length - 1]!;
    return svgToPng(renderBoardSvg({ view: last.view, distribution: found.value.distribution }), { width: 600 });
  };

export interface MailFromEnvOptions {
  readonly lexicons: LexiconRegistry;
  readonly now?: () => Date;
  readonly log?: (message: string) => void;
  readonly readSecret?: SecretReader;
}

/** The e-mail channel's dependencies from the settings; null when this process sends no mail (Lambda without SES or SMTP). */
export const mailFromEnv = async (env: Env, options: MailFromEnvOptions): Promise<MailDeps | null> => {
  const log = options.log ?? console.log;
  const now = options.now ?? (() => new Date());
  const dataDir = env['ARBITER_DATA_DIR'] ?? DEFAULT_DATA_DIR;
  const sending = await transportOf(env, dataDir);
  if (!sending) return null;
  const keys = await mailKeys(env, dataDir, log, options.readSecret);
  if (!keys) {
    log(`No e-mail: set ${MAIL_ENV.SECRET_ARN} (or ${MAIL_ENV.SECRET}) for the signed links of the mails.`);
    return null;
  }
  const baseUrl = publicBaseUrlFromEnv(env) ?? `http://localhost:${env['PORT'] ?? 4000}`;
  const from =
    env[MAIL_ENV.FROM]?.trim() || `Arbiter <arbiter@${new URL(baseUrl).hostname.replace(/^localhost$/, 'localhost.localdomain')}>`;
  return { transport: sending.transport, where: sending.where, from, keys, baseUrl, now, boardPng: boardPng(options.lexicons, now) };
};
