import { LAYOUTS } from '../board.js';
import { cite, ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { DISTRIBUTIONS } from '../tiles.js';
import { BYE_CHOICES } from '../tournament/pairing/types.js';
import { PRESETS } from './presets.js';
import {
  CHALLENGE_MODES,
  CHALLENGE_POINTS_RECIPIENTS,
  CLOCK_RESTART_RULES,
  DRAWN_TILES_ON_LOSS_RULES,
  EARLY_DRAW_RULES,
  EARLY_RETURN_RULES,
  EXCHANGE_COUNT_MISMATCH_RULES,
  FORFEIT_FIRST_SECOND_RULES,
  GOING_OUT_MODES,
  ILLEGAL_EXCHANGE_PROCEDURES,
  LATE_ARRIVAL_RULES,
  MATCH_DECIDERS,
  OUT_PLAY_WINDOW_RULES,
  OVERDRAW_RULES,
  OVERTIME_COUNTING,
  OVERTIME_FORFEIT_SCORING,
  PLAY_MEDIA,
  RESIGNATION_RULES,
  RESULT_SLIP_RULES,
  RULE_SET_IDS,
  SCORELESS_TURN_KINDS,
  SCORING_CORRECTION_RULES,
  TIE_BREAKS,
  UNDERDRAW_RULES,
  UNSPECIFIED_EXCHANGE_RULES,
  UNBAGGED_EXCHANGE_RULES,
  WRONG_ADJUDICATION_RULES,
  MISTYPED_CHALLENGE_RULES,
  ILLEGAL_PLACEMENT_RULES,
  HOLD_LIMIT_RULES,
  OUT_OF_ORDER_DRAW_RULES,
  EXPOSED_TILE_RULES,
  MISSING_TILE_RULES,
  TILES_FOUND_RULES,
  UNDECLARED_BLANK_RULES,
  BLANK_DISPUTE_RULES,
  BLANK_DISPUTE_NEXT_TURN_RULES,
  EXPOSED_TILES_LATE_GAME_RULES,
  DISPUTE_CLOCK_RULES,
  STANDING_TIEBREAKS,
  type RuleSet,
  type RuleSetId,
  type RuleSetOverrides,
} from './ruleset.js';

/** Error codes of rule-set resolution. */
export const RULE_PARAMETER_ERROR_CODES = ['UNKNOWN_PRESET', 'UNKNOWN_RULE_PARAMETER', 'BAD_RULE_PARAMETER'] as const;
export type RuleParameterErrorCode = (typeof RULE_PARAMETER_ERROR_CODES)[number];

export type ParameterType =
  | { readonly kind: 'integer'; readonly min: number; readonly max: number; readonly nullable: boolean }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'enum-list'; readonly values: readonly string[] };

export interface Parameter {
  /** Dotted path into `RuleSet`, e.g. `challenge.mode`. */
  readonly path: string;
  readonly description: string;
  readonly type: ParameterType;
}

const int = (min: number, max: number, nullable = false): ParameterType => ({ kind: 'integer', min, max, nullable });
const bool: ParameterType = { kind: 'boolean' };
const oneOf = (values: readonly string[]): ParameterType => ({ kind: 'enum', values });
const listOf = (values: readonly string[]): ParameterType => ({ kind: 'enum-list', values });
const p = (path: string, type: ParameterType, description: string): Parameter => ({ path, type, description });

/**
 * Every overridable field of `RuleSet`, in display order. Used to validate overrides and by the CLI/API
 * to print each parameter with its value and source (`RuleSet.sources[path]`).
 */
export const PARAMETERS: readonly Parameter[] = [
  p('board.layout', oneOf(Object.keys(LAYOUTS)), 'Board layout (premium squares).'),
  p('board.distribution', oneOf(Object.keys(DISTRIBUTIONS)), 'Tile distribution.'),
  p('board.rackSize', int(1, 21), 'Tiles on a full rack.'),
  p('board.bingoBonus', int(0, 1000), 'Bonus for playing a full rack.'),
  p('play.medium', oneOf(PLAY_MEDIA), 'Over the board, or online (the server deals tiles and keeps score).'),
  p('play.undeclaredBlank', oneOf(UNDECLARED_BLANK_RULES), 'Clock pressed with a blank undeclared.'),
  p('play.blankDispute', oneOf(BLANK_DISPUTE_RULES), 'A blank designation disputed on a later turn.'),
  p(
    'play.blankDisputeNextTurn',
    oneOf(BLANK_DISPUTE_NEXT_TURN_RULES),
    'A blank designation disputed on the turn right after it was played: as on later turns, or no known rule.',
  ),
  p('play.abortRequestsPerPlayer', int(0, 100, true), 'Abort requests each player may make (null = no abort rule).'),
  p('play.abortMaxEvents', int(0, 1000), 'Most game events after which an abort may still be requested.'),
  p('play.abortMinReceiverSeconds', int(0, 86_400), 'Least time (overtime included) the receiver must have for an abort request.'),
  p('play.abortAutoAcceptSeconds', int(0, 86_400), 'Seconds after which an unanswered abort request is accepted.'),
  p('play.nudgeRequestsPerPlayer', int(0, 100, true), 'Nudges each player may send an idle opponent (null = no nudge rule).'),
  p('play.nudgeSeconds', int(0, 86_400), 'Seconds a nudge may go unanswered before the requester wins by forfeit.'),
  p('exchange.minBag', int(0, 100), 'Fewest tiles in the bag to exchange (0 = any).'),
  p('exchange.allowEmpty', bool, 'An exchange of zero tiles is a legal turn.'),
  p('exchange.maxIsBagCount', bool, 'At most as many tiles as are in the bag may be exchanged.'),
  p('exchange.lateDiscoveryPenalty', int(0, 1000), 'Points lost when an illegal exchange is noticed after the opponent’s turn.'),
  p('exchange.opponentChoiceSeconds', int(0, 3600), 'Seconds the opponent has to choose tiles after an illegal exchange.'),
  p(
    'exchange.illegalExchangeProcedure',
    oneOf(ILLEGAL_EXCHANGE_PROCEDURES),
    'Staged remedy for an exchange with too few tiles in the bag.',
  ),
  p('exchange.unspecifiedExchange', oneOf(UNSPECIFIED_EXCHANGE_RULES), 'Exchange announced with no count and no tiles face down.'),
  p('exchange.countMismatch', oneOf(EXCHANGE_COUNT_MISMATCH_RULES), 'Announced count differs from the tiles face down.'),
  p('exchange.earlyReturn', oneOf(EARLY_RETURN_RULES), 'Old tiles put in the bag before the new ones are drawn.'),
  p('exchange.allTilesMayStayOnRack', bool, 'A whole-rack exchange may leave the tiles on the rack.'),
  p('exchange.unbaggedTiles', oneOf(UNBAGGED_EXCHANGE_RULES), 'Exchanged tiles left out of the bag.'),
  p('challenge.mode', oneOf(CHALLENGE_MODES), 'What an unsuccessful challenge costs.'),
  p('challenge.points', int(0, 100), 'Points per word or per turn for an unsuccessful challenge (points modes).'),
  p(
    'challenge.pointsRecipient',
    oneOf(CHALLENGE_POINTS_RECIPIENTS),
    'Challenge points go to the challenged player or come off the challenger.',
  ),
  p('challenge.windowSeconds', int(0, 600), 'Seconds the opponent must have to consider a challenge before the player draws (0 = none).'),
  p('challenge.outPlayHoldSeconds', int(0, 600), 'Seconds after the out play in which the opponent may hold or challenge.'),
  p('challenge.courtesyDrawSeconds', int(0, 600), 'Seconds after pressing the clock before a courtesy draw during a hold.'),
  p('challenge.selfLookup', bool, 'Players may look words up before playing them.'),
  p('challenge.earlyDraw', oneOf(EARLY_DRAW_RULES), 'Drawing before the opponent could challenge.'),
  p('challenge.outPlayWindowEnd', oneOf(OUT_PLAY_WINDOW_RULES), 'What the end of the out-play window means.'),
  p('challenge.drawnTilesOnLoss', oneOf(DRAWN_TILES_ON_LOSS_RULES), 'Tiles drawn before losing a challenge.'),
  p('challenge.clockRestart', oneOf(CLOCK_RESTART_RULES), 'When the clock restarts after an acceptable challenged play.'),
  p('challenge.wrongAdjudication', oneOf(WRONG_ADJUDICATION_RULES), 'Until when a wrong adjudication may be corrected.'),
  p('challenge.mistypedChallenge', oneOf(MISTYPED_CHALLENGE_RULES), 'Challenged words typed or written wrongly.'),
  p(
    'challenge.improperLookupPenalty',
    int(0, 1000),
    'Points lost by the one player who caused an improper lookup with an unacceptable result.',
  ),
  p('challenge.illegalPlacement', oneOf(ILLEGAL_PLACEMENT_RULES), 'A play placed illegally (centre missed, diagonal, off the grid…).'),
  p('challenge.holdLimit', oneOf(HOLD_LIMIT_RULES), 'How long a hold may last.'),
  p('challenge.drawStopsOnChallenge', bool, 'No further tiles are drawn once a challenge is declared.'),
  p('drawing.overdraw', oneOf(OVERDRAW_RULES), 'Remedy for drawing too many tiles.'),
  p('drawing.overdrawExtraTiles', int(0, 7), 'Tiles the opponent sees beyond the X overdrawn.'),
  p('drawing.underdraw', oneOf(UNDERDRAW_RULES), 'Remedy for drawing too few tiles late in the game.'),
  p('drawing.outOfOrder', oneOf(OUT_OF_ORDER_DRAW_RULES), 'Remedy for drawing out of order.'),
  p('drawing.exposedTiles', oneOf(EXPOSED_TILE_RULES), 'Remedy for tiles exposed or spilled.'),
  p('drawing.exposedTilesLateGame', oneOf(EXPOSED_TILES_LATE_GAME_RULES), 'Remedy for tiles exposed when few tiles are left in the bag.'),
  p('drawing.exposedTilesLateGameBelow', int(0, 100), 'The late-game exposed-tile remedy applies with fewer tiles than this in the bag.'),
  p('drawing.missingTile', oneOf(MISSING_TILE_RULES), 'A tile that is not found after a search.'),
  p('end.scorelessTurns', int(1, 100, true), 'Consecutive scoreless turns that end the game (null = no such rule).'),
  p('end.scorelessKinds', listOf(SCORELESS_TURN_KINDS), 'Turn kinds that count as scoreless.'),
  p(
    'end.consecutiveExchangesEach',
    int(1, 100, true),
    'Game ends when both players exchange this many times in a row (null = no such rule).',
  ),
  p('end.goingOut', oneOf(GOING_OUT_MODES), 'Scoring when a player goes out.'),
  p('end.tieBreak', oneOf(TIE_BREAKS), 'How a tied game is decided.'),
  p('end.resignation', oneOf(RESIGNATION_RULES), 'How a resignation is scored.'),
  p('end.resignationMinMargin', int(0, 1000), 'Smallest resignation margin; margin = max(this, lead + this).'),
  p('end.tilesFoundAfterEnd', oneOf(TILES_FOUND_RULES), 'Tiles found outside or in the bag after the game ended.'),
  p('time.overtimePenaltyPerMinute', int(0, 1000), 'Points per started minute of overtime.'),
  p('time.overtimeForfeitMinutes', int(0, 600, true), 'Minutes of overtime that forfeit the game (null = no limit).'),
  p('time.lateClockStartMinutes', int(0, 600), 'Minutes after the announced start before a late player’s clock is started.'),
  p('time.lateForfeitMinutes', int(0, 600), 'Minutes late that forfeit the game.'),
  p('time.forfeitMargin', int(0, 1000), 'Spread recorded for a forfeit win.'),
  p('time.gameMinutes', int(0, 600), 'Minutes on each player’s clock (0 = untimed).'),
  p('time.overtimeCounting', oneOf(OVERTIME_COUNTING), 'Overtime counted in whole seconds or in milliseconds.'),
  p('time.overtimeForfeitScoring', oneOf(OVERTIME_FORFEIT_SCORING), 'How a forfeit on overtime is scored.'),
  p('time.lateArrival', oneOf(LATE_ARRIVAL_RULES), 'Late-arrival procedure.'),
  p(
    'time.lateOptionalForfeitMinutesLeft',
    int(0, 600, true),
    'A late player with fewer minutes left may choose to forfeit (null = may always).',
  ),
  p('time.breakMinutes', int(0, 600, true), 'Break between games without an announced start (null = no rule).'),
  p('time.shortBreakMinutes', int(0, 600, true), 'Shortest break the director may impose (null = no rule).'),
  p(
    'time.disputePausesClock',
    oneOf(DISPUTE_CLOCK_RULES),
    'Whether an open dispute stops the correspondence clock: never, while it awaits a director, or also while an appeal does.',
  ),
  p('house.blankSubstitution', bool, 'A played blank may be taken by giving its letter, then replayed the same turn.'),
  p('house.freeTrades', bool, 'Free trades to cure two pair, three of a letter, < 2 vowels or < 2 consonants.'),
  p('match.games', int(1, 100, true), 'Games in a match (null = single games).'),
  p('match.decidedBy', oneOf(MATCH_DECIDERS), 'How a match is decided.'),
  p('tournament.forfeitFirstSecond', oneOf(FORFEIT_FIRST_SECOND_RULES), 'Firsts and seconds assigned for forfeited games.'),
  p('tournament.resultSlip', oneOf(RESULT_SLIP_RULES), 'What may change after the result slip is signed and submitted.'),
  p('tournament.scoringCorrection', oneOf(SCORING_CORRECTION_RULES), 'Until when a scoring error may be corrected.'),
  p('tournament.recountMaxMargin', int(0, 1000, true), 'Largest margin for which a recount may be requested (null = no limit).'),
  p('tournament.byeSpread', int(0, 1000, false), 'Spread a bye scores (a win).'),
  p('tournament.forfeitSpread', int(0, 1000, false), 'Spread of a forfeit: the winner’s margin and the forfeiter’s loss.'),
  p('tournament.byeChoice', oneOf(BYE_CHOICES), 'Who gets the bye in an odd round.'),
  p('tournament.tiebreaks', listOf(STANDING_TIEBREAKS), 'Tiebreaks after wins in the standings, in order.'),
  p('tournament.tiesAllowed', bool, 'Whether a tied game stands (½ a win each) or is refused.'),
];

const BY_PATH: ReadonlyMap<string, Parameter> = new Map(PARAMETERS.map((x) => [x.path, x]));

/** The descriptor of a parameter, or undefined. */
export const findParameter = (path: string): Parameter | undefined => BY_PATH.get(path);

/** The value of a parameter in a rule set (`getParameter(WESPA, 'challenge.points')` → 5). */
export const getParameter = (rs: RuleSet, path: string): unknown => {
  const [group, field] = path.split('.') as [string, string];
  return (rs as unknown as Record<string, Record<string, unknown>>)[group]?.[field];
};

/** Text form of a parameter value, as printed by `arbiter rules` and accepted by `--set`. */
export const formatParameterValue = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? (v.length ? v.join(',') : '[]') : String(v);

/** A readable statement of what a parameter accepts: `integer 0–100 or null`, `one of: a, b`. */
export const describeParameterType = (t: ParameterType): string => {
  switch (t.kind) {
    case 'integer':
      return `integer ${t.min}–${t.max}${t.nullable ? ' or null' : ''}`;
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of: ${t.values.join(', ')}`;
    case 'enum-list':
      return `list of: ${t.values.join(', ')}`;
  }
};

const bad = (path: string, value: unknown, allowed: string, why?: string): RuleError =>
  ruleError(
    'BAD_RULE_PARAMETER',
    `Rule parameter ${path} cannot be ${JSON.stringify(value)}${why ? ` (${why})` : ''}: allowed is ${allowed}.`,
    { path, value, allowed },
  );

/** Checks one value against its descriptor. */
export const checkParameterValue = (param: Parameter, value: unknown): Result<unknown, RuleError> => {
  const t = param.type;
  const allowed = describeParameterType(t);
  switch (t.kind) {
    case 'integer':
      if (value === null && t.nullable) return ok(null);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < t.min || value > t.max)
        return err(bad(param.path, value, allowed));
      return ok(value);
    case 'boolean':
      return typeof value === 'boolean' ? ok(value) : err(bad(param.path, value, allowed));
    case 'enum':
      return typeof value === 'string' && t.values.includes(value) ? ok(value) : err(bad(param.path, value, allowed));
    case 'enum-list': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && t.values.includes(v)))
        return err(bad(param.path, value, allowed));
      if (new Set(value).size !== value.length) return err(bad(param.path, value, allowed, 'a kind is listed twice'));
      return ok(value);
    }
  }
};

/**
 * Parses the text of `--set path=value`: integers, `true`/`false`, `null`, a comma list (or `[]`) for
 * list parameters, anything else as an enum word. The result still goes through `resolveRuleSet`.
 */
export const parseParameterAssignment = (text: string): Result<{ path: string; value: unknown }, RuleError> => {
  const eq = text.indexOf('=');
  if (eq <= 0) return err(ruleError('BAD_RULE_PARAMETER', `"${text}" is not of the form path=value (e.g. challenge.points=10).`, { text }));
  const path = text.slice(0, eq).trim();
  const raw = text.slice(eq + 1).trim();
  const param = findParameter(path);
  if (!param) return err(unknownParameter(path));
  let value: unknown = raw;
  if (param.type.kind === 'enum-list') value = raw === '[]' || raw === '' ? [] : raw.split(',').map((x) => x.trim());
  else if (raw === 'null') value = null;
  else if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (/^-?\d+$/.test(raw)) value = Number(raw);
  return ok({ path, value });
};

const unknownParameter = (path: string): RuleError =>
  ruleError('UNKNOWN_RULE_PARAMETER', `There is no rule parameter ${path}; see \`arbiter rules\` for the list.`, {
    path,
    known: PARAMETERS.map((x) => x.path),
  });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Turns `[{path, value}]` (from `--set`) into the nested overrides `resolveRuleSet` takes. */
export const overridesFromAssignments = (assignments: readonly { path: string; value: unknown }[]): RuleSetOverrides => {
  const out: Record<string, Record<string, unknown>> = {};
  for (const { path, value } of assignments) {
    const [group, field] = path.split('.') as [string, string];
    (out[group] ??= {})[field] = value;
  }
  return out as RuleSetOverrides;
};

const POINTS_MODES: readonly string[] = ['points-per-word', 'points-per-turn'];

/** Rules that tie fields together; each error names the offending path. */
const CROSS_CHECKS: readonly ((rs: RuleSet) => RuleError | undefined)[] = [
  (rs) =>
    POINTS_MODES.includes(rs.challenge.mode) && rs.challenge.points <= 0
      ? bad('challenge.points', rs.challenge.points, 'an integer above 0', `challenge.mode ${rs.challenge.mode} needs points`)
      : undefined,
  (rs) =>
    rs.end.scorelessTurns !== null && rs.end.scorelessKinds.length === 0
      ? bad('end.scorelessKinds', [], 'at least one turn kind', `end.scorelessTurns is ${rs.end.scorelessTurns}`)
      : undefined,
  (rs) =>
    rs.exchange.illegalExchangeProcedure !== 'none' && rs.exchange.minBag === 0
      ? bad(
          'exchange.illegalExchangeProcedure',
          rs.exchange.illegalExchangeProcedure,
          'none',
          'exchange.minBag is 0, so no exchange is illegal for want of tiles',
        )
      : undefined,
  (rs) =>
    rs.time.lateArrival !== 'none' && rs.time.lateForfeitMinutes <= rs.time.lateClockStartMinutes
      ? bad(
          'time.lateForfeitMinutes',
          rs.time.lateForfeitMinutes,
          `more than time.lateClockStartMinutes (${rs.time.lateClockStartMinutes})`,
        )
      : undefined,
  (rs) =>
    rs.time.lateArrival !== 'none' && rs.time.gameMinutes === 0
      ? bad('time.lateArrival', rs.time.lateArrival, 'none', 'time.gameMinutes is 0 (untimed)')
      : undefined,
  (rs) =>
    rs.time.lateOptionalForfeitMinutesLeft !== null && rs.time.lateOptionalForfeitMinutesLeft > rs.time.gameMinutes
      ? bad(
          'time.lateOptionalForfeitMinutesLeft',
          rs.time.lateOptionalForfeitMinutesLeft,
          `at most time.gameMinutes (${rs.time.gameMinutes}) or null`,
        )
      : undefined,
  (rs) =>
    rs.time.shortBreakMinutes !== null && rs.time.breakMinutes !== null && rs.time.shortBreakMinutes > rs.time.breakMinutes
      ? bad('time.shortBreakMinutes', rs.time.shortBreakMinutes, `at most time.breakMinutes (${rs.time.breakMinutes})`)
      : undefined,
];

/** Runs the cross-field checks on a complete rule set. */
export const checkRuleSet = (rs: RuleSet): Result<RuleSet, RuleError> => {
  for (const check of CROSS_CHECKS) {
    const e = check(rs);
    if (e) return err(e);
  }
  return ok(rs);
};

export const isRuleSetId = (id: string): id is RuleSetId => (RULE_SET_IDS as readonly string[]).includes(id);

/**
 * A preset with overrides applied. Overrides are nested like the rule set
 * (`{ challenge: { mode: 'points-per-turn', points: 10 } }`); each overridden field is validated against
 * `PARAMETERS`, then the whole set against the cross-field checks, and its `sources` entry becomes
 * `override path=value`.
 *
 * Errors: `UNKNOWN_PRESET`, `UNKNOWN_RULE_PARAMETER` (names the path), `BAD_RULE_PARAMETER` (names the path,
 * the value and what is allowed).
 */
export const resolveRuleSet = (
  presetId: string,
  overrides?: RuleSetOverrides | Readonly<Record<string, unknown>>,
): Result<RuleSet, RuleError> => {
  if (!isRuleSetId(presetId)) {
    return err(
      ruleError('UNKNOWN_PRESET', `There is no rule-set preset ${JSON.stringify(presetId)}; the presets are ${RULE_SET_IDS.join(', ')}.`, {
        presetId,
        known: [...RULE_SET_IDS],
      }),
    );
  }
  const base = PRESETS[presetId];
  if (overrides === undefined) return ok(base);
  if (!isRecord(overrides))
    return err(ruleError('BAD_RULE_PARAMETER', 'Rule overrides must be an object such as {"challenge": {"points": 10}}.', { overrides }));
  const groups: Record<string, Record<string, unknown>> = {};
  const sources: Record<string, RuleSet['sources'][string]> = { ...base.sources };
  for (const [group, fields] of Object.entries(overrides)) {
    if (!isRecord(fields)) {
      return err(
        BY_PATH.has(group) || [...BY_PATH.keys()].some((k) => k.startsWith(`${group}.`))
          ? ruleError('BAD_RULE_PARAMETER', `Rule override ${group} must be an object of parameters, e.g. {"${group}": {...}}.`, {
              path: group,
              value: fields,
            })
          : unknownParameter(group),
      );
    }
    for (const [field, value] of Object.entries(fields)) {
      const path = `${group}.${field}`;
      const param = findParameter(path);
      if (!param) return err(unknownParameter(path));
      const checked = checkParameterValue(param, value);
      if (!checked.ok) return checked;
      (groups[group] ??= { ...(base as unknown as Record<string, Record<string, unknown>>)[group] })[field] = checked.value;
      sources[path] = [cite('override', `${path}=${formatParameterValue(checked.value)}`)];
    }
  }
  return checkRuleSet({ ...base, ...groups, sources } as RuleSet);
};
