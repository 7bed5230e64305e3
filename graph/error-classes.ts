import { GraphQLError } from './graphql.js';
import type { Citation, RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';

/**
 * The errors a client is meant to see. Each class is a GraphQL object type (graph/errors.ts) that the
 * errors plugin puts into a field's `…Result` union when the resolver throws it. They extend
 * `GraphQLError` with `extensions.code`, so that where no union catches one (a field without
 * `errors`, a validation rule) it still reaches the client with its code instead of being masked;
 * anything else thrown is unexpected and masked by Yoga.
 *
 * Kept apart from graph/errors.ts (the GraphQL types) because builder.ts needs the classes.
 */
export class ArbiterError extends GraphQLError {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>> | null;
  readonly citation: Citation | null;

  constructor(code: string, message: string, details?: Readonly<Record<string, unknown>> | null, citation?: Citation | null) {
    // An answer, not a fault: captured without stack frames. Pothos's errors plugin reads every own
    // property of the error it puts into a union, `stack` included, and formatting ten frames (source-mapped
    // under tsx) was most of the CPU of a request answered with an error.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message, { extensions: { code } });
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = new.target.name;
    this.code = code;
    this.details = details ?? null;
    this.citation = citation ?? null;
  }
}

/** A rule of the game (or of notation, rule sets, lexicons) says no; `code` is the engine's stable code. */
export class RuleViolation extends ArbiterError {}

/** No principal, or the token / key presented is not valid (expired, revoked …: see `message`). */
export class UnauthenticatedError extends ArbiterError {
  constructor(message = 'Sign in first: send Authorization: Bearer <token from login> or an API key.', details?: Record<string, unknown>) {
    super('UNAUTHENTICATED', message, details);
  }
}

/** Signed in, but not allowed: a missing API-key scope, or somebody else's seat or key. */
export class ForbiddenError extends ArbiterError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('FORBIDDEN', message, details);
  }
}

export class NotFoundError extends ArbiterError {
  constructor(message: string, details?: Record<string, unknown>, code = 'NOT_FOUND') {
    super(code, message, details);
  }
}

/** The request was decided against an older version of the game; reload and decide again. */
export class StaleVersionError extends ArbiterError {
  readonly expected: number;
  readonly actual: number;
  constructor(message: string, details: { expected: number; actual: number } & Record<string, unknown>) {
    super('STALE_VERSION', message, details);
    this.expected = details.expected;
    this.actual = details.actual;
  }
}

/** The request conflicts with what exists: a taken handle, an idempotency key reused for another request. */
export class ConflictError extends ArbiterError {}

export interface ValidationIssue {
  /** Dotted path of the offending argument or input field, e.g. `input.handle`. */
  readonly field: string;
  readonly message: string;
}

/** Input that breaks the API's own rules (a handle pattern, a scope name …), before any rule of the game. */
export class ValidationError extends ArbiterError {
  readonly issues: readonly ValidationIssue[];
  constructor(issues: readonly ValidationIssue[]) {
    super('VALIDATION', issues.map((i) => `${i.field}: ${i.message}`).join(' '), { issues });
    this.issues = issues;
  }
}

/**
 * A service's refusal of one input (a webhook URL, a push endpoint, a time zone): its code and message, and
 * `field`, the argument it names (`input.url`). Each service has its own subclass, so a client can tell
 * them apart by type; `field` also goes into the extensions, so it reaches the client where no union catches it.
 */
export class FieldInputError extends ArbiterError {
  readonly field: string;
  constructor(e: RuleError, field: string) {
    super(e.code, e.message, e.details ?? null, e.citation ?? null);
    this.field = field;
    (this.extensions as Record<string, unknown>)['field'] = field;
  }
}

/** Too many requests of one kind from one client (service/rate-limits.ts): retry after `retryAfterSeconds`. REST answers 429 with Retry-After. */
export class RateLimitedError extends ArbiterError {
  readonly retryAfterSeconds: number;
  constructor(message: string, details: { retryAfterSeconds: number } & Record<string, unknown>) {
    super('RATE_LIMITED', message, details);
    this.retryAfterSeconds = details.retryAfterSeconds;
    (this.extensions as Record<string, unknown>)['retryAfterSeconds'] = details.retryAfterSeconds;
  }
}

/** Store/service codes that have a type of their own; every other code becomes a {@link RuleViolation}. */
const BY_CODE: Readonly<Record<string, (e: RuleError) => ArbiterError>> = {
  STALE_VERSION: (e) =>
    new StaleVersionError(e.message, { ...e.details, expected: Number(e.details?.['expected']), actual: Number(e.details?.['actual']) }),
  GAME_NOT_FOUND: (e) => new NotFoundError(e.message, e.details ? { ...e.details } : undefined, e.code),
  API_KEY_NOT_FOUND: (e) => new NotFoundError(e.message, e.details ? { ...e.details } : undefined, e.code),
  PLAYER_NOT_FOUND: (e) => new NotFoundError(e.message, e.details ? { ...e.details } : undefined, e.code),
  ORGANIZATION_NOT_FOUND: (e) => new NotFoundError(e.message, e.details ? { ...e.details } : undefined, e.code),
  ORGANIZATION_EXISTS: (e) => new ConflictError(e.code, e.message, e.details),
  IDEMPOTENCY_KEY_REUSED: (e) => new ConflictError(e.code, e.message, e.details),
  HANDLE_TAKEN: (e) => new ConflictError(e.code, e.message, e.details),
  BAD_CREDENTIALS: (e) => new UnauthenticatedError(e.message, { reason: e.code }),
  API_KEY_INVALID: (e) => new UnauthenticatedError(e.message, { reason: e.code }),
  API_KEY_REVOKED: (e) => new UnauthenticatedError(e.message, { reason: e.code, ...e.details }),
  SCOPE_NOT_HELD: (e) => new ForbiddenError(e.message, { reason: e.code, ...e.details }),
  RATE_LIMITED: (e) => new RateLimitedError(e.message, { ...e.details, retryAfterSeconds: Number(e.details?.['retryAfterSeconds'] ?? 1) }),
};

/** The typed error for an engine `RuleError` or a store/service error (same shape). */
export const toGraphError = (e: RuleError): ArbiterError =>
  BY_CODE[e.code]?.(e) ?? new RuleViolation(e.code, e.message, e.details ?? null, e.citation ?? null);

/** Throws the typed error for `e`, for the errors plugin to put into the field's result union. */
export const throwRuleError = (e: RuleError): never => {
  throw toGraphError(e);
};

/** The value of an ok result; otherwise throws its typed error. The usual way out of a `Result` in a resolver. */
export const unwrap = <T>(r: Result<T, RuleError>): T => (r.ok ? r.value : throwRuleError(r.error));
