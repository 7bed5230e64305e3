import { createApp, type App } from './app.js';
import { resolveRuntimeEnv } from './secrets.js';
import { BUNDLED_STATIC_DIR, directoryFiles } from './static-files.js';

/**
 * The app as a deployed function builds it: once per container, shared by every invocation. Secrets
 * (database credentials, JWT key) come from Secrets Manager through `resolveRuntimeEnv`; locally the
 * plain `DATABASE_URL` / `ARBITER_JWT_SECRET` variables are used as they are.
 */
export const buildRuntimeApp = async (baseEnv: Readonly<Record<string, string | undefined>> = process.env): Promise<App> => {
  const env = await resolveRuntimeEnv(baseEnv);
  const databaseUrl = env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: the deployed API needs a Postgres database');
  return createApp({
    env,
    dbOptions: { databaseUrl, migrate: env['ARBITER_MIGRATE_ON_START'] !== '0' },
    // Where the migrate function prepares the database, it also registers the shipped lexicons.
    registerLexicons: env['ARBITER_MIGRATE_ON_START'] !== '0',
    graphiql: false,
    // The play page and the API docs, from the files `npm run build` put beside the bundle.
    staticFiles: directoryFiles(BUNDLED_STATIC_DIR),
  });
};

let shared: Promise<App> | undefined;

/** The container's app, built on first use; a failed build is retried by the next invocation. */
export const sharedApp = (): Promise<App> => {
  shared ??= buildRuntimeApp().catch((e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
};
