import type { RuleError } from '../engine/errors.js';
import { ok, type Result } from '../engine/result.js';
import { formatStandingsCsv } from '../engine/tournament/standings-csv.js';
import { standings } from '../engine/tournament/standings.js';
import { divisionNamed } from '../engine/tournament/commands.js';
import { divisionOf, type DivisionState } from '../engine/tournament/state.js';
import { exportTshDivision as tshOfDivision, importTshDivision as divisionOfTsh } from '../engine/tournament/tsh-division.js';
import { formatTsh, parseTsh } from '../engine/tournament/tsh/index.js';
import { ruleError } from '../engine/errors.js';
import { err } from '../engine/result.js';
import type { ServiceDeps } from './context.js';
import { actorFor } from './tournament-access.js';
import { addEvents, loadLocked, newBatch, writeBatch } from './tournament-batch.js';
import { viewOf } from './tournament-commands.js';
import { fail, refusalsAsValues, tournamentNotFound } from './tournament-errors.js';
import { divisionSpec } from './tournament-spec.js';
import type { DivisionInput, TournamentView } from './tournament-types.js';
import { getTournament } from './tournament-reads.js';

/**
 * TSH `.t` files and the standings CSV of a stored tournament (issue 30, item 7). The meaning of a file is
 * engine/tournament/tsh-division.ts's: its players, each round's pairing (a director's override), every
 * scored game a submitted slip, `off` a withdrawal; the import appends all of it to the tournament's log
 * in one transaction (announcing only `standings-changed`, not a webhook per imported game).
 */

/**
 * Imports a `.t` file as a new over-the-board division (`division`: its name, rule set, lexicon …; the
 * rounds are at least the file's). Directors only. Errors, with nothing written: the parser's (the line and
 * the field named: MISSING_RATING, BAD_SCORE …), TSH_PAIRING_MISMATCH, TSH_EMPTY, the spec's (BAD_INPUT …),
 * DIVISION_EXISTS, NOT_ALLOWED, TOURNAMENT_NOT_FOUND.
 */
export async function importTshDivision(
  deps: ServiceDeps,
  callerId: string,
  tournamentId: string,
  division: DivisionInput,
  text: string,
): Promise<Result<TournamentView, RuleError>> {
  if ((division.mode ?? 'over-the-board') !== 'over-the-board')
    return fail('BAD_INPUT', 'A TSH file imports as an over-the-board division (its players have no accounts to play a league with).', {
      field: 'mode',
    });
  const file = parseTsh(text);
  if (!file.ok) return file;
  const resolved = await divisionSpec(deps, division, 'division');
  if (!resolved.ok) return resolved;
  const now = deps.now();
  return refusalsAsValues(() =>
    deps.db.transaction(async (tx): Promise<Result<TournamentView, RuleError>> => {
      const loaded = await loadLocked(tx, tournamentId);
      if (!loaded) return tournamentNotFound(tournamentId);
      const actor = await actorFor(tx, callerId, loaded.row, loaded.state, { type: 'add-division', spec: resolved.value.spec });
      if (!actor.ok) return actor;
      if (actor.value.role !== 'director')
        return err(ruleError('NOT_ALLOWED', 'Only a director imports a division.', { command: 'add-division', role: actor.value.role }));
      if (divisionOf(loaded.state, resolved.value.spec.name))
        return err(ruleError('DIVISION_EXISTS', `Division "${resolved.value.spec.name}" exists already.`, { field: 'name' }));
      const imported = divisionOfTsh(file.value, resolved.value.spec, actor.value, now.toISOString());
      if (!imported.ok) return imported;
      const batch = newBatch(loaded.state, true);
      const added = addEvents(batch, imported.value.events);
      if (!added.ok) return added;
      batch.extras.set(0, { lexiconHash: resolved.value.lexicon.hash });
      await writeBatch(tx, loaded, batch, now, null);
      return ok(viewOf(loaded.row, batch.state, now, 'director', callerId, now));
    }),
  );
}

/** The division of a tournament the caller may see; TOURNAMENT_NOT_FOUND or DIVISION_NOT_FOUND otherwise. */
const visibleDivision = async (
  deps: ServiceDeps,
  callerId: string | null,
  tournamentId: string,
  name: string,
): Promise<Result<DivisionState, RuleError>> => {
  const t = await getTournament(deps, callerId, tournamentId);
  if (!t.ok) return t;
  return divisionNamed(t.value.state, name);
};

/** A division as a `.t` file TSH reads back (an imported line byte for byte while the division still says what it said). */
export async function exportTshDivision(
  deps: ServiceDeps,
  callerId: string | null,
  tournamentId: string,
  division: string,
): Promise<Result<string, RuleError>> {
  const d = await visibleDivision(deps, callerId, tournamentId, division);
  return d.ok ? ok(formatTsh(tshOfDivision(d.value))) : d;
}

/** A division's standings as CSV (engine/tournament/standings-csv.ts: RFC 4180, a header line, a line per player in rank order). */
export async function standingsCsv(
  deps: ServiceDeps,
  callerId: string | null,
  tournamentId: string,
  division: string,
): Promise<Result<string, RuleError>> {
  const d = await visibleDivision(deps, callerId, tournamentId, division);
  return d.ok ? ok(formatStandingsCsv(standings(d.value))) : d;
}
