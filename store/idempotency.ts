import { err, ok, type Result } from '../engine/result.js';
import type { Tx } from './db.js';
import { storeError, type StoreError } from './errors.js';
import type { JsonValue } from './json.js';

/** A client's retry token: `scope` (e.g. the player id) + `key`, and a hash of the request it came with. */
export interface Idempotency {
  readonly scope: string;
  readonly key: string;
  /** Hash of the request body (the caller's choice of canonical form); a different body under the same key is refused. */
  readonly requestHash: string;
}

/**
 * The stored response when this (scope, key) was seen before with the same request hash,
 * `IDEMPOTENCY_KEY_REUSED` when it came with a different one, `ok(null)` when it is new.
 */
export const findIdempotent = async <R extends JsonValue>(
  tx: Tx,
  idem: Idempotency,
): Promise<Result<{ response: R } | null, StoreError>> => {
  const row = await tx.idempotencyKey.findUnique({ where: { scope_key: { scope: idem.scope, key: idem.key } } });
  return row === null ? ok(null) : answerOf<R>(idem, row);
};

/** What a stored (scope, key) row answers to `idem`: its response, or IDEMPOTENCY_KEY_REUSED for another request. */
export const answerOf = <R extends JsonValue>(
  idem: Idempotency,
  row: { readonly requestHash: string; readonly response: unknown },
): Result<{ response: R }, StoreError> => {
  if (row.requestHash !== idem.requestHash) {
    return err(
      storeError('IDEMPOTENCY_KEY_REUSED', `Idempotency key "${idem.key}" was already used for a different request.`, {
        scope: idem.scope,
        key: idem.key,
      }),
    );
  }
  return ok({ response: row.response as R });
};
