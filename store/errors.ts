import { ruleError, type RuleError } from '../engine/errors.js';

/** Expected failures of the store, returned as values (same shape as the engine's `RuleError`). */
export const STORE_ERROR_CODES = [
  /** No game with that id. */
  'GAME_NOT_FOUND',
  /** The caller decided on an older version of the game; details: `expected`, `actual`. */
  'STALE_VERSION',
  /** The idempotency key was used before for a different request; details: `scope`, `key`. */
  'IDEMPOTENCY_KEY_REUSED',
] as const;
export type StoreErrorCode = (typeof STORE_ERROR_CODES)[number];

export interface StoreError extends RuleError {
  readonly code: StoreErrorCode;
}

export const storeError = (code: StoreErrorCode, message: string, details: Record<string, unknown>): StoreError =>
  ruleError(code, message, details) as StoreError;

export const isStoreError = (e: unknown): e is StoreError =>
  typeof e === 'object' && e !== null && (STORE_ERROR_CODES as readonly unknown[]).includes((e as { code?: unknown }).code);
