import { deleteExpiredOAuthRecords } from '../store/oauth-adapter.js';
import type { ServiceDeps } from './context.js';

/**
 * Deletes the authorization server's expired records (`oauth_records`: codes after 60 s, access tokens after
 * an hour, refresh tokens, sign-ins, interactions and grants at their end; docs/apps.md#token-lifetimes).
 * The adapter already reads an expired row as absent, so this changes no answer: it keeps the table (and
 * its indexes, which every token check reads) the size of what is live. Bounded per run: at most
 * `maxBatches` deletes of `batchSize` rows, so a run after a long pause takes seconds, not minutes, and the
 * next run goes on. Run with the lobby's sweep (service/lobby-sweep.ts), which runs locally and on AWS.
 */
export interface OAuthSweepOptions {
  readonly batchSize?: number;
  readonly maxBatches?: number;
}

export const OAUTH_SWEEP_BATCH = 500;
export const OAUTH_SWEEP_MAX_BATCHES = 10;

/** Answers the rows deleted. */
export async function sweepExpiredOAuthRecords(deps: Pick<ServiceDeps, 'db' | 'now'>, options: OAuthSweepOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? OAUTH_SWEEP_BATCH;
  const maxBatches = options.maxBatches ?? OAUTH_SWEEP_MAX_BATCHES;
  const now = deps.now();
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteExpiredOAuthRecords(deps.db, now, batchSize);
    deleted += n;
    if (n < batchSize) break;
  }
  return deleted;
}
