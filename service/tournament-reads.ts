import type { RuleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import { isDirectorRole, roleOf } from '../store/roles.js';
import { listTournamentRows } from '../store/tournaments.js';
import type { ServiceDeps } from './context.js';
import { cursorCodec, type Page } from './paging.js';
import { visibleRole } from './tournament-access.js';
import { loadTournament } from './tournament-batch.js';
import { viewOf } from './tournament-commands.js';
import { fail, tournamentNotFound } from './tournament-errors.js';
import type { TournamentLogEntry, TournamentSummary, TournamentView } from './tournament-types.js';

/**
 * Reading tournaments (issue 30): one tournament, the list, the log — each to those who may see it
 * (service/tournament-access.ts: public tournaments to everyone, private ones to their directors and players).
 */

export const DEFAULT_TOURNAMENTS_PAGE = 20;
export const MAX_TOURNAMENTS_PAGE = 50;
/** Log entries per `tournamentLog` call; the caller pages on with `after`. */
export const MAX_LOG_ENTRIES = 1000;

/** The tournament as the caller (null: anonymous) sees it. TOURNAMENT_NOT_FOUND for an unknown id or a private tournament the caller neither directs nor plays in. */
export async function getTournament(deps: ServiceDeps, callerId: string | null, id: string): Promise<Result<TournamentView, RuleError>> {
  const loaded = await loadTournament(deps.db.prisma, id);
  if (!loaded) return tournamentNotFound(id);
  const role = await visibleRole(deps.db.prisma, callerId, loaded.row, loaded.state);
  if (!role.ok) return role;
  return ok(viewOf(loaded.row, loaded.state, loaded.row.updatedAt, role.value, callerId, deps.now()));
}

const { encode: cursorOf, decode: tournamentIdOf } = cursorCodec('tournament');

/**
 * The tournaments the caller may see, newest first, optionally of one event: public ones, and private ones
 * whose event the caller directs or in which they play (a global director sees all). A relay page of
 * `first` (1–50, default 20) after `after`. Errors: BAD_INPUT (first), CURSOR_INVALID.
 */
export async function listTournaments(
  deps: ServiceDeps,
  callerId: string | null,
  args: { readonly organizationId?: string | null; readonly first?: number | null; readonly after?: string | null },
): Promise<Result<Page<TournamentSummary>, RuleError>> {
  const first = args.first ?? DEFAULT_TOURNAMENTS_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_TOURNAMENTS_PAGE)
    return fail('BAD_INPUT', `first must be 1–${MAX_TOURNAMENTS_PAGE}, not ${first}.`, { field: 'first' });
  const afterId = args.after ? tournamentIdOf(args.after) : null;
  if (args.after && afterId === null)
    return fail('CURSOR_INVALID', `"${args.after}" is not a cursor of the tournament list.`, { field: 'after' });
  const seesAll = callerId !== null && isDirectorRole(await roleOf(deps.db.prisma, callerId));
  const page = await listTournamentRows(deps.db.prisma, {
    organizationId: args.organizationId ?? null,
    viewerId: callerId,
    seesAll,
    afterId,
    take: first,
  });
  if (!page) return fail('CURSOR_INVALID', `"${args.after}" is not a cursor of the tournament list.`, { field: 'after' });
  return ok({
    edges: page.rows.map((t) => ({
      cursor: cursorOf(t.id),
      node: { id: t.id, organizationId: t.organizationId, name: t.name, public: t.public, version: t.version, createdAt: t.createdAt },
    })),
    hasNextPage: page.before + page.rows.length < page.total,
    hasPreviousPage: page.before > 0,
    totalCount: page.total,
  });
}

/** The log after version `after` (at most {@link MAX_LOG_ENTRIES} entries), to those who may see the tournament. */
export async function tournamentLog(
  deps: ServiceDeps,
  callerId: string | null,
  tournamentId: string,
  after: number,
): Promise<Result<readonly TournamentLogEntry[], RuleError>> {
  if (!Number.isInteger(after) || after < 0)
    return fail('BAD_INPUT', `after must be a version (a whole number ≥ 0), not ${after}.`, { field: 'after' });
  const loaded = await loadTournament(deps.db.prisma, tournamentId);
  if (!loaded) return tournamentNotFound(tournamentId);
  const role = await visibleRole(deps.db.prisma, callerId, loaded.row, loaded.state);
  if (!role.ok) return role;
  return ok(
    loaded.stored.slice(after, after + MAX_LOG_ENTRIES).map((s) => {
      const p = s.payload as { at?: string; by?: { name?: string } } & Record<string, unknown>;
      return { version: s.seq, type: s.type, at: p.at ?? s.createdAt.toISOString(), by: p.by?.name ?? '', payload: p };
    }),
  );
}
