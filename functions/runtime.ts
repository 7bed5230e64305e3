import { createApp, type App, type AppOptions } from './app.js';
import { deployedJwtConfig } from './jwt-keys.js';
import { resolveDatabaseConnection, secretsManagerReader, secretsManagerVersionReader } from './secrets.js';
import { destinationPolicyFromEnv } from '../service/webhook-destination.js';
import { sqsRobotTurns } from './robot-queue.js';
import { ROBOT_QUEUE_ENV } from './robot-env.js';
import { BUNDLED_STATIC_DIR, directoryFiles } from './static-files.js';

/**
 * The app as a deployed function builds it: once per container, shared by every invocation. Secrets
 * (database password, JWT keys) come from Secrets Manager and are read again after a rotation
 * (functions/secrets.ts, functions/jwt-keys.ts); locally the plain `DATABASE_URL` /
 * `ARBITER_JWT_SECRET` variables are used as they are.
 */
export const buildRuntimeApp = async (
  env: Readonly<Record<string, string | undefined>> = process.env,
  /** What a function changes of the API's app (functions/stream-entry.ts: streams on, no lexicons). */
  overrides: Partial<AppOptions> = {},
): Promise<App> => {
  // The development webhook setting is refused here, at cold start, before anything else.
  destinationPolicyFromEnv(env);
  const jwt = deployedJwtConfig(env, secretsManagerVersionReader());
  const [connection] = await Promise.all([resolveDatabaseConnection(env, secretsManagerReader()), jwt?.source?.keys(new Date())]);
  return createApp({
    env,
    ...(jwt ? { jwt } : {}),
    dbOptions: { ...connection, migrate: env['ARBITER_MIGRATE_ON_START'] !== '0' },
    // Where the migrate function prepares the database, it also registers the shipped lexicons.
    registerLexicons: env['ARBITER_MIGRATE_ON_START'] !== '0',
    graphiql: false,
    // The play page and the API docs, from the files `npm run build` put beside the bundle.
    staticFiles: directoryFiles(BUNDLED_STATIC_DIR),
    // Robot seats are played by the robot Lambda (functions/robots.ts), woken through its queue.
    robots: env[ROBOT_QUEUE_ENV] ? sqsRobotTurns(env[ROBOT_QUEUE_ENV]) : 'off',
    ...overrides,
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
