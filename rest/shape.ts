import {
  getNamedType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isRequiredArgument,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from '../graph/graphql.js';

/**
 * What a REST resource shows of a GraphQL type: every leaf field (scalars and enums, deprecated ones
 * left out) and only the object fields named in `expand`, each with its own shape. Leaves are taken
 * from the schema, so a field or enum added there reaches REST by itself; how deep a resource goes is
 * decided here, which keeps every REST query inside the API's query limits (graph/limits.ts).
 */
export interface Shape {
  /** Component name in the OpenAPI document; default the GraphQL type's name. */
  readonly name?: string;
  readonly expand?: Readonly<Record<string, Shape>>;
  /** Leaf fields left out (a game's `boardSvg`: its picture has a route of its own). */
  readonly omit?: readonly string[];
}

export const LEAVES: Shape = {};

/** The fields of `type` a shape selects, in schema order: [field, sub-shape or null for a leaf]. */
export const shapeFields = (type: GraphQLObjectType, shape: Shape): [GraphQLField<unknown, unknown>, Shape | null][] => {
  const fields = type.getFields();
  for (const name of [...Object.keys(shape.expand ?? {}), ...(shape.omit ?? [])]) {
    if (!fields[name]) throw new Error(`REST shape of ${type.name}: no field "${name}"`);
  }
  const out: [GraphQLField<unknown, unknown>, Shape | null][] = [];
  for (const field of Object.values(fields)) {
    if (field.deprecationReason != null || field.args.some(isRequiredArgument) || shape.omit?.includes(field.name)) continue;
    const sub = shape.expand?.[field.name];
    if (sub) out.push([field, sub]);
    else if (isLeafType(getNamedType(field.type))) out.push([field, null]);
  }
  return out;
};

/** The object type under lists and non-null wrappers (interfaces and unions are not shaped). */
export const objectTypeOf = (type: GraphQLOutputType, where: string): GraphQLObjectType => {
  const named = getNamedType(type);
  if (!isObjectType(named)) throw new Error(`REST shape at ${where}: ${named.name} is not an object type`);
  return named;
};

/** The GraphQL selection set (without braces) that `shape` selects of `type`. */
export const selectionOf = (type: GraphQLObjectType, shape: Shape): string =>
  shapeFields(type, shape)
    .map(([field, sub]) =>
      sub ? `${field.name} { ${selectionOf(objectTypeOf(field.type, `${type.name}.${field.name}`), sub)} }` : field.name,
    )
    .join(' ');

/**
 * Every field of `type`, object fields expanded all the way down: for the small error types, whose
 * every field belongs in a problem body.
 */
export const fullShape = (type: GraphQLObjectType, seen: ReadonlySet<string> = new Set([type.name])): Shape => {
  const expand: Record<string, Shape> = {};
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (isObjectType(named) && !seen.has(named.name)) expand[field.name] = fullShape(named, new Set([...seen, named.name]));
  }
  return { expand };
};

/** Is the output type a list (under a non-null)? */
export const isList = (type: GraphQLOutputType): boolean => isListType(isNonNullType(type) ? type.ofType : type);
