/**
 * Builds a bundle's compile cache (functions/compile-cache.ts uses it): runs the bundle's modules once
 * under the Node that will run them (Lambda's exact nodejs22.x release, linux-arm64, through qemu on an
 * x64 machine: scripts/node-binary.ts) with Node's compile cache on, then files the entries under the
 * path the bundle will have there, and writes them into `<bundle>/compile-cache/<version>-<arch>-<tag>/`.
 *
 * Node 22 names an entry by a CRC-32 of the module's type and URL (`file:///var/task/index.mjs` on Lambda),
 * and `module.enableCompileCache` there has no portable mode (Node 25's `portable` keys by a relative
 * path), so the entries made at `dist/graphql/` are renamed for `/var/task/`; their contents (V8's code
 * cache behind a header of the source's size and hash) do not hold the path. Each module is imported, so
 * its top-level code runs: what a container's init would run, and nothing that needs the database before
 * the process exits.
 */
import { build as esbuild } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32 } from 'node:zlib';
import { CODE_CACHE_FILE } from '../functions/code-cache.js';
import { COMPILE_CACHE_DIR } from '../functions/compile-cache.js';

/**
 * The V8 flags Lambda's Node bootstrap (/var/runtime/bootstrap) starts a function with, from its memory size:
 * a tenth of it for the young generation (half of that per semi-space), the rest for the old one. V8 takes a
 * code cache (either kind) only under the flags it was made with, their values included (a cache made without
 * them was refused with them, and one made for 1,024 MB by a 2,048 MB function: Node 22.23.3, 2026-11-27), so
 * the build runs the function's Node with these.
 */
export const lambdaNodeFlags = (memoryMb: number): string[] => {
  const young = Math.floor(memoryMb / 10);
  return ['--expose-gc', `--max-semi-space-size=${Math.floor(young / 2)}`, `--max-old-space-size=${memoryMb - young}`];
};

/** Where Lambda puts a function's code (LAMBDA_TASK_ROOT). */
export const LAMBDA_TASK_ROOT = '/var/task';

/** Node's name for an ES module's entry: CRC-32 of the type byte (ESM = 1) and the module's URL, as 8 hex digits. */
export const compileCacheKey = (url: string): string =>
  crc32(url, crc32(Buffer.of(1)))
    .toString(16)
    .padStart(8, '0');

/** `v22.23.3-arm64-91f95280-0`: version, architecture, V8's cache tag and, on POSIX, the uid. */
const NODE_FOLDER = /^(v\d+\.\d+\.\d+-[a-z0-9]+-[0-9a-f]{8})(?:-\d+)?$/;

/** The modules of a bundle: index.mjs first (with the chunks it imports statically), then every other chunk. */
export const bundleModules = (bundleDir: string): string[] => [
  'index.mjs',
  ...readdirSync(bundleDir)
    .filter((f) => f.startsWith('chunk-') && f.endsWith('.mjs'))
    .sort(),
];

/** Imports each module (ARBITER_CACHE_MODULES, from the working directory) with the compile cache on in ARBITER_CACHE_RAW; exits so Node writes it. */
const POPULATE = `
import m from 'node:module';
import { pathToFileURL } from 'node:url';
const r = m.enableCompileCache(process.env.ARBITER_CACHE_RAW);
if (r.status !== m.constants.compileCacheStatus.ENABLED) { console.error('compile cache not enabled: ' + (r.message ?? r.status)); process.exit(2); }
for (const f of JSON.parse(process.env.ARBITER_CACHE_MODULES)) {
  try { await import(pathToFileURL(f).href); } catch (e) { console.error('arbiter-compile-cache: ' + f + ': ' + e); }
}
process.exit(0);
`;

/** Runs `node` (a command: the binary, or qemu and the binary) on a script in `cwd`, or throws with what it printed. */
const runNode = (node: readonly string[], script: string, cwd: string, env: NodeJS.ProcessEnv): void => {
  const run = spawnSync(node[0]!, [...node.slice(1), '--input-type=module', '-e', script], {
    cwd,
    env: { PATH: process.env['PATH'], NODE_ENV: 'production', ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (run.status !== 0) throw new Error(`compile cache: ${node.join(' ')} failed (${run.status ?? run.signal}): ${run.stderr}`);
};

export interface CompileCacheBuild {
  /** The folder written under compile-cache/, `<version>-<arch>-<tag>`. */
  readonly folder: string;
  readonly entries: number;
  readonly bytes: number;
}

/**
 * Files the entries Node wrote in `raw` (its `<version>-<arch>-<tag>-<uid>/` folder, keyed by the modules'
 * URLs in bundleDir) into `<bundleDir>/compile-cache/<version>-<arch>-<tag>/` (replaced), keyed by their URLs
 * under `root`.
 */
export const fileCompileCache = (raw: string, bundleDir: string, root: string): CompileCacheBuild => {
  const made = readdirSync(raw);
  const match = made.length === 1 ? NODE_FOLDER.exec(made[0]!) : null;
  if (!match) throw new Error(`compile cache: expected one folder named <version>-<arch>-<tag>-<uid>, Node wrote ${JSON.stringify(made)}`);
  const folder = match[1]!;
  const out = join(bundleDir, COMPILE_CACHE_DIR);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, folder), { recursive: true });
  let entries = 0;
  let bytes = 0;
  for (const f of bundleModules(bundleDir)) {
    const from = join(raw, made[0]!, compileCacheKey(pathToFileURL(join(bundleDir, f)).href));
    if (!existsSync(from)) continue;
    const to = join(out, folder, compileCacheKey(pathToFileURL(join(root, f)).href));
    copyFileSync(from, to);
    chmodSync(to, 0o644); // Node writes them 0600; Lambda runs the code as another user than the zip's owner
    entries++;
    bytes += statSync(to).size;
  }
  if (entries === 0) throw new Error(`compile cache: Node wrote no entry for ${bundleDir}'s modules`);
  return { folder, entries, bytes };
};

/**
 * Writes `<bundleDir>/compile-cache/` from one run of `node` (a command: the binary, or qemu and the
 * binary), for the bundle placed at `root` when it runs: /var/task on Lambda, bundleDir itself for the bench.
 */
export const buildCompileCache = (bundleDir: string, node: readonly string[], root: string = LAMBDA_TASK_ROOT): CompileCacheBuild => {
  const raw = mkdtempSync(join(tmpdir(), 'arbiter-compile-cache-'));
  try {
    runNode(node, POPULATE, bundleDir, {
      ARBITER_CACHE_RAW: raw,
      ARBITER_CACHE_MODULES: JSON.stringify(bundleModules(bundleDir).map((f) => join(bundleDir, f))),
    });
    return fileCompileCache(raw, bundleDir, root);
  } finally {
    rmSync(raw, { recursive: true, force: true });
  }
};

/**
 * The warm-up (ARBITER_CACHE_LOADER: functions/code-cache.ts and the runtime's folder name, bundled): loads
 * index.cjs from the working directory as Lambda's entry does, answers one `{ __typename }` (the app is
 * built on the way; nothing needs the database), then writes the script's code cache, which now holds every
 * function that ran, to `<ARBITER_CACHE_OUT>/<version>-<arch>-<tag>/index.cjs.cache`.
 */
const WARM_UP = `
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const { runScriptBundle, shippedFolderName, thisRuntime } = await import(process.env.ARBITER_CACHE_LOADER);
const { exports, script } = runScriptBundle(process.cwd());
const event = {
  version: '2.0', routeKey: '$default', rawPath: '/graphql', rawQueryString: '', isBase64Encoded: false,
  body: JSON.stringify({ query: '{ __typename }' }), headers: { 'content-type': 'application/json', host: 'warm-up.local' },
  requestContext: { http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'warm-up' },
    domainName: 'warm-up.local', stage: '$default', requestId: 'warm-up', routeKey: '$default', accountId: '0', apiId: 'warm-up',
    domainPrefix: 'warm-up', time: '', timeEpoch: 0 },
};
const res = await exports.handler(event, {});
if (res.statusCode !== 200 || !res.body.includes('"Query"')) { console.error('warm-up answered ' + JSON.stringify(res)); process.exit(2); }
const dir = join(process.env.ARBITER_CACHE_OUT, shippedFolderName(thisRuntime()));
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, '${CODE_CACHE_FILE}'), script.createCachedData());
process.exit(0);
`;

/**
 * Writes `<bundleDir>/compile-cache/<version>-<arch>-<tag>/index.cjs.cache` (the folder replaced), the warm
 * code cache of `<bundleDir>/index.cjs` (scripts/build.ts `buildScriptBundle`) made by one warm-up under
 * `node`. Unlike Node's module cache it holds no path, so it fits the bundle wherever it lies.
 */
export const buildCodeCache = async (bundleDir: string, node: readonly string[]): Promise<CompileCacheBuild> => {
  const work = mkdtempSync(join(tmpdir(), 'arbiter-code-cache-'));
  try {
    const loader = join(work, 'loader.mjs');
    await esbuild({
      stdin: {
        contents:
          "export { runScriptBundle } from './functions/code-cache.js'; export { shippedFolderName, thisRuntime } from './functions/compile-cache.js';",
        resolveDir: join(import.meta.dirname, '..'),
        loader: 'ts',
      },
      outfile: loader,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      logLevel: 'warning',
    });
    const raw = join(work, 'out');
    runNode(node, WARM_UP, bundleDir, {
      ARBITER_CACHE_LOADER: pathToFileURL(loader).href,
      ARBITER_CACHE_OUT: raw,
      // The app as Lambda builds it, without a database: nothing connects before the process exits.
      ARBITER_MIGRATE_ON_START: '0',
      DATABASE_URL: 'postgresql://warm-up@127.0.0.1:9/warm-up',
      ARBITER_JWT_SECRET: 'warm-up-secret-of-at-least-thirty-two-bytes',
      ARBITER_LEXICON_DIR: join(bundleDir, 'lexicons'),
    });
    const [folder] = readdirSync(raw);
    const out = join(bundleDir, COMPILE_CACHE_DIR);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    cpSync(join(raw, folder!), join(out, folder!), { recursive: true });
    const file = join(out, folder!, CODE_CACHE_FILE);
    chmodSync(file, 0o644);
    return { folder: folder!, entries: 1, bytes: statSync(file).size };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};
