import { createHash } from 'node:crypto';
import { appealDisputeOnGame, ruleOnDisputeOnGame, type DirectorRuling } from '../engine/adjudication/director.js';
import type { RuleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import { gameSeating } from '../store/games.js';
import { roleOf, setRole, type Role } from '../store/roles.js';

export type { Role } from '../store/roles.js';
import type { ServiceDeps } from './context.js';
import { runDisputeCommand, type DisputeReceipt } from './disputes.js';
import { fail, gameNotFound } from './game-errors.js';
import { directorAuthority, setOrganizationDirectorRole, type OrganizationRow } from './organizations.js';
import { seatOf, type SeatHolder } from './game-reads.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './turns.js';

/**
 * Directors (issue 14, item 4): an admin grants and revokes the director role; a director rules on a
 * dispute left open for one or appealed (`ruleOnDispute`), choosing a remedy the rules allow; a seated
 * player appeals an automatic ruling once (`appealDispute`). Rulings and appeals are game events
 * appended like a turn (service/disputes.ts `runDisputeCommand`), attributed to the player who acted.
 */

interface GameCommand {
  readonly gameId: string;
  readonly expectedVersion: number;
  readonly idempotencyKey: string;
  readonly dispute: number;
}

export type RuleOnDisputeRequest = GameCommand & Omit<DirectorRuling, 'dispute'>;
export interface AppealRequest extends GameCommand {
  readonly note?: string;
}

const hash = (parts: unknown[]): string => createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('hex');

/** BAD_INPUT for a malformed version, key or dispute number; GAME_NOT_FOUND; GAME_NOT_STARTED. */
const checked = async (deps: ServiceDeps, req: GameCommand) => {
  if (!Number.isInteger(req.expectedVersion) || req.expectedVersion < 0)
    return fail('BAD_INPUT', `expectedVersion must be a game version (a whole number ≥ 0), not ${req.expectedVersion}.`, {
      field: 'expectedVersion',
    });
  if (!Number.isInteger(req.dispute) || req.dispute < 1)
    return fail('BAD_INPUT', `dispute must be a dispute number (1, 2, …), not ${req.dispute}.`, { field: 'dispute' });
  const key = req.idempotencyKey.trim();
  if (key === '' || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)
    return fail('BAD_INPUT', `idempotencyKey must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, { field: 'idempotencyKey' });
  const row = await gameSeating(deps.db.prisma, req.gameId);
  if (!row) return gameNotFound(req.gameId);
  if (row.status === 'open') return fail('GAME_NOT_STARTED', 'The game waits for a second player: it has no disputes.');
  return ok({ row, key, seats: row.seats as readonly SeatHolder[] });
};

/**
 * A director's ruling on an open or appealed dispute: a global director on any game, a club's or event's
 * director on its games (service/organizations.ts `directorAuthority`). Errors: NOT_DIRECTOR (details.reason), BAD_INPUT, GAME_NOT_FOUND,
 * GAME_NOT_STARTED, DISPUTE_NOT_FOUND, DISPUTE_ALREADY_RULED, REMEDY_NOT_ALLOWED (details.allowed),
 * STALE_VERSION, IDEMPOTENCY_KEY_REUSED.
 */
export async function ruleOnDispute(
  deps: ServiceDeps,
  directorId: string,
  req: RuleOnDisputeRequest,
): Promise<Result<DisputeReceipt, RuleError>> {
  const c = await checked(deps, req);
  if (!c.ok) return c;
  const { row, key, seats } = c.value;
  const authority = await directorAuthority(deps, directorId, row.id);
  if (!authority.ok) return authority;
  const ruling: DirectorRuling = {
    dispute: req.dispute,
    remedy: req.remedy,
    note: req.note,
    ...(req.citation ? { citation: req.citation } : {}),
  };
  const idem = {
    scope: `player:${directorId}`,
    key,
    requestHash: hash(['rule', req.gameId, req.expectedVersion, req.dispute, req.remedy, req.note, req.citation ?? null]),
  };
  return runDisputeCommand(deps, row.id, req.expectedVersion, idem, seats, (log, state, seed) =>
    ruleOnDisputeOnGame(log, state, ruling, directorId, seed, authority.value.organization),
  );
}

/**
 * A seated player's appeal of a dispute's automatic ruling (once per dispute). Errors: NOT_SEATED,
 * BAD_INPUT, GAME_NOT_FOUND, GAME_NOT_STARTED, DISPUTE_NOT_FOUND, DISPUTE_NOT_RULED, ALREADY_APPEALED,
 * STALE_VERSION, IDEMPOTENCY_KEY_REUSED.
 */
export async function appealDispute(deps: ServiceDeps, playerId: string, req: AppealRequest): Promise<Result<DisputeReceipt, RuleError>> {
  const c = await checked(deps, req);
  if (!c.ok) return c;
  const { row, key, seats } = c.value;
  const seat = seatOf(seats, playerId);
  if (seat === null) return fail('NOT_SEATED', 'Only a player seated in the game may appeal a ruling on it.', { gameId: row.id });
  const idem = {
    scope: `player:${playerId}`,
    key,
    requestHash: hash(['appeal', req.gameId, req.expectedVersion, req.dispute, req.note ?? null]),
  };
  return runDisputeCommand(deps, row.id, req.expectedVersion, idem, seats, (log) =>
    appealDisputeOnGame(log, req.dispute, { seat, by: playerId }, req.note),
  );
}

/** A role after a grant or revoke: globally, or in `organization` (the role there: director or player). */
export interface RoleGrant {
  readonly handle: string;
  readonly role: Role;
  readonly organization: OrganizationRow | null;
}

/**
 * An admin grants (`director`) or revokes (`player`) the director role: globally, or with `organizationId`
 * in that club or event only. An admin's own role is changed only from the command line (`arbiter
 * director`), so no API call can lock the last admin out. Errors: NOT_ADMIN, PLAYER_NOT_FOUND, BAD_INPUT (the
 * handle is an admin's, globally), ORGANIZATION_NOT_FOUND.
 */
export async function setDirector(
  deps: ServiceDeps,
  adminId: string,
  handle: string,
  grant: boolean,
  organizationId: string | null = null,
): Promise<Result<RoleGrant, RuleError>> {
  if (organizationId !== null) {
    const r = await setOrganizationDirectorRole(deps, adminId, organizationId, handle, grant);
    return r.ok ? ok({ handle, role: grant ? 'director' : 'player', organization: r.value.organization }) : r;
  }
  if ((await roleOf(deps.db.prisma, adminId)) !== 'admin') return fail('NOT_ADMIN', 'Only an admin grants or revokes the director role.');
  const target = await deps.db.prisma.player.findUnique({ where: { handle }, select: { role: true } });
  if (!target) return fail('PLAYER_NOT_FOUND', `No player has the handle "${handle}".`, { field: 'handle' });
  if (target.role === 'admin')
    return fail('BAD_INPUT', `"${handle}" is an admin: an admin's role changes only from the command line (arbiter director).`, {
      field: 'handle',
    });
  const role: Role = grant ? 'director' : 'player';
  await setRole(deps.db.prisma, handle, role);
  return ok({ handle, role, organization: null });
}
