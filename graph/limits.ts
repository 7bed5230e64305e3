import {
  GraphQLError,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
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
 * GraphQL error whose `extensions.code` is QUERY_TOO_DEEP or QUERY_TOO_COSTLY. Introspection fields
 * (`__schema`, `__type` …) are not counted, so GraphiQL and codegen keep working.
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
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { maxDepth: 10, maxCost: 10_000, listFactor: 10 };

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

/** Estimated cost of a selection set under `parent` (see {@link QueryLimits.maxCost}). */
const costOf = (
  schema: GraphQLSchema,
  set: SelectionSetNode,
  parent: GraphQLType | undefined,
  fragments: Fragments,
  seen: ReadonlySet<string>,
  listFactor: number,
): number => {
  let cost = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__')) continue;
      const def = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[sel.name.value] : undefined;
      cost += 1;
      if (sel.selectionSet) {
        const type: GraphQLOutputType | undefined = def?.type;
        const factor = type ? listFactor ** listNesting(type) : 1;
        cost += factor * costOf(schema, sel.selectionSet, type ? unwrapType(type) : undefined, fragments, seen, listFactor);
      }
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const type = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
      cost += costOf(schema, sel.selectionSet, type ?? undefined, fragments, seen, listFactor);
    } else {
      const name = sel.name.value;
      const fragment = fragments.get(name);
      if (fragment && !seen.has(name)) {
        cost += costOf(
          schema,
          fragment.selectionSet,
          schema.getType(fragment.typeCondition.name.value) ?? undefined,
          fragments,
          new Set([...seen, name]),
          listFactor,
        );
      }
    }
  }
  return cost;
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
        const cost = costOf(schema, op.selectionSet, root ?? undefined, fragments, new Set(), limits.listFactor);
        if (cost > limits.maxCost) {
          context.reportError(
            new GraphQLError(
              `${name} is estimated to cost ${cost}; the limit is ${limits.maxCost} (each field costs 1; fields under a list count ${limits.listFactor} times).`,
              { nodes: [op], extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost: limits.maxCost } },
            ),
          );
        }
      },
    };
  };
