import { DEFAULT_DATA_DIR } from '../store/db.js';
import { checkVapidKeyPair, readOrCreateVapidKeys, VAPID_KEYS_FILE } from '../store/vapid-file.js';
import type { PushSettings } from '../service/push-channel.js';
import type { SecretReader } from './secrets.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The Web Push settings of a process (docs/notifications.md#web-push), kept like the token-signing key
 * (functions/jwt-keys.ts): the key pair from ARBITER_VAPID_PUBLIC_KEY and ARBITER_VAPID_PRIVATE_KEY when
 * set; on AWS from the Secrets Manager secret named by ARBITER_VAPID_SECRET_ARN (a JSON document
 * `{"publicKey", "privateKey"}`); otherwise from `vapid-keys.json` in the data directory, made on first
 * use and kept across restarts. The subject (ARBITER_VAPID_SUBJECT) tells push services whom to contact.
 */
export const VAPID_ENV = {
  PUBLIC_KEY: 'ARBITER_VAPID_PUBLIC_KEY',
  PRIVATE_KEY: 'ARBITER_VAPID_PRIVATE_KEY',
  SECRET_ARN: 'ARBITER_VAPID_SECRET_ARN',
  SUBJECT: 'ARBITER_VAPID_SUBJECT',
} as const;

/** A local server's subject when none is set: a mailto that reaches nobody, which push services accept. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:operator@arbiter.invalid';

/** ARBITER_VAPID_SUBJECT, checked: a `mailto:` address or an `https:` URL (RFC 8292 §2.1). */
export const vapidSubjectFromEnv = (env: Env): string => {
  const subject = env[VAPID_ENV.SUBJECT]?.trim() || DEFAULT_VAPID_SUBJECT;
  let url: URL;
  try {
    url = new URL(subject);
  } catch {
    throw new Error(`${VAPID_ENV.SUBJECT} must be a mailto: address or an https: URL, not "${subject}"`);
  }
  if (url.protocol !== 'mailto:' && url.protocol !== 'https:') {
    throw new Error(`${VAPID_ENV.SUBJECT} must be a mailto: address or an https: URL, not "${subject}"`);
  }
  return subject;
};

/**
 * The pair in a Secrets Manager secret, read at most every `ttlMs` (default 5 minutes) so a value put
 * there by an operator reaches every container without a deployment; a failed read is not kept.
 */
export const secretsManagerVapidKeys = (
  arn: string,
  read: SecretReader,
  options: { readonly ttlMs?: number; readonly clock?: () => number } = {},
): PushSettings['vapidKeys'] => {
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const clock = options.clock ?? Date.now;
  let cached: { keys: ReturnType<PushSettings['vapidKeys']>; at: number } | undefined;
  return () => {
    if (!cached || clock() - cached.at > ttlMs) {
      const next = {
        keys: read(arn).then((text) => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            throw new Error(`secret ${arn} is not JSON: expected {"publicKey", "privateKey"}`);
          }
          return checkVapidKeyPair(parsed, `secret ${arn}`);
        }),
        at: clock(),
      };
      next.keys.catch(() => {
        if (cached === next) cached = undefined;
      });
      cached = next;
    }
    return cached.keys;
  };
};

/**
 * This process's push settings, or null when Web Push is off: on Lambda without a secret or keys in the
 * environment (a deployment that never set it up). Locally the key file is made on first use only, so a
 * process that never pushes (a test, a CLI run) writes nothing.
 */
export const pushSettingsFromEnv = (
  env: Env,
  readSecret: () => SecretReader,
  log: (message: string) => void = console.log,
): PushSettings | null => {
  const subject = vapidSubjectFromEnv(env);
  const publicKey = env[VAPID_ENV.PUBLIC_KEY];
  const privateKey = env[VAPID_ENV.PRIVATE_KEY];
  if (publicKey || privateKey) {
    const keys = checkVapidKeyPair({ publicKey, privateKey }, `${VAPID_ENV.PUBLIC_KEY}/${VAPID_ENV.PRIVATE_KEY}`);
    return { subject, vapidKeys: () => Promise.resolve(keys) };
  }
  const arn = env[VAPID_ENV.SECRET_ARN];
  if (arn) return { subject, vapidKeys: secretsManagerVapidKeys(arn, readSecret()) };
  if (env['AWS_LAMBDA_FUNCTION_NAME']) return null;
  const dir = env['ARBITER_DATA_DIR'] ?? DEFAULT_DATA_DIR;
  let keys: ReturnType<PushSettings['vapidKeys']> | undefined;
  return {
    subject,
    vapidKeys: () =>
      (keys ??= readOrCreateVapidKeys(dir).then((made) => {
        if (made.created)
          log(`Made a Web Push key pair in ${dir}/${VAPID_KEYS_FILE} (kept across restarts; arbiter vapid-keys replace makes a new one).`);
        return made.keys;
      })),
  };
};
