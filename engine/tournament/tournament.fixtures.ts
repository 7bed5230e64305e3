import { PRESETS } from '../rules/presets.js';
import type { RuleSet, RuleSetId } from '../rules/ruleset.js';
import type { TournamentCommand } from './commands.js';
import { applyAll, decideTournament } from './decide.js';
import { replayTournament } from './apply.js';
import type { Actor, DivisionSpec, TournamentEvent } from './events.js';
import type { PairingMethod } from './pairing/types.js';
import type { TournamentState } from './state.js';

/** Test helpers: a tournament built by commands, as the service would, with a fixed clock. */

export const DIRECTOR: Actor = { role: 'director', playerId: null, name: 'td' };
export const SYSTEM: Actor = { role: 'system', playerId: null, name: 'system' };
export const playerActor = (entrant: number): Actor => ({ role: 'player', playerId: null, name: `p${entrant}`, entrant });

export const T0 = '2026-03-07T09:00:00.000Z';

export const divisionSpec = (
  over: Partial<DivisionSpec> & {
    ruleSetId?: RuleSetId;
    rulesPatch?: (r: RuleSet) => RuleSet;
    method?: PairingMethod;
    roundCount?: number;
  } = {},
): DivisionSpec => {
  const ruleSetId = over.ruleSetId ?? 'NSA_2008';
  const base = PRESETS[ruleSetId];
  const rules = over.rulesPatch ? over.rulesPatch(base) : base;
  const rounds =
    over.rounds ??
    Array.from({ length: over.roundCount ?? 7 }, (_x, i) => ({
      method: over.method ?? 'round-robin',
      startsAt: new Date(Date.parse(T0) + i * 3_600_000).toISOString(),
      deadline: null,
    }));
  return {
    name: over.name ?? 'A',
    mode: over.mode ?? 'over-the-board',
    ruleSetId,
    overrides: {},
    rules,
    lexicon: 'NWL2023',
    tileSet: 'english',
    layout: 'standard',
    rounds,
    maxRepeats: over.maxRepeats ?? 0,
    gibsonSpreadPerGame: over.gibsonSpreadPerGame ?? 250,
    timeControl: null,
  };
};

export const created = (): TournamentEvent => ({
  type: 'tournament-created',
  at: T0,
  by: DIRECTOR,
  name: 'Saturday Open',
  organizationId: null,
  public: true,
});

/** A tournament with one division and `players` entrants rated 2000, 1950, 1900 … */
export const tournamentWith = (players: number, spec: DivisionSpec = divisionSpec()): TournamentState => {
  const events: TournamentEvent[] = [created(), { type: 'division-added', at: T0, by: DIRECTOR, spec }];
  for (let i = 1; i <= players; i++)
    events.push({
      type: 'player-added',
      at: T0,
      by: DIRECTOR,
      division: spec.name,
      entrant: { number: i, name: `Player ${i}`, playerId: null, rating: 2050 - 50 * i, class: null },
    });
  const r = replayTournament(events);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

/** Runs a command that must succeed; returns the next state. */
export const run = (state: TournamentState, command: TournamentCommand, actor: Actor = DIRECTOR, now = T0): TournamentState => {
  const events = decideTournament(state, command, { actor, now });
  if (!events.ok) throw new Error(`${events.error.code}: ${events.error.message}`);
  const next = applyAll(state, events.value);
  if (!next.ok) throw new Error(next.error.message);
  return next.value;
};

/** The error code a command is refused with (or 'OK'). */
export const refusal = (state: TournamentState, command: TournamentCommand, actor: Actor = DIRECTOR, now = T0): string => {
  const r = decideTournament(state, command, { actor, now });
  return r.ok ? 'OK' : r.error.code;
};

export const result = (
  division: string,
  round: number,
  a: number,
  b: number,
  sa: number,
  sb: number,
  final = false,
): TournamentCommand => ({
  type: 'record-result',
  division,
  round,
  players: [a, b],
  scores: [sa, sb],
  kind: 'played',
  forfeiter: null,
  forfeitReason: null,
  gameId: null,
  final,
});

export const override = (division: string, round: number, games: [number, number][], bye: number | null = null): TournamentCommand => ({
  type: 'override-pairing',
  division,
  round,
  games,
  bye,
  reason: 'test pairing',
});
