import type { ExecutionResult, GraphQLError } from '../graph/graphql.js';
import type { Operation } from './operation.js';
import { problemResponse, statusFor, type ProblemFields } from './problem.js';
import { etagOf, noneMatch, type RestInput } from './request.js';
import { restMembers } from './rest-words.js';

/**
 * From the GraphQL result of a route back to HTTP: a typed error (a member of the field's `…Result`
 * union) or a GraphQL error becomes a problem with the status its code maps to; a value becomes the
 * route's reply (the object, `{ items }`, a page with its `Link`, text, or 204) with its status,
 * `Location` and `ETag`.
 */

type Value = Record<string, unknown>;

const JSON_TYPE = 'application/json; charset=utf-8';

/** The problem for a result's GraphQL errors: the one with the highest status speaks for all. */
const fromGraphQLErrors = (errors: readonly GraphQLError[], op: Operation, input: RestInput, typeNames: ReadonlySet<string>): Response => {
  const ctx = { ifMatch: input.request.headers.has('if-match'), notFound: op.route.notFound ?? [] };
  const ranked = errors.map((e) => {
    const { code, http, ...details } = (e.extensions ?? {}) as { code?: unknown; http?: { status?: number } } & Record<string, unknown>;
    const c = typeof code === 'string' ? code : 'BAD_USER_INPUT';
    return {
      status: http?.status ?? statusFor(c, ctx),
      fields: restMembers(op, { code: c, message: e.message, details: Object.keys(details).length ? details : null }, typeNames),
    };
  });
  const worst = ranked.reduce((a, b) => (b.status > a.status ? b : a));
  return problemResponse(worst.status, worst.fields, input.url.pathname);
};

/** The problem for a typed error of the union: every field the GraphQL error object has. */
const fromTypedError = (value: Value, op: Operation, input: RestInput, typeNames: ReadonlySet<string>): Response => {
  const { __typename, ...fields } = value;
  const problem = restMembers(op, { ...fields, errorType: String(__typename) }, typeNames) as ProblemFields;
  const status = statusFor(problem.code, { ifMatch: input.request.headers.has('if-match'), notFound: op.route.notFound ?? [] });
  return problemResponse(status, problem, input.url.pathname);
};

const jsonReply = (status: number, body: unknown, headers: Headers): Response => {
  headers.set('content-type', JSON_TYPE);
  return new Response(JSON.stringify(body), { status, headers });
};

/** A relative `Link` to the next page: the same URL with `after` moved on (relative, so it survives any base path). */
const nextLink = (url: URL, cursor: string): string => {
  const q = new URLSearchParams(url.searchParams);
  q.set('after', cursor);
  return `<?${q.toString()}>; rel="next"`;
};

/** `attachment` with the file's name, quoted, with anything but safe characters replaced (RFC 6266). */
const attachment = (filename: string): string => `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`;

const replyHeaders = (op: Operation, value: Value): Headers => {
  const h = new Headers({ vary: 'Authorization' });
  if (op.route.etag && typeof value['version'] === 'number') {
    h.set('etag', etagOf(value['version']));
    h.set('cache-control', 'private, no-cache');
  } else {
    h.set('cache-control', 'no-store');
  }
  if (op.route.location) h.set('location', op.route.location(value));
  return h;
};

const success = (op: Operation, value: Value, input: RestInput): Response => {
  const { route } = op;
  const headers = replyHeaders(op, value);
  const etag = headers.get('etag');
  if (etag && route.method === 'GET' && noneMatch(input.request.headers.get('if-none-match'), etag)) {
    return new Response(null, { status: 304, headers });
  }
  const { reply } = route;
  switch (reply.kind) {
    case 'object':
      return jsonReply(route.status ?? 200, value, headers);
    case 'list':
      return jsonReply(200, { items: reply.field ? value[reply.field] : value }, headers);
    case 'page': {
      const edges = value['edges'] as { node: unknown }[];
      const info = value['pageInfo'] as { hasNextPage: boolean; endCursor: string | null };
      const nextCursor = info.hasNextPage ? info.endCursor : null;
      if (nextCursor) headers.set('link', nextLink(input.url, nextCursor));
      return jsonReply(200, { items: edges.map((e) => e.node), nextCursor }, headers);
    }
    case 'item': {
      const item = (value[reply.field] as Value[]).find((x) => x['id'] === input.params[reply.param]);
      if (item) return jsonReply(200, item, headers);
      return problemResponse(
        404,
        { code: reply.notFound, message: `You have no ${reply.field.replace(/s$/, '')} with id ${input.params[reply.param]}.` },
        input.url.pathname,
      );
    }
    case 'text':
      headers.set('content-type', `${reply.mediaType ?? 'text/plain'}; charset=utf-8`);
      if (reply.filenameField) headers.set('content-disposition', attachment(String(value[reply.filenameField])));
      return new Response(String(value[reply.field]), { status: 200, headers });
    case 'empty':
      return new Response(null, { status: 204, headers });
  }
};

/**
 * The HTTP response for the route's GraphQL result; `typeNames` are the schema's input types, which no
 * message of a REST answer names (rest/rest-words.ts).
 */
export const replyFor = (
  op: Operation,
  result: ExecutionResult,
  input: RestInput,
  typeNames: ReadonlySet<string> = new Set(),
): Response => {
  if (result.errors?.length) return fromGraphQLErrors(result.errors, op, input, typeNames);
  const raw = result.data?.['result'];
  if (op.errors.length) {
    const value = raw as Value;
    if (op.errors.some((e) => e.name === value['__typename'])) return fromTypedError(value, op, input, typeNames);
    const { __typename: _, ...rest } = value;
    return success(op, rest, input);
  }
  return success(op, raw as Value, input);
};
