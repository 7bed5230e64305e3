import { ruleError, type RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { Db, Tx } from '../store/db.js';
import {
  findSession,
  findSessionPlayerStatement,
  insertSession,
  listLiveSessions,
  revokeSession,
  revokeSessionsOf,
  touchSession,
  type SessionPlayer,
  type SessionRow,
  type SessionState,
} from '../store/sessions.js';

export type { SessionPlayer, SessionRow, SessionState };

/**
 * Sign-in sessions (issue 32; docs/accounts.md "Sessions"). Every password login (and registration) opens
 * one; its tokens carry its id as `sid` and are refused once it is revoked or expired. A session expires
 * after {@link SESSION_IDLE_MS} without use: each use (at most once a minute, see {@link SESSION_TOUCH_MS})
 * slides the expiry, so a session used every day lives on, one left alone dies after 30 days.
 */
export const SESSION_IDLE_MS = 30 * 24 * 3600 * 1000;
/** A session's `last_used_at` is written at most this often: a busy session costs one write a minute, not one per request. */
export const SESSION_TOUCH_MS = 60_000;
/** The user agent kept as a session's device, at most this long (a header can be kilobytes). */
const MAX_USER_AGENT_LENGTH = 512;

export const SESSION_ERROR_CODES = ['SESSION_NOT_FOUND', 'SESSION_REVOKED', 'SESSION_EXPIRED'] as const;

/** Opens a session for the player, `userAgent` naming the device. */
export const startSession = (client: Tx, playerId: string, userAgent: string | null, now: Date): Promise<SessionRow> =>
  insertSession(client, {
    playerId,
    userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT_LENGTH) : null,
    now,
    expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
  });

/** The player behind a token and its session's state, in one statement (graph/auth.ts); touches a live session (once a minute). */
export const findSessionPlayer = (
  db: Pick<Db, 'statement'>,
  playerId: string,
  sessionId: string,
  now: Date,
): Promise<SessionPlayer | null> =>
  findSessionPlayerStatement(db, { playerId, sessionId, now, idleMs: SESSION_IDLE_MS, touchEveryMs: SESSION_TOUCH_MS });

/** The player's live sessions, the most recently used first. */
export const listSessions = (client: Tx, playerId: string, now: Date): Promise<SessionRow[]> => listLiveSessions(client, playerId, now);

/** Ends one of the player's live sessions. Error: `SESSION_NOT_FOUND` (also for another player's: no oracle). */
export const endSession = async (client: Tx, playerId: string, id: string, now: Date): Promise<Result<SessionRow, RuleError>> => {
  const row = await revokeSession(client, playerId, id, now);
  return row ? ok(row) : err(ruleError('SESSION_NOT_FOUND', `You have no live session with the id "${id}".`, { field: 'id', id }));
};

/** Ends every live session of the player, or every one but `keep`; how many were ended. */
export const endSessions = (client: Tx, playerId: string, now: Date, keep: string | null): Promise<number> =>
  revokeSessionsOf(client, playerId, now, keep);

/**
 * Keeps a live session going for a new token (renewToken): records the use and slides the expiry. Errors:
 * `SESSION_REVOKED`, `SESSION_EXPIRED`, `SESSION_NOT_FOUND` (an unknown session, or one of another player).
 */
export const renewSession = async (client: Tx, playerId: string, id: string, now: Date): Promise<Result<SessionRow, RuleError>> => {
  const row = await findSession(client, playerId, id);
  if (!row) return err(ruleError('SESSION_NOT_FOUND', 'The token’s session does not exist: sign in again (login).', { id }));
  if (row.revokedAt) return err(ruleError('SESSION_REVOKED', 'The token’s session was ended: sign in again (login).', { id }));
  const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS);
  if (!(await touchSession(client, playerId, id, now, expiresAt)))
    return err(ruleError('SESSION_EXPIRED', 'The token’s session expired after 30 days without use: sign in again (login).', { id }));
  return ok({ ...row, lastUsedAt: now, expiresAt });
};
