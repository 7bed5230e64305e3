import type { Player, Session } from '../generated/prisma/client.js';
import type { Db, Tx } from './db.js';
import { isUuid } from './ids.js';
import { jsonOf, rowOf } from './json.js';

/**
 * Sign-in sessions (`sessions`): one row per password login, named by the `sid` of its tokens. Plain
 * reads and writes; how long a session lives and who may end one is service/sessions.ts's business.
 */

export type SessionRow = Session;

export interface NewSession {
  readonly playerId: string;
  readonly userAgent: string | null;
  readonly now: Date;
  readonly expiresAt: Date;
}

export const insertSession = (client: Tx, s: NewSession): Promise<SessionRow> =>
  client.session.create({
    data: { playerId: s.playerId, userAgent: s.userAgent, createdAt: s.now, lastUsedAt: s.now, expiresAt: s.expiresAt },
  });

/** The player's live sessions (not revoked, not expired at `now`), the most recently used first. */
export const listLiveSessions = (client: Tx, playerId: string, now: Date): Promise<SessionRow[]> =>
  client.session.findMany({
    where: { playerId, revokedAt: null, expiresAt: { gt: now } },
    orderBy: [{ lastUsedAt: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
  });

/** The player's session with this id, live or not; null for another player's or an unknown one. */
export const findSession = (client: Tx, playerId: string, id: string): Promise<SessionRow | null> =>
  isUuid(id) && isUuid(playerId) ? client.session.findFirst({ where: { id, playerId } }) : Promise.resolve(null);

/** Marks one live session of the player revoked at `now`; null when the player has no live session with that id. */
export const revokeSession = async (client: Tx, playerId: string, id: string, now: Date): Promise<SessionRow | null> => {
  if (!isUuid(id)) return null;
  const r = await client.session.updateMany({
    where: { id, playerId, revokedAt: null, expiresAt: { gt: now } },
    data: { revokedAt: now },
  });
  return r.count === 0 ? null : client.session.findFirst({ where: { id, playerId } });
};

/** Revokes every live session of the player but `except` (null: all); how many were revoked. */
export const revokeSessionsOf = async (client: Tx, playerId: string, now: Date, except: string | null): Promise<number> => {
  const r = await client.session.updateMany({
    where: { playerId, revokedAt: null, expiresAt: { gt: now }, ...(except === null ? {} : { id: { not: except } }) },
    data: { revokedAt: now },
  });
  return r.count;
};

/** Records a use of a live session and slides its expiry to `expiresAt`; false when it is revoked or expired. */
export const touchSession = async (client: Tx, playerId: string, id: string, now: Date, expiresAt: Date): Promise<boolean> => {
  if (!isUuid(id)) return false;
  const r = await client.session.updateMany({
    where: { id, playerId, revokedAt: null, expiresAt: { gt: now } },
    data: { lastUsedAt: now, expiresAt },
  });
  return r.count > 0;
};

/**
 * The player behind a token and the state of the token's session, in one statement on the driver (the
 * request's only one when its token is not cached: graph/auth.ts). A live session whose last use is at least
 * `touchEveryMs` old is touched in the same statement (`last_used_at` = now, expiry slid by `idleMs`), so a
 * busy session writes once a minute, not once a request.
 */
const SESSION_PLAYER_SQL = `WITH touched AS (
  UPDATE sessions SET last_used_at = $3::timestamptz, expires_at = $3::timestamptz + $4::bigint * interval '1 millisecond'
   WHERE id = $2::uuid AND player_id = $1::uuid AND revoked_at IS NULL AND expires_at > $3::timestamptz
     AND last_used_at <= $3::timestamptz - $5::bigint * interval '1 millisecond'
  RETURNING id
)
SELECT to_jsonb(p) AS player, s.id AS session_id, s.revoked_at, s.expires_at
  FROM players p LEFT JOIN sessions s ON s.id = $2::uuid AND s.player_id = p.id
 WHERE p.id = $1::uuid`;

export type SessionState = 'live' | 'revoked' | 'expired' | 'unknown';

export interface SessionPlayer {
  readonly player: Player;
  readonly session: SessionState;
}

export const findSessionPlayerStatement = async (
  db: Pick<Db, 'statement'>,
  q: { readonly playerId: string; readonly sessionId: string; readonly now: Date; readonly idleMs: number; readonly touchEveryMs: number },
): Promise<SessionPlayer | null> => {
  if (!isUuid(q.playerId)) return null;
  if (!isUuid(q.sessionId)) return null;
  const rows = await db.statement<{ player: unknown; session_id: string | null; revoked_at: unknown; expires_at: unknown }>(
    'arbiter_session_player',
    SESSION_PLAYER_SQL,
    [q.playerId, q.sessionId, q.now.toISOString(), q.idleMs, q.touchEveryMs],
  );
  const row = rows[0];
  if (!row) return null;
  const player = rowOf<Player>(jsonOf(row.player) as Record<string, unknown>);
  const at = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
  const state: SessionState =
    row.session_id === null
      ? 'unknown'
      : at(row.revoked_at) !== null
        ? 'revoked'
        : at(row.expires_at)!.getTime() <= q.now.getTime()
          ? 'expired'
          : 'live';
  return { player, session: state };
};
