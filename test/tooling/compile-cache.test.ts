/**
 * scripts/compile-cache.ts: the entries Node 22 writes for a bundle in dist/ are filed under the names Node
 * will look for when the bundle runs from /var/task, in a folder named for the Node that made them.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { COMPILE_CACHE_DIR } from '../../functions/compile-cache.js';
import { bundleModules, compileCacheKey, fileCompileCache, LAMBDA_TASK_ROOT } from '../../scripts/compile-cache.js';

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
