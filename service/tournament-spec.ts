import type { RuleError } from '../engine/errors.js';
import { DEFAULT_RATING_SYSTEM, isRatingSystemName, RATING_SYSTEM_NAMES } from '../engine/rating/division.js';
import { validateTimeControl } from '../engine/game/clock.js';
import type { TimeControl } from '../engine/game/events.js';
import { err, ok, type Result } from '../engine/result.js';
import { DIVISION_MODES, type DivisionMode, type DivisionSpec, type RoundPlan } from '../engine/tournament/events.js';
import { PAIRING_METHODS, type PairingMethod } from '../engine/tournament/pairing/types.js';
import type { ServiceDeps } from './context.js';
import { lexiconNamed } from './game-create.js';
import { DEFAULT_RULE_SET, ruleSetFor } from './rules.js';
import { fail } from './tournament-errors.js';
import type { DivisionInput, RoundPlanInput } from './tournament-types.js';

/**
 * A division's spec from what the API gives (issue 30, item 1): the rule set resolved as a game's is
 * (preset + overrides, service/rules.ts `ruleSetFor`, fixed from then on), the lexicon found as a game's
 * is (`lexiconNamed`: its edition, name and content hash, is kept with the `division-added` event so that a
 * league's games are played with that list even after a newer edition is uploaded), and the defaults below.
 */

/** A round's method when neither its plan nor the division names one. */
export const DEFAULT_PAIRING_METHOD: PairingMethod = 'swiss';

/**
 * Spread a win is worth per game left when deciding who has clinched first (Gibsonization). Our default:
 * 250, the first value of the example COP configuration for TSH (`config gibson_spread = [250, 200]`, in the
 * notes on running Woogles' COP pairings under TSH); we found no TSH built-in default to cite.
 */
export const DEFAULT_GIBSON_SPREAD_PER_GAME = 250;

/** A correspondence league's clock when none is given: 3 days a turn, no time bank. */
export const DEFAULT_LEAGUE_TIME_CONTROL: TimeControl = { kind: 'correspondence', turnSeconds: 3 * 24 * 3600, bankSeconds: 0 };

export const MAX_ROUNDS = 100;
export const MAX_MAX_REPEATS = 100;
export const MAX_GIBSON_SPREAD = 1000;

/**
 * How often two players may meet again (0: once only) when the division does not say: with `players` known
 * at creation, 0 while the rounds fit in one round robin (n − 1 rounds for an even n, n for an odd n, where
 * each sits out once), else the fewest repeats a schedule of that length needs, ⌈rounds ÷ that⌉ − 1. With no
 * players known yet, `rounds − 1`: no cap beyond the rounds themselves. Every method pairs the fewest repeats
 * it can anyway (engine/tournament/pairing), so the cap only decides between a repeat and REPEAT_LIMIT when a
 * repeat cannot be avoided.
 */
export const defaultMaxRepeats = (rounds: number, players: number | null): number => {
  if (players === null || players < 2) return Math.max(0, rounds - 1);
  const perCycle = players % 2 === 1 ? players : players - 1;
  return rounds <= perCycle ? 0 : Math.ceil(rounds / perCycle) - 1;
};

/** A lexicon edition: what a game stores. */
export interface LexiconEdition {
  readonly name: string;
  readonly hash: string;
}

export interface ResolvedDivision {
  readonly spec: DivisionSpec;
  readonly lexicon: LexiconEdition;
}

const wholeIn = (n: unknown, min: number, max: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** An ISO time normalised, or null for none; BAD_INPUT naming `field` when it does not parse. */
const isoTime = (text: string | null | undefined, field: string): Result<string | null, RuleError> => {
  if (text === null || text === undefined || text.trim() === '') return ok(null);
  const t = Date.parse(text);
  return Number.isNaN(t)
    ? fail('BAD_INPUT', `${field} must be an ISO time (2027-03-06T09:30:00Z), not "${text}".`, { field })
    : ok(new Date(t).toISOString());
};

const roundPlans = (input: DivisionInput, prefix: string): Result<RoundPlan[], RuleError> => {
  const fallback = input.method ?? DEFAULT_PAIRING_METHOD;
  const given = input.roundPlans ?? [];
  if (given.length > input.rounds)
    return fail('BAD_INPUT', `roundPlans has ${given.length} plans for ${input.rounds} rounds.`, { field: `${prefix}.roundPlans` });
  const plans: RoundPlan[] = [];
  for (let i = 0; i < input.rounds; i++) {
    const plan: RoundPlanInput = given[i] ?? {};
    const method = plan.method ?? fallback;
    const field = given[i]?.method ? `${prefix}.roundPlans[${i}].method` : `${prefix}.method`;
    if (!(PAIRING_METHODS as readonly string[]).includes(method))
      return fail('BAD_INPUT', `${method} is not a pairing method (${PAIRING_METHODS.join(', ')}).`, { field });
    const startsAt = isoTime(plan.startsAt, `${prefix}.roundPlans[${i}].startsAt`);
    if (!startsAt.ok) return startsAt;
    const deadline = isoTime(plan.deadline, `${prefix}.roundPlans[${i}].deadline`);
    if (!deadline.ok) return deadline;
    plans.push({ method, startsAt: startsAt.value, deadline: deadline.value });
  }
  return ok(plans);
};

/** The overrides with the `tileSet` and `layout` shorthands folded into `board`. */
const overridesOf = (input: DivisionInput, prefix: string): Result<Record<string, unknown>, RuleError> => {
  const given = input.overrides ?? {};
  if (typeof given !== 'object' || Array.isArray(given))
    return fail('BAD_INPUT', 'overrides must be an object like the rule set.', { field: `${prefix}.overrides` });
  const o = given as Record<string, unknown>;
  if (!input.tileSet && !input.layout) return ok(o);
  const board = typeof o['board'] === 'object' && o['board'] !== null ? (o['board'] as Record<string, unknown>) : {};
  return ok({
    ...o,
    board: { ...board, ...(input.tileSet ? { distribution: input.tileSet } : {}), ...(input.layout ? { layout: input.layout } : {}) },
  });
};

const timeControlOf = (
  mode: DivisionMode,
  given: TimeControl | null | undefined,
  prefix: string,
): Result<TimeControl | null, RuleError> => {
  if (mode === 'over-the-board') return ok(null);
  const tc = validateTimeControl(given ?? DEFAULT_LEAGUE_TIME_CONTROL);
  if (!tc.ok) return err({ ...tc.error, details: { ...tc.error.details, field: `${prefix}.timeControl` } });
  if (tc.value.kind !== 'correspondence')
    return fail('BAD_INPUT', 'A correspondence league’s games need a correspondence clock (turnSeconds, bankSeconds).', {
      field: `${prefix}.timeControl`,
    });
  return ok(tc.value);
};

/** The numbers of a division: rounds, maxRepeats (with its default), gibsonSpreadPerGame. */
const numbersOf = (input: DivisionInput, prefix: string): Result<{ maxRepeats: number; gibson: number }, RuleError> => {
  if (!wholeIn(input.rounds, 1, MAX_ROUNDS))
    return fail('BAD_INPUT', `rounds must be 1–${MAX_ROUNDS}, not ${input.rounds}.`, { field: `${prefix}.rounds` });
  const players = input.players && input.players.length > 0 ? input.players.length : null;
  const maxRepeats = input.maxRepeats ?? defaultMaxRepeats(input.rounds, players);
  if (!wholeIn(maxRepeats, 0, MAX_MAX_REPEATS))
    return fail('BAD_INPUT', `maxRepeats must be 0–${MAX_MAX_REPEATS}, not ${maxRepeats}.`, { field: `${prefix}.maxRepeats` });
  const gibson = input.gibsonSpreadPerGame ?? DEFAULT_GIBSON_SPREAD_PER_GAME;
  if (!wholeIn(gibson, 0, MAX_GIBSON_SPREAD))
    return fail('BAD_INPUT', `gibsonSpreadPerGame must be 0–${MAX_GIBSON_SPREAD}, not ${gibson}.`, {
      field: `${prefix}.gibsonSpreadPerGame`,
    });
  return ok({ maxRepeats, gibson });
};

/**
 * The division's spec and lexicon edition, every field checked (errors name `${prefix}.field`): the mode
 * (default over-the-board), the rule set, the lexicon, the round plans, the numbers and, for a league, the
 * clock. The division's name is checked by the engine (`add-division`).
 */
export const divisionSpec = async (
  deps: ServiceDeps,
  input: DivisionInput,
  prefix = 'division',
): Promise<Result<ResolvedDivision, RuleError>> => {
  const mode = input.mode ?? 'over-the-board';
  if (!(DIVISION_MODES as readonly string[]).includes(mode))
    return fail('BAD_INPUT', `mode must be ${DIVISION_MODES.join(' or ')}, not "${mode}".`, { field: `${prefix}.mode` });
  const numbers = numbersOf(input, prefix);
  if (!numbers.ok) return numbers;
  const overrides = overridesOf(input, prefix);
  if (!overrides.ok) return overrides;
  const rules = ruleSetFor(input.ruleSet ?? DEFAULT_RULE_SET, overrides.value);
  if (!rules.ok)
    return err({
      ...rules.error,
      details: { ...rules.error.details, field: `${prefix}.${String(rules.error.details?.['field'] ?? 'ruleSet')}` },
    });
  const lexicon = await lexiconNamed(deps, input.lexicon);
  if (!lexicon.ok) return err({ ...lexicon.error, details: { ...lexicon.error.details, field: `${prefix}.lexicon` } });
  const plans = roundPlans(input, prefix);
  if (!plans.ok) return plans;
  const timeControl = timeControlOf(mode, input.timeControl, prefix);
  if (!timeControl.ok) return timeControl;
  const ratingSystem = input.ratingSystem ?? DEFAULT_RATING_SYSTEM;
  if (!isRatingSystemName(ratingSystem))
    return fail('BAD_INPUT', `ratingSystem must be ${RATING_SYSTEM_NAMES.join(' or ')}, not "${ratingSystem}".`, {
      field: `${prefix}.ratingSystem`,
    });
  return ok({
    spec: {
      name: input.name,
      mode,
      ruleSetId: rules.value.id,
      overrides: overrides.value,
      rules: rules.value,
      lexicon: lexicon.value.name,
      tileSet: rules.value.board.distribution,
      layout: rules.value.board.layout,
      rounds: plans.value,
      maxRepeats: numbers.value.maxRepeats,
      gibsonSpreadPerGame: numbers.value.gibson,
      timeControl: timeControl.value,
      ratingSystem,
    },
    lexicon: { name: lexicon.value.name, hash: lexicon.value.hash },
  });
};

/** A spec as a DivisionInput (an `add-division` command's spec is resolved again from it: its `rules` are never taken as given). */
export const inputOfSpec = (spec: DivisionSpec): DivisionInput => ({
  name: spec.name,
  mode: spec.mode,
  ruleSet: spec.ruleSetId,
  overrides: spec.overrides,
  lexicon: spec.lexicon,
  tileSet: spec.tileSet,
  layout: spec.layout,
  rounds: spec.rounds.length,
  roundPlans: spec.rounds,
  maxRepeats: spec.maxRepeats,
  gibsonSpreadPerGame: spec.gibsonSpreadPerGame,
  timeControl: spec.timeControl,
  ratingSystem: spec.ratingSystem ?? null,
});
