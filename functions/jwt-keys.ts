import { DEFAULT_DATA_DIR } from '../store/db.js';
import { readOrCreateJwtSecret, readPreviousJwtSecret } from '../store/secret-file.js';
import { jwtConfigFromEnv, jwtTtlFromEnv, secretBytes, type JwtConfig, type JwtKeys, type JwtKeySource } from '../graph/auth.js';
import { SECRET_ENV, type SecretVersionReader } from './secrets.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The signing keys of the local server (`npm start`). `ARBITER_JWT_SECRET` when set (with
 * `ARBITER_JWT_SECRET_PREVIOUS` during a rotation); otherwise the key kept in the data directory
 * (`ARBITER_DATA_DIR`, default .arbiter-data/), made once with mode 0600, so a restart signs nobody out.
 * After `arbiter jwt-secret rotate` the previous key is accepted for one token lifetime
 * (`ARBITER_JWT_TTL_SECONDS`) from the rotation, so tokens issued just before it stay valid.
 */
export const localJwtConfig = (env: Env = process.env, log: (message: string) => void = console.log): JwtConfig => {
  if (env['ARBITER_JWT_SECRET']) return jwtConfigFromEnv(env);
  const dir = env['ARBITER_DATA_DIR'] ?? DEFAULT_DATA_DIR;
  const { secret, created } = readOrCreateJwtSecret(dir);
  if (created) log(`Made a token-signing key in ${dir}/jwt-secret (kept across restarts; set ARBITER_JWT_SECRET to use your own).`);
  const ttlSeconds = jwtTtlFromEnv(env);
  const previous = readPreviousJwtSecret(dir);
  return {
    secret: secretBytes(secret, `${dir}/jwt-secret`),
    previous: previous
      ? [
          {
            secret: secretBytes(previous.secret, `${dir}/jwt-secret.previous`),
            until: new Date(previous.retiredAt.getTime() + ttlSeconds * 1000),
          },
        ]
      : [],
    ttlSeconds,
    issuer: 'arbiter',
  };
};

/**
 * The keys of a deployed API from Secrets Manager, which rotates the secret on a schedule
 * (infra/constructs/secrets.ts, functions/rotate-jwt-secret.ts): AWSCURRENT signs, AWSPREVIOUS is
 * accepted for `graceSeconds` (one token lifetime) after the current version was made. Read at most
 * every `ttlMs` (default 5 minutes), and again, at most every 10 s, when a token fails its signature
 * check — another container may have read the new key first.
 */
export const secretsManagerJwtSource = (
  arn: string,
  read: SecretVersionReader,
  options: { readonly graceSeconds: number; readonly ttlMs?: number; readonly clock?: () => number },
): JwtKeySource => {
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const clock = options.clock ?? Date.now;
  let cached: { keys: Promise<JwtKeys>; at: number } | undefined;
  const load = async (): Promise<JwtKeys> => {
    const [current, previous] = await Promise.all([read(arn, 'AWSCURRENT'), read(arn, 'AWSPREVIOUS')]);
    if (!current) throw new Error(`secret ${arn} has no current value`);
    const until = current.createdDate ? new Date(current.createdDate.getTime() + options.graceSeconds * 1000) : new Date(0);
    return {
      current: secretBytes(current.value, 'the JWT secret'),
      previous: previous ? [{ secret: secretBytes(previous.value, 'the previous JWT secret'), until }] : [],
    };
  };
  return {
    keys: async (_now, { refresh = false } = {}) => {
      const age = cached ? clock() - cached.at : Infinity;
      if (age > ttlMs || (refresh && age > 10_000)) {
        const next = { keys: load(), at: clock() };
        next.keys.catch(() => {
          if (cached === next) cached = undefined; // a failed read is not kept
        });
        cached = next;
      }
      return cached!.keys;
    },
  };
};

/** The deployed API's JWT settings: keys from the secret named by ARBITER_JWT_SECRET_ARN, rotated in place. */
export const deployedJwtConfig = (env: Env, read: SecretVersionReader): JwtConfig | undefined => {
  const arn = env[SECRET_ENV.JWT_SECRET_ARN];
  if (!arn || env['ARBITER_JWT_SECRET']) return undefined;
  const ttlSeconds = jwtTtlFromEnv(env);
  return {
    secret: new Uint8Array(0), // never used: `source` answers the keys
    source: secretsManagerJwtSource(arn, read, { graceSeconds: ttlSeconds }),
    ttlSeconds,
    issuer: 'arbiter',
  };
};
