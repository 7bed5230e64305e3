import type { RuleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import type { Actor } from '../engine/tournament/events.js';
import type { TournamentCommand } from '../engine/tournament/commands.js';
import { divisionOf, type TournamentState } from '../engine/tournament/state.js';
import type { Tx } from '../store/db.js';
import { findIdempotent, type Idempotency } from '../store/idempotency.js';
import { isPrismaKnownError } from '../store/prisma-errors.js';
import { isUuid } from '../store/ids.js';
import type { ServiceDeps } from './context.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH, turnRequestHash } from './turns.js';
import { actorFor, entrantsOf, viewerRoleOf } from './tournament-access.js';
import { decideInto, lexiconsOf, loadLocked, loadTournament, newBatch, writeBatch, type CommandReceipt } from './tournament-batch.js';
import { fail, refusalsAsValues, tournamentNotFound } from './tournament-errors.js';
import { advanceLeagues, pairingSeed } from './tournament-league.js';
import { divisionSpec, inputOfSpec, type LexiconEdition } from './tournament-spec.js';
import type { CommandOptions, OverdueRound, TournamentCommandInput, TournamentView, TournamentViewerRole } from './tournament-types.js';

/**
 * One tournament command as one transaction (issue 30): lock the tournament's row, read and fold its
 * log, find who the caller acts as (service/tournament-access.ts), check `expectedVersion`, let the engine
 * decide (`decideTournament`), let a league take its own steps (service/tournament-league.ts: games of a
 * started round, the next round), then append every event with its webhooks' outbox rows and the
 * idempotency record. Two commands on one tournament run one after the other (the row lock): given the same
 * `expectedVersion`, the second gets VERSION_CONFLICT; given none, it is decided on the state the first left.
 * Any refusal writes nothing: it is returned before the first write, or thrown (a Refusal) to roll the
 * transaction back.
 */

/** The hash an idempotency key is checked against: the tournament, the expected version and the command. */
const commandHash = (tournamentId: string, expected: number | null, command: TournamentCommand): string =>
  turnRequestHash({ gameId: `tournament:${tournamentId}`, expectedVersion: expected ?? -1, action: command });

/** BAD_INPUT for a malformed expectedVersion or idempotencyKey; else the key (trimmed) or null. */
export const optionsProblem = (options: CommandOptions): Result<string | null, RuleError> => {
  const v = options.expectedVersion;
  if (v !== null && v !== undefined && (!Number.isInteger(v) || v < 0))
    return fail('BAD_INPUT', `expectedVersion must be a tournament version (a whole number ≥ 0), not ${v}.`, { field: 'expectedVersion' });
  const key = options.idempotencyKey?.trim() ?? '';
  if (options.idempotencyKey !== null && options.idempotencyKey !== undefined && (key === '' || key.length > MAX_IDEMPOTENCY_KEY_LENGTH))
    return fail('BAD_INPUT', `idempotencyKey must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`, { field: 'idempotencyKey' });
  return ok(key === '' ? null : key);
};

/** A unique violation (a concurrent retry's idempotency record committed first). */
export const isUniqueViolation = (e: unknown): boolean => {
  if ((e as { code?: unknown } | null)?.code === '23505') return true;
  if (!isPrismaKnownError(e)) return false;
  const cause = (e.meta?.['driverAdapterError'] as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return e.code === 'P2002' || (e.code === 'P2010' && cause?.originalCode === '23505');
};

/** Rounds past their deadline whose games have not all got a result, as of `now`. */
export const overdueRounds = (state: TournamentState, now: Date): OverdueRound[] =>
  state.divisions.flatMap((d) =>
    d.rounds.flatMap((r) => {
      const deadline = d.spec.rounds[r.number - 1]?.deadline ?? null;
      if (deadline === null || r.status === 'ended' || Date.parse(deadline) > now.getTime()) return [];
      const openGames = r.games.filter((g) => !r.slips[g.first]).map((g) => [g.first, g.second] as const);
      return r.status === 'unpaired' || openGames.length > 0 ? [{ division: d.spec.name, round: r.number, deadline, openGames }] : [];
    }),
  );

/** The view of a tournament at a state, for a caller whose role is known. */
export const viewOf = (
  row: { readonly id: string; readonly organizationId: string; readonly createdAt: Date },
  state: TournamentState,
  updatedAt: Date,
  role: TournamentViewerRole,
  callerId: string | null,
  now: Date,
): TournamentView => ({
  id: row.id,
  organizationId: row.organizationId,
  version: state.version,
  state,
  viewerRole: role,
  myEntrants: entrantsOf(state, callerId),
  overdue: overdueRounds(state, now),
  createdAt: row.createdAt,
  updatedAt,
});

/** What the service fills in before the transaction: a drawn pairing seed, an `add-division`'s spec resolved again. */
const prepared = async (
  deps: ServiceDeps,
  command: TournamentCommand,
): Promise<Result<{ command: TournamentCommand; lexicon: LexiconEdition | null }, RuleError>> => {
  if (command.type === 'pair-round' && !command.seed) return ok({ command: { ...command, seed: pairingSeed() }, lexicon: null });
  if (command.type !== 'add-division') return ok({ command, lexicon: null });
  const resolved = await divisionSpec(deps, inputOfSpec(command.spec), 'spec');
  return resolved.ok ? ok({ command: { ...command, spec: resolved.value.spec }, lexicon: resolved.value.lexicon }) : resolved;
};

/** An `add-player`'s account checked (and its display name taken for a blank name); a league's players need one. */
const withAccount = async (tx: Tx, state: TournamentState, command: TournamentCommand): Promise<Result<TournamentCommand, RuleError>> => {
  if (command.type !== 'add-player') return ok(command);
  if (command.playerId === null) {
    const mode = divisionOf(state, command.division)?.spec.mode;
    return mode === 'correspondence'
      ? fail(
          'BAD_INPUT',
          `Division ${command.division} is a correspondence league: its players play on Arbiter, so each needs an account.`,
          { field: 'playerId' },
        )
      : ok(command);
  }
  const player = isUuid(command.playerId) ? await tx.player.findUnique({ where: { id: command.playerId } }) : null;
  if (!player) return fail('PLAYER_NOT_FOUND', `No player has the id "${command.playerId}".`, { field: 'playerId' });
  return ok(command.name.trim() === '' ? { ...command, name: player.displayName } : command);
};

interface Committed {
  readonly receipt: CommandReceipt;
  /** The state after the command and the actor's role; absent for a replayed retry. */
  readonly after?: {
    readonly state: TournamentState;
    readonly role: TournamentViewerRole;
    readonly row: { id: string; organizationId: string; createdAt: Date };
  };
}

const inTransaction = async (
  tx: Tx,
  callerId: string,
  tournamentId: string,
  job: { command: TournamentCommand; lexicon: LexiconEdition | null; expected: number | null; idem: Idempotency | null; now: Date },
): Promise<Result<Committed, RuleError>> => {
  const loaded = await loadLocked(tx, tournamentId);
  if (!loaded) return tournamentNotFound(tournamentId);
  if (job.idem) {
    const prior = await findIdempotent<CommandReceipt>(tx, job.idem);
    if (!prior.ok) return prior;
    if (prior.value) return ok({ receipt: prior.value.response });
  }
  const actor = await actorFor(tx, callerId, loaded.row, loaded.state, job.command);
  if (!actor.ok) return actor;
  if (job.expected !== null && job.expected !== loaded.row.version)
    return fail(
      'VERSION_CONFLICT',
      `The tournament is at version ${loaded.row.version}, not ${job.expected}: reload it and decide again.`,
      {
        field: 'expectedVersion',
        expected: job.expected,
        actual: loaded.row.version,
      },
    );
  const command = await withAccount(tx, loaded.state, job.command);
  if (!command.ok) return command;
  const batch = newBatch(loaded.state);
  const decided = decideInto(batch, command.value, { actor: actor.value as Actor, now: job.now.toISOString() });
  if (!decided.ok) return decided;
  const lexicons = lexiconsOf(loaded.stored);
  const added = batch.events.findIndex((e) => e.type === 'division-added');
  if (added >= 0 && job.lexicon && command.value.type === 'add-division') {
    batch.extras.set(added, { lexiconHash: job.lexicon.hash });
    lexicons.set(command.value.spec.name.trim(), job.lexicon);
  }
  await advanceLeagues({ tx, loaded, lexicons, now: job.now }, batch);
  const version = await writeBatch(tx, loaded, batch, job.now, job.idem);
  return ok({
    receipt: { tournamentId: loaded.row.id, version },
    after: { state: batch.state, role: actor.value.role === 'director' ? 'director' : 'player', row: loaded.row },
  });
};

/**
 * Runs one command (see the module comment) and answers the tournament as the caller sees it right after.
 * A retry with the same idempotency key and command answers the tournament at the version the first
 * attempt left, writing nothing; the same key with another command is IDEMPOTENCY_KEY_REUSED.
 */
export async function runTournamentCommand(
  deps: ServiceDeps,
  callerId: string,
  tournamentId: string,
  input: TournamentCommandInput,
  options: CommandOptions = {},
): Promise<Result<TournamentView, RuleError>> {
  const key = optionsProblem(options);
  if (!key.ok) return key;
  if (!isUuid(tournamentId)) return tournamentNotFound(tournamentId);
  const expected = options.expectedVersion ?? null;
  const idem = key.value ? { scope: `player:${callerId}`, key: key.value, requestHash: commandHash(tournamentId, expected, input) } : null;
  const job = await prepared(deps, input);
  if (!job.ok) return job;
  const now = deps.now();
  const run = () =>
    refusalsAsValues(() => deps.db.transaction((tx) => inTransaction(tx, callerId, tournamentId, { ...job.value, expected, idem, now })));
  let r: Result<Committed, RuleError>;
  try {
    r = await run();
  } catch (e) {
    // A concurrent retry of this very request committed its record first: answer what it answered.
    if (!idem || !isUniqueViolation(e)) throw e;
    r = await run();
  }
  if (!r.ok) return r;
  const { receipt, after } = r.value;
  if (after) return ok(viewOf(after.row, after.state, now, after.role, callerId, now));
  const loaded = await loadTournament(deps.db.prisma, receipt.tournamentId, receipt.version);
  if (!loaded) return tournamentNotFound(tournamentId);
  const role = await viewerRoleOf(deps.db.prisma, callerId, loaded.row.organizationId, loaded.state);
  return ok(viewOf(loaded.row, loaded.state, loaded.row.updatedAt, role, callerId, now));
}
