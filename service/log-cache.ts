import type { GameState } from '../engine/game/state.js';
import type { Db } from '../store/db.js';
import type { HeldGame, StoredEvent } from '../store/games.js';

/**
 * The log and folded state of games this process just committed a command on or read (issue #17): a
 * game's log is append-only and a turn is version-checked, so the events up to a version never change, and
 * the next command on the game reads only the events after it (store/games.ts runTurn `knownVersion`), as
 * does the next read (service/game-reads.ts), instead of reading, parsing and folding the whole log again.
 * Entries are per database handle, bounded, and short-lived (a correspondence move rarely comes back to
 * the same process; a robot's reply or a burst does),
 * which also bounds what a restored database backup could leave behind. Process memory only: the state
 * holds the racks and the bag, and `held` the bag seed, like any command in progress.
 */
export interface KnownLog {
  /** The game row's created_at (ms): a different game under a reused id is not this one. */
  readonly createdAt: number;
  readonly version: number;
  readonly stored: readonly StoredEvent[];
  readonly state: GameState;
  /**
   * The row at `version`, the seats and the secret: a command at exactly `version` needs no read
   * (store/games.ts runTurn). Null once the game is known to have moved on (the events up to `version`
   * still spare the next read).
   */
  readonly held: HeldGame | null;
  readonly at: number;
}

const MAX_GAMES = 500;
const TTL_MS = 60_000;
const caches = new WeakMap<Db, Map<string, KnownLog>>();

const cacheOf = (db: Db): Map<string, KnownLog> => {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new Map()));
  return c;
};

/** The known log of `gameId`, if it is fresh and not past `expectedVersion` (a caller behind the game is stale anyway). */
export const knownLog = (db: Db, gameId: string, expectedVersion: number, now = Date.now()): KnownLog | null => {
  const c = cacheOf(db);
  const k = c.get(gameId);
  if (!k) return null;
  if (now - k.at > TTL_MS) {
    c.delete(gameId);
    return null;
  }
  return k.version <= expectedVersion ? k : null;
};

/** Forgets a game's log (it did not belong to the game read under that id). */
export const forgetLog = (db: Db, gameId: string): void => {
  cacheOf(db).delete(gameId);
};

/**
 * Holds the game a read just remembered (its row, seats and the secret its creator knows), so that the next
 * command at that version sends only its commit; nothing when the entry is not that row's game and version.
 */
export const holdRead = (db: Db, gameId: string, held: HeldGame): void => {
  const k = cacheOf(db).get(gameId);
  if (k && k.version === held.row.version && k.createdAt === held.row.createdAt.getTime()) cacheOf(db).set(gameId, { ...k, held });
};

/** Keeps a game's known events but no longer its row: another process moved the game past them. */
export const releaseHeld = (db: Db, gameId: string): void => {
  const k = cacheOf(db).get(gameId);
  if (k?.held) cacheOf(db).set(gameId, { ...k, held: null });
};

/** Keeps the log and state a command just committed (the most recent entries stay; the oldest go first). */
export const rememberLog = (db: Db, gameId: string, log: Omit<KnownLog, 'at'>, now = Date.now()): void => {
  const c = cacheOf(db);
  c.delete(gameId);
  c.set(gameId, { ...log, at: now });
  if (c.size > MAX_GAMES) c.delete(c.keys().next().value!);
};

/**
 * Keeps the log and state a read just brought up to date (service/game-reads.ts), never with a held row:
 * a read does not load the secret. A turn of this process that committed past the read meanwhile, or
 * holds the game at that very version, keeps its entry (its row and secret spare its next read).
 */
export const rememberRead = (db: Db, gameId: string, log: Omit<KnownLog, 'at' | 'held'>, now = Date.now()): void => {
  const k = cacheOf(db).get(gameId);
  if (k && k.createdAt === log.createdAt && k.version >= log.version) {
    if (k.version === log.version) rememberLog(db, gameId, k, now);
    return;
  }
  rememberLog(db, gameId, { ...log, held: null }, now);
};
