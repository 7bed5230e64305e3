import type { Operation } from './operation.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';
import type { JsonSchema } from './json-schema.js';

/**
 * The error responses of the document: one shared `Problem` schema, one named response per status,
 * and which statuses an operation can answer, derived from its route (inputs, credentials, path
 * parameters, If-Match) and from the error types of its GraphQL `…Result` union.
 */

const problemContent = (example: unknown) => ({
  [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' }, ...(example === undefined ? {} : { example }) },
});

const RETRY_AFTER = { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } };

export const ERROR_RESPONSES: Readonly<Record<string, { name: string; description: string; headers?: Record<string, unknown> }>> = {
  '400': { name: 'BadRequest', description: 'The request is malformed or breaks the API’s input rules (VALIDATION names each field).' },
  '401': {
    name: 'Unauthorized',
    description: 'No valid credential: `detail` says what was wrong with the one sent (expired, revoked …).',
    headers: { 'WWW-Authenticate': { description: 'Bearer realm="arbiter"', schema: { type: 'string' } } },
  },
  '403': { name: 'Forbidden', description: 'Signed in, but not allowed: an API key without the scope, or another player’s seat.' },
  '404': { name: 'NotFound', description: 'No such resource, or none the caller may see.' },
  '409': {
    name: 'Conflict',
    description:
      'The resource’s state does not allow this now: a taken handle or seat, a reused idempotency key, not your turn, the game over.',
  },
  '412': {
    name: 'PreconditionFailed',
    description: 'STALE_VERSION: If-Match names an older version; `actual` is the version now. Read the game and decide again.',
  },
  '415': { name: 'UnsupportedMediaType', description: 'The body is not sent as application/json.' },
  '422': {
    name: 'UnprocessableContent',
    description:
      'The rules refuse it: an illegal move, an unknown lexicon … `code`, `message` (naming the square, tile or word) and `citation` (the rule).',
  },
  '428': { name: 'PreconditionRequired', description: 'If-Match is missing: send the ETag of the game you decided on.' },
  '429': {
    name: 'TooManyRequests',
    description: 'RATE_LIMITED: too many requests; wait Retry-After seconds.',
    headers: { 'Retry-After': RETRY_AFTER },
  },
  default: {
    name: 'ServerError',
    description:
      'INTERNAL_SERVER_ERROR (500, masked, logged) or DATABASE_UNAVAILABLE (503: retry; a turn retried with its Idempotency-Key is never played twice).',
    headers: { 'Retry-After': RETRY_AFTER },
  },
};

/** The named error responses; `examples` by status (problems met in the captured game). */
export const responseComponents = (examples: Readonly<Record<string, unknown>> = {}): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description, headers }]) => [
      name,
      { description, ...(headers ? { headers } : {}), content: problemContent(examples[status]) },
    ]),
  );

/** The members every problem has, and those of the GraphQL error types (each present where its type answers). */
export const problemSchema = (errorMembers: Readonly<Record<string, JsonSchema>>): JsonSchema => ({
  type: 'object',
  description:
    'An RFC 9457 problem. `code`, `message`, `details`, `citation` and the error type’s own fields are those of the GraphQL error object; `errorType` is its GraphQL type.',
  properties: {
    type: { type: 'string', format: 'uri', description: 'tag:arbiter,2026:problem:<code>' },
    title: { type: 'string', description: 'The code in words: the same for every problem of this type.' },
    status: { type: 'integer', description: 'The HTTP status.' },
    detail: { type: 'string', description: 'The message: a sentence naming the offending field, square or tile.' },
    instance: { type: 'string', description: 'The request path.' },
    code: { type: 'string', description: 'Stable UPPER_SNAKE code to switch on, e.g. TILES_NOT_IN_RACK.' },
    message: { type: 'string', description: 'The same sentence as `detail`.' },
    errorType: { type: 'string', description: 'The GraphQL error type (RuleViolation, StaleVersionError …).' },
    ...errorMembers,
  },
  required: ['type', 'title', 'status', 'detail', 'code', 'message'],
});

const hasMember = (op: Operation, ...names: string[]) => op.errors.some((e) => names.includes(e.name));

/** The error statuses `op` can answer. */
export const errorStatuses = (op: Operation): string[] => {
  const { route } = op;
  const sources = Object.values(route.args);
  const s = new Set<string>();
  if (sources.length) s.add('400');
  if (route.auth !== 'none') s.add('401');
  if (route.auth.startsWith('scope:') || hasMember(op, 'ForbiddenError')) s.add('403');
  if (route.path.includes('{')) s.add('404');
  if (hasMember(op, 'ConflictError', 'StaleVersionError')) s.add('409');
  if (sources.some((x) => x.from === 'ifMatch')) s.add('412');
  if (sources.some((x) => x.from === 'body' || x.from === 'bodyField')) s.add('415');
  if (hasMember(op, 'RuleViolation', 'ImportRejected')) s.add('422');
  if (sources.some((x) => x.from === 'ifMatch' && x.required)) s.add('428');
  s.add('429');
  return [...s].sort();
};

export const errorResponseRefs = (op: Operation): Record<string, unknown> => ({
  ...Object.fromEntries(errorStatuses(op).map((status) => [status, { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` }])),
  default: { $ref: '#/components/responses/ServerError' },
});
