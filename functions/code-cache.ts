/**
 * The warm code cache: the graphql function built as one CommonJS script (`index.cjs`, scripts/build.ts
 * `buildScriptBundle`) and a V8 code cache of it taken by `vm.Script#createCachedData()` after the script
 * has built the app and answered one request (scripts/code-cache.ts), so it holds the functions V8 compiled
 * lazily on the way (the Pothos schema build, Yoga's first request), which Node's module compile cache
 * (functions/compile-cache.ts) cannot: that one is written as each module is compiled, before any of it runs.
 *
 * It lies in the runtime's folder of `compile-cache/` (`<version>-<arch>-<tag>/index.cjs.cache`), found as
 * the module cache is. V8 takes it only from the same V8 version and flags and the same source; otherwise
 * `cachedDataRejected` is set and V8 has compiled the script afresh, so a rejected cache costs the full
 * compile, never an error.
 */
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants, Script } from 'node:vm';
import { COMPILE_CACHE_DIR, enableShippedCompileCache, shippedFolder, type CompileCacheOutcome } from './compile-cache.js';

/** The function as one script, beside index.mjs; shipped only with its cache. */
export const SCRIPT_BUNDLE = 'index.cjs';
/** The warm code cache's file in a runtime's folder of compile-cache/. */
export const CODE_CACHE_FILE = 'index.cjs.cache';

export interface ScriptBundle {
  /** What the script put on `module.exports`. */
  readonly exports: Record<string, unknown>;
  /** The compiled script, whose `createCachedData()` the build calls after the warm-up. */
  readonly script: Script;
  /** Given a cache, whether V8 refused it (and compiled the script afresh). */
  readonly rejected: boolean;
}

/**
 * The script's text. The build keeps it ASCII (scripts/build.ts `asciiRegexLiterals`), which reads as
 * Latin-1 in well under a millisecond where UTF-8 takes ~5–9 ms for its 2.7 MB (the same string either way).
 */
export const scriptSource = (bytes: Buffer): string => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));

/**
 * Compiles `<dir>/index.cjs` with `cachedData` (if any) and runs it as Node runs a CommonJS module, the
 * same way at build time (the warm-up) and in Lambda: V8 checks the source against the cache, wrapper included.
 * `import()` in the script (the external packages: the AWS SDK) goes to Node's own loader.
 */
export const runScriptBundle = (dir: string, cachedData?: Buffer): ScriptBundle => {
  const filename = join(dir, SCRIPT_BUNDLE);
  const source = scriptSource(readFileSync(filename));
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename,
    ...(cachedData ? { cachedData } : {}),
    // Resolved from index.cjs, as an import() in index.mjs would be (Node ≥ 20.12; "experimental", and says so once).
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dir);
  return { exports: module.exports, script, rejected: cachedData !== undefined && script.cachedDataRejected === true };
};

/** The warm code cache shipped for this runtime in `folder` (a folder of compile-cache/), if there is one. */
export const readCodeCache = (folder: string): Buffer | undefined => {
  try {
    return readFileSync(join(folder, CODE_CACHE_FILE));
  } catch {
    return undefined;
  }
};

/** How a bundle was loaded: the script with its warm code cache (taken or refused by V8), or index.mjs with Node's module cache, if any. */
export type BundleLoad =
  | { readonly kind: 'script'; readonly folder: string; readonly rejected: boolean }
  | { readonly kind: 'module'; readonly cache: CompileCacheOutcome };

export interface LoadOptions {
  /** How index.mjs is imported (default `import()`): tests count the imports. */
  readonly importModule?: (url: string) => Promise<Record<string, unknown>>;
  /** For enableShippedCompileCache (tests): the node:module API, the runtime, the scratch directory. */
  readonly compileCache?: Parameters<typeof enableShippedCompileCache>[1];
}

/**
 * Loads the function in `dir` (what `lambda.mjs` does, functions/lambda-entry.ts): index.cjs through its warm
 * code cache when one was shipped for this Node release and architecture; otherwise index.mjs, with Node's
 * module compile cache turned on first when that is what was shipped. Never throws for a cache: one that
 * does not fit is compiled around.
 */
export const loadFunctionBundle = async (
  dir: string,
  { importModule = (url) => import(url) as Promise<Record<string, unknown>>, compileCache = {} }: LoadOptions = {},
): Promise<{ readonly exports: Record<string, unknown>; readonly load: BundleLoad }> => {
  const shipped = join(dir, COMPILE_CACHE_DIR);
  const found = shippedFolder(shipped, compileCache.runtime);
  const cachedData = found.status === 'found' ? readCodeCache(found.path) : undefined;
  if (found.status === 'found' && cachedData && existsSync(join(dir, SCRIPT_BUNDLE))) {
    const bundle = runScriptBundle(dir, cachedData);
    return { exports: bundle.exports, load: { kind: 'script', folder: found.folder, rejected: bundle.rejected } };
  }
  const cache = enableShippedCompileCache(shipped, compileCache);
  return { exports: await importModule(pathToFileURL(join(dir, 'index.mjs')).href), load: { kind: 'module', cache } };
};

/** The log line a load is worth, if any: a cache shipped but not used means the full compile until the next build. */
export const loadWarning = (load: BundleLoad, version: string = process.version): string | undefined => {
  if (load.kind === 'script')
    return load.rejected
      ? `arbiter: code cache ${load.folder} rejected by V8 on ${version}: compiled afresh; rebuild it (docs/deploying.md)`
      : undefined;
  const { cache } = load;
  if (cache.status === 'other-node')
    return `arbiter: compile cache built for ${cache.shipped.join(', ')}, not ${version}: rebuild it (docs/deploying.md)`;
  if (cache.status === 'failed') return `arbiter: compile cache not enabled: ${cache.message}`;
  return undefined;
};
