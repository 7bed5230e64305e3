import {
  GraphQLError,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type GraphQLField,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from './graphql.js';

/**
 * Query limits, as validation rules: a request over a limit is refused before anything runs, with a
 * GraphQL error whose `extensions.code` is QUERY_TOO_DEEP or QUERY_TOO_COSTLY. Every field costs, the
 * introspection fields and `__typename` included (issue 15: 100,000 aliased `__typename` used to be
 * free). Introspection (`__schema`, `__type` and all below them) is counted the same way but against a
 * budget of its own, sized for one full introspection query (GraphiQL's and codegen's, about 52,000
 * with this schema), so tools keep working and two of them in one request do not. Depth does not
 * count introspection (its `ofType` chains are deep by design; the bracket and token limits bound them).
 */
export interface QueryLimits {
  /** Deepest field nesting (a top-level field is depth 1; fragments count where they are spread). */
  readonly maxDepth: number;
  /**
   * Largest estimated cost: each field costs 1, and what is selected under a list is counted
   * `listFactor` times (a list of lists, listFactor² times).
   */
  readonly maxCost: number;
  readonly listFactor: number;
  /** Largest estimated cost of the introspection fields (`__schema`, `__type`) of one operation, counted the same way (default 60,000). */
  readonly maxIntrospectionCost?: number;
}

const DEFAULT_MAX_INTROSPECTION_COST = 60_000;
export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxDepth: 10,
  maxCost: 10_000,
  listFactor: 10,
  maxIntrospectionCost: DEFAULT_MAX_INTROSPECTION_COST,
};

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

const listNesting = (type: GraphQLType): number => {
  let n = 0;
  let t: GraphQLType = type;
  for (;;) {
    if (isNonNullType(t)) t = t.ofType;
    else if (isListType(t)) {
      n++;
      t = t.ofType;
    } else return n;
  }
};

const unwrapType = (type: GraphQLType): GraphQLType => (isNonNullType(type) || isListType(type) ? unwrapType(type.ofType) : type);

/** Depth of a selection set; fragments are followed once per path (a cycle is another rule's error). */
const depthOf = (set: SelectionSetNode, fragments: Fragments, seen: ReadonlySet<string>): number => {
  let max = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__')) continue;
      max = Math.max(max, 1 + (sel.selectionSet ? depthOf(sel.selectionSet, fragments, seen) : 0));
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(sel.selectionSet, fragments, seen));
    } else {
      const name = sel.name.value;
      const fragment = fragments.get(name);
      if (fragment && !seen.has(name)) max = Math.max(max, depthOf(fragment.selectionSet, fragments, new Set([...seen, name])));
    }
  }
  return max;
};

/**
 * The definition of field `name` on `parent`, the introspection fields included: `__typename` on any
 * composite type, `__schema` and `__type` on the query root (graphql-js keeps those out of getFields()).
 */
const fieldDef = (schema: GraphQLSchema, parent: GraphQLType | undefined, name: string): GraphQLField<unknown, unknown> | undefined => {
  if (name === '__typename') return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType() && name === '__schema') return SchemaMetaFieldDef;
  if (parent === schema.getQueryType() && name === '__type') return TypeMetaFieldDef;
  return parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[name] : undefined;
};

interface CostWalk {
  readonly schema: GraphQLSchema;
  readonly fragments: Fragments;
  readonly listFactor: number;
}

/** Estimated cost of one field and what it selects (see {@link QueryLimits.maxCost}). */
const fieldCost = (w: CostWalk, sel: FieldNode, parent: GraphQLType | undefined, seen: ReadonlySet<string>): number => {
  if (!sel.selectionSet) return 1;
  const type: GraphQLOutputType | undefined = fieldDef(w.schema, parent, sel.name.value)?.type;
  const factor = type ? w.listFactor ** listNesting(type) : 1;
  return 1 + factor * costOf(w, sel.selectionSet, type ? unwrapType(type) : undefined, seen);
};

/**
 * Calls `visit` for every field of `set` under `parent`, looking through inline fragments and fragment
 * spreads (each fragment once per path: a cycle is another rule's error).
 */
const eachField = (
  w: CostWalk,
  set: SelectionSetNode,
  parent: GraphQLType | undefined,
  seen: ReadonlySet<string>,
  visit: (field: FieldNode, parent: GraphQLType | undefined, seen: ReadonlySet<string>) => void,
): void => {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      visit(sel, parent, seen);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const type = sel.typeCondition ? w.schema.getType(sel.typeCondition.name.value) : parent;
      eachField(w, sel.selectionSet, type ?? undefined, seen, visit);
    } else {
      const name = sel.name.value;
      const fragment = w.fragments.get(name);
      if (fragment && !seen.has(name)) {
        const type = w.schema.getType(fragment.typeCondition.name.value) ?? undefined;
        eachField(w, fragment.selectionSet, type, new Set([...seen, name]), visit);
      }
    }
  }
};

/** Estimated cost of a selection set under `parent`; every field counts, `__typename` and introspection too. */
const costOf = (w: CostWalk, set: SelectionSetNode, parent: GraphQLType | undefined, seen: ReadonlySet<string>): number => {
  let cost = 0;
  eachField(w, set, parent, seen, (field, p, s) => {
    cost += fieldCost(w, field, p, s);
  });
  return cost;
};

/** An operation's cost: its introspection root fields (`__schema`, `__type`) apart from the rest. */
const operationCost = (w: CostWalk, set: SelectionSetNode, root: GraphQLType | undefined): { cost: number; introspectionCost: number } => {
  let cost = 0;
  let introspectionCost = 0;
  eachField(w, set, root, new Set(), (field, p, s) => {
    const c = fieldCost(w, field, p, s);
    if (field.name.value === '__schema' || field.name.value === '__type') introspectionCost += c;
    else cost += c;
  });
  return { cost, introspectionCost };
};

/** The validation rule enforcing `limits` on every operation of a document. */
export const queryLimitsRule =
  (limits: QueryLimits = DEFAULT_QUERY_LIMITS): ValidationRule =>
  (context: ValidationContext) => {
    const doc = context.getDocument();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return {
      OperationDefinition(op) {
        const name = op.name ? `Operation "${op.name.value}"` : 'The operation';
        const depth = depthOf(op.selectionSet, fragments, new Set());
        if (depth > limits.maxDepth) {
          context.reportError(
            new GraphQLError(`${name} nests fields ${depth} deep; the limit is ${limits.maxDepth}.`, {
              nodes: [op],
              extensions: { code: 'QUERY_TOO_DEEP', depth, maxDepth: limits.maxDepth },
            }),
          );
          return;
        }
        const schema = context.getSchema();
        const root =
          op.operation === 'query'
            ? schema.getQueryType()
            : op.operation === 'mutation'
              ? schema.getMutationType()
              : schema.getSubscriptionType();
        const maxIntrospectionCost = limits.maxIntrospectionCost ?? DEFAULT_MAX_INTROSPECTION_COST;
        const { cost, introspectionCost } = operationCost(
          { schema, fragments, listFactor: limits.listFactor },
          op.selectionSet,
          root ?? undefined,
        );
        if (cost > limits.maxCost) {
          context.reportError(
            new GraphQLError(
              `${name} is estimated to cost ${cost}; the limit is ${limits.maxCost} (each field costs 1, __typename included; fields under a list count ${limits.listFactor} times).`,
              { nodes: [op], extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost: limits.maxCost } },
            ),
          );
        } else if (introspectionCost > maxIntrospectionCost) {
          context.reportError(
            new GraphQLError(
              `${name} is estimated to cost ${introspectionCost} in introspection (__schema, __type); the limit is ${maxIntrospectionCost}, one full introspection query.`,
              {
                nodes: [op],
                extensions: {
                  code: 'QUERY_TOO_COSTLY',
                  cost: introspectionCost,
                  maxCost: limits.maxIntrospectionCost,
                  introspection: true,
                },
              },
            ),
          );
        }
      },
    };
  };
