#!/usr/bin/env node
// `npm start`'s first step: runs `npm run generate` and `npm run lexicons` only when what they make is
// missing or was made from other inputs (issue 34: a warm start used to spend ~5 s regenerating the same
// Prisma client and REST types, and another tsx start-up only to find the lexicons up to date). Each step
// is keyed by a hash of its inputs, kept in node_modules/.cache/arbiter/, so `npm ci` (a new
// node_modules) redoes both. `npm test` and `npm run build` always run both steps in full.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampDir = join(root, 'node_modules', '.cache', 'arbiter');

/** Every file under `dir` (relative to the root) whose name ends with one of `exts`, tests left out. */
const sources = (dir, exts) => {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (exts.some((x) => e.name.endsWith(x)) && !e.name.endsWith('.test.ts')) out.push(p);
    }
  };
  walk(join(root, dir));
  return out;
};

// The REST client types are generated from the OpenAPI document, which is built from the GraphQL schema and
// the REST routes, which import the service, the store and the engine: all of them are inputs.
const STEPS = [
  {
    name: 'generate',
    inputs: () => [
      ...['schema.prisma', 'prisma.config.ts', 'package-lock.json', 'scripts/generate.mjs', 'scripts/rest-client-types.ts'].map((f) =>
        join(root, f),
      ),
      ...['engine', 'graph', 'rest', 'service', 'store'].flatMap((d) => sources(d, ['.ts', '.json'])),
    ],
    outputs: ['generated/prisma/client.ts', 'generated/pothos-prisma-types.ts', 'generated/rest/v1.ts'],
  },
  {
    name: 'lexicons',
    inputs: () => [
      ...['package-lock.json', 'scripts/build-lexicons.ts', 'store/lexicon-files.ts'].map((f) => join(root, f)),
      ...sources('engine/lexicon', ['.ts']),
    ],
    outputs: ['data/lexicons'],
  },
];

const inputsHash = (files) => {
  const hash = createHash('sha256');
  for (const f of files.sort()) hash.update(`\0${relative(root, f)}\0`).update(existsSync(f) ? readFileSync(f) : '');
  return hash.digest('hex');
};

for (const step of STEPS) {
  const stampFile = join(stampDir, `${step.name}.sha256`);
  const hash = inputsHash(step.inputs());
  const made = step.outputs.every((o) => existsSync(join(root, o)));
  if (made && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) {
    console.log(`start: ${step.name} is up to date (skipped)`);
    continue;
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['run', '--silent', step.name], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.error || run.status !== 0) process.exit(run.status ?? 1);
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(stampFile, hash);
}
