/**
 * functions/compile-cache.ts: the shipped compile cache is turned on only for the Node it was built for,
 * through a link named as Node names its own folder, and is a no-op where it does not apply (Node 20).
 * functions/code-cache.ts: Lambda's entry loads index.cjs through a warm code cache shipped for this Node
 * (V8 takes it, or refuses it and compiles afresh), and index.mjs as before when none was shipped.
 */
import { mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CODE_CACHE_FILE, loadFunctionBundle, loadWarning, runScriptBundle, SCRIPT_BUNDLE } from '../../functions/code-cache.js';
import {
  COMPILE_CACHE_DIR,
  enableShippedCompileCache,
  shippedFolderName,
  thisRuntime,
  type CompileCacheApi,
  type RuntimeIdentity,
} from '../../functions/compile-cache.js';

const STATUS = { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 };
const RUNTIME: RuntimeIdentity = { version: 'v22.23.3', arch: 'arm64', tag: '91f95280', uid: 993 };

/** A stand-in for Node 22's node:module: records the directories it was asked to use. */
const fakeApi = (status = STATUS.ENABLED, message?: string) => {
  const calls: string[] = [];
  const api: CompileCacheApi = {
    enableCompileCache: (dir) => {
      calls.push(dir);
      return { status, ...(message ? { message } : {}) };
    },
    constants: { compileCacheStatus: STATUS },
  };
  return { api, calls };
};

describe('enableShippedCompileCache', () => {
  let root: string;
  let shipped: string;
  let scratch: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'arbiter-cc-test-'));
    shipped = join(root, 'task', 'compile-cache');
    scratch = join(root, 'tmp');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('on a Node without module.enableCompileCache (Node 20) it does nothing', () => {
    mkdirSync(join(shipped, 'v20.20.2-x64-00000000'), { recursive: true });
    expect(enableShippedCompileCache(shipped, { api: {}, runtime: RUNTIME, scratch })).toEqual({ status: 'unsupported' });
    // The real node:module of the Node running this test: never enabled for a cache made for another Node.
    const real = enableShippedCompileCache(shipped, { scratch });
    expect(real.status).toBe(typeof (nodeModule as CompileCacheApi).enableCompileCache === 'function' ? 'other-node' : 'unsupported');
  });

  test('without a shipped cache, or with one for another Node, it enables nothing and says which Node it was for', () => {
    const { api, calls } = fakeApi();
    expect(enableShippedCompileCache(shipped, { api, runtime: RUNTIME, scratch })).toEqual({ status: 'none' });
    mkdirSync(join(shipped, 'v22.22.0-arm64-91f95280'), { recursive: true });
    mkdirSync(join(shipped, 'v22.23.3-x64-9de703df'), { recursive: true });
    expect(enableShippedCompileCache(shipped, { api, runtime: RUNTIME, scratch })).toEqual({
      status: 'other-node',
      shipped: ['v22.22.0-arm64-91f95280', 'v22.23.3-x64-9de703df'],
    });
    expect(calls).toEqual([]);
  });

  test('the folder for this Node is linked under the name Node looks for (its own V8 tag and uid), and enabled there', () => {
    // Built under qemu, whose CPU features (in the tag) may not be Lambda's: matched on version and architecture only.
    mkdirSync(join(shipped, 'v22.23.3-arm64-2b4477fa'), { recursive: true });
    const { api, calls } = fakeApi();
    expect(enableShippedCompileCache(shipped, { api, runtime: RUNTIME, scratch })).toEqual({
      status: 'enabled',
      folder: 'v22.23.3-arm64-2b4477fa',
    });
    expect(calls).toHaveLength(1);
    expect(readlinkSync(join(calls[0]!, 'v22.23.3-arm64-91f95280-993'))).toBe(join(shipped, 'v22.23.3-arm64-2b4477fa'));
    // A second process (the bench) finds the link in place.
    expect(enableShippedCompileCache(shipped, { api, runtime: RUNTIME, scratch }).status).toBe('enabled');
    expect(calls[1]).toBe(calls[0]);
  });

  test("Node's refusals come back as outcomes, not exceptions", () => {
    mkdirSync(join(shipped, 'v22.23.3-arm64-91f95280'), { recursive: true });
    expect(enableShippedCompileCache(shipped, { api: fakeApi(STATUS.DISABLED).api, runtime: RUNTIME, scratch })).toEqual({
      status: 'disabled',
    });
    expect(
      enableShippedCompileCache(shipped, { api: fakeApi(STATUS.FAILED, 'Cannot create cache directory').api, runtime: RUNTIME, scratch }),
    ).toEqual({ status: 'failed', message: 'Cannot create cache directory' });
    const throwing: CompileCacheApi = {
      enableCompileCache: () => {
        throw new TypeError('cacheDir should be a string');
      },
    };
    expect(enableShippedCompileCache(shipped, { api: throwing, runtime: RUNTIME, scratch })).toEqual({
      status: 'failed',
      message: 'cacheDir should be a string',
    });
  });
});

describe('loadFunctionBundle (lambda.mjs)', () => {
  let dir: string;
  let imported: string[];
  const importModule = async (url: string) => {
    imported.push(url);
    return { handler: async () => 'index.mjs' };
  };
  /** The folder of compile-cache/ a build by the Node running this test would ship. */
  const cacheFile = (runtime = thisRuntime()) => {
    const folder = join(dir, COMPILE_CACHE_DIR, shippedFolderName(runtime));
    mkdirSync(folder, { recursive: true });
    return join(folder, CODE_CACHE_FILE);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'arbiter-code-cache-test-'));
    imported = [];
    // What esbuild makes of a function: a CommonJS script that reads its own URL and imports an external package on demand.
    writeFileSync(
      join(dir, SCRIPT_BUNDLE),
      `const warm = () => 'index.cjs';\nexports.handler = async () => warm();\nexports.file = __filename;\nexports.external = () => import('node:path').then((m) => typeof m.join);\n`,
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('with no cache shipped, index.mjs is imported as before (index.cjs, if there, is left alone)', async () => {
    const { exports, load } = await loadFunctionBundle(dir, { importModule });
    expect(load).toEqual({
      kind: 'module',
      cache: { status: typeof (nodeModule as CompileCacheApi).enableCompileCache === 'function' ? 'none' : 'unsupported' },
    });
    expect(imported).toEqual([`file://${join(dir, 'index.mjs')}`]);
    expect(await (exports['handler'] as () => Promise<string>)()).toBe('index.mjs');
    expect(loadWarning(load)).toBeUndefined();
  });

  test('a warm code cache for this Node is taken by V8, and the script runs from it', async () => {
    const warmed = runScriptBundle(dir);
    await (warmed.exports['handler'] as () => Promise<string>)();
    writeFileSync(cacheFile(), warmed.script.createCachedData());
    const { exports, load } = await loadFunctionBundle(dir, { importModule });
    expect(load).toEqual({ kind: 'script', folder: shippedFolderName(thisRuntime()), rejected: false });
    expect(imported).toEqual([]);
    expect(await (exports['handler'] as () => Promise<string>)()).toBe('index.cjs');
    expect(exports['file']).toBe(join(dir, SCRIPT_BUNDLE));
    // import() of an external package goes to Node's loader.
    expect(await (exports['external'] as () => Promise<string>)()).toBe('function');
    expect(loadWarning(load)).toBeUndefined();
  });

  test('a cache V8 refuses (another V8, other flags, another source) is compiled around, with a log line', async () => {
    writeFileSync(cacheFile(), Buffer.from('not a V8 code cache, or one for another build'));
    const { exports, load } = await loadFunctionBundle(dir, { importModule });
    expect(load).toMatchObject({ kind: 'script', rejected: true });
    expect(await (exports['handler'] as () => Promise<string>)()).toBe('index.cjs');
    expect(loadWarning(load, 'v22.23.3')).toMatch(/^arbiter: code cache v.* rejected by V8 on v22\.23\.3: compiled afresh; rebuild it/);
  });

  test('a cache for another Node release leaves index.cjs alone: index.mjs is imported, with a log line', async () => {
    writeFileSync(cacheFile({ ...thisRuntime(), version: 'v0.0.1' }), 'a cache for v0.0.1');
    const { api } = fakeApi();
    const { exports, load } = await loadFunctionBundle(dir, { importModule, compileCache: { api, scratch: join(dir, 'tmp') } });
    expect(load).toEqual({
      kind: 'module',
      cache: { status: 'other-node', shipped: [shippedFolderName({ ...thisRuntime(), version: 'v0.0.1' })] },
    });
    expect(await (exports['handler'] as () => Promise<string>)()).toBe('index.mjs');
    expect(loadWarning(load, 'v22.23.3')).toMatch(/^arbiter: compile cache built for v0\.0\.1-.*, not v22\.23\.3: rebuild it/);
  });
});
