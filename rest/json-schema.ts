import {
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLEnumType,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
} from '../graph/graphql.js';
import { objectTypeOf, shapeFields, type Shape } from './shape.js';

/**
 * JSON Schema (OpenAPI 3.1 dialect) of the GraphQL types REST shows: the response bodies as their
 * shapes select them, the request bodies as the GraphQL input types they are passed as. Derived, not
 * written: types, nullability, enums and descriptions come from the schema, so REST cannot drift from it.
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The named schemas of the document (`components.schemas`); a name used for two different shapes is an error. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly building = new Set<string>();

  ref(name: string): JsonSchema {
    return { $ref: `#/components/schemas/${name}` };
  }

  /** Registers `name` (built once by `build`) and answers a reference to it. */
  define(name: string, build: () => JsonSchema): JsonSchema {
    if (!this.schemas[name] && !this.building.has(name)) {
      this.building.add(name);
      this.schemas[name] = build();
      this.building.delete(name);
    } else if (this.schemas[name] && !this.building.has(name)) {
      const again = JSON.stringify(build());
      if (again !== JSON.stringify(this.schemas[name]))
        throw new Error(`REST schema "${name}" is defined twice with different fields: give one of the shapes its own name`);
    }
    return this.ref(name);
  }
}

const SCALARS: Readonly<Record<string, JsonSchema>> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
};

/** `schema` or null: a reference goes into `anyOf`, a plain type gets `"null"` added to its `type`. */
const nullable = (schema: JsonSchema): JsonSchema => {
  if (typeof schema['type'] === 'string') return { ...schema, type: [schema['type'], 'null'] };
  if (Object.keys(schema).length === 0) return schema; // JSON: null is already a JSON value
  return { anyOf: [schema, { type: 'null' }] };
};

const withDescription = (schema: JsonSchema, description: string | null | undefined): JsonSchema =>
  description ? { ...schema, description } : schema;

const leafSchema = (type: GraphQLNamedType, components: SchemaComponents): JsonSchema => {
  if (isEnumType(type)) return enumSchema(type, components);
  if (isScalarType(type)) return SCALARS[type.name] ?? withDescription({}, type.description);
  throw new Error(`REST schema: ${type.name} is not a leaf type`);
};

const enumSchema = (type: GraphQLEnumType, components: SchemaComponents): JsonSchema =>
  components.define(type.name, () => {
    const current = type.getValues().filter((v) => v.deprecationReason == null);
    // An enum kept only for old clients (every value deprecated) still validates what they send.
    const values = current.length ? current : type.getValues();
    const described = values.filter((v) => v.description).map((v) => `\`${v.name}\`: ${v.description}`);
    const text = [type.description, ...described].filter(Boolean).join('\n\n');
    return withDescription({ type: 'string', enum: values.map((v) => v.name) }, text);
  });

/** The schema of a value of `type` as `shape` selects it (`null` for a leaf). */
export const outputSchema = (type: GraphQLOutputType, shape: Shape | null, components: SchemaComponents, where: string): JsonSchema => {
  if (isNonNullType(type)) return requiredOutput(type.ofType, shape, components, where);
  return nullable(requiredOutput(type, shape, components, where));
};

const requiredOutput = (type: GraphQLOutputType, shape: Shape | null, components: SchemaComponents, where: string): JsonSchema => {
  if (isNonNullType(type)) return requiredOutput(type.ofType, shape, components, where);
  if (isListType(type)) return { type: 'array', items: outputSchema(type.ofType, shape, components, where) };
  if (shape === null) return leafSchema(type, components);
  const object = objectTypeOf(type, where);
  return components.define(shape.name ?? object.name, () => objectSchema(object, shape, components));
};

/** An object as a shape selects it: every selected field is present (GraphQL answers null, never leaves one out). */
export const objectSchema = (type: GraphQLOutputType, shape: Shape, components: SchemaComponents): JsonSchema => {
  const object = objectTypeOf(type, 'object');
  const properties: Record<string, JsonSchema> = {};
  for (const [field, sub] of shapeFields(object, shape)) {
    properties[field.name] = withDescription(outputSchema(field.type, sub, components, `${object.name}.${field.name}`), field.description);
  }
  return withDescription(
    { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
    isObjectType(object) ? object.description : null,
  );
};

/** The schema of an input value of `type` (input objects become named components; `@oneOf` a `oneOf`). */
export const inputSchema = (type: GraphQLInputType, components: SchemaComponents): JsonSchema => {
  if (isNonNullType(type)) return requiredInput(type.ofType, components);
  return nullable(requiredInput(type, components));
};

/** The schema of a request body carrying `type` (an input object): never null, whatever the argument's nullability. */
export const bodySchema = (type: GraphQLInputType, components: SchemaComponents): JsonSchema => requiredInput(type, components);

const requiredInput = (type: GraphQLInputType, components: SchemaComponents): JsonSchema => {
  if (isNonNullType(type)) return requiredInput(type.ofType, components);
  if (isListType(type)) return { type: 'array', items: inputSchema(type.ofType, components) };
  if (!isInputObjectType(type)) return leafSchema(type, components);
  return components.define(type.name, () => {
    const fields = Object.values(type.getFields());
    const property = (f: (typeof fields)[number]) => withDescription(inputSchema(f.type, components), f.description);
    if (type.isOneOf) {
      const oneOf = fields.map((f) => ({
        type: 'object',
        properties: { [f.name]: requiredInput(f.type, components) },
        required: [f.name],
        additionalProperties: false,
        ...(f.description ? { description: f.description } : {}),
      }));
      return withDescription({ oneOf }, type.description);
    }
    const properties = Object.fromEntries(fields.map((f) => [f.name, property(f)]));
    const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
    return withDescription(
      { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
      type.description,
    );
  });
};
