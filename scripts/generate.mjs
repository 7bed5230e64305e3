#!/usr/bin/env node
// Runs `prisma generate` offline. Prisma 7's client needs no native engine (the query compiler is
// WebAssembly inside @prisma/client), but the CLI still resolves the native schema engine at start-up
// and tries to download it (plus its .sha256) when it is missing. Pointing PRISMA_SCHEMA_ENGINE_BINARY
// at any existing file satisfies that check; `generate` never executes it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'prisma.cmd' : 'prisma');
if (!existsSync(bin)) {
  console.error(`generate: ${bin} not found — run npm install first`);
  process.exit(1);
}

const env = { ...process.env };
// Keep a real engine if the machine has one (e.g. for `prisma migrate` on a connected machine).
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = fileURLToPath(import.meta.url);
}
env.PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING ??= '1';
env.CHECKPOINT_DISABLE ??= '1'; // no update check (network)
env.PRISMA_HIDE_UPDATE_MESSAGE ??= '1';

const result = spawnSync(bin, ['generate', ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
  shell: process.platform === 'win32',
});
if (result.error) {
  console.error(`generate: ${result.error.message}`);
  process.exit(1);
}
if (result.status !== 0) process.exit(result.status ?? 1);

// The typed client of the /v1 REST document (generated/rest/v1.ts), which the REST client test is typed against.
const client = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'rest-client-types.ts')], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(client.error ? 1 : (client.status ?? 1));
