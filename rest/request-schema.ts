import { isInputObjectType, isNonNullType } from '../graph/graphql.js';
import { bodySchema, inputSchema, type JsonSchema, type SchemaComponents } from './json-schema.js';
import { argType, type Operation } from './operation.js';

/**
 * The JSON Schema of a route's JSON request body and of its path and query parameters: what the OpenAPI
 * document publishes for the operation (rest/openapi.ts) and what the REST edge validates a request against
 * before it runs the operation (rest/validate.ts), so the two cannot differ.
 */

export interface JsonBody {
  readonly schema: JsonSchema;
  /** The body may not be left out. */
  readonly required: boolean;
}

/** The JSON body's schema; undefined for a route without a JSON body (none, or a text file). */
export const jsonBodySchema = (op: Operation, components: SchemaComponents): JsonBody | undefined => {
  const entries = Object.entries(op.route.args);
  if (entries.some(([, s]) => s.from === 'textBody')) return undefined;
  const whole = entries.find(([, s]) => s.from === 'body');
  const fields = entries.filter(([, s]) => s.from === 'bodyField');
  if (whole) {
    const type = argType(op.field, whole[0]);
    // A body is an object, never null (rest/request.ts refuses any other JSON value), whatever the argument's nullability.
    const schema = whole[1].from === 'body' && whole[1].schema ? whole[1].schema(type, components) : bodySchema(type, components);
    // An input whose every field is optional may be left out (the handler passes `{}`).
    const named = isNonNullType(type) ? type.ofType : type;
    const required =
      isNonNullType(type) &&
      (!isInputObjectType(named) ||
        named.isOneOf ||
        Object.values(named.getFields()).some((f) => isNonNullType(f.type) && f.defaultValue === undefined));
    return { schema, required };
  }
  if (!fields.length) return undefined;
  const properties: Record<string, JsonSchema> = {};
  const names: string[] = [];
  for (const [argPath, s] of fields) {
    const arg = op.field.args.find((a) => a.name === argPath)!;
    const name = (s as { name: string }).name;
    const own = s.from === 'bodyField' ? s.schema : undefined;
    const typed = own ? own(arg.type, components) : inputSchema(arg.type, components);
    properties[name] = arg.description && !own ? { ...typed, description: arg.description } : typed;
    if (isNonNullType(arg.type)) names.push(name);
  }
  const schema = { type: 'object', properties, ...(names.length ? { required: names } : {}), additionalProperties: false };
  return { schema, required: names.length > 0 };
};

/** The schema of the path or query parameter read into `argPath` (as its value is once parsed from the URL). */
export const parameterSchema = (op: Operation, argPath: string, components: SchemaComponents): JsonSchema => {
  const type = argType(op.field, argPath);
  return inputSchema(isNonNullType(type) ? type.ofType : type, components);
};
