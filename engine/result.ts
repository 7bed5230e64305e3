import type { RuleError } from './errors.js';

/**
 * Errors as values: expected failures (bad input, rule violations) are returned, never thrown.
 * `throw` is kept for broken invariants only.
 */
export type Result<T, E = RuleError> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });
export const err = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });
