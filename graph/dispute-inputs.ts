import type { InputFieldRef, InputObjectRef } from '@pothos/core';
import { DISPUTE_KINDS, type DisputeKind } from '../engine/adjudication/dispute.js';
import { DISPUTE_SPECS, enumValueName, kindField, specOf, type FactEnum, type FactSpec } from '../engine/adjudication/kinds/index.js';
import { builder, type Types } from './builder.js';

type AllTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;
type ItemRef = InputObjectRef<AllTypes, Record<string, unknown>>;
type FactField = InputFieldRef<AllTypes, unknown>;

/**
 * The typed dispute input, generated from the engine's description of each kind (engine/adjudication/kinds):
 * one enum per vocabulary of fact values, one input type per kind with every fact typed and described (unit,
 * range, default, the rule it feeds), and `DisputeInput`, a @oneOf over the kinds. The resolver turns it back
 * into the dispute JSON the engine parses, so both forms are checked by the same code.
 */

const pascal = (kind: string): string => kindField(kind).replace(/^./, (c) => c.toUpperCase());

/** `IllegalExchangeDisputeInput`: the input type of a kind (the suffix keeps clear of the game's own inputs). */
export const kindInputName = (kind: string): string => `${pascal(kind)}DisputeInput`;

// GraphQL enums are built once per vocabulary; values are GraphQL names, mapped back to the engine's words.
const enums = new Map<string, ReturnType<typeof enumRef>>();
const enumRef = (e: FactEnum) =>
  builder.enumType(e.name, {
    description: e.description,
    values: Object.fromEntries(e.values.map((v) => [enumValueName(v), { value: v, description: `\`${v}\`` }])),
  });
const enumFor = (e: FactEnum) => {
  let ref = enums.get(e.name);
  if (!ref) enums.set(e.name, (ref = enumRef(e)));
  return ref;
};

const PartyScoresInput = builder.inputType('PartyScoresInput', {
  description: 'A number for each party: the player whose act is in dispute, and the opponent.',
  fields: (t) => ({
    player: t.int({ description: 'The player’s (whose act is in dispute).' }),
    opponent: t.int({ description: 'The opponent’s.' }),
  }),
});

const range = (s: FactSpec): string => {
  switch (s.type) {
    case 'int':
    case 'number':
      return `${'min' in s ? s.min : 0}–${s.max}`;
    case 'tiles':
      return `${s.min}–${s.max} tiles`;
    case 'enum-list':
    case 'scores-list':
    case 'object-list':
      return `at least ${s.minItems}`;
    default:
      return '';
  }
};

/** The description of a fact as the API shows it: what it is, unit and range, default, and the rule it feeds. */
export const factDescription = (s: FactSpec): string => {
  const r = range(s);
  const unit = s.unit ? `Unit: ${s.unit}${r ? `, ${r}` : ''}.` : r ? `Range: ${r}.` : '';
  const dflt = s.default === undefined ? '' : ` Default: ${Array.isArray(s.default) ? 'none' : String(s.default)}.`;
  return `${s.description} ${unit}${dflt} Feeds: ${s.feeds}.`.replace(/\s+/g, ' ').trim();
};

/** Whether the API requires the fact (no default, not optional). */
export const factRequired = (s: FactSpec): boolean => s.default === undefined && !s.optional;

type Fields = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

const itemInputs = new Map<string, ItemRef>();
const itemInput = (s: Extract<FactSpec, { type: 'object-list' }>): ItemRef =>
  builder.inputType(`${s.itemName}DisputeInput`, {
    description: `One entry of \`${s.name}\`.`,
    fields: (t): Record<string, FactField> => Object.fromEntries(s.item.map((x) => [x.name, factField(t, x)])),
  }) as unknown as ItemRef;

/** The GraphQL input field of a fact. */
const factField = (t: Fields, s: FactSpec): FactField => {
  const common = { required: factRequired(s), description: factDescription(s) };
  const dflt = typeof s.default === 'number' || typeof s.default === 'boolean' ? { defaultValue: s.default as never } : {};
  switch (s.type) {
    case 'int':
      return t.int({ ...common, ...dflt });
    case 'number':
      return t.float({ ...common, ...dflt });
    case 'boolean':
      return t.boolean({ ...common, ...dflt });
    case 'enum':
      return t.field({ type: enumFor(s.enum), ...common });
    case 'scores':
      return t.field({ type: PartyScoresInput, ...common });
    case 'tiles':
    case 'letter':
      return t.string(common);
    case 'enum-list':
      return t.field({ type: [enumFor(s.enum)], ...common });
    case 'scores-list':
      return t.field({ type: [PartyScoresInput], ...common });
    case 'object-list': {
      let ref = itemInputs.get(s.itemName);
      if (!ref) itemInputs.set(s.itemName, (ref = itemInput(s)));
      return t.field({ type: [ref], ...common });
    }
  }
};

const kindInput = (kind: DisputeKind) => {
  const spec = specOf(kind);
  return builder.inputType(kindInputName(kind), {
    description: `${spec.description} Verdict on: ${spec.act}. Rules: ${spec.sources.join('; ')}.`,
    fields: (t) => ({
      ...Object.fromEntries(spec.facts.map((s) => [s.name, factField(t, s)])),
      description: t.string({ required: false, description: 'Free text for the people reading it; not used by the ruling.' }),
    }),
  });
};

const KIND_INPUTS = new Map(DISPUTE_KINDS.map((k) => [k, kindInput(k)] as const));

export const DisputeInput = builder.inputType('DisputeInput', {
  isOneOf: true,
  description:
    'One dispute: exactly one field, named for its kind (`illegalExchange`, `overtime` …), holding that kind’s facts. See the `disputeKinds` query.',
  fields: (t) =>
    Object.fromEntries(
      DISPUTE_SPECS.map((s) => [
        kindField(s.kind),
        t.field({
          type: KIND_INPUTS.get(s.kind as DisputeKind)!,
          required: false,
          description: `A \`${s.kind}\` dispute: ${s.description}`,
        }),
      ]),
    ),
});

/** Drops nulls (left out = the engine's default), deeply. */
const withoutNulls = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutNulls)
    : typeof v === 'object' && v !== null
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== null && x !== undefined)
            .map(([k, x]) => [k, withoutNulls(x)]),
        )
      : v;

/** The dispute JSON the engine parses, from a DisputeInput (`{overtime: {secondsOver: 125}}` → `{kind: "overtime", secondsOver: 125}`). */
export const disputeFromInput = (input: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const [field, facts] = Object.entries(input).find(([, v]) => v !== null && v !== undefined) ?? [];
  const spec = DISPUTE_SPECS.find((s) => kindField(s.kind) === field);
  return { kind: spec?.kind ?? field, ...(withoutNulls(facts ?? {}) as Record<string, unknown>) };
};
