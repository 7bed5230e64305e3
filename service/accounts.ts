import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { Tx } from '../store/db.js';
import { hashPassword, needsRehash, scryptParamsFromEnv, setPasswordHash, verifyPassword } from '../store/passwords.js';
import { checkNewPassword, PASSWORD_ERROR_CODES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-policy.js';
import {
  findApiKeyByPrefix,
  findPlayerByHandle,
  findPlayerById,
  findPlayerByIdStatement,
  insertApiKey,
  insertPlayer,
  listApiKeys,
  revokeApiKey,
  touchApiKey,
  type ApiKeyRow,
  type PlayerRow,
} from '../store/players.js';

export type { ApiKeyRow, PlayerRow };

/**
 * Accounts: registering players, password login, and API keys for integrations. Each use case takes
 * a Prisma client or transaction and returns a `Result` whose error codes are listed in
 * {@link ACCOUNT_ERROR_CODES}; tokens (JWT) are the GraphQL edge's business (graph/auth.ts).
 */

/**
 * What an API key may do; a player signed in with a password (JWT) holds them all. A key acts for
 * its owner only, and a key can only create keys with scopes it holds itself.
 */
export const API_SCOPES = [
  /** Read the owner's games and their views (their seat only). */
  'games:read',
  /** Play turns, challenge, resign … in the owner's seat. */
  'games:play',
  /** Create, list and revoke the owner's API keys. */
  'keys:manage',
  /** Register, list, pause and delete the owner's webhook subscriptions, and read their delivery log. */
  'webhooks:manage',
  /** Upload word lists (uploadLexicon, POST /v1/lexicons). */
  'lexicons:manage',
  /** Rule on disputes as a director (the owner must hold the director role as well). */
  'disputes:rule',
  /**
   * Register, list, change and delete the owner's third-party OAuth apps (service/oauth-apps.ts): a key may
   * do it so that a developer's deploy script can keep redirect URIs up to date; an app's own OAuth token never may.
   */
  'apps:manage',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];
export const isApiScope = (s: string): s is ApiScope => (API_SCOPES as readonly string[]).includes(s);

export const ACCOUNT_ERROR_CODES = [
  'HANDLE_TAKEN',
  'BAD_CREDENTIALS',
  'API_KEY_INVALID',
  'API_KEY_REVOKED',
  'API_KEY_NOT_FOUND',
  'SCOPE_NOT_HELD',
  ...PASSWORD_ERROR_CODES,
] as const;
export type AccountErrorCode = (typeof ACCOUNT_ERROR_CODES)[number];
const fail = (code: AccountErrorCode, message: string, details: Record<string, unknown> = {}) => err(ruleError(code, message, details));

// ---------------------------------------------------------------------------------------------
// Input rules (used by the GraphQL validation plugin and by seeding, so both agree)

export const HANDLE_PATTERN = /^[a-z][a-z0-9_-]{2,23}$/;
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

export const handleSchema = z
  .string()
  .regex(HANDLE_PATTERN, 'A handle is 3–24 characters: lowercase letters, digits, "_" or "-", starting with a letter.');
export const displayNameSchema = z
  .string()
  .trim()
  .min(1, 'The display name is empty.')
  .max(60, 'The display name is longer than 60 characters.');
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `The password is shorter than ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `The password is longer than ${PASSWORD_MAX_LENGTH} characters.`);
export const apiKeyNameSchema = z.string().trim().min(1, 'The key name is empty.').max(80, 'The key name is longer than 80 characters.');
export const apiScopesSchema = z
  .array(
    z
      .string()
      .refine(isApiScope, { error: (issue) => `"${String(issue.input)}" is not a scope; the scopes are ${API_SCOPES.join(', ')}.` }),
  )
  .min(1, 'Give at least one scope.')
  .refine((s) => new Set(s).size === s.length, 'A scope is listed twice.');

// ---------------------------------------------------------------------------------------------
// Players

export interface Registration {
  readonly handle: string;
  readonly displayName: string;
  readonly password: string;
}

/**
 * Creates a player with a password. Errors: `HANDLE_TAKEN`, and the password policy's (service/password-policy.ts,
 * naming `input.password`). Inputs are otherwise assumed valid (see the schemas above).
 */
export const registerPlayer = async (client: Tx, input: Registration): Promise<Result<PlayerRow, RuleError>> => {
  const policy = await checkNewPassword(input.password, 'input.password');
  if (!policy.ok) return policy;
  if (await findPlayerByHandle(client, input.handle)) return takenHandle(input.handle);
  const player = await insertPlayer(client, {
    handle: input.handle,
    displayName: input.displayName.trim(),
    passwordHash: await hashPassword(input.password),
  });
  return player ? ok(player) : takenHandle(input.handle);
};

const takenHandle = (handle: string) =>
  fail('HANDLE_TAKEN', `The handle "${handle}" is taken; choose another.`, { field: 'handle', handle });

/**
 * Verified against when the handle is unknown, so both failures take as long (no handle oracle by timing):
 * one per configured cost, so that it always costs what a real player's current hash costs.
 */
const dummyHashes = new Map<number, Promise<string>>();
export const dummyHash = (): Promise<string> => {
  const params = scryptParamsFromEnv();
  let hash = dummyHashes.get(params.N);
  if (!hash) dummyHashes.set(params.N, (hash = hashPassword('arbiter-dummy-password', params)));
  return hash;
};

/**
 * The player whose handle and password these are. Error: `BAD_CREDENTIALS` (the same for an unknown handle and
 * a wrong password). A right password whose stored hash costs less than the configured scrypt cost is hashed
 * again at that cost and stored (never on a failure: only the right password can be hashed).
 */
export const authenticatePassword = async (client: Tx, handle: string, password: string): Promise<Result<PlayerRow, RuleError>> => {
  const player = await findPlayerByHandle(client, handle);
  const matches = await verifyPassword(password, player?.passwordHash ?? (await dummyHash()));
  if (!player || !player.passwordHash || !matches) return fail('BAD_CREDENTIALS', 'The handle or the password is wrong.');
  if (needsRehash(player.passwordHash)) {
    const hash = await hashPassword(password);
    // Only over the hash just verified: a password changed meanwhile by another request is not overwritten.
    if (await setPasswordHash(client, player.id, hash, player.passwordHash)) return ok({ ...player, passwordHash: hash });
  }
  return ok(player);
};

export { findPlayerById, findPlayerByIdStatement };

// ---------------------------------------------------------------------------------------------
// API keys: `arb_<prefix>_<secret>`; the prefix finds the row, only sha256(key) is stored.

const KEY_FORMAT = /^arb_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export const isApiKeyText = (text: string): boolean => text.startsWith('arb_');
const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export interface NewApiKeyResult {
  /** The whole key. Shown once: only its hash is stored. */
  readonly key: string;
  readonly row: ApiKeyRow;
}

/**
 * Creates a key for `ownerId` with `scopes`. `grantable` = the scopes the caller holds: a key can
 * create keys only with scopes it holds itself (`SCOPE_NOT_HELD`).
 */
export const createApiKey = async (
  client: Tx,
  ownerId: string,
  input: { readonly name: string; readonly scopes: readonly ApiScope[] },
  grantable: readonly ApiScope[],
): Promise<Result<NewApiKeyResult, RuleError>> => {
  const missing = input.scopes.filter((s) => !grantable.includes(s));
  if (missing.length > 0) {
    return fail(
      'SCOPE_NOT_HELD',
      `This API key cannot grant ${missing.join(', ')}: a key can only create keys with scopes it holds itself.`,
      {
        field: 'scopes',
        scopes: missing,
      },
    );
  }
  const prefix = randomBytes(6).toString('hex');
  const key = `arb_${prefix}_${randomBytes(32).toString('base64url')}`;
  const row = await insertApiKey(client, { ownerId, name: input.name.trim(), prefix, keyHash: hashKey(key), scopes: input.scopes });
  return ok({ key, row });
};

export interface AuthenticatedKey {
  readonly key: ApiKeyRow;
  readonly owner: PlayerRow;
  readonly scopes: readonly ApiScope[];
}

/**
 * The key and its owner for a presented key text; records the use. Errors: `API_KEY_INVALID` (not a
 * key, unknown, wrong secret), `API_KEY_REVOKED`.
 */
export const authenticateApiKey = async (client: Tx, text: string, now: Date): Promise<Result<AuthenticatedKey, RuleError>> => {
  const m = KEY_FORMAT.exec(text);
  const invalid = () => fail('API_KEY_INVALID', 'The API key is not valid: check that it was copied whole (arb_<prefix>_<secret>).');
  if (!m) return invalid();
  const row = await findApiKeyByPrefix(client, m[1]!);
  if (!row) return invalid();
  const presented = Buffer.from(hashKey(text), 'hex');
  const stored = Buffer.from(row.keyHash, 'hex');
  if (presented.length !== stored.length || !timingSafeEqual(presented, stored)) return invalid();
  if (row.revokedAt)
    return fail('API_KEY_REVOKED', `The API key "${row.name}" was revoked on ${row.revokedAt.toISOString()}.`, { keyId: row.id });
  const owner = await findPlayerById(client, row.ownerId);
  if (!owner) return invalid();
  await touchApiKey(client, row.id, now);
  return ok({ key: row, owner, scopes: row.scopes.filter(isApiScope) });
};

export const listPlayerApiKeys = (client: Tx, ownerId: string): Promise<ApiKeyRow[]> => listApiKeys(client, ownerId);

/** Revokes one of the owner's keys. Error: `API_KEY_NOT_FOUND` (also for another player's key: no oracle). */
export const revokePlayerApiKey = async (client: Tx, ownerId: string, id: string, now: Date): Promise<Result<ApiKeyRow, RuleError>> => {
  const row = await revokeApiKey(client, ownerId, id, now);
  return row ? ok(row) : fail('API_KEY_NOT_FOUND', `You have no API key with the id "${id}".`, { id });
};

// ---------------------------------------------------------------------------------------------
// Demo players for `npm start`

/** The pair `npm start` seeds so that a newcomer can play at once (docs/api.md). Never seeded in Lambda. */
export const DEMO_PLAYERS: readonly Registration[] = [
  { handle: 'alice', displayName: 'Alice (demo)', password: 'alice-demo-1' },
  { handle: 'bob', displayName: 'Bob (demo)', password: 'bob-demo-1' },
];

/** Creates the demo players that do not exist yet; returns the handles created. */
export const seedDemoPlayers = async (client: Tx, players: readonly Registration[] = DEMO_PLAYERS): Promise<string[]> => {
  const created: string[] = [];
  for (const p of players) {
    if (await findPlayerByHandle(client, p.handle)) continue;
    const r = await registerPlayer(client, p);
    if (r.ok) created.push(p.handle);
  }
  return created;
};
