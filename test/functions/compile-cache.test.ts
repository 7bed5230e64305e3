/**
 * functions/compile-cache.ts: the shipped compile cache is turned on only for the Node it was built for,
 * through a link named as Node names its own folder, and is a no-op where it does not apply (Node 20).
 */
import { mkdirSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { enableShippedCompileCache, type CompileCacheApi, type RuntimeIdentity } from '../../functions/compile-cache.js';

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
