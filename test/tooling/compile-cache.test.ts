/**
 * scripts/compile-cache.ts: the entries Node 22 writes for a bundle in dist/ are filed under the names Node
 * will look for when the bundle runs from /var/task, in a folder named for the Node that made them; the warm
 * code cache is taken after one answered request, and Lambda's loader (functions/code-cache.ts) accepts it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CODE_CACHE_FILE, loadFunctionBundle, SCRIPT_BUNDLE } from '../../functions/code-cache.js';
import { COMPILE_CACHE_DIR, shippedFolderName, thisRuntime } from '../../functions/compile-cache.js';
import { buildCodeCache, bundleModules, compileCacheKey, fileCompileCache, LAMBDA_TASK_ROOT } from '../../scripts/compile-cache.js';

describe('the compile cache build', () => {
  let root: string;
  let bundle: string;
  let raw: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'arbiter-cc-build-'));
    bundle = join(root, 'dist', 'graphql');
    raw = join(root, 'raw');
    mkdirSync(bundle, { recursive: true });
    for (const f of ['index.mjs', 'chunk-B.mjs', 'chunk-A.mjs', 'lambda.mjs']) writeFileSync(join(bundle, f), `// ${f}\n`);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test("an entry's name is Node 22's: CRC-32 of the ES module type and the module's URL", () => {
    // What Node 22.23.3 named the entry of /tmp/cc-a.mjs (NODE_DEBUG_NATIVE=COMPILE_CACHE).
    expect(compileCacheKey('file:///tmp/cc-a.mjs')).toBe('d0fc4578');
  });

  test('the modules are index.mjs, then the chunks; not the Lambda entry, which runs before the cache is on', () => {
    expect(bundleModules(bundle)).toEqual(['index.mjs', 'chunk-A.mjs', 'chunk-B.mjs']);
  });

  test('entries are renamed for /var/task, readable by all, in a folder without the build’s uid', () => {
    const made = join(raw, 'v22.23.3-arm64-91f95280-0');
    mkdirSync(made, { recursive: true });
    for (const f of ['index.mjs', 'chunk-A.mjs'])
      writeFileSync(join(made, compileCacheKey(pathToFileURL(join(bundle, f)).href)), `cache of ${f}`, { mode: 0o600 });
    writeFileSync(join(made, 'ffffffff'), 'some other module');
    const built = fileCompileCache(raw, bundle, LAMBDA_TASK_ROOT);
    expect(built).toEqual({
      folder: 'v22.23.3-arm64-91f95280',
      entries: 2,
      bytes: 'cache of index.mjs'.length + 'cache of chunk-A.mjs'.length,
    });
    const out = join(bundle, COMPILE_CACHE_DIR, built.folder);
    expect(readdirSync(out).sort()).toEqual(
      [compileCacheKey('file:///var/task/index.mjs'), compileCacheKey('file:///var/task/chunk-A.mjs')].sort(),
    );
    expect(readFileSync(join(out, compileCacheKey('file:///var/task/index.mjs')), 'utf8')).toBe('cache of index.mjs');
    expect(statSync(join(out, compileCacheKey('file:///var/task/index.mjs'))).mode & 0o777).toBe(0o644);
  });

  test('a layout Node did not write before, or no entry for the bundle, fails the build', () => {
    mkdirSync(join(raw, 'v22.23.3-arm64-91f95280-0'), { recursive: true });
    expect(() => fileCompileCache(raw, bundle, LAMBDA_TASK_ROOT)).toThrow(/no entry/);
    mkdirSync(join(raw, 'another'));
    expect(() => fileCompileCache(raw, bundle, LAMBDA_TASK_ROOT)).toThrow(/expected one folder/);
  });
});

describe('the warm code cache build', () => {
  let bundle: string;
  beforeEach(() => {
    bundle = mkdtempSync(join(tmpdir(), 'arbiter-code-cache-build-'));
    mkdirSync(join(bundle, COMPILE_CACHE_DIR, 'v22.0.0-arm64-00000000'), { recursive: true });
  });
  afterEach(() => rmSync(bundle, { recursive: true, force: true }));

  /** A function as one script that answers `{ __typename }` as the API does, or fails it. */
  const script = (status: number) =>
    writeFileSync(
      join(bundle, SCRIPT_BUNDLE),
      `const answer = (event) => ({ statusCode: ${status}, body: JSON.stringify({ data: { __typename: JSON.parse(event.body).query.includes('__typename') ? 'Query' : null } }) });\nexports.handler = async (event) => answer(event);\n`,
    );

  test('after one request answered, the cache is filed for the Node that made it (alone), and the loader takes it', async () => {
    script(200);
    const built = await buildCodeCache(bundle, [process.execPath]);
    expect(built.folder).toBe(shippedFolderName(thisRuntime()));
    expect(readdirSync(join(bundle, COMPILE_CACHE_DIR))).toEqual([built.folder]);
    const file = join(bundle, COMPILE_CACHE_DIR, built.folder, CODE_CACHE_FILE);
    expect(statSync(file).size).toBe(built.bytes);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    const { load } = await loadFunctionBundle(bundle, { importModule: () => Promise.reject(new Error('index.mjs imported')) });
    expect(load).toEqual({ kind: 'script', folder: built.folder, rejected: false });
  }, 30_000);

  test('a warm-up whose request fails fails the build', async () => {
    script(500);
    await expect(buildCodeCache(bundle, [process.execPath])).rejects.toThrow(/warm-up answered/);
  }, 30_000);
});
