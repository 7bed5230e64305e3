import { RULE_SOURCES, type Citation, type RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
import { builder } from './builder.js';
import { SourceVerificationEnum } from './enums.js';
import {
  ArbiterError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  RuleViolation,
  StaleVersionError,
  UnauthenticatedError,
  ValidationError,
  type FieldInputError,
  type ValidationIssue,
} from './error-classes.js';

/**
 * The error types of the API. Every one implements the `Error` interface (code, message, details,
 * citation), so a client can always write `... on Error { code message }` and add fragments for the
 * types it cares about. A field opts in with `errors: { types: [...] }` and then returns a
 * `…Result` union of its success type and these.
 */
export * from './error-classes.js';

export const CitationType = builder.objectRef<Citation>('Citation').implement({
  description: 'Where a rule comes from: a rule document, the rule inside it, and how well it is sourced.',
  fields: (t) => ({
    source: t.exposeString('source', { description: `The document: ${Object.keys(RULE_SOURCES).join(', ')}.` }),
    sourceTitle: t.string({ description: 'The document’s title.', resolve: (c) => RULE_SOURCES[c.source] }),
    rule: t.exposeString('rule', { description: 'Rule number or section inside the document, e.g. "rule 5", "3.10.15(i)".' }),
    verification: t.string({
      nullable: true,
      description:
        'How well the citation is sourced, as a tag: V read in the primary text, P primary excerpt, S secondary, Seed a founding document, U unverified; null when untagged.',
      deprecationReason: 'Use verificationLevel (the SourceVerification enum).',
      resolve: (c) => c.verification ?? null,
    }),
    verificationLevel: t.field({
      type: SourceVerificationEnum,
      nullable: true,
      description: 'How well the citation is sourced; null when untagged.',
      resolve: (c) => c.verification ?? null,
    }),
  }),
});

export const ErrorInterface = builder.interfaceRef<ArbiterError>('Error').implement({
  description: 'An expected failure: a stable code to switch on, a sentence for people, the data, and the rule that applies.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'Stable UPPER_SNAKE code, e.g. TILES_NOT_IN_RACK, UNAUTHENTICATED.' }),
    message: t.exposeString('message', { description: 'A sentence naming the offending field, square or tile.' }),
    details: t.field({ type: 'JSON', nullable: true, description: 'The data behind the message.', resolve: (e) => e.details }),
    citation: t.field({
      type: CitationType,
      nullable: true,
      description: 'The rule that applies, where one does.',
      resolve: (e) => e.citation,
    }),
  }),
});

builder.objectType(ArbiterError, {
  name: 'BaseError',
  description: 'An expected failure with no more specific type.',
  interfaces: [ErrorInterface],
});

builder.objectType(RuleViolation, {
  name: 'RuleViolation',
  description:
    'A rule says no: of the game (placement, scoring, challenges …), of notation, of rule sets or lexicons. `citation` names the rule.',
  interfaces: [ErrorInterface],
});

builder.objectType(UnauthenticatedError, {
  name: 'UnauthenticatedError',
  description: 'No valid credential: sign in (login) or send a valid API key. `message` says what was wrong with the one sent.',
  interfaces: [ErrorInterface],
});

builder.objectType(ForbiddenError, {
  name: 'ForbiddenError',
  description: 'Signed in, but not allowed: a missing API-key scope, or another player’s seat or key.',
  interfaces: [ErrorInterface],
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'Nothing with that id (or nothing the caller may see).',
  interfaces: [ErrorInterface],
});

builder.objectType(StaleVersionError, {
  name: 'StaleVersionError',
  description: 'The request was decided on an older version of the game: reload it and decide again.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    expected: t.exposeInt('expected', { description: 'The version the request was based on.' }),
    actual: t.exposeInt('actual', { description: 'The game’s version now.' }),
  }),
});

builder.objectType(ConflictError, {
  name: 'ConflictError',
  description: 'The request conflicts with what exists (HANDLE_TAKEN, IDEMPOTENCY_KEY_REUSED).',
  interfaces: [ErrorInterface],
});

builder.objectType(RateLimitedError, {
  name: 'RateLimitedError',
  description:
    'RATE_LIMITED: too many requests of this kind from this client (address, player or API key), or too many failed sign-ins; retry after `retryAfterSeconds`. The REST routes answer 429 with a Retry-After header.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    retryAfterSeconds: t.exposeInt('retryAfterSeconds', { description: 'Seconds until a retry can succeed.' }),
  }),
});

export const ValidationIssueType = builder.objectRef<ValidationIssue>('ValidationIssue').implement({
  description: 'One input that breaks the API’s rules.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The argument or input field, as a dotted path: `input.handle`, `first`.' }),
    message: t.exposeString('message', { description: 'A sentence saying what is wrong with it and what is allowed.' }),
  }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'Input that breaks the API’s own rules (a handle pattern, a scope name …); `issues` names each field.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    issues: t.field({ type: [ValidationIssueType], description: 'Every offending input, at least one.', resolve: (e) => e.issues }),
  }),
});

/** The GraphQL type of a {@link FieldInputError} subclass: `description` lists its codes, `example` shows a field path. */
export const fieldInputErrorType = (
  cls: new (e: RuleError, field: string) => FieldInputError,
  name: string,
  description: string,
  example: string,
) =>
  builder.objectType(cls, {
    name,
    description,
    interfaces: [ErrorInterface],
    fields: (t) => ({ field: t.exposeString('field', { description: `The offending argument or input field, e.g. ${example}.` }) }),
  });

/**
 * A service result's value, or its error as the client sees it: a code of `notFound` → NotFoundError, any
 * other → the service's {@link FieldInputError} subclass `cls`, naming the field as `prefix` + the
 * service's `details.field` (`input.` + `url`).
 */
export const valueOrFieldError = <T>(
  r: Result<T, RuleError>,
  cls: new (e: RuleError, field: string) => FieldInputError,
  notFound: readonly string[],
  prefix = '',
): T => {
  if (r.ok) return r.value;
  const field = `${prefix}${String(r.error.details?.['field'] ?? '')}`;
  if (notFound.includes(r.error.code)) throw new NotFoundError(r.error.message, { ...r.error.details, field }, r.error.code);
  throw new cls(r.error, field);
};

/** Errors any field that needs a signed-in player can return. */
export const AUTH_ERRORS = [UnauthenticatedError, ForbiddenError];
/** Errors of a field whose input is validated. */
export const INPUT_ERRORS = [ValidationError];
/** The usual set for a game mutation: rules, auth, input, a missing game, a stale version, a reused idempotency key. */
export const GAME_ERRORS = [
  RuleViolation,
  UnauthenticatedError,
  ForbiddenError,
  ValidationError,
  NotFoundError,
  StaleVersionError,
  ConflictError,
];

/**
 * The options of a field's `…Result` union (errors plugin): its name, and a description naming the
 * success type (`GameResult`: "A Game, or …").
 */
export const resultUnion = (name: string, success: string) => ({
  name,
  description: `The ${success} on success, or the typed error that prevented it: every member but ${success} implements Error (switch on __typename, or on code).`,
});
