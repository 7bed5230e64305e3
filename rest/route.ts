import type { GraphQLInputType } from '../graph/graphql.js';
import type { JsonSchema, SchemaComponents } from './json-schema.js';
import type { Shape } from './shape.js';

/**
 * One REST route of /v1: which GraphQL field it runs, where each argument comes from in the HTTP
 * request, what part of the field's result it answers, and with which status and headers. The route
 * table (rest/routes/) is all the REST edge knows: the handler (rest/handler.ts) and the OpenAPI
 * document (rest/openapi.ts) are both built from it.
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Where a GraphQL argument, or an input field under one (`input.gameId`), takes its value from. */
export type Source =
  | { readonly from: 'path'; readonly name: string }
  | { readonly from: 'query'; readonly name: string; readonly description: string }
  /** The whole JSON body. */
  | { readonly from: 'body'; readonly schema?: BodySchema }
  /** One property of the JSON body (a field whose arguments are not one input object). */
  | { readonly from: 'bodyField'; readonly name: string; readonly schema?: BodySchema }
  /** The `If-Match` header: the game version the client decided on (412 when it is stale). */
  | { readonly from: 'ifMatch'; readonly required: boolean }
  /** The `Idempotency-Key` header (a fresh key when absent: such a request is not safe to retry). */
  | { readonly from: 'idempotencyKey' }
  /** The whole body as text (`Content-Type: text/plain`): a file such as a TSH `.t` division. */
  | { readonly from: 'textBody'; readonly description: string }
  | { readonly from: 'value'; readonly value: unknown };

/**
 * The schema REST publishes and validates for a body (or body field) instead of the one derived from its GraphQL
 * type: for a value GraphQL takes as JSON but REST can type (a dispute's facts, per kind). Given the derived
 * type, so the fields GraphQL does type are still taken from it.
 */
export type BodySchema = (type: GraphQLInputType, components: SchemaComponents) => JsonSchema;

export const path = (name: string): Source => ({ from: 'path', name });
export const query = (name: string, description: string): Source => ({ from: 'query', name, description });
export const body = (schema?: BodySchema): Source => ({ from: 'body', ...(schema ? { schema } : {}) });
export const bodyField = (name: string, schema?: BodySchema): Source => ({ from: 'bodyField', name, ...(schema ? { schema } : {}) });
export const ifMatch = (required: boolean): Source => ({ from: 'ifMatch', required });
export const idempotencyKey = (): Source => ({ from: 'idempotencyKey' });
export const textBody = (description: string): Source => ({ from: 'textBody', description });
export const constant = (value: unknown): Source => ({ from: 'value', value });

/** What the route answers of the field's success value. */
export type Reply =
  /** The value itself (a game, a match …). */
  | { readonly kind: 'object' }
  /** `{ items }`: the value (a list), or its list field `field`. */
  | { readonly kind: 'list'; readonly field?: string }
  /** `{ items, nextCursor }` of a Relay connection, with a `Link: rel="next"` header. */
  | { readonly kind: 'page' }
  /** The item of the list field `field` whose `id` is the path parameter `param`; 404 `notFound` when none. */
  | { readonly kind: 'item'; readonly field: string; readonly param: string; readonly notFound: string }
  /** A string field of the value as `text/plain` (or `mediaType`, e.g. `text/csv`). */
  | {
      readonly kind: 'text';
      readonly field: string;
      readonly description: string;
      readonly mediaType?: string;
      /** A string field of the value naming the file: the answer is a download (`Content-Disposition: attachment`). */
      readonly filenameField?: string;
    }
  /** 204, no body. */
  | { readonly kind: 'empty' };

export interface Route {
  readonly operationId: string;
  readonly method: Method;
  /** Under /v1, OpenAPI style: `/games/{id}/turns`. */
  readonly path: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** The Query or Mutation field run. */
  readonly field: string;
  /** GraphQL argument path → where its value comes from. */
  readonly args: Readonly<Record<string, Source>>;
  readonly reply: Reply;
  /** The shape of the value (for `list`, `page` and `item`: of one item). */
  readonly shape: Shape;
  /** Default 200; 201 with `location`. */
  readonly status?: 200 | 201;
  /** The `Location` of a created resource, from the value. */
  readonly location?: (value: Record<string, unknown>) => string;
  /** The value has the game's `version`: answer it as the ETag (and 304 for a matching `If-None-Match` on GET). */
  readonly etag?: boolean;
  /** Codes that mean "the resource of this URL does not exist" here besides the usual ones (404). */
  readonly notFound?: readonly string[];
  /** Credentials: `none` (open to anyone), or the API scope a key needs. */
  readonly auth: 'none' | 'player' | `scope:${string}`;
  /** The deprecated sofa route this one replaces (for the docs and the migration table). */
  readonly replaces?: string;
}

/** What a route built by `resource` says itself; the builder gives the method, the path, the tag and the defaults. */
export type RouteSpec = Omit<Route, 'method' | 'path' | 'tag' | 'field' | 'args' | 'reply'> &
  Partial<Pick<Route, 'field' | 'args' | 'reply'>>;

/** The URL of the resource a route answers, from its `id`: `/v1<base>/<id>` (the `location` of a created one). */
export const resourceUrl =
  (base: string) =>
  (value: Record<string, unknown>): string =>
    `/v1${base}/${encodeURIComponent(String(value['id']))}`;

/**
 * The routes of one collection (`/seeks`) under one tag, each with its usual method and path: list and create on
 * the collection; get, update, an action (POST …/{id}/<segment>) and remove on a member. By default a route runs
 * the field named as its operation, a member's routes take `id` from the path (update also the body as `input`),
 * create takes the body as `input` and answers 201 with the new member's URL, list answers `{ items }` and the
 * others the value itself. What the spec says wins, so a route that differs in one thing still reads as its kind.
 */
export const resource = (tag: string, base: string) => {
  const member = `${base}/{id}`;
  const build = (method: Method, at: string, defaults: Pick<Route, 'args' | 'reply'> & Partial<Route>, spec: RouteSpec): Route => ({
    method,
    path: at,
    tag,
    field: spec.operationId,
    ...defaults,
    ...spec,
  });
  const onMember = () => ({ args: { id: path('id') }, reply: { kind: 'object' } as const });
  return {
    url: resourceUrl(base),
    list: (spec: RouteSpec) => build('GET', base, { args: {}, reply: { kind: 'list' } }, spec),
    create: (spec: RouteSpec) =>
      build('POST', base, { args: { input: body() }, reply: { kind: 'object' }, status: 201, location: resourceUrl(base) }, spec),
    get: (spec: RouteSpec) => build('GET', member, onMember(), spec),
    update: (spec: RouteSpec) => build('PATCH', member, { ...onMember(), args: { id: path('id'), input: body() } }, spec),
    action: (segment: string, spec: RouteSpec) => build('POST', `${member}/${segment}`, onMember(), spec),
    remove: (spec: RouteSpec) => build('DELETE', member, onMember(), spec),
  };
};

/** OpenAPI path template → a matcher: `/games/{id}` matches `/games/g1` with `{ id: 'g1' }`. */
export const compilePath = (template: string): ((path: string) => Record<string, string> | null) => {
  const names: string[] = [];
  // Literal parts are matched as written: the `.` of `/divisions/{division}.t` is a dot, not any character.
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  const re = new RegExp(`^${source}/?$`);
  return (p) => {
    const m = re.exec(p);
    if (!m) return null;
    try {
      return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
    } catch {
      return null; // a malformed %-escape names nothing
    }
  };
};
