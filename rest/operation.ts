import {
  getNamedType,
  isInputObjectType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from '../graph/graphql.js';
import type { Route } from './route.js';
import { fullShape, objectTypeOf, selectionOf } from './shape.js';

/**
 * A route compiled against the schema: the GraphQL document it runs (one operation, the field
 * aliased `result`), the success type and the error types of the field's `…Result` union.
 */
export interface Operation {
  readonly route: Route;
  readonly kind: 'query' | 'mutation';
  readonly field: GraphQLField<unknown, unknown>;
  readonly document: string;
  /** The type the route's value has: the union's success member, or the field's own type. */
  readonly success: GraphQLObjectType;
  /** The union's error members (empty for a field without a union). */
  readonly errors: readonly GraphQLObjectType[];
}

const ERROR_INTERFACE = 'Error';

export const rootField = (schema: GraphQLSchema, name: string): { kind: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> } => {
  const q = schema.getQueryType()?.getFields()[name];
  if (q) return { kind: 'query', field: q };
  const m = schema.getMutationType()?.getFields()[name];
  if (m) return { kind: 'mutation', field: m };
  throw new Error(`REST route: no Query or Mutation field "${name}"`);
};

/** The input type at an argument path: `input` → CreateGameInput!, `input.action` → TurnActionInput!. */
export const argType = (field: GraphQLField<unknown, unknown>, argPath: string): GraphQLInputType => {
  const [head, ...rest] = argPath.split('.');
  const arg = field.args.find((a) => a.name === head);
  if (!arg) throw new Error(`REST route: ${field.name} has no argument "${head}"`);
  let type: GraphQLInputType = arg.type;
  for (const name of rest) {
    const named = getNamedType(type);
    const f = isInputObjectType(named) ? named.getFields()[name] : undefined;
    if (!f) throw new Error(`REST route: ${field.name} has no input field "${argPath}"`);
    type = f.type;
  }
  return type;
};

/** The selection under the success type, per reply kind. */
const successSelection = (route: Route, success: GraphQLObjectType): string => {
  const { reply, shape } = route;
  const version = route.etag ? 'version ' : '';
  switch (reply.kind) {
    case 'object':
      return selectionOf(success, shape);
    case 'text':
      return reply.filenameField ? `${reply.field} ${reply.filenameField}` : reply.field;
    case 'empty':
      return Object.keys(success.getFields())[0]!;
    case 'page': {
      const node = objectTypeOf(success.getFields()['edges']!.type, success.name);
      const nodeType = objectTypeOf(node.getFields()['node']!.type, node.name);
      return `edges { cursor node { ${selectionOf(nodeType, shape)} } } pageInfo { hasNextPage endCursor }`;
    }
    case 'list':
    case 'item': {
      if (reply.kind === 'list' && !reply.field) return selectionOf(success, shape);
      const f = success.getFields()[reply.field!];
      if (!f) throw new Error(`REST route ${route.operationId}: ${success.name} has no field "${reply.field}"`);
      return `${version}${reply.field} { ${selectionOf(objectTypeOf(f.type, f.name), shape)} }`;
    }
  }
};

const errorSelection = (errors: readonly GraphQLObjectType[]): string =>
  errors.map((e) => `... on ${e.name} { ${selectionOf(e, fullShape(e))} }`).join(' ');

export const compileOperation = (schema: GraphQLSchema, route: Route): Operation => {
  const { kind, field } = rootField(schema, route.field);
  const named = getNamedType(field.type);
  const members = isUnionType(named) ? named.getTypes() : [];
  const isError = (t: GraphQLObjectType) => t.getInterfaces().some((i) => i.name === ERROR_INTERFACE);
  const successes = isUnionType(named) ? members.filter((t) => !isError(t)) : [objectOrList(named, route)];
  if (successes.length !== 1) throw new Error(`REST route ${route.operationId}: ${named.name} has ${successes.length} success types`);
  const success = successes[0]!;
  const errors = members.filter(isError);
  const topArgs = [...new Set(Object.keys(route.args).map((p) => p.split('.')[0]!))];
  const definitions = topArgs.map((name) => `$${name}: ${String(argType(field, name))}`);
  for (const a of field.args) {
    if (isNonNullType(a.type) && a.defaultValue === undefined && !topArgs.includes(a.name))
      throw new Error(`REST route ${route.operationId}: the required argument "${a.name}" of ${field.name} has no source`);
  }
  const args = topArgs.map((name) => `${name}: $${name}`);
  const selection = successSelection(route, success);
  const body = isUnionType(named) ? `__typename ... on ${success.name} { ${selection} } ${errorSelection(errors)}` : selection;
  const document =
    `${kind} ${route.operationId}${definitions.length ? `(${definitions.join(', ')})` : ''} ` +
    `{ result: ${field.name}${args.length ? `(${args.join(', ')})` : ''} { ${body} } }`;
  return { route, kind, field, document, success, errors };
};

/** A field without a union answers its type directly (a list of rule sets, a connection). */
const objectOrList = (named: GraphQLNamedType, route: Route): GraphQLObjectType => {
  if (!isObjectType(named)) throw new Error(`REST route ${route.operationId}: ${named.name} is not an object type`);
  return named;
};
