import { randomUUID } from 'node:crypto';
import { getNamedType, isNonNullType, type GraphQLInputType } from '../graph/graphql.js';
import { argType, type Operation } from './operation.js';
import type { Source } from './route.js';

/**
 * From an HTTP request to the GraphQL variables of its route: path parameters, query parameters, the
 * JSON body, `If-Match` and `Idempotency-Key`. Only the transport is checked here (JSON, media
 * type, numbers in the query, the ETag syntax); what the values must be is the schema's business,
 * which answers with the same typed errors as over GraphQL.
 */

export class RequestProblem extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The ETag of a game version (strong: it changes with every event of the game). */
export const etagOf = (version: number): string => `"${version}"`;

/** The version an `If-Match` names; null for `*` (any version: no check). */
export const parseIfMatch = (header: string): number | null => {
  const text = header.trim();
  if (text === '*') return null;
  const m = /^"(\d{1,9})"$/.exec(text) ?? /^(\d{1,9})$/.exec(text);
  if (!m)
    throw new RequestProblem(
      'BAD_REQUEST',
      `If-Match must be the game's ETag, a quoted version such as "12" (weak tags never match), not ${JSON.stringify(text)}.`,
    );
  return Number(m[1]);
};

/** Does `If-None-Match` name this ETag (weak comparison, RFC 9110 §13.1.2)? */
export const noneMatch = (header: string | null, etag: string): boolean => {
  if (header === null) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
};

const isJson = (contentType: string | null): boolean => /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType ?? '');

const isText = (contentType: string | null): boolean => /^text\/plain\s*(;|$)/i.test(contentType ?? '');

/**
 * The JSON body, or undefined when there is none; refuses other media types, malformed JSON and a JSON value
 * that is not an object (null, an array, a number, a string, a boolean: every JSON body is an input object,
 * and `{}` or no body asks for every default). A text/plain
 * body is a word list (POST /v1/lexicons, issue 21): `{ words }` with `name` and `tileSet` from the query.
 */
export const readBody = async (request: Request, op?: Operation): Promise<unknown> => {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  if (op && takesText(op)) {
    if (!isText(request.headers.get('content-type')))
      throw new RequestProblem('UNSUPPORTED_MEDIA_TYPE', 'Send the file as the body, with Content-Type: text/plain.');
    return text;
  }
  if (isText(request.headers.get('content-type'))) {
    const url = new URL(request.url);
    if (request.method !== 'POST' || !url.pathname.endsWith('/v1/lexicons'))
      throw new RequestProblem(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body as JSON, with Content-Type: application/json (text/plain is for POST /v1/lexicons).',
      );
    return { name: url.searchParams.get('name') ?? '', tileSet: url.searchParams.get('tileSet') ?? '', words: text };
  }
  if (!isJson(request.headers.get('content-type')))
    throw new RequestProblem('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON, with Content-Type: application/json.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RequestProblem('BAD_REQUEST', 'The body is not valid JSON.');
  }
  const kind = jsonKind(value);
  if (kind !== 'an object')
    throw new RequestProblem('BAD_REQUEST', `The request body must be a JSON object (send {} for every default, or no body), not ${kind}.`);
  return value;
};

/** What a parsed JSON value is, as a message names it. */
const jsonKind = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
};

/** A query parameter as the argument's type wants it (integers parsed; a bad one is 400). */
const queryValue = (raw: string, type: GraphQLInputType, name: string): unknown => {
  const named = getNamedType(type).name;
  if (named === 'Int') {
    if (!/^-?\d{1,9}$/.test(raw)) throw new RequestProblem('BAD_REQUEST', `The parameter ${name} must be an integer, not "${raw}".`);
    return Number(raw);
  }
  if (named === 'Boolean') {
    if (raw !== 'true' && raw !== 'false') throw new RequestProblem('BAD_REQUEST', `The parameter ${name} must be true or false.`);
    return raw === 'true';
  }
  return raw;
};

const setPath = (target: Record<string, unknown>, path: string, value: unknown): void => {
  const keys = path.split('.');
  let at = target;
  for (const k of keys.slice(0, -1)) {
    const next = at[k];
    at = (typeof next === 'object' && next !== null && !Array.isArray(next) ? next : (at[k] = {})) as Record<string, unknown>;
  }
  at[keys[keys.length - 1]!] = value;
};

export interface RestInput {
  readonly request: Request;
  readonly url: URL;
  readonly params: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** The names of the body's properties a route reads one by one (`bodyField` sources). */
export const bodyFieldNames = (op: Operation): string[] =>
  Object.values(op.route.args).flatMap((s) => (s.from === 'bodyField' ? [s.name] : []));

const sourceValue = (op: Operation, argPath: string, source: Source, input: RestInput): unknown => {
  switch (source.from) {
    case 'path': {
      // An Int path parameter (a dispute's number) is read like a query one; ids stay strings.
      const raw = input.params[source.name];
      return raw === undefined ? undefined : queryValue(raw, argType(op.field, argPath), source.name);
    }
    case 'query': {
      const raw = input.url.searchParams.get(source.name);
      return raw === null ? undefined : queryValue(raw, argType(op.field, argPath), source.name);
    }
    case 'body':
      return input.body ?? (isNonNullType(argType(op.field, argPath)) ? {} : undefined);
    case 'bodyField':
      return (input.body as Record<string, unknown> | undefined)?.[source.name];
    case 'ifMatch': {
      const header = input.request.headers.get('if-match');
      const version = header === null ? null : parseIfMatch(header);
      if (version === null && source.required)
        throw new RequestProblem('PRECONDITION_REQUIRED', 'Send If-Match with the ETag of the game you decided on (GET /v1/games/{id}).');
      return version ?? undefined;
    }
    case 'idempotencyKey':
      return input.request.headers.get('idempotency-key') ?? randomUUID();
    case 'textBody':
      if (typeof input.body !== 'string')
        throw new RequestProblem('BAD_REQUEST', 'Send the file as the body (Content-Type: text/plain); it is empty.');
      return input.body;
    case 'value':
      return source.value;
  }
};

/** The path and query parameters of `op` as the request gives them, parsed (`path-id`, `query-first` → value). */
export const parameterValues = (op: Operation, input: RestInput): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [argPath, source] of Object.entries(op.route.args)) {
    if (source.from !== 'path' && source.from !== 'query') continue;
    const value = sourceValue(op, argPath, source, input);
    if (value !== undefined) out[`${source.from}-${source.name}`] = value;
  }
  return out;
};

/** The GraphQL variables of `op` for this request. */
export const variablesOf = (op: Operation, input: RestInput): Record<string, unknown> => {
  const fields = bodyFieldNames(op);
  if (fields.length) {
    const b = input.body ?? {};
    if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new RequestProblem('BAD_REQUEST', 'The body must be a JSON object.');
    const unknown = Object.keys(b).filter((k) => !fields.includes(k));
    if (unknown.length)
      throw new RequestProblem('BAD_REQUEST', `Unknown body ${unknown.length > 1 ? 'properties' : 'property'}: ${unknown.join(', ')}.`);
  }
  const variables: Record<string, unknown> = {};
  for (const [argPath, source] of Object.entries(op.route.args)) {
    const value = sourceValue(op, argPath, source, input);
    if (value !== undefined) setPath(variables, argPath, value);
  }
  return variables;
};

/** Whether a route takes a body at all (JSON, or a text file). */
export const takesBody = (op: Operation): boolean =>
  Object.values(op.route.args).some((s) => s.from === 'body' || s.from === 'bodyField' || s.from === 'textBody');

/** Whether a route's body is a text file (`textBody`) rather than JSON. */
export const takesText = (op: Operation): boolean => Object.values(op.route.args).some((s) => s.from === 'textBody');
