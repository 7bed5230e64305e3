/**
 * `npm start`: the API on a local Node HTTP server with GraphiQL, on the embedded database (PGlite in
 * ARBITER_DATA_DIR, default .arbiter-data/) or on Postgres when DATABASE_URL is set; port from PORT
 * (default 4000). Seeds the demo players alice and bob unless ARBITER_SEED_DEMO=0.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { DEMO_PLAYERS, seedDemoPlayers } from '../service/accounts.js';
import { GRAPHQL_PATH } from '../graph/yoga.js';
import { OPENAPI_JSON_PATH, V1_PATH } from '../rest/plugin.js';
import { createApp } from './app.js';
import { localJwtConfig } from './jwt-keys.js';
import { devStaticFiles } from './dev-assets.js';
import { observeRequest } from './observability/request-log.js';
import { tracingEnabled } from './observability/tracing.js';

const env = process.env;
const port = Number(env['PORT'] ?? 4000);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${env['PORT']}"`);

// Off by default; ARBITER_TRACING=console prints each span (functions/observability/tracing-local.ts).
if (tracingEnabled()) await (await import('./observability/tracing-local.js')).startLocalTracing();

// The signing key lives in the data directory unless ARBITER_JWT_SECRET is set: a restart signs nobody out.
const app = await createApp({ graphiql: true, jwt: localJwtConfig(env), staticFiles: devStaticFiles(), metricsEndpoint: true });
const { db } = app.services;
const seed = env['ARBITER_SEED_DEMO'] !== '0';
const created = seed ? await seedDemoPlayers(db.prisma) : [];

/** A caller's own request id is kept when it is a plain token (a proxy's), else one is made. */
const REQUEST_ID = /^[\w.-]{1,64}$/;
const server = createServer((req, res) => {
  const given = req.headers['x-request-id'];
  const info = {
    requestId: typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID(),
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0]!,
    runtime: 'server',
  };
  void observeRequest(
    info,
    () => Promise.resolve(app.yoga(req, res)),
    () => res.statusCode,
  );
});
server.listen(port, () => {
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const base = `http://localhost:${actualPort}`;
  const where = db.kind === 'pglite' ? `PGlite in ${env['ARBITER_DATA_DIR'] ?? '.arbiter-data'}` : `Postgres (schema ${db.schema})`;
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
});

const shutdown = (signal: string) => {
  console.log(`\n${signal}: shutting down`);
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
