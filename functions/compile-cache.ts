/**
 * Node's module compile cache (V8 code cache on disk, `module.enableCompileCache`, Node ≥ 22.1), built
 * ahead and shipped with a Lambda bundle in `compile-cache/` (scripts/compile-cache.ts): a container's
 * first import then deserializes the bundle's compiled code instead of parsing and compiling ~1.5 MB.
 *
 * Node keeps a cache in `<dir>/<version>-<arch>-<V8 cache tag>-<uid>/` and V8 takes an entry only from
 * the same Node release (another 22.x patch is rejected), so the build names the shipped folder
 * `<version>-<arch>-<tag>` for the Node it was made with. Here the folder for this process's
 * `<version>-<arch>` is linked under a scratch directory with the name Node looks for: the uid is only
 * known at run time, and the V8 tag also hashes the CPU features V8 found, which the build (under qemu)
 * cannot promise to share with Lambda's hardware; V8 checks its own version and flags in each entry and
 * compiles afresh when they differ. /var/task is read-only, so the link goes to /tmp; misses are never
 * written back (Node writes at exit, which a Lambda container does not reach, and the folder is read-only).
 *
 * Harmless wherever it does not apply: on Node 20 (no API), without a shipped cache, or with one built for
 * another Node, nothing is enabled and the outcome says why.
 */
import { mkdirSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';

/** The folder beside a bundle's index.mjs that holds its compile cache. */
export const COMPILE_CACHE_DIR = 'compile-cache';

export type CompileCacheOutcome =
  | { readonly status: 'unsupported' }
  | { readonly status: 'none' }
  | { readonly status: 'other-node'; readonly shipped: readonly string[] }
  | { readonly status: 'enabled'; readonly folder: string }
  /** NODE_DISABLE_COMPILE_CACHE is set (the bench's runs without the cache). */
  | { readonly status: 'disabled' }
  | { readonly status: 'failed'; readonly message: string };

/** The slice of node:module used here (Node 22's; absent on Node 20). */
export interface CompileCacheApi {
  readonly enableCompileCache?: (dir: string) => { readonly status: number; readonly message?: string };
  readonly constants?: { readonly compileCacheStatus?: Readonly<Record<string, number>> };
}

export interface RuntimeIdentity {
  /** `process.version`, e.g. v22.23.3. */
  readonly version: string;
  readonly arch: string;
  /** V8's cache tag as Node writes it (8 hex digits). */
  readonly tag: string;
  readonly uid: number | undefined;
}

export const thisRuntime = (): RuntimeIdentity => ({
  version: process.version,
  arch: process.arch,
  tag: cachedDataVersionTag().toString(16).padStart(8, '0'),
  uid: process.getuid?.(),
});

/** The shipped folder's name for a runtime: what Node names its own, without the uid. */
export const shippedFolderName = (r: Pick<RuntimeIdentity, 'version' | 'arch' | 'tag'>): string => `${r.version}-${r.arch}-${r.tag}`;

export type ShippedFolder =
  | { readonly status: 'none' }
  | { readonly status: 'other-node'; readonly shipped: readonly string[] }
  | { readonly status: 'found'; readonly folder: string; readonly path: string };

/** The folder of `shipped` (a compile-cache/ folder) built for this runtime's Node release and architecture. */
export const shippedFolder = (shipped: string, runtime: RuntimeIdentity = thisRuntime()): ShippedFolder => {
  let folders: string[];
  try {
    folders = readdirSync(shipped);
  } catch {
    return { status: 'none' };
  }
  const folder = folders.find((f) => f.startsWith(`${runtime.version}-${runtime.arch}-`));
  if (!folder) return folders.length ? { status: 'other-node', shipped: folders } : { status: 'none' };
  return { status: 'found', folder, path: join(shipped, folder) };
};

/** Turns on the compile cache in `shipped` for this process if one was built for its Node; never throws. */
export const enableShippedCompileCache = (
  shipped: string,
  { api = nodeModule as CompileCacheApi, runtime = thisRuntime(), scratch = join(tmpdir(), 'arbiter-compile-cache') } = {},
): CompileCacheOutcome => {
  if (typeof api.enableCompileCache !== 'function') return { status: 'unsupported' };
  const found = shippedFolder(shipped, runtime);
  if (found.status !== 'found') return found;
  const { folder, path: target } = found;
  try {
    // One scratch directory per shipped cache, so two bundles on one machine (the bench) keep apart.
    const dir = join(scratch, shipped.replace(/[^\w.-]+/g, '_'));
    const link = join(dir, `${shippedFolderName(runtime)}${runtime.uid === undefined ? '' : `-${runtime.uid}`}`);
    mkdirSync(dir, { recursive: true });
    let current: string | undefined;
    try {
      current = readlinkSync(link);
    } catch {
      current = undefined;
    }
    if (current !== target) {
      rmSync(link, { recursive: true, force: true });
      symlinkSync(target, link);
    }
    const result = api.enableCompileCache(dir);
    const statuses = api.constants?.compileCacheStatus;
    if (result.status === statuses?.['ENABLED']) return { status: 'enabled', folder };
    if (result.status === statuses?.['DISABLED']) return { status: 'disabled' };
    return { status: 'failed', message: result.message ?? `enableCompileCache returned status ${result.status}` };
  } catch (e) {
    return { status: 'failed', message: e instanceof Error ? e.message : String(e) };
  }
};
