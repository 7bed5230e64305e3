import type { RuleError } from '../engine/errors.js';
import { decodeKwg, kwgDigest } from '../engine/lexicon/kwg.js';
import { KWG_MANIFEST_FORMAT, type KwgManifest } from '../engine/lexicon/kwg-manifest.js';
import { normaliseLexiconName } from '../engine/lexicon/wordlist.js';
import { err, ok, type Result } from '../engine/result.js';
import { DISTRIBUTIONS } from '../engine/tiles.js';
import { loadKwg, type LoadedKwg } from '../store/lexicon-files.js';
import { findLexiconUploadKwg } from '../store/lexicon-uploads.js';
import type { ServiceDeps } from './context.js';

/**
 * The move-generation graph of a lexicon for robots and analysis: the server's own lists' `.kwg` files
 * (store/lexicon-files.ts), else an uploaded list's KWG kept in `lexicon_uploads` (issue 21), decoded
 * once per process and kept: an edition (name + content hash) never changes.
 */

const uploaded = new Map<string, LoadedKwg>();
const key = (name: string, hash: string): string => `${name}\n${hash}`;

/** Keeps an upload's graph in this process (the upload itself calls this: no second read). */
export const rememberUploadKwg = (loaded: LoadedKwg): void => {
  uploaded.set(key(loaded.manifest.name, loaded.manifest.hash), loaded);
};

/** The manifest a file would carry, rebuilt from the row: the alphabet is the tile set's letters in tile order. */
export const uploadKwgManifest = (
  name: string,
  row: { contentHash: string; distribution: string; wordCount: number; unspellable: number },
  bytes: Uint8Array,
  alphabet: readonly string[],
): KwgManifest => ({
  format: KWG_MANIFEST_FORMAT,
  name,
  hash: row.contentHash,
  wordCount: row.wordCount,
  distribution: row.distribution,
  alphabet,
  unspellable: row.unspellable,
  nodes: bytes.length / 4,
  sha256: kwgDigest(bytes),
});

const fromDatabase = async (deps: ServiceDeps, name: string, hash: string | null): Promise<LoadedKwg | null> => {
  const cached = hash === null ? undefined : uploaded.get(key(name, hash));
  if (cached) return cached;
  const row = await findLexiconUploadKwg(deps.db.prisma, name, hash);
  const distribution = row && DISTRIBUTIONS[row.distribution];
  if (!row?.kwg || !distribution) return null;
  const hit = uploaded.get(key(name, row.contentHash));
  if (hit) return hit;
  const alphabet = distribution.letters.map((l) => l.letter);
  const kwg = decodeKwg(row.kwg, alphabet);
  if (!kwg.ok) return null;
  const loaded: LoadedKwg = { kwg: kwg.value, manifest: uploadKwgManifest(name, row, row.kwg, alphabet), path: `lexicon_uploads:${name}` };
  rememberUploadKwg(loaded);
  return loaded;
};

/**
 * The graph of `identity` (the newest uploaded edition when no hash is given): a file first, then an
 * upload of that name; the file's error (LEXICON_NOT_FOUND …) when neither has it.
 */
export async function lexiconKwg(
  deps: ServiceDeps,
  identity: { readonly name: string; readonly hash?: string },
): Promise<Result<LoadedKwg, RuleError>> {
  const file = loadKwg(identity);
  if (file.ok) return file;
  const name = normaliseLexiconName(identity.name);
  if (!name.ok || deps.lexicons.isBuiltIn(name.value)) return file;
  const fromDb = await fromDatabase(deps, name.value, identity.hash ?? null);
  return fromDb ? ok(fromDb) : err(file.error);
}

/** Forgets every upload's graph (tests: the next lookup reads the database, as a fresh process would). */
export const clearUploadKwgCache = (): void => uploaded.clear();
