import { RULING_CODE_INFO, RULING_CODES, VERDICT_INFO, VERDICTS } from '../engine/adjudication/codes.js';
import type { Ruling } from '../engine/adjudication/index.js';
import { DISPUTE_SPECS, enumValueName, kindField, type DisputeKindSpec, type FactSpec } from '../engine/adjudication/kinds/index.js';
import type { Citation } from '../engine/errors.js';
import type { RuleSet, RuleSetId } from '../engine/rules/ruleset.js';
import { answerDispute, DEFAULT_RULE_SET } from '../service/rules.js';
import { builder } from './builder.js';
import { disputeFromInput, DisputeInput, factDescription, factRequired, kindInputName } from './dispute-inputs.js';
import { eitherOf, RuleSetPresetEnum } from './enums.js';
import { CitationType, resultUnion, RuleViolation, unwrap, ValidationError } from './errors.js';

/**
 * Adjudication over the API: the `adjudicate` query (typed `input: DisputeInput`, or the deprecated JSON
 * `dispute`), the `Ruling` it answers with its closed `Verdict` and `RulingCode` enums, and `disputeKinds`,
 * which describes every kind from the engine's description (engine/adjudication/kinds).
 */

export const VerdictEnum = builder.enumType('Verdict', {
  description: 'Whether the act in dispute was allowed, apart from what follows (the ruling code and effects).',
  values: Object.fromEntries(VERDICTS.map((v) => [v, { value: v, description: VERDICT_INFO[v] }])),
});

export const RulingCodeEnum = builder.enumType('RulingCode', {
  description: 'What follows from a ruling; each value names the rules it comes from. Switch on `verdict` first.',
  values: Object.fromEntries(
    RULING_CODES.map((code) => {
      const info = RULING_CODE_INFO[code];
      const deprecated = 'deprecated' in info ? { deprecationReason: info.deprecated } : {};
      return [code, { value: code, description: `${info.description} Verdicts: ${info.verdicts.join(', ')}.`, ...deprecated }];
    }),
  ),
});

const RulingType = builder.objectRef<{ ruling: Ruling; ruleSet: RuleSet }>('Ruling').implement({
  description: 'The answer to a dispute: a verdict, a stable code, its concrete effects, the rules relied on, and a plain explanation.',
  fields: (t) => ({
    verdict: t.field({
      type: VerdictEnum,
      description: 'Was the act in dispute allowed? (ALLOWED, FORBIDDEN, NO_RULE, DIRECTOR_DECIDES).',
      resolve: (r) => r.ruling.verdict,
    }),
    ruling: t.field({
      type: RulingCodeEnum,
      description: 'Stable ruling code, e.g. TURN_IS_PASS, SCORE_PENALTY, NO_REMEDY_STATED.',
      resolve: (r) => r.ruling.ruling,
    }),
    effects: t.field({
      type: ['JSON'],
      description: 'Concrete consequences, each an object with a `type` (score-delta, turn-becomes-pass, opponent-chooses, clock …).',
      resolve: (r) => [...r.ruling.effects],
    }),
    citations: t.field({
      type: [CitationType],
      description: 'The rules relied on, at least one.',
      resolve: (r): Citation[] => [...r.ruling.citations],
    }),
    explanation: t.string({ description: 'The ruling in plain words, for the players.', resolve: (r) => r.ruling.explanation }),
    ruleSet: t.string({
      description: 'The preset id ruled under, as a string.',
      deprecationReason: 'Use preset (the RuleSetPreset enum).',
      resolve: (r) => r.ruleSet.id,
    }),
    preset: t.field({ type: RuleSetPresetEnum, description: 'The preset ruled under.', resolve: (r) => r.ruleSet.id as RuleSetId }),
  }),
});

const DISPUTE_DEPRECATION = 'Use input (the DisputeInput, typed per kind; see `disputeKinds`): the JSON form goes in a later release.';

builder.queryField('adjudicate', (t) =>
  t.field({
    type: RulingType,
    description:
      'Rules on a dispute under a rule set. Give `input` (one field per kind: {overtime: {secondsOver: 125}}); the JSON `dispute` still works for this release.',
    errors: { types: [RuleViolation, ValidationError], directResult: true, union: resultUnion('AdjudicateResult', 'Ruling') },
    args: {
      input: t.arg({ type: DisputeInput, required: false, description: 'The dispute, typed: exactly one field, named for its kind.' }),
      dispute: t.arg({
        type: 'JSON',
        required: false,
        description: 'The facts as JSON, e.g. {"kind": "overtime", "secondsOver": 125}.',
        deprecationReason: DISPUTE_DEPRECATION,
      }),
      preset: t.arg({ type: RuleSetPresetEnum, required: false, description: `The rule-set preset (default ${DEFAULT_RULE_SET}).` }),
      ruleSet: t.arg.string({
        required: false,
        description: 'The preset id as a string.',
        deprecationReason: 'Use preset (the RuleSetPreset enum).',
      }),
      overrides: t.arg({ type: 'JSON', required: false, description: 'Rule-set overrides, nested like the rule set.' }),
    },
    resolve: (_root, args) => {
      const given = [args.input ? 'input' : null, args.dispute != null ? 'dispute' : null].filter((x) => x !== null);
      if (given.length !== 1)
        throw new ValidationError([
          {
            field: given.length ? 'dispute' : 'input',
            // REST shows this too, where `dispute` is typed per kind rather than deprecated JSON.
            message: 'Give the dispute once: as `input` (one field named for its kind) or as `dispute` (its `kind` beside its facts).',
          },
        ]);
      const dispute = args.input ? disputeFromInput(args.input as Record<string, unknown>) : args.dispute;
      const ruleSet = eitherOf({ field: 'preset', value: args.preset }, { field: 'ruleSet', value: args.ruleSet });
      return unwrap(answerDispute(dispute, ruleSet, args.overrides));
    },
  }),
);

// ---------------------------------------------------------------------------------------------
// disputeKinds

/** The GraphQL type of a fact in its kind's input (`Int`, `IllegalExchangeStage`, `[PartyScoresInput!]`). */
const graphqlType = (s: FactSpec): string => {
  const base = {
    int: 'Int',
    number: 'Float',
    boolean: 'Boolean',
    tiles: 'String',
    letter: 'String',
    scores: 'PartyScoresInput',
    enum: s.type === 'enum' ? s.enum.name : '',
    'enum-list': s.type === 'enum-list' ? `[${s.enum.name}!]` : '',
    'scores-list': '[PartyScoresInput!]',
    'object-list': s.type === 'object-list' ? `[${s.itemName}DisputeInput!]` : '',
  }[s.type];
  return factRequired(s) ? `${base}!` : base;
};

const DisputeFactType = builder.objectRef<FactSpec>('DisputeFact').implement({
  description: 'One fact of a dispute kind, as its input type has it.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Its field name in the kind’s input, e.g. `bagCount`.' }),
    type: t.string({ description: 'Its GraphQL type in the kind’s input, e.g. `Int!`, `IllegalExchangeStage!`.', resolve: graphqlType }),
    description: t.string({ description: 'What it is, its unit and range, default, and the rule it feeds.', resolve: factDescription }),
    unit: t.string({
      nullable: true,
      description: 'Its unit: tiles, seconds, minutes, points, plays, events, requests, words or round.',
      resolve: (s) => s.unit ?? null,
    }),
    min: t.float({
      nullable: true,
      description: 'The smallest value allowed (numbers, and the number of tiles of a tiles fact); null when unbounded or not a number.',
      resolve: (s) => (s.type === 'int' ? s.min : s.type === 'number' || s.type === 'tiles' ? (s.type === 'tiles' ? s.min : 0) : null),
    }),
    max: t.float({
      nullable: true,
      description: 'The largest value allowed; null when unbounded or not a number.',
      resolve: (s) => (s.type === 'int' || s.type === 'number' || s.type === 'tiles' ? s.max : null),
    }),
    required: t.boolean({ description: 'True when the input must give it (it has no default).', resolve: factRequired }),
    default: t.field({ type: 'JSON', nullable: true, description: 'Used when the fact is left out.', resolve: (s) => s.default ?? null }),
    values: t.stringList({
      nullable: true,
      description: 'For an enum fact: its values, as the input writes them.',
      resolve: (s) => (s.type === 'enum' || s.type === 'enum-list' ? s.enum.values.map(enumValueName) : null),
    }),
    feeds: t.exposeString('feeds', { description: 'The rule or rule-set parameter the fact feeds.' }),
  }),
});

const DisputeKindType = builder.objectRef<DisputeKindSpec>('DisputeKind').implement({
  description: 'A kind of dispute the adjudicator answers, described from the engine.',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'Its name, e.g. `illegal-exchange` (the JSON form’s `kind`).' }),
    inputField: t.string({ description: 'Its field in `DisputeInput`, e.g. `illegalExchange`.', resolve: (s) => kindField(s.kind) }),
    inputType: t.string({ description: 'Its input type, e.g. `IllegalExchangeDisputeInput`.', resolve: (s) => kindInputName(s.kind) }),
    description: t.exposeString('description', { description: 'What the dispute is about, in a sentence.' }),
    act: t.exposeString('act', {
      description: 'What the verdict judges: ALLOWED if it stands (or is granted), FORBIDDEN if it broke a rule (or is refused).',
    }),
    sources: t.exposeStringList('sources', { description: 'The seed documents and researched rules it comes from.' }),
    parameters: t.exposeStringList('parameters', { description: 'Every rule-set parameter its ruling reads (see `ruleSets`).' }),
    noRuleWithout: t.stringList({
      description: 'The parameters without which the rule set has no rule for it: the verdict is NO_RULE only when one is absent.',
      resolve: (s) => s.gates.map((g) => g.path),
    }),
    facts: t.field({ type: [DisputeFactType], description: 'The facts the kind takes, in input order.', resolve: (s) => [...s.facts] }),
    example: t.field({
      type: 'JSON',
      description: 'A dispute of the kind, as in examples/disputes/ (JSON form).',
      resolve: (s) => s.example,
    }),
  }),
});

builder.queryField('disputeKinds', (t) =>
  t.field({
    type: [DisputeKindType],
    description: 'Every kind of dispute `adjudicate` answers: its facts (typed, with units and ranges), rules, parameters and an example.',
    resolve: () => [...DISPUTE_SPECS],
  }),
);
