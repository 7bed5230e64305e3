import type { ApiKey, Player } from '../generated/prisma/client.js';
import { isPrismaKnownError } from './prisma-errors.js';
import type { Db, Tx } from './db.js';
import { isUuid } from './ids.js';
import { jsonOf, rowOf } from './json.js';

/**
 * Players and their API keys. Plain reads and writes; hashing passwords and keys, and deciding who
 * may do what, is the caller's business (service/accounts.ts).
 */

export type PlayerRow = Player;
export type ApiKeyRow = ApiKey;

export interface NewPlayer {
  readonly handle: string;
  readonly displayName: string;
  /** Already hashed (store/passwords.ts); null = no password login. */
  readonly passwordHash: string | null;
}

const isUniqueViolation = (e: unknown): boolean => isPrismaKnownError(e) && e.code === 'P2002';

/** Creates a player; null when the handle is taken. */
export const insertPlayer = async (client: Tx, player: NewPlayer): Promise<PlayerRow | null> => {
  try {
    return await client.player.create({
      data: { handle: player.handle, displayName: player.displayName, passwordHash: player.passwordHash },
    });
  } catch (e) {
    if (isUniqueViolation(e)) return null;
    throw e;
  }
};

export const findPlayerByHandle = (client: Tx, handle: string): Promise<PlayerRow | null> =>
  client.player.findUnique({ where: { handle } });

/** The player with this id; null for an unknown id or one that is not a uuid. */
export const findPlayerById = (client: Tx, id: string): Promise<PlayerRow | null> =>
  isUuid(id) ? client.player.findUnique({ where: { id } }) : Promise.resolve(null);

const PLAYER_BY_ID_SQL = `SELECT to_jsonb(p) AS player FROM players p WHERE p.id = $1::uuid`;

/**
 * {@link findPlayerById} as one statement on the driver (`Db.statement`), outside any transaction: the
 * player behind a token, looked up by every request whose token is not cached (graph/auth.ts). On the
 * driver, a container's first request, a turn, never needs Prisma, whose client and query compiler
 * would cost it ~100 ms to set up (docs/deploying.md, "Bundles and cold start").
 */
export const findPlayerByIdStatement = async (db: Pick<Db, 'statement'>, id: string): Promise<PlayerRow | null> => {
  if (!isUuid(id)) return null;
  // The whole row as JSON, mapped as the turn's statements map theirs: a column added to players is not forgotten here.
  const rows = await db.statement<{ player: unknown }>('arbiter_player_by_id', PLAYER_BY_ID_SQL, [id]);
  return rows[0] ? rowOf<PlayerRow>(jsonOf(rows[0].player) as Record<string, unknown>) : null;
};

export interface NewApiKey {
  readonly ownerId: string;
  readonly name: string;
  readonly prefix: string;
  /** sha256 of the whole key, hex. */
  readonly keyHash: string;
  readonly scopes: readonly string[];
}

export const insertApiKey = (client: Tx, key: NewApiKey): Promise<ApiKeyRow> =>
  client.apiKey.create({
    data: { ownerId: key.ownerId, name: key.name, prefix: key.prefix, keyHash: key.keyHash, scopes: [...key.scopes] },
  });

/** The key row with this prefix, revoked or not; null when there is none. */
export const findApiKeyByPrefix = (client: Tx, prefix: string): Promise<ApiKeyRow | null> =>
  client.apiKey.findUnique({ where: { prefix } });

/** The owner's keys, newest first, revoked ones included (they show when they were revoked). */
export const listApiKeys = (client: Tx, ownerId: string): Promise<ApiKeyRow[]> =>
  client.apiKey.findMany({ where: { ownerId }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });

/**
 * Marks the owner's key revoked at `now` (a key already revoked keeps its first revocation time).
 * Null when the owner has no key with that id.
 */
export const revokeApiKey = async (client: Tx, ownerId: string, id: string, now: Date): Promise<ApiKeyRow | null> => {
  if (!isUuid(id)) return null;
  await client.apiKey.updateMany({ where: { id, ownerId, revokedAt: null }, data: { revokedAt: now } });
  return client.apiKey.findFirst({ where: { id, ownerId } });
};

/** Records a use of the key, at most once per `granularityMs` so that a busy key does not write on every request. */
export const touchApiKey = async (client: Tx, id: string, now: Date, granularityMs = 60_000): Promise<void> => {
  const before = new Date(now.getTime() - granularityMs);
  await client.apiKey.updateMany({ where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: before } }] }, data: { lastUsedAt: now } });
};
