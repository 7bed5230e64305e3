/**
 * `npm start`: the API on a local Node HTTP server with GraphiQL, on the embedded database (PGlite in
 * ARBITER_DATA_DIR, default .arbiter-data/) or on Postgres when DATABASE_URL is set; port from PORT
 * (default 4000). Seeds the demo players alice and bob unless ARBITER_SEED_DEMO=0. On Postgres,
 * ARBITER_WORKERS (a number or `auto`) runs that many processes on the one port (functions/cluster.ts).
 */
import cluster from 'node:cluster';
import { clusterRole, runPrimary, workerCount } from './cluster.js';

const env = process.env;
// The API served as on Lambda (infra/constructs/function.ts), so that what runs here is what is deployed:
// outside production graphql-js checks every failed `instanceof` of its type tests for a second copy of
// itself. Set before the app is imported (below), since graphql-js reads it once, at load.
env['NODE_ENV'] ??= 'production';
const port = Number(env['PORT'] ?? 4000);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${env['PORT']}"`);
const workers = workerCount(env);

// The primary of a cluster only forks and watches: it loads none of the app.
if (cluster.isPrimary && workers > 1) process.exit(await runPrimary(workers));
else await (await import('./local-server.js')).serve(port, workers, clusterRole(env));
