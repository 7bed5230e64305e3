/**
 * `npm run build`: bundles each Lambda entry with esbuild into an ESM file, `dist/<name>/index.mjs`, and the
 * chunks it imports on demand (`chunk-*.mjs`),
 * copies the files it reads at run time next to it, and prints each bundle's size. The folder
 * `dist/<name>/` is what infra/app.ts deploys as the function's code.
 */
import { build as esbuild, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { isAscii } from 'node:buffer';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SCRIPT_BUNDLE } from '../functions/code-cache.js';
import { buildCodeCache, buildCompileCache, lambdaNodeFlags } from './compile-cache.js';
import { copyNativePackage, RESVG } from './lambda-native.js';
import { fetchNode, nodeCommand } from './node-binary.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');

/** What a function reads from disk besides its bundle, copied or written into `dist/<name>/`. */
export const ASSETS = ['lexicons', 'kwg', 'migrations', 'fonts', 'static', 'native'] as const;
export type Asset = (typeof ASSETS)[number];

/** Copied from a folder of the repository into `dist/<name>/<asset>/`. */
const ASSET_SOURCES: Record<
  'lexicons' | 'kwg' | 'migrations' | 'fonts',
  { readonly from: string; readonly filter: (name: string) => boolean; readonly to?: string }
> = {
  // Found on Lambda through ARBITER_LEXICON_DIR (store/lexicon-files.ts searches it after the shipped folder).
  // Only the referee's .dawg files: the move generator's .kwg (4.6 MB each) goes to the functions that
  // generate moves (robots, analysis) as an asset of its own, into the same folder (loadKwg looks beside the .dawg).
  lexicons: { from: 'data/lexicons', filter: (name) => name.endsWith('.dawg') },
  kwg: { from: 'data/lexicons', filter: (name) => name.endsWith('.kwg') || name.endsWith('.kwg.json'), to: 'lexicons' },
  // Passed to the migrator as migrationsDir by functions/migrate.ts; read by the API's readiness probe.
  migrations: { from: 'migrations', filter: () => true },
  // The board pictures' font and its licence: render/png.ts looks for fonts/ beside the bundle.
  fonts: { from: 'render/fonts', filter: () => true },
};

/** Written by the build into `dist/<name>/`. */
const ASSET_WRITERS: Record<'static' | 'native', (outdir: string) => Promise<void>> = {
  // The browser pages' files (graph/pages.ts), read by functions/static-files.ts from static/ beside the bundle.
  static: async (outdir) => {
    const { buildPlayPage } = await import('../functions/dev-assets.js');
    const play = await buildPlayPage();
    const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    mkdirSync(join(outdir, 'static', 'play'), { recursive: true });
    writeFileSync(join(outdir, 'static', 'play', 'app.js'), play.js);
    writeFileSync(join(outdir, 'static', 'play', 'app.css'), play.css);
    writeFileSync(join(outdir, 'static', 'play', 'push-sw.js'), play.sw);
    for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css']) cpSync(join(swagger, f), join(outdir, 'static', 'swagger', f));
  },
  // resvg's loader and its linux-arm64 binary (scripts/lambda-native.ts), outside the bundle: a .node file cannot be inlined.
  native: async (outdir) => {
    copyNativePackage(ROOT, outdir, RESVG);
  },
};

/** A function's memory size when the stack names none (infra/constructs/function.ts). */
const LAMBDA_DEFAULT_MEMORY_MB = 1024;

export interface FunctionBundle {
  /** Folder under dist/ and the function's name in the stack. */
  readonly name: string;
  readonly entry: string;
  readonly assets: readonly Asset[];
  /**
   * What it ships to start sooner when the build is given Lambda's Node (ARBITER_COMPILE_CACHE_NODE;
   * scripts/compile-cache.ts): `module`, Node's module compile cache of index.mjs and its chunks; `script`,
   * the function as one script (index.cjs) and a V8 code cache of it taken after a warm-up, which also holds
   * what the first request compiles (functions/code-cache.ts).
   */
  readonly compileCache?: 'module' | 'script';
  /** Its memory size in the stack (infra/, checked by infra/stack.test.ts): its cache is made under the V8 flags Lambda derives from it. */
  readonly memoryMb?: number;
}

/** Every Lambda entry point; an entry whose file does not exist yet is skipped with a notice. */
export const FUNCTION_BUNDLES: readonly FunctionBundle[] = [
  // fonts, static and native: the board pictures (render/) and the play page and API docs (graph/pages.ts);
  // migrations: GET /ready compares their names with the applied ones (functions/observability/health.ts).
  // The API analyses positions (issue 19), so it carries the move generator's KWGs too.
  // The one function with a cold-start target (issue #17): it ships the warm code cache when built for Lambda's Node.
  {
    name: 'graphql',
    entry: 'functions/graphql.ts',
    assets: ['lexicons', 'kwg', 'migrations', 'fonts', 'static', 'native'],
    compileCache: 'script',
    memoryMb: 1024,
  },
  // Robot seats: the referee's lexicons (a robot's challenge) and the KWGs it generates moves from.
  { name: 'robots', entry: 'functions/robots.ts', assets: ['lexicons', 'kwg'] },
  { name: 'webhooks', entry: 'functions/webhooks.ts', assets: [] },
  // The sweeper judges no word (a timeout or an auto-pass), so it ships without lexicons.
  { name: 'deadlines', entry: 'functions/deadlines.ts', assets: [] },
  // Lexicons too: the migrate function registers them in the database (functions/migrate.ts), not the API's cold start.
  { name: 'migrate', entry: 'functions/migrate.ts', assets: ['migrations', 'lexicons'] },
  // Secrets Manager's rotation function for the JWT key: the AWS SDK only (left external: the runtime ships it).
  { name: 'rotate-jwt-secret', entry: 'functions/rotate-jwt-secret.ts', assets: [] },
  // The live streams behind a function URL (issue 31): the app without lexicons (a stream judges no word).
  { name: 'stream', entry: 'functions/stream-entry.ts', assets: [] },
  // The notifier (issue 31), scheduled like the webhook sender; its mails draw the board (render/: the font, resvg, the lexicons' tiles).
  { name: 'notifications', entry: 'functions/notifications.ts', assets: ['lexicons', 'fonts', 'native'] },
  // SES's bounces and complaints from the stack's SNS topic (issue 31): the database only.
  { name: 'mail-feedback', entry: 'functions/mail-feedback.ts', assets: [] },
];

/**
 * Left out of every bundle: the AWS SDK v3 ships with the nodejs22.x runtime; PGlite is only the local
 * embedded database (store/db.ts imports it on demand); pg-native is pg's optional native binding;
 * @resvg/resvg-js loads a native binary, so it is copied beside the bundle instead (the `native` asset).
 */
export const EXTERNAL = ['@aws-sdk/*', '@electric-sql/pglite', 'pglite-prisma-adapter', 'pg-native', '@resvg/resvg-js'] as const;

/** CommonJS dependencies (pg, …) call `require` for Node built-ins; an ESM bundle has to provide it. */
const BANNER =
  "import { createRequire as __arbiterCreateRequire } from 'node:module'; const require = __arbiterCreateRequire(import.meta.url);";

export interface BundleResult {
  readonly name: string;
  readonly entry: string;
  readonly file: string;
  /** index.mjs and its chunks together (what the zip carries), and index.mjs alone (what a cold start parses). */
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly entryBytes: number;
  /** index.mjs and the chunks it imports statically, transitively: what every cold start loads. */
  readonly coldBytes: number;
  /** Lazily imported chunks beside index.mjs. */
  readonly chunks: number;
  /** Bytes of the copied assets (lexicons, migrations), which the zip also carries. */
  readonly assetBytes: number;
  /** The largest inputs, for finding what to trim. */
  readonly largestInputs: readonly { readonly path: string; readonly bytes: number }[];
  /** esbuild's account of every output and the inputs in it (what bench/coldstart.ts and the bundle test read). */
  readonly metafile: Metafile;
}

const folderBytes = (path: string): number =>
  statSync(path).isDirectory() ? readdirSync(path).reduce((n, f) => n + folderBytes(join(path, f)), 0) : statSync(path).size;

const largestInputs = (meta: Metafile, outfile: string): BundleResult['largestInputs'] => {
  const output = Object.entries(meta.outputs).find(([path]) => path.endsWith(relative(ROOT, outfile)))?.[1];
  if (!output) return [];
  const byPackage = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const key = m?.[1] ?? path.split('/')[0] ?? path;
    byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
  }
  return [...byPackage.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([path, bytes]) => ({ path, bytes }));
};

/** Bytes of `outfile` and of every chunk it imports statically, transitively (not those behind `import()`). */
const coldStartBytes = (meta: Metafile, outfile: string): number => {
  const outputs = new Map(Object.entries(meta.outputs).map(([path, o]) => [join(ROOT, path), o]));
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of outputs.get(file)?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(join(ROOT, i.path));
  };
  visit(outfile);
  return [...seen].reduce((n, f) => n + (outputs.get(f)?.bytes ?? 0), 0);
};

/** The file beside each bundle that holds Prisma's query compiler (see {@link wasmBesideBundle}). */
export const QUERY_COMPILER_FILE = 'query_compiler.wasm';

/**
 * Prisma's generated client imports its query compiler as a 2.3 MB base64 string module; inlined, that
 * string is half the bundle and every cold start parses it (~20 ms) whether or not the container ever
 * queries. This swaps the module for one that reads the binary written beside the bundle, on the first
 * query only (the client imports it lazily). `written` is set when the bundle uses it.
 */
const wasmBesideBundle = (outdir: string, written: { value: boolean }): Plugin => ({
  name: 'arbiter-wasm-beside-bundle',
  setup(build) {
    build.onResolve({ filter: /query_compiler_[a-z]+_bg\.[a-z]+\.wasm-base64\.mjs$/ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'inner' });
      if (resolved.errors.length) return undefined;
      return { path: resolved.path, namespace: 'arbiter-wasm' };
    });
    build.onLoad({ filter: /.*/, namespace: 'arbiter-wasm' }, async (args) => {
      const { wasm } = (await import(args.path)) as { wasm: string };
      writeFileSync(join(outdir, QUERY_COMPILER_FILE), Buffer.from(wasm, 'base64'));
      written.value = true;
      return {
        contents: `import { readFileSync } from 'node:fs';\nexport const wasm = readFileSync(new URL('./${QUERY_COMPILER_FILE}', import.meta.url)).toString('base64');\n`,
        loader: 'js',
      };
    });
  },
});

/**
 * graphql-js ships every module twice, CommonJS (`.js`) and ESM (`.mjs`). Resolved as Node resolves it
 * (`main`), the whole CommonJS library lands in the bundle; sending every import of it, ours and the
 * libraries', to the ESM twin keeps a single copy (graphql checks that its classes come from one realm)
 * and lets esbuild drop what nothing uses.
 */
const graphqlAsEsm: Plugin = {
  name: 'arbiter-graphql-esm',
  setup(build) {
    build.onResolve({ filter: /^graphql(\/|$)/ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'inner' });
      if (resolved.errors.length || !resolved.path.endsWith('.js')) return undefined;
      return { path: resolved.path.replace(/\.js$/, '.mjs') };
    });
  },
};

/**
 * @whatwg-node/server decides, as each Yoga is made, whether its fetch classes are Node's own by reading
 * `globalThis.Request`, which Node makes on first touch by loading its bundled undici (~10–15 ms of a cold
 * start, --cpu-prof). Our functions never touch Node's fetch classes otherwise (Yoga's are the
 * @whatwg-node/node-fetch ponyfill), and the answer only picks an abort controller for Node http and uWS
 * requests, which a function never gets (API Gateway's arrive through `yoga.fetch`). So in the Lambda bundles
 * the same comparison is made when such a request comes, not when the Yoga is made. The build fails unless
 * the declaration is found as expected (in both copies: Yoga's, and fets's, which SOFA loads on its first
 * request), so an upgrade that changes it is seen.
 */
const ABORT_CTRL = /(?<![\w$])useCustomAbortCtrl\b/g;
const ABORT_CTRL_DECLARATION =
  /const useCustomAbortCtrl = (?=options\?\.__useCustomAbortCtrl == null\s*\?\s*\w+\.Request !== globalThis\.Request\s*:)/g;
export const lazyNodeRequestCheck: Plugin = {
  name: 'arbiter-lazy-node-request-check',
  setup(build) {
    build.onLoad({ filter: /[\\/]@whatwg-node[\\/]server[\\/](esm|cjs)[\\/]createServerAdapter\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if ((source.match(ABORT_CTRL_DECLARATION) ?? []).length !== 1)
        throw new Error(`${args.path}: not the useCustomAbortCtrl check scripts/build.ts expects: update it`);
      const contents = source.replace(ABORT_CTRL_DECLARATION, 'const customAbortCtrl = () => ').replace(ABORT_CTRL, 'customAbortCtrl()');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * esbuild writes ASCII (it escapes every other character) except inside regular expression literals. An
 * ASCII script is read by the Lambda loader as Latin-1, ~10× faster than UTF-8 (functions/code-cache.ts), so
 * the one dependency of the graphql bundle with such a literal (sofa-api's title-case: `/[^\s:–—-]+|./g`) has
 * its non-ASCII characters written as `\uXXXX` escapes, which mean the same in any regular expression. Only a
 * line that is one regular expression assigned to a name is rewritten; anything else fails the build.
 */
export const asciiRegexLiterals = (filter: RegExp): Plugin => ({
  name: 'arbiter-ascii-regex-literals',
  setup(build) {
    build.onLoad({ filter }, (args) => {
      const lines = readFileSync(args.path, 'utf8').split('\n');
      const contents = lines
        .map((line) => {
          if (!/[\u0080-\uffff]/.test(line)) return line;
          if (!/^\s*(var|let|const) [\w$]+ = \/.*\/[dgimsuvy]*;\s*$/.test(line))
            throw new Error(`${args.path}: a non-ASCII character outside a regular expression literal`);
          return line.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        })
        .join('\n');
      return { contents, loader: 'js' };
    });
  },
});

/** esbuild's options for a function's code, both builds (the ESM bundle and the one script of {@link buildScriptBundle}). */
const bundleOptions = (fn: FunctionBundle, outdir: string, wasmWritten: { value: boolean }) =>
  ({
    plugins: [
      wasmBesideBundle(outdir, wasmWritten),
      graphqlAsEsm,
      lazyNodeRequestCheck,
      asciiRegexLiterals(/[\\/]node_modules[\\/]title-case[\\/]dist(\.es2015)?[\\/]index\.js$/),
    ],
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, fn.entry)],
    bundle: true,
    platform: 'node' as const,
    target: 'node22',
    minify: true,
    external: [...EXTERNAL],
    // esbuild's default for node (`main` before `module`) resolves packages as Node does; preferring `module`
    // would give graphql two copies (index.mjs for `graphql`, index.js for `graphql/index.js`) and break its realm check.
    legalComments: 'none',
    metafile: true as const,
    logLevel: 'warning' as const,
  }) satisfies BuildOptions;

/**
 * The function as one CommonJS script, `index.cjs` beside index.mjs, for the warm code cache
 * (scripts/code-cache.ts): only `vm.Script` can hand V8 a cache taken after a warm-up, and it runs a script,
 * not a module graph, so no chunks. `import.meta.url` becomes the script's own file URL, so what is found
 * beside the bundle (the query compiler, the font) still is; `import()` of the external packages goes
 * through the loader's `importModuleDynamically` (functions/code-cache.ts).
 */
export const buildScriptBundle = async (fn: FunctionBundle, outdir: string): Promise<string> => {
  const outfile = join(outdir, SCRIPT_BUNDLE);
  await esbuild({
    ...bundleOptions(fn, outdir, { value: false }),
    outfile,
    format: 'cjs',
    define: { 'import.meta.url': '__arbiterImportMetaUrl' },
    banner: { js: "var __arbiterImportMetaUrl=require('node:url').pathToFileURL(__filename).href;" },
  });
  const bytes = readFileSync(outfile);
  // The loader's own test (functions/code-cache.ts scriptSource); the first other byte's context says where.
  if (!isAscii(bytes)) {
    const other = bytes.findIndex((b) => b > 0x7f);
    console.warn(
      `${outfile} is not ASCII (it loads slower, as UTF-8): ${JSON.stringify(bytes.toString('utf8', Math.max(0, other - 60), other + 20))}`,
    );
  }
  return outfile;
};

/** The entry Lambda calls (`lambda.handler`): loads index.cjs with its warm code cache, or index.mjs (functions/lambda-entry.ts). */
export const LAMBDA_ENTRY = 'lambda.mjs';

/** Bundles one function into `dist/<name>/` (emptied first), with its Lambda entry, and copies its assets. */
export const buildFunction = async (fn: FunctionBundle, dist: string = DIST): Promise<BundleResult> => {
  const outdir = join(dist, fn.name);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, 'index.mjs');
  const wasmWritten = { value: false };
  const result = await esbuild({
    ...bundleOptions(fn, outdir, wasmWritten),
    outdir,
    entryNames: 'index',
    outExtension: { '.js': '.mjs' },
    // What is reached only through `import()` (the OpenAPI builder, the pictures, the SQS client's callers…)
    // goes into chunks beside index.mjs, parsed on first use instead of at every cold start. Beside, not in
    // a sub-folder: modules that find files through import.meta.url (the query compiler, the font) look there.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    sourcemap: 'external',
    banner: { js: BANNER },
  });
  await esbuild({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, 'functions', 'lambda-entry.ts')],
    outfile: join(outdir, LAMBDA_ENTRY),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const asset of fn.assets) {
    if (asset === 'static' || asset === 'native') {
      await ASSET_WRITERS[asset](outdir);
      continue;
    }
    const { from, filter, to } = ASSET_SOURCES[asset];
    const source = join(ROOT, from);
    if (!existsSync(source)) throw new Error(`build: ${fn.name} needs ${from}/ (for lexicons run \`npm run lexicons\` first)`);
    const files = readdirSync(source).filter(filter);
    if (asset === 'lexicons' && files.length === 0) throw new Error(`build: no .dawg files in ${from}/: run \`npm run lexicons\` first`);
    for (const f of files) cpSync(join(source, f), join(outdir, to ?? asset, f), { recursive: true });
  }
  const code = readFileSync(outfile);
  const chunks = readdirSync(outdir).filter((f) => f.startsWith('chunk-') && f.endsWith('.mjs'));
  const all = Buffer.concat([code, ...chunks.map((f) => readFileSync(join(outdir, f)))]);
  return {
    name: fn.name,
    entry: fn.entry,
    file: outfile,
    bytes: all.length,
    gzipBytes: gzipSync(all, { level: 9 }).length,
    entryBytes: code.length,
    coldBytes: coldStartBytes(result.metafile, outfile),
    chunks: chunks.length,
    assetBytes:
      fn.assets.reduce((n, a) => {
        const folder = join(outdir, a === 'native' ? 'node_modules' : a);
        return n + (existsSync(folder) ? folderBytes(folder) : 0);
      }, 0) + (wasmWritten.value ? statSync(join(outdir, QUERY_COMPILER_FILE)).size : 0),
    largestInputs: largestInputs(result.metafile, outfile),
    metafile: result.metafile,
  };
};

/** Bundles every function whose entry exists; returns what was built and which entries are missing. */
export const buildFunctions = async (
  bundles: readonly FunctionBundle[] = FUNCTION_BUNDLES,
  dist: string = DIST,
): Promise<{ built: BundleResult[]; missing: FunctionBundle[] }> => {
  const present = bundles.filter((b) => existsSync(join(ROOT, b.entry)));
  const missing = bundles.filter((b) => !present.includes(b));
  for (const b of missing) rmSync(join(dist, b.name), { recursive: true, force: true });
  const built: BundleResult[] = [];
  for (const b of present) built.push(await buildFunction(b, dist));
  writeFileSync(
    join(dist, 'manifest.json'),
    `${JSON.stringify({ functions: built.map(({ name, entry, bytes, gzipBytes }) => ({ name, entry, bytes, gzipBytes })) }, null, 2)}\n`,
  );
  return { built, missing };
};

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

/**
 * With ARBITER_COMPILE_CACHE_NODE=x.y.z (the Node of Lambda's nodejs22.x runtime, docs/deploying.md), the
 * bundles that take one get a compile cache made by that Node for linux-arm64, fetched from the npm
 * registry and run under qemu on an x64 machine. Without it they ship none (and lose nothing but the speed-up).
 */
const addCompileCaches = async (built: readonly BundleResult[], version: string): Promise<void> => {
  const binary = nodeCommand(fetchNode(version, 'arm64'), 'arm64');
  for (const b of built) {
    const fn = FUNCTION_BUNDLES.find((f) => f.name === b.name);
    if (!fn?.compileCache) continue;
    const node = [...binary, ...lambdaNodeFlags(fn.memoryMb ?? LAMBDA_DEFAULT_MEMORY_MB)];
    if (fn.compileCache === 'script') {
      await buildScriptBundle(fn, dirname(b.file));
      const cache = await buildCodeCache(dirname(b.file), node);
      console.log(`${b.name}: ${SCRIPT_BUNDLE} and its warm code cache ${cache.folder}, ${kib(cache.bytes)}`);
      continue;
    }
    const cache = buildCompileCache(dirname(b.file), node);
    console.log(`${b.name}: compile cache ${cache.folder}, ${cache.entries} modules, ${kib(cache.bytes)}`);
  }
};

async function main(): Promise<void> {
  const { built, missing } = await buildFunctions();
  const cacheNode = process.env['ARBITER_COMPILE_CACHE_NODE'];
  if (cacheNode) await addCompileCaches(built, cacheNode);
  const rows = built.map((b) => [b.name, relative(ROOT, b.file), kib(b.bytes), kib(b.gzipBytes), kib(b.assetBytes)]);
  const head = ['function', 'bundle', 'size', 'gzip', 'assets'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  console.log([line(head), ...rows.map(line)].join('\n'));
  for (const m of missing) console.log(`skipped ${m.name}: ${m.entry} does not exist yet`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
