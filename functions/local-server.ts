/**
 * The server of `npm start` (functions/server.ts): one process's HTTP server over the app, alone or as
 * one worker of a cluster (functions/cluster.ts), which the primary process never loads.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { ClusterRole } from './cluster.js';
import { DEMO_PLAYERS, seedDemoPlayers } from '../service/accounts.js';
import { GRAPHQL_PATH } from '../graph/yoga.js';
import { OPENAPI_JSON_PATH, V1_PATH } from '../rest/plugin.js';
import { createApp } from './app.js';
import { localJwtConfig } from './jwt-keys.js';
import { devStaticFiles } from './dev-assets.js';
import { observeRequest } from './observability/request-log.js';
import { tracingEnabled } from './observability/tracing.js';

const env = process.env;

/** The banner with the URLs, printed by the one process that serves alone or leads the cluster. */
const printBanner = (actualPort: number, where: string, seed: boolean, created: readonly string[]) => {
  const base = `http://localhost:${actualPort}`;
  const lines = [
    `Arbiter API on ${where}`,
    `  Play       ${base}/play`,
    `  GraphiQL   ${base}${GRAPHQL_PATH}`,
    `  REST       ${base}${V1_PATH}   (OpenAPI ${base}${OPENAPI_JSON_PATH}; the deprecated /rest routes until the next release)`,
  ];
  if (seed) {
    lines.push(`  Demo players${created.length ? ` (created: ${created.join(', ')})` : ''}:`);
    for (const p of DEMO_PLAYERS) lines.push(`    ${p.handle} / ${p.password}`);
    lines.push('  Sign in: mutation { login(handle: "alice", password: "alice-demo-1") { ... on AuthPayload { token } } }');
  }
  console.log(lines.join('\n'));
};

/** A caller's own request id is kept when it is a plain token (a proxy's), else one is made. */
const REQUEST_ID = /^[\w.-]{1,64}$/;

export const serve = async (port: number, workers: number, role: ClusterRole | null): Promise<void> => {
  // Off by default; ARBITER_TRACING=console prints each span (functions/observability/tracing-local.ts).
  if (tracingEnabled()) await (await import('./observability/tracing-local.js')).startLocalTracing();

  // The signing key lives in the data directory unless ARBITER_JWT_SECRET is set: a restart signs nobody out.
  // Mail goes where the settings say, or into the mailbox folder of the data directory (functions/mail-settings.ts).
  const app = await createApp({
    graphiql: true,
    jwt: localJwtConfig(env),
    staticFiles: devStaticFiles(),
    metricsEndpoint: true,
    mail: 'settings',
    notifications: 'in-process',
    // A new data directory starts from the migrated template rather than initdb (store/pglite-template.ts).
    dbOptions: { template: true },
  });
  const { db } = app.services;
  const seed = env['ARBITER_SEED_DEMO'] !== '0';
  const created = seed ? await seedDemoPlayers(db.prisma) : [];
  // In a cluster each request line names the worker that answered it.
  const pid = role ? process.pid : undefined;

  const server = createServer((req, res) => {
    const given = req.headers['x-request-id'];
    const info = {
      requestId: typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID(),
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0]!,
      runtime: 'server',
      ...(pid === undefined ? {} : { pid }),
    };
    void observeRequest(
      info,
      () => Promise.resolve(app.yoga(req, res)),
      () => res.statusCode,
    );
  });
  server.listen(port, () => {
    if (role === 'follower') return;
    const address = server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    const where = db.kind === 'pglite' ? `PGlite in ${env['ARBITER_DATA_DIR'] ?? '.arbiter-data'}` : `Postgres (schema ${db.schema})`;
    printBanner(actualPort, role ? `${where}, ${workers} workers` : where, seed, created);
    if (app.services.mail) console.log(`  Mail       ${app.services.mail.where}`);
  });

  const shutdown = (signal: string) => {
    if (!role) console.log(`\n${signal}: shutting down`);
    server.close();
    server.closeAllConnections();
    app.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
};
