import { createApp, type App } from './app.js';

/**
 * The app as a deployed function builds it: once per container, shared by every invocation. This is
 * the seam for deployment concerns: today the database URL comes from `DATABASE_URL`; a later issue
 * reads it from Secrets Manager here, in {@link resolveDatabaseUrl}, and nowhere else.
 */
export const resolveDatabaseUrl = async (env: Readonly<Record<string, string | undefined>>): Promise<string> => {
  const url = env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is not set: the deployed API needs a Postgres database');
  return url;
};

/** Builds the deployed app: Postgres from {@link resolveDatabaseUrl}, migrations on start unless ARBITER_MIGRATE_ON_START=0, no GraphiQL. */
export const buildRuntimeApp = async (env: Readonly<Record<string, string | undefined>> = process.env): Promise<App> =>
  createApp({
    env,
    dbOptions: { databaseUrl: await resolveDatabaseUrl(env), migrate: env['ARBITER_MIGRATE_ON_START'] !== '0' },
    graphiql: false,
  });

let shared: Promise<App> | undefined;

/** The container's app, built on first use; a failed build is retried by the next invocation. */
export const sharedApp = (): Promise<App> => {
  shared ??= buildRuntimeApp().catch((e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
};
