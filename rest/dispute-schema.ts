import { DISPUTE_KINDS, type DisputeKind } from '../engine/adjudication/dispute.js';
import { logFactNames } from '../engine/adjudication/from-log.js';
import { kindField, specOf, type DisputeKindSpec, type FactSpec } from '../engine/adjudication/kinds/index.js';
import { factDescription, factRequired } from '../graph/dispute-inputs.js';
import { getNamedType, isInputObjectType, isNonNullType, type GraphQLInputType } from '../graph/graphql.js';
import { inputSchema, type JsonSchema, type SchemaComponents } from './json-schema.js';

/**
 * Disputes typed per kind in the REST document (issue 34 item 4), from the engine's description of each kind
 * (engine/adjudication/kinds), the same single source as GraphQL's `DisputeInput`: one schema per kind with
 * every fact's type, enum values, range and default, and a `oneOf` over the kinds discriminated by `kind`.
 * GraphQL takes these as JSON (`fileDispute`'s facts, `adjudicate`'s `dispute`) and the engine parses them;
 * REST publishes and validates them before, so a generated client knows the 37 kinds and a bad fact is a
 * 400 naming it. Values are written as the engine and examples/disputes/ write them (`drawn-not-racked`).
 */

const pascal = (kind: string): string => kindField(kind).replace(/^./, (c) => c.toUpperCase());

/** `OvertimeDispute`: a kind's dispute as `adjudicate` takes it, its facts beside `kind`. */
export const disputeSchemaName = (kind: string): string => `${pascal(kind)}Dispute`;
/** `OvertimeDisputeClaim`: a kind's dispute as `fileDispute` takes it, on a stored game. */
export const claimSchemaName = (kind: string): string => `${pascal(kind)}DisputeClaim`;

// A tile in notation: a capital (Ñ and the middle dot of Catalan's L·L written as escapes), `?` a blank,
// `[CH]` a digraph; the engine's reader (engine/adjudication/facts.ts) accepts the same.
const FACE = '[A-Z\\u00D1\\u00B7]';
const TILE = `\\?|${FACE}|\\[(?:\\?|${FACE}+)\\]`;
const LETTER = `^(?:${FACE}+|\\[${FACE}+\\])$`;
const SCORE_BOUND = 100_000;

const sorted = (o: Record<string, JsonSchema>): Record<string, JsonSchema> =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const scoresSchema = (components: SchemaComponents): JsonSchema =>
  components.define('DisputePartyScores', () => {
    const score = { type: 'integer', minimum: -SCORE_BOUND, maximum: SCORE_BOUND };
    return {
      type: 'object',
      description: 'A number for each party: the player whose act is in dispute, and the opponent.',
      properties: { opponent: { ...score, description: 'The opponent’s.' }, player: { ...score, description: 'The player’s.' } },
      required: ['opponent', 'player'],
      additionalProperties: false,
    };
  });

/**
 * The value of a fact, as the engine reads it: its type, its values or its range (no description). A default is
 * said in the description, not as `default`: generators type a property with a default as always present,
 * which would make a client send every default.
 */
const valueSchema = (s: FactSpec, components: SchemaComponents): JsonSchema => {
  switch (s.type) {
    case 'int':
      return { type: 'integer', minimum: s.min, maximum: s.max };
    case 'number':
      return { type: 'number', minimum: 0, maximum: s.max };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: [...s.enum.values] };
    case 'scores':
      return scoresSchema(components);
    case 'tiles':
      return { type: 'string', pattern: `^(?:${TILE}){${s.min},${s.max}}$` };
    case 'letter':
      return { type: 'string', pattern: LETTER };
    case 'enum-list':
      return { type: 'array', items: { type: 'string', enum: [...s.enum.values] }, minItems: s.minItems };
    case 'scores-list':
      return { type: 'array', items: scoresSchema(components), minItems: s.minItems };
    case 'object-list':
      return { type: 'array', items: factsObject(s.item, s.item.filter(factRequired), components), minItems: s.minItems };
  }
};

/** A fact's schema with its description; an optional fact the engine reads as absent when null may be null. */
const factSchema = (s: FactSpec, components: SchemaComponents): JsonSchema => {
  const value = valueSchema(s, components);
  const enumText = s.type === 'enum' || s.type === 'enum-list' ? ` ${s.enum.description}` : '';
  const description = `${factDescription(s)}${enumText}`;
  if (!s.optional) return { ...value, description };
  if (typeof value['type'] === 'string') return { ...value, type: [value['type'], 'null'], description };
  return { anyOf: [value, { type: 'null' }], description };
};

const factProperties = (facts: readonly FactSpec[], components: SchemaComponents): Record<string, JsonSchema> =>
  Object.fromEntries(facts.map((s) => [s.name, factSchema(s, components)]));

const factsObject = (facts: readonly FactSpec[], required: readonly FactSpec[], components: SchemaComponents): JsonSchema => ({
  type: 'object',
  properties: sorted(factProperties(facts, components)),
  ...(required.length ? { required: required.map((s) => s.name).sort() } : {}),
  additionalProperties: false,
});

const kindText = (spec: DisputeKindSpec): string => `${spec.description} Verdict on: ${spec.act}. Rules: ${spec.sources.join('; ')}.`;

const kindConst = (kind: string): JsonSchema => ({ type: 'string', const: kind, description: `The dispute kind: \`${kind}\`.` });

/** One kind as `adjudicate` takes it: `{"kind": "overtime", "secondsOver": 125}`, as in examples/disputes/. */
const disputeOf = (kind: DisputeKind, components: SchemaComponents): JsonSchema =>
  components.define(disputeSchemaName(kind), () => {
    const spec = specOf(kind);
    const properties = {
      ...factProperties(spec.facts, components),
      description: { type: 'string', description: 'Free text for the people reading it; not used by the ruling.' },
      kind: kindConst(kind),
    };
    const required = [
      'kind',
      ...spec.facts
        .filter(factRequired)
        .map((s) => s.name)
        .sort(),
    ];
    return {
      type: 'object',
      description: kindText(spec),
      properties: sorted(properties),
      required,
      additionalProperties: false,
      examples: [spec.example],
    };
  });

/** The facts of a claim on a stored game: every fact of the kind, required only where the log cannot hold it. */
const claimFactsOf = (kind: DisputeKind, components: SchemaComponents): JsonSchema =>
  components.define(`${pascal(kind)}ClaimFacts`, () => {
    const fromLog = logFactNames(kind);
    const spec = specOf(kind);
    const required = spec.facts.filter((s) => factRequired(s) && !fromLog.includes(s.name));
    const said = fromLog.length ? ` The log supplies ${fromLog.join(', ')} when it holds them; a claimed value must equal the log’s.` : '';
    return { ...factsObject(spec.facts, required, components), description: `The facts of a \`${kind}\` claim.${said}` };
  });

/**
 * One branch per kind, chosen by `kind` (the mapping names each kind's schema). Nothing besides the oneOf: a
 * property here would make a generated client's type an intersection and an example linter count the
 * branches' fields as unevaluated. The REST validator lists the kinds itself from the mapping (rest/validate.ts).
 */
const union = (description: string, name: (kind: string) => string, branch: (kind: DisputeKind) => JsonSchema): JsonSchema => ({
  description,
  oneOf: DISPUTE_KINDS.map(branch),
  discriminator: {
    propertyName: 'kind',
    mapping: Object.fromEntries(DISPUTE_KINDS.map((k) => [k, `#/components/schemas/${name(k)}`])),
  },
});

/** `adjudicate`'s `dispute`: any kind, its facts beside `kind`; null or absent when `input` is given. */
export const disputeBodyField = (_type: GraphQLInputType, components: SchemaComponents): JsonSchema => {
  const ref = components.define('Dispute', () =>
    union(
      'A dispute, typed by its `kind`: the kind’s facts beside it, each with its type, values, range and default (one schema per kind, as in examples/disputes/).',
      disputeSchemaName,
      (k) => disputeOf(k, components),
    ),
  );
  return {
    anyOf: [ref, { type: 'null' }],
    description: 'The dispute, typed by its `kind`, e.g. {"kind": "overtime", "secondsOver": 125}; or give `input`.',
  };
};

/**
 * `fileDispute`'s body: the claim's own fields as GraphQL types them (concerns, player, note), its `kind` and the
 * kind's `facts` typed per kind.
 */
export const disputeClaimBody = (type: GraphQLInputType, components: SchemaComponents): JsonSchema => {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) throw new Error('REST dispute claim: the body is not an input object');
  const own = Object.values(named.getFields()).filter((f) => f.name !== 'kind' && f.name !== 'facts');
  const claimOf = (kind: DisputeKind): JsonSchema =>
    components.define(claimSchemaName(kind), () => {
      const facts = claimFactsOf(kind, components);
      const needsFacts = specOf(kind).facts.some((s) => factRequired(s) && !logFactNames(kind).includes(s.name));
      const fields = Object.fromEntries(
        own.map((f) => [f.name, { ...inputSchema(f.type, components), ...(f.description ? { description: f.description } : {}) }]),
      );
      const required = [...own.filter((f) => isNonNullType(f.type)).map((f) => f.name), 'kind', ...(needsFacts ? ['facts'] : [])];
      return {
        type: 'object',
        description: `A dispute of kind \`${kind}\` on a stored game. ${kindText(specOf(kind))}`,
        properties: sorted({ ...fields, facts: { ...facts, description: 'Only the facts the log cannot know.' }, kind: kindConst(kind) }),
        required: required.sort(),
        additionalProperties: false,
      };
    });
  return components.define('DisputeClaim', () =>
    union(
      'A dispute on a stored game, typed by its `kind`: the event it `concerns` and the kind’s `facts` (one schema per kind).',
      claimSchemaName,
      claimOf,
    ),
  );
};
