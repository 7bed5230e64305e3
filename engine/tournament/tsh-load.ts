import type { RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { PRESETS } from '../rules/presets.js';
import type { RuleSet } from '../rules/ruleset.js';
import { replayTournament } from './apply.js';
import type { Actor, DivisionSpec, TournamentEvent } from './events.js';
import type { PairingMethod } from './pairing/types.js';
import type { DivisionState, TournamentState } from './state.js';
import { importTshDivision } from './tsh-division.js';
import { parseTsh } from './tsh/parse.js';

/**
 * A `.t` file on its own as a one-division tournament, for the command line and for checks: parse, give
 * it meaning, fold. The API imports into a stored tournament with the same `importTshDivision`.
 */

export const TSH_ACTOR: Actor = { role: 'director', playerId: null, name: 'tsh import' };

/** A division spec for an imported file: the rule set's tournament parameters, the rest as TSH events have it (over the board). */
export const importSpec = (name: string, rules: RuleSet, method: PairingMethod = 'swiss', ruleSetId = 'NSA_2008'): DivisionSpec => ({
  name,
  mode: 'over-the-board',
  ruleSetId,
  overrides: {},
  rules,
  lexicon: 'NWL2023',
  tileSet: 'english',
  layout: 'standard',
  rounds: [{ method, startsAt: null, deadline: null }],
  maxRepeats: 1,
  gibsonSpreadPerGame: 250,
  timeControl: null,
});

export interface LoadedDivision {
  readonly state: TournamentState;
  readonly division: DivisionState;
}

/**
 * `text` as a tournament of one division named `name`, with `rounds` planned (at least the file's) and
 * later rounds paired by `method`. Errors: the parser's (line and field named) or the importer's.
 */
export const loadTshDivision = (
  text: string,
  options: {
    readonly name?: string;
    readonly rules?: RuleSet;
    readonly rounds?: number;
    readonly method?: PairingMethod;
    readonly maxRepeats?: number;
  } = {},
): Result<LoadedDivision, RuleError> => {
  const file = parseTsh(text);
  if (!file.ok) return file;
  const at = '1970-01-01T00:00:00.000Z';
  const method = options.method ?? 'swiss';
  const base = importSpec(options.name ?? 'A', options.rules ?? PRESETS.NSA_2008, method);
  const spec = {
    ...base,
    maxRepeats: options.maxRepeats ?? base.maxRepeats,
    rounds: Array.from({ length: options.rounds ?? 1 }, () => base.rounds[0]!),
  };
  const imported = importTshDivision(file.value, spec, TSH_ACTOR, at);
  if (!imported.ok) return imported;
  const created: TournamentEvent = { type: 'tournament-created', at, by: TSH_ACTOR, name: 'imported', organizationId: null, public: true };
  const state = replayTournament([created, ...imported.value.events]);
  if (!state.ok) return err(state.error);
  return ok({ state: state.value, division: state.value.divisions[0]! });
};
