import { randomUUID } from 'node:crypto';
import type { RuleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import { replayTournament } from '../engine/tournament/apply.js';
import type { TournamentCommandOf } from '../engine/tournament/commands.js';
import type { Actor, TournamentEvent } from '../engine/tournament/events.js';
import { findIdempotent } from '../store/idempotency.js';
import { findOrganization } from '../store/organizations.js';
import { findPlayerByHandle, findPlayerById } from '../store/players.js';
import { insertTournament } from '../store/tournaments.js';
import type { ServiceDeps } from './context.js';
import { turnRequestHash } from './turns.js';
import { directs } from './tournament-access.js';
import { batchRows, decideInto, newBatch, storeReceipt, type Batch, type CommandReceipt } from './tournament-batch.js';
import { isUniqueViolation, optionsProblem } from './tournament-commands.js';
import { fail } from './tournament-errors.js';
import { getTournament } from './tournament-reads.js';
import { divisionSpec, type ResolvedDivision } from './tournament-spec.js';
import type { EntrantInput, NewTournamentInput, TournamentView } from './tournament-types.js';

export * from './tournament-types.js';
export { runTournamentCommand } from './tournament-commands.js';
export {
  getTournament,
  listTournaments,
  tournamentLog,
  DEFAULT_TOURNAMENTS_PAGE,
  MAX_TOURNAMENTS_PAGE,
  MAX_LOG_ENTRIES,
} from './tournament-reads.js';
export { importTshDivision, exportTshDivision, standingsCsv } from './tournament-tsh.js';
export {
  divisionSpec,
  defaultMaxRepeats,
  DEFAULT_GIBSON_SPREAD_PER_GAME,
  DEFAULT_LEAGUE_TIME_CONTROL,
  DEFAULT_PAIRING_METHOD,
} from './tournament-spec.js';
export { TOURNAMENT_SERVICE_ERROR_CODES, type TournamentServiceErrorCode } from './tournament-errors.js';

/**
 * Tournaments (issue 30): the use cases graph/ and rest/ call. A tournament belongs to an event (an
 * organization of kind `event`) and is an append-only log (engine/tournament); this module creates it and
 * reads it, service/tournament-commands.ts runs its commands, service/tournament-league.ts runs
 * correspondence leagues. Storage and service are described in docs/tournaments.md.
 */

export const MAX_TOURNAMENT_NAME_LENGTH = 100;
export const MAX_DIVISIONS = 26;

/** An engine error whose `field` is under `prefix` (a division's `name` is `divisions[0].name`). */
const under = <T>(r: Result<T, RuleError>, prefix: string): Result<T, RuleError> =>
  r.ok
    ? r
    : err({
        ...r.error,
        details: { ...r.error.details, field: `${prefix}.${String(r.error.details?.['field'] ?? '')}`.replace(/\.$/, '') },
      });

/** A division's entrants given at creation as `add-player` commands (accounts looked up). */
const entrantCommands = async (
  deps: ServiceDeps,
  division: ResolvedDivision,
  given: readonly EntrantInput[],
  prefix: string,
): Promise<Result<TournamentCommandOf<'add-player'>[], RuleError>> => {
  const out: TournamentCommandOf<'add-player'>[] = [];
  for (const [j, p] of given.entries()) {
    const at = `${prefix}.players[${j}]`;
    const account = p.handle
      ? await findPlayerByHandle(deps.db.prisma, p.handle.trim().toLowerCase())
      : p.playerId
        ? await findPlayerById(deps.db.prisma, p.playerId)
        : null;
    if ((p.handle || p.playerId) && !account)
      return fail('PLAYER_NOT_FOUND', `No player has the ${p.handle ? `handle "${p.handle}"` : `id "${p.playerId}"`}.`, {
        field: `${at}.${p.handle ? 'handle' : 'playerId'}`,
      });
    if (!account && division.spec.mode === 'correspondence')
      return fail('BAD_INPUT', `Division ${division.spec.name} is a correspondence league: each player needs an account (handle).`, {
        field: `${at}.handle`,
      });
    const name = p.name?.trim() || account?.displayName || '';
    out.push({
      type: 'add-player',
      division: division.spec.name,
      name,
      playerId: account?.id ?? null,
      rating: p.rating ?? 0,
      class: p.class ?? null,
    });
  }
  return ok(out);
};

/** The first events of a new tournament, decided by the engine one command at a time (so each is checked as a later one would be). */
const firstEvents = async (deps: ServiceDeps, input: NewTournamentInput, actor: Actor, now: string): Promise<Result<Batch, RuleError>> => {
  const created: TournamentEvent = {
    type: 'tournament-created',
    at: now,
    by: actor,
    name: input.name.trim(),
    organizationId: input.organizationId,
    public: input.public ?? true,
  };
  const initial = replayTournament([created]);
  if (!initial.ok) return initial;
  const batch = newBatch(initial.value);
  batch.events.push(created);
  for (const [i, d] of input.divisions.entries()) {
    const prefix = `divisions[${i}]`;
    const resolved = await divisionSpec(deps, d, prefix);
    if (!resolved.ok) return resolved;
    const added = under(decideInto(batch, { type: 'add-division', spec: resolved.value.spec }, { actor, now }), prefix);
    if (!added.ok) return added;
    batch.extras.set(batch.events.length - 1, { lexiconHash: resolved.value.lexicon.hash });
    const players = await entrantCommands(deps, resolved.value, d.players ?? [], prefix);
    if (!players.ok) return players;
    for (const [j, c] of players.value.entries()) {
      const r = under(decideInto(batch, c, { actor, now }), `${prefix}.players[${j}]`);
      if (!r.ok) return r;
    }
  }
  return ok({ ...batch, before: batch.state });
};

/** BAD_INPUT for a name or a division list out of bounds; else null. */
const inputProblem = (input: NewTournamentInput): Result<never, RuleError> | null => {
  const name = input.name.trim();
  if (name === '' || name.length > MAX_TOURNAMENT_NAME_LENGTH)
    return fail('BAD_INPUT', `name must be 1–${MAX_TOURNAMENT_NAME_LENGTH} characters.`, { field: 'name' });
  if (input.divisions.length > MAX_DIVISIONS)
    return fail('BAD_INPUT', `A tournament has at most ${MAX_DIVISIONS} divisions.`, { field: 'divisions' });
  return null;
};

/**
 * Creates a tournament of the event `input.organizationId` with its divisions (and their players, if
 * given), in one transaction. The caller must direct the event (or be a global director or admin). Errors,
 * with nothing written: NOT_DIRECTOR, ORGANIZATION_NOT_FOUND, NOT_AN_EVENT, BAD_INPUT (field named),
 * UNKNOWN_PRESET / BAD_RULE_PARAMETER, LEXICON_NOT_FOUND, PLAYER_NOT_FOUND, the engine's (DIVISION_EXISTS …),
 * IDEMPOTENCY_KEY_REUSED. A retry with the same key and input answers the tournament made the first time.
 */
export async function createTournament(
  deps: ServiceDeps,
  callerId: string,
  input: NewTournamentInput,
  idempotencyKey?: string | null,
): Promise<Result<TournamentView, RuleError>> {
  const key = optionsProblem({ idempotencyKey: idempotencyKey ?? null });
  if (!key.ok) return key;
  const bad = inputProblem(input);
  if (bad) return bad;
  const org = await findOrganization(deps.db.prisma, input.organizationId);
  if (!org) return fail('ORGANIZATION_NOT_FOUND', `No club or event has the id "${input.organizationId}".`, { field: 'organizationId' });
  if (org.kind !== 'event')
    return fail('NOT_AN_EVENT', `"${org.name}" is a club: tournaments belong to events.`, { field: 'organizationId' });
  if (!(await directs(deps.db.prisma, callerId, org.id)))
    return fail('NOT_DIRECTOR', `Only a director of "${org.name}" (or a global director) creates its tournaments.`, {
      field: 'organizationId',
    });
  const me = await findPlayerById(deps.db.prisma, callerId);
  const now = deps.now();
  const batch = await firstEvents(
    deps,
    { ...input, organizationId: org.id },
    { role: 'director', playerId: callerId, name: me?.handle ?? callerId },
    now.toISOString(),
  );
  if (!batch.ok) return batch;
  const idem = key.value
    ? {
        scope: `player:${callerId}`,
        key: key.value,
        requestHash: turnRequestHash({ gameId: 'tournament:new', expectedVersion: 0, action: input }),
      }
    : null;
  const id = randomUUID();
  const write = () =>
    deps.db.transaction(async (tx): Promise<Result<CommandReceipt, RuleError>> => {
      if (idem) {
        const prior = await findIdempotent<CommandReceipt>(tx, idem);
        if (!prior.ok || prior.value) return prior.ok ? ok(prior.value!.response) : prior;
      }
      const rows = batchRows(id, 0, batch.value);
      await insertTournament(
        tx,
        { id, organizationId: org.id, name: input.name.trim(), public: input.public ?? true, createdBy: callerId },
        rows,
        now,
      );
      const receipt = { tournamentId: id, version: rows.version };
      if (idem) await storeReceipt(tx, idem, receipt, now);
      return ok(receipt);
    });
  const receipt = await write().catch((e: unknown) => (idem && isUniqueViolation(e) ? write() : Promise.reject(e)));
  if (!receipt.ok) return receipt;
  return getTournament(deps, callerId, receipt.value.tournamentId);
}
