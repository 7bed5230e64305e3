import { isListType, isNonNullType, isObjectType, type GraphQLOutputType, type GraphQLSchema } from '../graph/graphql.js';
import EXAMPLES from './examples.json' with { type: 'json' };
import { outputSchema, SchemaComponents, type JsonSchema } from './json-schema.js';
import { type Operation } from './operation.js';
import { jsonBodySchema, parameterSchema } from './request-schema.js';
import { errorResponseRefs, problemSchema, responseComponents } from './openapi-responses.js';
import { IMAGE_PATHS } from './images.js';
import { STREAM_PATHS, STREAM_SCHEMAS } from './events-openapi.js';
import { fullShape, objectTypeOf, shapeFields } from './shape.js';
import { TAGS } from './routes/index.js';

/**
 * The OpenAPI 3.1 document of /v1, built from the route table: one operation per route with its
 * operationId, tag, summary, parameters, body, every status it can answer, and examples captured from
 * a real game over REST (rest/examples.json, `npm run rest-examples`). Schemas are derived from the
 * GraphQL types (rest/json-schema.ts), so descriptions and enums are the schema's own.
 */

type Doc = Record<string, unknown>;
type Examples = Readonly<Record<string, { request?: unknown; status?: number; response?: unknown }>>;
const { problems, ...operations } = EXAMPLES as Record<string, unknown>;
const examples = operations as Examples;

const SECURITY_SCHEMES = {
  playerToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A player token from POST /v1/sessions or POST /v1/players: every scope, for one hour by default.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'arb_<prefix>_<secret>',
    description:
      'An API key from POST /v1/api-keys, sent the same way (`Authorization: Bearer arb_…`); it acts for its owner with its scopes (games:read, games:play, keys:manage, webhooks:manage).',
  },
};

const security = (auth: Operation['route']['auth']): unknown[] => {
  if (auth === 'none') return [];
  const scopes = auth.startsWith('scope:') ? [auth.slice('scope:'.length)] : [];
  return [{ playerToken: [] }, { apiKey: scopes }];
};

const HEADERS = {
  ETag: { description: 'The game’s version, quoted ("12"): send it as If-Match with your next turn.', schema: { type: 'string' } },
  Location: { description: 'The URL of what was created.', schema: { type: 'string' } },
  Link: { description: 'The next page: `<?first=…&after=…>; rel="next"` (absent on the last page).', schema: { type: 'string' } },
  'Content-Disposition': { description: 'A download: `attachment; filename="…"`.', schema: { type: 'string' } },
};

const parameter = (name: string, where: 'path' | 'query' | 'header', schema: JsonSchema, required: boolean, description: string) => ({
  name,
  in: where,
  required,
  description,
  schema,
});

const parametersOf = (op: Operation, components: SchemaComponents): unknown[] => {
  const out: unknown[] = [];
  for (const [argPath, source] of Object.entries(op.route.args)) {
    const schema = source.from === 'path' || source.from === 'query' ? parameterSchema(op, argPath, components) : {};
    if (source.from === 'path')
      out.push(parameter(source.name, 'path', schema, true, `The ${argPath.split('.').pop()} (as answered by its resource).`));
    if (source.from === 'query') out.push(parameter(source.name, 'query', schema, false, source.description));
    if (source.from === 'ifMatch')
      out.push(
        parameter(
          'If-Match',
          'header',
          { type: 'string', pattern: '^"\\d+"$' },
          source.required,
          'The ETag (game version) you decided on, e.g. "12": 412 when the game has moved on.',
        ),
      );
    if (source.from === 'idempotencyKey')
      out.push(
        parameter(
          'Idempotency-Key',
          'header',
          { type: 'string', minLength: 1, maxLength: 200 },
          false,
          'A fresh random string per new turn; retry with the same one to get the first answer again, never a second turn.',
        ),
      );
  }
  const { reply } = op.route;
  if (reply.kind === 'item')
    out.push(parameter(reply.param, 'path', { type: 'string' }, true, `The ${reply.field.replace(/s$/, '')}'s id.`));
  if (op.route.etag && op.route.method === 'GET')
    out.push(parameter('If-None-Match', 'header', { type: 'string' }, false, 'The ETag you hold: 304 while the game has not changed.'));
  // Path parameters first, as they read in the URL.
  return out.sort((a, b) => Number((b as { in: string }).in === 'path') - Number((a as { in: string }).in === 'path'));
};

const requestBodyOf = (op: Operation, components: SchemaComponents): Doc | undefined => {
  const text = Object.values(op.route.args).find((s) => s.from === 'textBody');
  const example = examples[op.route.operationId]?.request;
  if (text) {
    return {
      required: true,
      content: {
        'text/plain': { schema: { type: 'string', description: text.description }, ...(example === undefined ? {} : { example }) },
      },
    };
  }
  const body = jsonBodySchema(op, components);
  if (!body) return undefined;
  return {
    required: body.required,
    content: { 'application/json': { schema: body.schema, ...(example === undefined ? {} : { example }) } },
  };
};

/** The success body's schema, per reply kind. */
const successSchema = (op: Operation, components: SchemaComponents): JsonSchema | null => {
  const { reply, shape } = op.route;
  const where = op.route.operationId;
  /** A list type as it is; a single node's type as a list of it. */
  const items = (type: GraphQLOutputType) => {
    const inner = isNonNullType(type) ? type.ofType : type;
    return isListType(inner)
      ? outputSchema(type, shape, components, where)
      : { type: 'array', items: outputSchema(type, shape, components, where) };
  };
  switch (reply.kind) {
    case 'object':
      return outputSchema(op.success, shape, components, op.route.operationId);
    case 'list': {
      const list = reply.field ? op.success.getFields()[reply.field]!.type : op.field.type;
      return { type: 'object', properties: { items: items(list) }, required: ['items'], additionalProperties: false };
    }
    case 'item':
      return outputSchema(objectTypeOf(op.success.getFields()[reply.field]!.type, reply.field), shape, components, op.route.operationId);
    case 'page': {
      const edge = objectTypeOf(op.success.getFields()['edges']!.type, 'edges');
      return {
        type: 'object',
        properties: {
          items: items(edge.getFields()['node']!.type),
          nextCursor: { type: ['string', 'null'], description: 'Pass as `after` for the next page; null on the last page.' },
        },
        required: ['items', 'nextCursor'],
        additionalProperties: false,
      };
    }
    case 'text':
    case 'empty':
      return null;
  }
};

const successResponse = (op: Operation, components: SchemaComponents): Record<string, unknown> => {
  const { route } = op;
  const status = route.reply.kind === 'empty' ? '204' : String(route.status ?? 200);
  const headers: Record<string, unknown> = {};
  if (route.etag) headers['ETag'] = HEADERS.ETag;
  if (route.location) headers['Location'] = HEADERS.Location;
  if (route.reply.kind === 'page') headers['Link'] = HEADERS.Link;
  if (route.reply.kind === 'text' && route.reply.filenameField) headers['Content-Disposition'] = HEADERS['Content-Disposition'];
  const example = examples[route.operationId]?.response;
  const schema = successSchema(op, components);
  const content =
    route.reply.kind === 'text'
      ? {
          [route.reply.mediaType ?? 'text/plain']: {
            // A JSON file served as a download (the account export) is an object to a client, not a string.
            schema: { type: route.reply.mediaType?.endsWith('json') ? 'object' : 'string', description: route.reply.description },
            ...(example === undefined ? {} : { example }),
          },
        }
      : schema
        ? { 'application/json': { schema, ...(example === undefined ? {} : { example }) } }
        : undefined;
  const description = status === '201' ? 'Created.' : status === '204' ? 'Done; no content.' : 'OK.';
  const out: Record<string, unknown> = {
    [status]: { description, ...(Object.keys(headers).length ? { headers } : {}), ...(content ? { content } : {}) },
  };
  if (route.etag && route.method === 'GET')
    out['304'] = { description: 'Not modified: If-None-Match names the current version.', headers: { ETag: HEADERS.ETag } };
  return out;
};

const operationOf = (op: Operation, components: SchemaComponents): Doc => {
  const { route } = op;
  const scope = route.auth.startsWith('scope:') ? ` An API key needs the scope \`${route.auth.slice(6)}\`.` : '';
  const open = route.auth === 'none' ? ' Open to anyone: no credential needed.' : '';
  const body = requestBodyOf(op, components);
  const parameters = parametersOf(op, components);
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: `${route.description ?? route.summary + '.'}${scope}${open} (GraphQL: \`${op.field.name}\`.)`,
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponse(op, components), ...errorResponseRefs(op) },
    security: security(route.auth),
  };
};

/** The extension members of a problem: every field of the GraphQL error types besides code and message. */
const errorMembers = (schema: GraphQLSchema, components: SchemaComponents): Record<string, JsonSchema> => {
  const out: Record<string, JsonSchema> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || !type.getInterfaces().some((i) => i.name === 'Error')) continue;
    for (const [field, sub] of shapeFields(type, fullShape(type))) {
      // `issues` is REST's own (RestValidationIssue, set by buildOpenApi): pointers, not GraphQL argument paths.
      if (field.name === 'code' || field.name === 'message' || field.name === 'issues' || out[field.name]) continue;
      const s = outputSchema(field.type, sub, components, `${type.name}.${field.name}`);
      out[field.name] = { ...s, description: `${field.description ?? field.name} (${type.name})` };
    }
  }
  return out;
};

const REST_VALIDATION_ISSUE: JsonSchema = {
  type: 'object',
  description: 'One field of the request and what is wrong with it.',
  properties: {
    allowed: {
      type: 'array',
      items: {},
      description: 'The values allowed (`enum`), the fields the object takes (`additionalProperties`), or those to give one of (`oneOf`).',
    },
    field: {
      type: 'string',
      description: 'A body field as a JSON pointer (`/displayName`, `/play/move`; `""` is the body itself), or a parameter’s name.',
    },
    in: { type: 'string', enum: ['body', 'path', 'query'], description: 'Where the field is.' },
    message: { type: 'string', description: 'A sentence saying what is wrong and what is allowed.' },
    rule: {
      type: 'string',
      description:
        'The JSON Schema keyword of the operation’s schema it broke (`required`, `type`, `additionalProperties`, `enum`, `oneOf`, `minimum` …); absent for a rule of the API’s own (a handle pattern …).',
    },
  },
  required: ['field', 'message'],
  additionalProperties: false,
};

export const buildOpenApi = (schema: GraphQLSchema, ops: readonly Operation[]): Doc => {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const p = (paths[op.route.path] ??= {});
    p[op.route.method.toLowerCase()] = operationOf(op, components);
  }
  for (const [path, item] of Object.entries(IMAGE_PATHS)) paths[path] = { ...paths[path], ...item };
  for (const [path, item] of Object.entries(STREAM_PATHS)) paths[path] = { ...paths[path], ...item };
  Object.assign(components.schemas, STREAM_SCHEMAS);
  // `issues` as REST names them (rest/validate.ts): a JSON pointer or a parameter, not a GraphQL argument path.
  components.schemas['RestValidationIssue'] = REST_VALIDATION_ISSUE;
  components.schemas['Problem'] = problemSchema({
    ...errorMembers(schema, components),
    issues: {
      type: 'array',
      items: components.ref('RestValidationIssue'),
      description: 'What is wrong with the request, one issue per field and rule (VALIDATION).',
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Arbiter REST API',
      version: '1',
      summary: 'Referee for the crossword board game: games, turns, matches, rule checks, adjudication.',
      description:
        'Resources under /v1, each answered by the same GraphQL operation a GraphQL client would run (same credentials, scopes, validation and hidden information). Errors are application/problem+json (RFC 9457) with the Arbiter `code`. The routes under /rest (generated from GraphQL field names) are deprecated aliases kept for one release: see /rest/openapi.json. This document is also served as YAML at /v1/openapi.yaml.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/v1', description: 'This server.' }],
    tags: TAGS,
    security: [{ playerToken: [] }, { apiKey: [] }],
    paths,
    components: {
      schemas: sortKeys(components.schemas),
      responses: responseComponents(problems as Record<string, unknown>),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
};

const sortKeys = <T>(o: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
