/**
 * Errors of the REST edge as `application/problem+json` (RFC 9457): `type` names the Arbiter code,
 * `status` the HTTP status it maps to, `detail` the message; the members of the GraphQL error object
 * (code, message, details, citation, and the type's own fields such as `issues` or `expected`/`actual`)
 * ride along as extension members, so a REST client reads exactly what a GraphQL client reads.
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The problem `type` of an Arbiter code: a tag URI (RFC 4151), an identifier that is not meant to be fetched. */
export const problemType = (code: string): string => `tag:arbiter,2026:problem:${code}`;

/** 400: the request itself is malformed or breaks the API's input rules. */
const BAD_REQUEST = new Set([
  'VALIDATION',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'BAD_INPUT',
  'PAGE_SIZE_INVALID',
  'CURSOR_INVALID',
  'WEBHOOK_URL_INVALID',
  'WEBHOOK_URL_NOT_HTTPS',
  'WEBHOOK_KINDS_INVALID',
  // An app's registration input (service/oauth-app-errors.ts): `field` names the URI or field.
  'APP_NAME_INVALID',
  'APP_REDIRECT_URI_INVALID',
  'APP_ICON_URL_INVALID',
  'APP_CLIENT_TYPE_INVALID',
  'EMAIL_INVALID',
  'EXPORT_PAGE_INVALID',
  'QUERY_TOO_DEEP',
  'QUERY_TOO_COSTLY',
]);

/** 404: the resource the URL names does not exist, or the caller may not know that it does. */
const NOT_FOUND = new Set([
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'GAME_NOT_FOUND',
  'MATCH_NOT_FOUND',
  'API_KEY_NOT_FOUND',
  'WEBHOOK_SUBSCRIPTION_NOT_FOUND',
  'APP_NOT_FOUND',
  'GRANT_NOT_FOUND',
  'DISPUTE_NOT_FOUND',
  'ORGANIZATION_NOT_FOUND',
  'TOURNAMENT_NOT_FOUND',
  'DIVISION_NOT_FOUND',
  'ROUND_NOT_FOUND',
  'SEEK_NOT_FOUND',
  'CHALLENGE_NOT_FOUND',
  'PAIRING_REQUEST_NOT_FOUND',
]);

/**
 * 409: the request is fine but the resource's state does not allow it now (a taken handle or seat,
 * a reused idempotency key, a game not started, over, or not the caller's turn). Everything else the
 * rules refuse is 422.
 */
const CONFLICT = new Set([
  'HANDLE_TAKEN',
  'IDEMPOTENCY_KEY_REUSED',
  'STALE_VERSION',
  'SEAT_TAKEN',
  'ALREADY_SEATED',
  'GAME_NOT_STARTED',
  'GAME_OVER',
  'NOT_YOUR_TURN',
  'NOT_RECORDED',
  'RECORDED_GAME',
  'ALREADY_APPEALED',
  'ORGANIZATION_EXISTS',
  'DISPUTE_ALREADY_RULED',
  // A tournament whose state does not allow it now (engine/tournament/commands.ts).
  'DIVISION_EXISTS',
  'PLAYER_ALREADY_IN_DIVISION',
  'ROUND_ALREADY_STARTED',
  'ROUND_NOT_PAIRED',
  'ROUND_NOT_STARTED',
  'ROUND_ENDED',
  'RESULT_EXISTS',
  'SLIP_SUBMITTED',
  'SLIP_SIGNED',
  'SLIP_ALREADY_SIGNED',
  'SLIP_NOT_SUBMITTED',
  'DISPUTE_OPEN',
  'EMAIL_ALREADY_VERIFIED',
  // The player's apps are at their limit (service/oauth-apps.ts): delete one first.
  'APP_LIMIT_REACHED',
  // The account has games in progress: resign or finish them, then delete it (service/account-deletion.ts).
  'ACCOUNT_HAS_ACTIVE_GAMES',
  // A lobby offer that is no longer open, or one that exists already (service/lobby-common.ts).
  'SEEK_TAKEN',
  'SEEK_WITHDRAWN',
  'SEEK_EXPIRED',
  'CHALLENGE_CLOSED',
  'REMATCH_EXISTS',
  'GAME_NOT_ENDED',
  'PAIRING_EXISTS',
  'PAIRING_CLOSED',
  'NO_ROBOT_OFFER',
]);

const FIXED: Readonly<Record<string, number>> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  // Acting in a game one holds no seat in: a permission, not a rule of the game.
  NOT_SEATED: 403,
  ANALYSIS_NOT_ALLOWED: 403,
  // Recording a game one does not keep the score of: likewise a permission.
  NOT_SCOREKEEPER: 403,
  // A role the caller lacks (service/directors.ts): a permission too.
  NOT_DIRECTOR: 403,
  NOT_ADMIN: 403,
  // A tournament command the caller's role may not give, or a slip of a game they do not play in.
  NOT_ALLOWED: 403,
  SLIP_SIGNER_NOT_IN_GAME: 403,
  // Withdrawing another's seek, answering a challenge made to someone else.
  NOT_SEEK_AUTHOR: 403,
  NOT_YOUR_CHALLENGE: 403,
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PRECONDITION_REQUIRED: 428,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  DATABASE_UNAVAILABLE: 503,
};

export interface StatusContext {
  /** The request carried `If-Match`: a stale version is then 412, not 409. */
  readonly ifMatch: boolean;
  /** Codes that mean "no such resource" on this route besides the usual ones. */
  readonly notFound?: readonly string[];
}

/** The HTTP status of an Arbiter error code. */
export const statusFor = (code: string, ctx: StatusContext = { ifMatch: false }): number => {
  if (code === 'STALE_VERSION' && ctx.ifMatch) return 412;
  if (FIXED[code] !== undefined) return FIXED[code];
  if (NOT_FOUND.has(code) || ctx.notFound?.includes(code)) return 404;
  if (BAD_REQUEST.has(code) || code.startsWith('GRAPHQL_')) return 400;
  if (CONFLICT.has(code)) return 409;
  return 422; // understood, and refused by the rules (an illegal move, a bad exchange, a lexicon that is not loaded …)
};

/** `TILES_NOT_IN_RACK` → `Tiles not in rack`: the problem's title, the same for every occurrence of the code. */
export const titleOf = (code: string): string => {
  const words = code.toLowerCase().split('_');
  return [words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1), ...words.slice(1)].join(' ');
};

export interface ProblemFields {
  readonly code: string;
  readonly message: string;
  /** The GraphQL error type (`RuleViolation`, `StaleVersionError` …), when the error came as a `…Result` member. */
  readonly errorType?: string;
  readonly details?: unknown;
  readonly citation?: unknown;
  /** Further members of the GraphQL error object (`issues`, `expected`, `actual`, `field` …). */
  readonly [member: string]: unknown;
}

/** Seconds to wait before retrying, from a RATE_LIMITED error's `retryAfterSeconds` (in its details or on the error). */
const retryAfter = (problem: ProblemFields): number | null => {
  const details = problem.details as { retryAfterSeconds?: unknown } | null | undefined;
  const value = details?.retryAfterSeconds ?? problem['retryAfterSeconds'];
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(1, Math.ceil(value)) : null;
};

/** The problem response: status from the code, the headers the status calls for. */
export const problemResponse = (status: number, fields: ProblemFields, instance: string, headers: HeadersInit = {}): Response => {
  const h = new Headers(headers);
  h.set('content-type', PROBLEM_CONTENT_TYPE);
  h.set('cache-control', 'no-store');
  if (status === 401) h.set('www-authenticate', 'Bearer realm="arbiter"');
  if (status === 429) h.set('retry-after', String(retryAfter(fields) ?? 1));
  if (status === 503) h.set('retry-after', '1');
  const { code, message, ...rest } = fields;
  const body = {
    type: problemType(code),
    title: titleOf(code),
    status,
    detail: message,
    instance,
    code,
    message,
    details: null,
    citation: null,
    ...rest,
  };
  return new Response(JSON.stringify(body), { status, headers: h });
};

/** A problem of the REST edge itself (no route, a body that is not JSON …). */
export const edgeProblem = (code: string, message: string, instance: string, headers: HeadersInit = {}): Response =>
  problemResponse(statusFor(code), { code, message }, instance, headers);
