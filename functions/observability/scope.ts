import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../store/db.js';
import type { SqlObserver } from '../../store/sql-observer.js';
import { withSpan } from './tracing.js';

/**
 * What one request (or one scheduled run) has gathered for its log line, filled in as it goes: the
 * Yoga plugin sets the operation, the caller kind, the game and the outcome; the SQL observer counts
 * statements. Held in AsyncLocalStorage so that the store, which knows nothing of requests, adds to
 * the right one.
 */
export interface RequestScope {
  readonly requestId: string;
  readonly started: number;
  sql: number;
  operation?: string;
  caller?: CallerKind;
  gameId?: string;
  outcome?: string;
}

/**
 * Who called, never with what: the credential itself is not logged. `app` is a third-party app's OAuth
 * access token (docs/apps.md): it acts as a player, but an app's traffic is watched apart from the player's own.
 */
export type CallerKind = 'player' | 'api-key' | 'app' | 'anonymous';

const storage = new AsyncLocalStorage<RequestScope>();

export const currentScope = (): RequestScope | undefined => storage.getStore();

export const runInScope = <T>(requestId: string, fn: (scope: RequestScope) => T): T => {
  const scope: RequestScope = { requestId, started: performance.now(), sql: 0 };
  return storage.run(scope, () => fn(scope));
};

/** Counts each statement against the current request and wraps it in a `sql` span (the statement text without its parameters). */
export const sqlObserver: SqlObserver = {
  statement: (sql, run) => {
    const scope = storage.getStore();
    if (scope) scope.sql++;
    return withSpan('sql', { 'db.system': 'postgresql', 'db.statement': sql.slice(0, 500) }, run);
  },
};

/** The database with each transaction (one service use case: service/ runs one per call) in a `service.transaction` span. */
export const observeDb = (db: Db): Db => ({
  ...db,
  transaction: (fn) => withSpan('service.transaction', {}, () => db.transaction(fn)),
});
