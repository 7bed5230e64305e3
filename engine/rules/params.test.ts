import { describe, expect, test } from 'vitest';
import {
  checkParameterValue,
  getParameter,
  parseParameterAssignment,
  overridesFromAssignments,
  PARAMETERS,
  resolveRuleSet,
} from './params.js';
import { PRESETS } from './presets.js';
import { RULE_SET_IDS, type RuleSet } from './ruleset.js';

const presets = Object.values(PRESETS);
const NOT_PARAMETERS = new Set(['id', 'name', 'description', 'sources']);

/** Every leaf field of a rule set as a dotted path, found by walking the object (not from PARAMETERS). */
const leafPaths = (rs: RuleSet): string[] =>
  Object.entries(rs)
    .filter(([k]) => !NOT_PARAMETERS.has(k))
    .flatMap(([group, fields]) => Object.keys(fields as object).map((f) => `${group}.${f}`));

describe('PARAMETERS and the presets', () => {
  test('PRESETS holds exactly the five rule-set ids', () => {
    expect(Object.keys(PRESETS).sort()).toEqual([...RULE_SET_IDS].sort());
    for (const id of RULE_SET_IDS) expect(PRESETS[id].id).toBe(id);
  });

  test.each(presets.map((p) => [p.id, p] as const))('%s: every field is a described parameter and vice versa', (_id, rs) => {
    expect(leafPaths(rs).sort()).toEqual(PARAMETERS.map((p) => p.path).sort());
  });

  test.each(presets.map((p) => [p.id, p] as const))('%s: every value is allowed by its parameter', (_id, rs) => {
    for (const param of PARAMETERS)
      expect(checkParameterValue(param, getParameter(rs, param.path)), param.path).toMatchObject({ ok: true });
  });

  test.each(presets.map((p) => [p.id, p] as const))(
    '%s: every parameter cites a source, and no source names a non-parameter',
    (_id, rs) => {
      for (const param of PARAMETERS) expect(rs.sources[param.path]?.length ?? 0, param.path).toBeGreaterThan(0);
      const paths = new Set(PARAMETERS.map((p) => p.path));
      for (const key of Object.keys(rs.sources)) expect(paths.has(key), key).toBe(true);
    },
  );

  test.each(presets.map((p) => [p.id, p] as const))('%s: the preset passes its own cross-field checks', (id) => {
    expect(resolveRuleSet(id)).toMatchObject({ ok: true });
  });

  // Values checked by hand against the seeds and references.
  test.each([
    ['NSA_2008', 'exchange.minBag', 7], // seed-000, seed-001 §6
    ['NSA_2008', 'exchange.opponentChoiceSeconds', 60], // seed-000 Penalties
    ['NSA_2008', 'exchange.lateDiscoveryPenalty', 30], // seed-000 Penalties
    ['NSA_2008', 'challenge.windowSeconds', 5], // seed-001 §8
    ['NSA_2008', 'challenge.outPlayHoldSeconds', 15], // seed-001 §9
    ['NSA_2008', 'time.lateClockStartMinutes', 5], // seed-001 §1
    ['NSA_2008', 'time.lateForfeitMinutes', 25], // seed-001 §1
    ['NSA_2008', 'time.breakMinutes', 10], // seed-001 §1
    ['NSA_2008', 'time.shortBreakMinutes', 5], // seed-001 §1
    ['NSA_2008', 'tournament.forfeitFirstSecond', 'alternate-from-first'], // seed-001 §4
    ['WESPA', 'challenge.mode', 'points-per-word'], // W3 3.10.13
    ['WESPA', 'challenge.points', 5],
    ['WESPA', 'challenge.courtesyDrawSeconds', 30], // W3 3.10.6
    ['WESPA', 'time.overtimePenaltyPerMinute', 10], // W3 5.3.2
    ['WESPA', 'time.overtimeForfeitMinutes', 10], // W3 5.3.3
    ['WESPA', 'time.lateOptionalForfeitMinutesLeft', 15], // W3 2.3
    ['WESPA', 'tournament.recountMaxMargin', 20], // W3 5.5
    ['WESPA', 'end.resignationMinMargin', 50], // W3 5.7
    ['FRIENDLY', 'challenge.mode', 'free'], // seed-002
    ['FRIENDLY', 'house.blankSubstitution', true],
    ['FRIENDLY', 'house.freeTrades', true],
    ['MATCH_VARIANT', 'exchange.minBag', 0], // seed-003 rule 11
    ['MATCH_VARIANT', 'exchange.allowEmpty', true],
    ['MATCH_VARIANT', 'end.consecutiveExchangesEach', 2], // seed-003 rule 12b
    ['MATCH_VARIANT', 'end.scorelessTurns', null],
    ['MATCH_VARIANT', 'end.tieBreak', 'score-before-adjustments'], // seed-003 scoring 10
    ['MATCH_VARIANT', 'match.games', 2], // seed-003 rule 1
    ['ONLINE_VOID', 'challenge.mode', 'void'],
    ['ONLINE_VOID', 'play.medium', 'online'],
    ['ONLINE_VOID', 'time.overtimeCounting', 'milliseconds'],
    ['NSA_2008', 'challenge.improperLookupPenalty', 10], // NASPA IV.J.2 (ref. B3.3)
    ['NSA_2008', 'challenge.wrongAdjudication', 'until-tiles-mixed-or-next-play'], // NASPA IV.J.1.n (ref. B3.4)
    ['WESPA', 'challenge.wrongAdjudication', 'until-tiles-touch-rack'], // W3 3.10.11
    ['WESPA', 'exchange.unbaggedTiles', 'show-then-bag-if-drawn'], // W3 3.10.15(d)
    ['WESPA', 'drawing.exposedTiles', 'wespa-4.4'], // W3 4.4
    ['MATCH_VARIANT', 'play.blankDispute', 'fixed'], // seed-003 rule 10
    ['ONLINE_VOID', 'play.abortRequestsPerPlayer', 1], // Woogles meta_events.go
    ['ONLINE_VOID', 'play.abortMaxEvents', 7],
    ['ONLINE_VOID', 'play.abortAutoAcceptSeconds', 60],
    ['ONLINE_VOID', 'play.nudgeSeconds', 120],
  ] as const)('%s %s = %s', (id, path, value) => {
    expect(getParameter(PRESETS[id], path)).toEqual(value);
  });

  test('seed values cite the seed, WESPA values cite W3 verified, unverified values are tagged U', () => {
    expect(PRESETS.NSA_2008.sources['challenge.windowSeconds']).toEqual([{ source: 'seed-001', rule: '§8', verification: 'Seed' }]);
    expect(PRESETS.WESPA.sources['exchange.illegalExchangeProcedure']).toEqual([
      { source: 'wespa-3.0', rule: '3.10.15(i)', verification: 'V' },
    ]);
    expect(PRESETS.WESPA.sources['challenge.pointsRecipient']?.[0]?.verification).toBe('U');
    expect(PRESETS.NSA_2008.sources['time.forfeitMargin']?.[0]?.verification).toBe('U');
    expect(PRESETS.MATCH_VARIANT.sources['end.consecutiveExchangesEach']).toEqual([
      { source: 'seed-003', rule: 'rule 12b', verification: 'Seed' },
    ]);
  });
});

describe('resolveRuleSet', () => {
  test('without overrides it returns the preset itself', () => {
    expect(resolveRuleSet('WESPA')).toEqual({ ok: true, value: PRESETS.WESPA });
  });

  test('an override changes the field, keeps the rest of the group, and cites the override', () => {
    const r = resolveRuleSet('WESPA', { challenge: { points: 10 }, time: { overtimeForfeitMinutes: null } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.challenge).toEqual({ ...PRESETS.WESPA.challenge, points: 10 });
    expect(r.value.time.overtimeForfeitMinutes).toBeNull();
    expect(r.value.sources['challenge.points']).toEqual([{ source: 'override', rule: 'challenge.points=10' }]);
    expect(r.value.sources['time.overtimeForfeitMinutes']).toEqual([{ source: 'override', rule: 'time.overtimeForfeitMinutes=null' }]);
    expect(r.value.sources['challenge.mode']).toEqual(PRESETS.WESPA.sources['challenge.mode']);
    expect(PRESETS.WESPA.challenge.points).toBe(5);
  });

  test.each([
    ['unknown preset', 'NASPA_2099', undefined, 'UNKNOWN_PRESET', 'NASPA_2099'],
    ['unknown field', 'WESPA', { challenge: { pointz: 5 } }, 'UNKNOWN_RULE_PARAMETER', 'challenge.pointz'],
    ['unknown group', 'WESPA', { chalenge: { points: 5 } }, 'UNKNOWN_RULE_PARAMETER', 'chalenge'],
    ['not an integer', 'WESPA', { challenge: { points: 2.5 } }, 'BAD_RULE_PARAMETER', 'challenge.points'],
    ['below the minimum', 'WESPA', { exchange: { minBag: -1 } }, 'BAD_RULE_PARAMETER', 'exchange.minBag'],
    ['null where not nullable', 'WESPA', { time: { gameMinutes: null } }, 'BAD_RULE_PARAMETER', 'time.gameMinutes'],
    ['bad enum', 'WESPA', { challenge: { mode: 'quadruple' } }, 'BAD_RULE_PARAMETER', 'challenge.mode'],
    ['bad list member', 'WESPA', { end: { scorelessKinds: ['pass', 'nap'] } }, 'BAD_RULE_PARAMETER', 'end.scorelessKinds'],
    ['repeated list member', 'WESPA', { end: { scorelessKinds: ['pass', 'pass'] } }, 'BAD_RULE_PARAMETER', 'end.scorelessKinds'],
    ['string boolean', 'WESPA', { house: { freeTrades: 'yes' } }, 'BAD_RULE_PARAMETER', 'house.freeTrades'],
    ['group not an object', 'WESPA', { challenge: 5 }, 'BAD_RULE_PARAMETER', 'challenge'],
    ['points mode with no points', 'NSA_2008', { challenge: { mode: 'points-per-word' } }, 'BAD_RULE_PARAMETER', 'challenge.points'],
    ['scoreless rule with no kinds', 'WESPA', { end: { scorelessKinds: [] } }, 'BAD_RULE_PARAMETER', 'end.scorelessKinds'],
    [
      'consecutive exchanges of zero',
      'MATCH_VARIANT',
      { end: { consecutiveExchangesEach: 0 } },
      'BAD_RULE_PARAMETER',
      'end.consecutiveExchangesEach',
    ],
    [
      'illegal-exchange procedure with no minimum',
      'NSA_2008',
      { exchange: { minBag: 0 } },
      'BAD_RULE_PARAMETER',
      'exchange.illegalExchangeProcedure',
    ],
    ['forfeit before the clock starts', 'NSA_2008', { time: { lateForfeitMinutes: 5 } }, 'BAD_RULE_PARAMETER', 'time.lateForfeitMinutes'],
    ['short break longer than the break', 'NSA_2008', { time: { shortBreakMinutes: 15 } }, 'BAD_RULE_PARAMETER', 'time.shortBreakMinutes'],
  ] as const)('%s → %s naming %s', (_name, preset, overrides, code, path) => {
    const r = resolveRuleSet(preset, overrides as never);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.message).toContain(path);
  });

  test('BAD_RULE_PARAMETER names the value and what is allowed', () => {
    const r = resolveRuleSet('WESPA', { challenge: { mode: 'quadruple' } } as never);
    expect(r).toMatchObject({ ok: false, error: { code: 'BAD_RULE_PARAMETER', details: { path: 'challenge.mode', value: 'quadruple' } } });
    if (!r.ok) expect(r.error.message).toContain('one of: double, single, points-per-word');
  });

  test('a points mode with points is accepted', () => {
    const r = resolveRuleSet('NSA_2008', { challenge: { mode: 'points-per-word', points: 5 } });
    expect(r.ok && r.value.challenge.mode).toBe('points-per-word');
  });
});

describe('parseParameterAssignment', () => {
  test.each([
    ['challenge.points=10', 'challenge.points', 10],
    ['time.overtimeForfeitMinutes=null', 'time.overtimeForfeitMinutes', null],
    ['house.freeTrades=true', 'house.freeTrades', true],
    ['challenge.mode=single', 'challenge.mode', 'single'],
    ['end.scorelessKinds=pass,exchange', 'end.scorelessKinds', ['pass', 'exchange']],
    ['end.scorelessKinds=[]', 'end.scorelessKinds', []],
  ] as const)('%s', (text, path, value) => {
    expect(parseParameterAssignment(text)).toEqual({ ok: true, value: { path, value } });
  });

  test.each([
    ['challenge.points', 'BAD_RULE_PARAMETER'],
    ['challenge.pointz=3', 'UNKNOWN_RULE_PARAMETER'],
  ])('%s → %s', (text, code) => {
    expect(parseParameterAssignment(text)).toMatchObject({ ok: false, error: { code } });
  });

  test('assignments become nested overrides', () => {
    expect(
      overridesFromAssignments([
        { path: 'challenge.points', value: 10 },
        { path: 'challenge.mode', value: 'points-per-turn' },
      ]),
    ).toEqual({
      challenge: { points: 10, mode: 'points-per-turn' },
    });
  });
});
