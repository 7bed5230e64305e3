import { createDb, type Db } from '../store/db.js';
import { resolveDatabaseConnection } from './secrets.js';
import { sqlObserver } from './observability/scope.js';

/**
 * The database of a scheduled Lambda (deadline sweeper, webhook sender), opened once per container on
 * first use. The connection comes from `resolveDatabaseConnection` (as for the API Lambda: DATABASE_URL,
 * or the Secrets Manager secret, whose password is re-read after a rotation); migrations on start as for the API, unless ARBITER_MIGRATE_ON_START=0
 * (the deployed stack sets it: the migration trigger has run). Only the database is opened, not the
 * whole app. A failed open is not cached, so the next invocation tries again.
 */
let dbPromise: Promise<Db> | undefined;
export const containerDb = (env: Readonly<Record<string, string | undefined>> = process.env): Promise<Db> => {
  dbPromise ??= resolveDatabaseConnection(env)
    .then((connection) => createDb({ ...connection, observer: sqlObserver, migrate: env['ARBITER_MIGRATE_ON_START'] !== '0' }))
    .catch((e: unknown) => {
      dbPromise = undefined;
      throw e;
    });
  return dbPromise;
};
