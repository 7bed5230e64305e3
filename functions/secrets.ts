/**
 * Secrets for the deployed functions, without plaintext in the environment: on AWS the environment
 * holds only secret ARNs (and the proxy host), and the values are fetched from Secrets Manager at cold
 * start and again after a rotation (the database password here, the JWT keys in functions/jwt-keys.ts).
 * Locally the plain variables (`DATABASE_URL`, `ARBITER_JWT_SECRET`) win, so `npm start` and the tests
 * need no AWS at all.
 */

import type { PasswordSource } from '../store/db.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Reads one secret's string value by ARN (Secrets Manager `GetSecretValue`). */
export type SecretReader = (secretArn: string) => Promise<string>;

/**
 * Environment variables the stack sets (infra/constructs/*): names only, values are never secrets.
 * `DB_SECRET_ARN` points at the cluster's generated secret (JSON: username, password, dbname, …);
 * `DB_HOST` is the RDS Proxy endpoint, which is not the host written in that secret.
 */
export const SECRET_ENV = {
  DB_SECRET_ARN: 'ARBITER_DB_SECRET_ARN',
  DB_HOST: 'ARBITER_DB_HOST',
  DB_PORT: 'ARBITER_DB_PORT',
  DB_NAME: 'ARBITER_DB_NAME',
  JWT_SECRET_ARN: 'ARBITER_JWT_SECRET_ARN',
} as const;

/**
 * The default reader: the AWS SDK v3 client the Lambda runtime provides, imported on first use so a
 * local process that never reads a secret never loads the SDK.
 */
export const secretsManagerReader = (): SecretReader => {
  let client: Promise<{ read: SecretReader }> | undefined;
  return async (secretArn) => {
    client ??= import('@aws-sdk/client-secrets-manager').then(({ SecretsManagerClient, GetSecretValueCommand }) => {
      const sdk = new SecretsManagerClient({});
      return {
        read: async (arn: string) => {
          const out = await sdk.send(new GetSecretValueCommand({ SecretId: arn }));
          if (out.SecretString === undefined) throw new Error(`secret ${arn} has no string value`);
          return out.SecretString;
        },
      };
    });
    return (await client).read(secretArn);
  };
};

/** One version of a secret: its value and when it was made; null when the secret has no version in that stage. */
export type SecretVersionReader = (
  secretArn: string,
  stage: 'AWSCURRENT' | 'AWSPREVIOUS',
) => Promise<{ readonly value: string; readonly createdDate: Date | null } | null>;

/** Reads a secret's AWSCURRENT or AWSPREVIOUS version (rotation keeps the one before as AWSPREVIOUS). */
export const secretsManagerVersionReader = (): SecretVersionReader => {
  let client: Promise<SecretVersionReader> | undefined;
  return async (arn, stage) => {
    client ??= import('@aws-sdk/client-secrets-manager').then(
      ({ SecretsManagerClient, GetSecretValueCommand, ResourceNotFoundException }) => {
        const sdk = new SecretsManagerClient({});
        return async (secretArn: string, versionStage: 'AWSCURRENT' | 'AWSPREVIOUS') => {
          try {
            const out = await sdk.send(new GetSecretValueCommand({ SecretId: secretArn, VersionStage: versionStage }));
            if (out.SecretString === undefined) throw new Error(`secret ${secretArn} has no string value`);
            return { value: out.SecretString, createdDate: out.CreatedDate ?? null };
          } catch (e) {
            if (e instanceof ResourceNotFoundException && versionStage === 'AWSPREVIOUS') return null; // never rotated yet
            throw e;
          }
        };
      },
    );
    return (await client)(arn, stage);
  };
};

let shared: SecretReader | undefined;
/** One reader (one SDK client) per container. */
const defaultReader = (): SecretReader => (shared ??= secretsManagerReader());

interface DbSecret {
  readonly username: string;
  readonly password: string;
  readonly dbname?: string;
  readonly port?: number | string;
}

const parseDbSecret = (arn: string, text: string): DbSecret => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`secret ${arn} is not JSON: expected the RDS credentials document {username, password, …}`);
  }
  const v = value as Partial<Record<keyof DbSecret, unknown>>;
  if (typeof v.username !== 'string' || typeof v.password !== 'string') {
    throw new Error(`secret ${arn} lacks username/password: expected the RDS credentials document`);
  }
  return {
    username: v.username,
    password: v.password,
    ...(typeof v.dbname === 'string' ? { dbname: v.dbname } : {}),
    ...(typeof v.port === 'number' || typeof v.port === 'string' ? { port: v.port } : {}),
  };
};

/**
 * The Postgres URL for `createDb`: `DATABASE_URL` when set (local runs, tests); otherwise built from
 * the secret named by `ARBITER_DB_SECRET_ARN` and the proxy host in `ARBITER_DB_HOST`, with
 * `sslmode=verify-full` because the proxy requires TLS and presents a publicly trusted certificate.
 */
export const resolveDatabaseUrl = async (env: Env = process.env, read: SecretReader = defaultReader()): Promise<string> => {
  const plain = env['DATABASE_URL'];
  if (plain) return plain;
  const arn = env[SECRET_ENV.DB_SECRET_ARN];
  const host = env[SECRET_ENV.DB_HOST];
  if (!arn || !host) {
    throw new Error(`no database configured: set DATABASE_URL, or ${SECRET_ENV.DB_SECRET_ARN} and ${SECRET_ENV.DB_HOST}`);
  }
  const secret = parseDbSecret(arn, await read(arn));
  const database = env[SECRET_ENV.DB_NAME] ?? secret.dbname ?? 'postgres';
  const port = env[SECRET_ENV.DB_PORT] ?? String(secret.port ?? 5432);
  const url = new URL(`postgresql://${host}:${port}/`);
  url.username = encodeURIComponent(secret.username);
  url.password = encodeURIComponent(secret.password);
  url.pathname = `/${encodeURIComponent(database)}`;
  url.searchParams.set('sslmode', 'verify-full');
  return url.toString();
};

/**
 * The database connection of a long-lived container: like {@link resolveDatabaseUrl}, but the password
 * is not baked into the URL. It is read from the secret for each new connection, cached for `ttlMs`
 * (default 5 minutes) and read again at once when the server refuses it, so a rotated password
 * (infra/constructs/database.ts rotates it every 30 days) is picked up without a cold start.
 */
export const resolveDatabaseConnection = async (
  env: Env = process.env,
  read: SecretReader = defaultReader(),
  options: { readonly ttlMs?: number; readonly clock?: () => number } = {},
): Promise<{ databaseUrl: string; password?: PasswordSource }> => {
  const plain = env['DATABASE_URL'];
  if (plain) return { databaseUrl: plain };
  const url = new URL(await resolveDatabaseUrl(env, read));
  url.password = '';
  const arn = env[SECRET_ENV.DB_SECRET_ARN]!;
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const clock = options.clock ?? Date.now;
  let cached: { value: Promise<string>; at: number } | undefined;
  const password: PasswordSource = {
    get: () => {
      if (!cached || clock() - cached.at > ttlMs) {
        const next = { value: read(arn).then((text) => parseDbSecret(arn, text).password), at: clock() };
        next.value.catch(() => {
          if (cached === next) cached = undefined;
        });
        cached = next;
      }
      return cached.value;
    },
    invalidate: () => {
      cached = undefined;
    },
  };
  return { databaseUrl: url.toString(), password };
};
