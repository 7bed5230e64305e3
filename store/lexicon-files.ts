/**
 * The lexicon loader: reads the `.dawg` files (and the `.kwg` move-generation graphs) the engine decodes (it lives in store/ because the engine
 * does no I/O). It finds
 * `.dawg` files by lexicon name in the shipped directory and the user's directory, and caches
 * what it loads for the life of the process (a server loads each lexicon once per container).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RuleError } from '../engine/errors.js';
import { decodeDawgFile, peekDawgHeader } from '../engine/lexicon/dawg-file.js';
import { decodeKwg, type Kwg } from '../engine/lexicon/kwg.js';
import { parseKwgManifest, type KwgManifest } from '../engine/lexicon/kwg-manifest.js';
import { lexiconError } from '../engine/lexicon/codes.js';
import type { GraphLexicon } from '../engine/lexicon/graph.js';
import { SHIPPED_LEXICON_NAMES } from '../engine/lexicon/shipped.js';
import { normaliseLexiconName } from '../engine/lexicon/wordlist.js';
import { err, ok, type Result } from '../engine/result.js';

export const LEXICON_EXTENSION = '.dawg';
/** The move generator's graph (wolges/MAGPIE KWG) and the manifest that names its lexicon and tiles. */
export const KWG_EXTENSION = '.kwg';
export const KWG_MANIFEST_EXTENSION = '.kwg.json';

/** The project root, found from this file so it works from any working directory. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm run lexicons` writes the shipped lexicons. */
export const SHIPPED_LEXICON_DIR = join(PROJECT_ROOT, 'data', 'lexicons');

/** The user's lexicon directory: `$ARBITER_LEXICON_DIR`, else `~/.arbiter/lexicons`. */
export const userLexiconDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.ARBITER_LEXICON_DIR ? resolve(env.ARBITER_LEXICON_DIR) : join(homedir(), '.arbiter', 'lexicons');

export type LexiconOrigin = 'shipped' | 'user';
export interface LexiconDir {
  readonly path: string;
  readonly origin: LexiconOrigin;
}

/** Search order: shipped first, so a user file can never change what `SOWPODS` means. */
export const lexiconDirs = (env: NodeJS.ProcessEnv = process.env): LexiconDir[] => [
  { path: SHIPPED_LEXICON_DIR, origin: 'shipped' },
  { path: userLexiconDir(env), origin: 'user' },
];

const cache = new Map<string, { mtimeMs: number; size: number; lexicon: GraphLexicon }>();

/** Forgets every loaded lexicon (tests; a long-lived process after recompiling). */
export const clearLexiconCache = (): void => cache.clear();

const ioError = (path: string, e: unknown): RuleError => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? lexiconError('LEXICON_NOT_FOUND', `No lexicon file at ${path}.`, { path })
    : lexiconError('LEXICON_UNREADABLE', `Cannot read the lexicon file ${path}: ${(e as Error).message}.`, { path, errno: code });
};

/** Loads one `.dawg` file, from the cache when the file has not changed since it was loaded. */
export const loadLexiconFile = (path: string): Result<GraphLexicon, RuleError> => {
  const abs = resolve(path);
  let stat;
  try {
    stat = statSync(abs);
  } catch (e) {
    return err(ioError(abs, e));
  }
  const hit = cache.get(abs);
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return ok(hit.lexicon);
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (e) {
    return err(ioError(abs, e));
  }
  const lexicon = decodeDawgFile(bytes);
  if (!lexicon.ok) return err({ ...lexicon.error, details: { ...lexicon.error.details, path: abs } });
  cache.set(abs, { mtimeMs: stat.mtimeMs, size: stat.size, lexicon: lexicon.value });
  return lexicon;
};

/** One lexicon file found by {@link listLexicons}. */
export interface LexiconListing {
  readonly name: string;
  readonly hash: string;
  readonly wordCount: number;
  readonly path: string;
  readonly bytes: number;
  readonly origin: LexiconOrigin;
}

/**
 * Every valid lexicon in the search directories, shipped first, each name once (the first
 * directory wins). Files that do not decode are left out; loading them by name reports why.
 */
export const listLexicons = (dirs: readonly LexiconDir[] = lexiconDirs()): LexiconListing[] => {
  const out: LexiconListing[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    let files: string[];
    try {
      files = readdirSync(dir.path)
        .filter((f) => f.endsWith(LEXICON_EXTENSION))
        .sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const path = join(dir.path, f);
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        continue;
      }
      const header = peekDawgHeader(bytes);
      if (!header.ok || `${header.value.name}${LEXICON_EXTENSION}` !== f || seen.has(header.value.name)) continue;
      seen.add(header.value.name);
      const { name, hash, wordCount } = header.value;
      out.push({ name, hash, wordCount, path, bytes: bytes.length, origin: dir.origin });
    }
  }
  return out;
};

/** Where the lexicon called `name` lives (case-insensitive), searching `dirs` in order. */
export const findLexicon = (rawName: string, dirs: readonly LexiconDir[] = lexiconDirs()): Result<string, RuleError> => {
  const name = normaliseLexiconName(rawName);
  if (!name.ok) return name;
  for (const dir of dirs) {
    const path = join(dir.path, `${name.value}${LEXICON_EXTENSION}`);
    try {
      if (statSync(path).isFile()) return ok(path);
    } catch {
      // not in this directory
    }
  }
  const hint = SHIPPED_LEXICON_NAMES.includes(name.value)
    ? ' It ships with Arbiter: run `npm run lexicons` to build it.'
    : ' Compile a word list with `arbiter lexicon compile WORDS.txt`.';
  return err(
    lexiconError('LEXICON_NOT_FOUND', `No lexicon named ${name.value} in ${dirs.map((d) => d.path).join(' or ')}.${hint}`, {
      name: name.value,
      dirs: dirs.map((d) => d.path),
    }),
  );
};

/**
 * Loads a lexicon by name (cached per process). The file's header must carry the same name, so
 * a renamed file cannot pass itself off as another lexicon.
 */
export const loadLexicon = (rawName: string, dirs: readonly LexiconDir[] = lexiconDirs()): Result<GraphLexicon, RuleError> => {
  const path = findLexicon(rawName, dirs);
  if (!path.ok) return path;
  const lexicon = loadLexiconFile(path.value);
  if (!lexicon.ok) return lexicon;
  const expected = `${lexicon.value.name}${LEXICON_EXTENSION}`;
  if (basename(path.value) !== expected) {
    return err(
      lexiconError(
        'LEXICON_BAD_HEADER',
        `The file ${path.value} holds the lexicon ${lexicon.value.name}, not the one its file name says.`,
        {
          path: path.value,
          name: lexicon.value.name,
        },
      ),
    );
  }
  return lexicon;
};

/**
 * Loads the exact list a stored game was judged with: the lexicon named `name` whose content hash
 * is `hash`. A same-named lexicon with other words (a newer edition, a user's recompile) is
 * `LEXICON_HASH_MISMATCH`, never silently used instead.
 */
export const loadLexiconMatching = (
  identity: { readonly name: string; readonly hash: string },
  dirs: readonly LexiconDir[] = lexiconDirs(),
): Result<GraphLexicon, RuleError> => {
  const lexicon = loadLexicon(identity.name, dirs);
  if (!lexicon.ok || lexicon.value.hash === identity.hash) return lexicon;
  return err(
    lexiconError(
      'LEXICON_HASH_MISMATCH',
      `The lexicon ${lexicon.value.name} here has hash ${lexicon.value.hash}, not ${identity.hash}: it is a different word list.`,
      { name: lexicon.value.name, expected: identity.hash, found: lexicon.value.hash },
    ),
  );
};

/** A move-generation graph with the manifest that says which lexicon and tiles it holds. */
export interface LoadedKwg {
  readonly kwg: Kwg;
  readonly manifest: KwgManifest;
  readonly path: string;
}

const kwgCache = new Map<string, { mtimeMs: number; size: number; loaded: LoadedKwg }>();

/** Loads `PATH.kwg` and its `PATH.kwg.json` manifest (cached per process until the file changes). */
export const loadKwgFile = (path: string): Result<LoadedKwg, RuleError> => {
  const abs = resolve(path);
  let stat;
  let bytes: Buffer;
  let manifestText: string;
  try {
    stat = statSync(abs);
    const hit = kwgCache.get(abs);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return ok(hit.loaded);
    bytes = readFileSync(abs);
    manifestText = readFileSync(`${abs.slice(0, -KWG_EXTENSION.length)}${KWG_MANIFEST_EXTENSION}`, 'utf8');
  } catch (e) {
    return err(ioError(abs, e));
  }
  const manifest = parseKwgManifest(manifestText);
  if (!manifest.ok) return err({ ...manifest.error, details: { ...manifest.error.details, path: abs } });
  const kwg = decodeKwg(bytes, manifest.value.alphabet, { sha256: manifest.value.sha256 });
  if (!kwg.ok) return err({ ...kwg.error, details: { ...kwg.error.details, path: abs } });
  const loaded = { kwg: kwg.value, manifest: manifest.value, path: abs };
  kwgCache.set(abs, { mtimeMs: stat.mtimeMs, size: stat.size, loaded });
  return ok(loaded);
};

/**
 * The move-generation graph of the lexicon `name` whose content hash is `hash` (when given): found
 * beside its `.dawg` in the same directories, in the same order.
 */
export const loadKwg = (
  identity: { readonly name: string; readonly hash?: string },
  dirs: readonly LexiconDir[] = lexiconDirs(),
): Result<LoadedKwg, RuleError> => {
  const name = normaliseLexiconName(identity.name);
  if (!name.ok) return name;
  for (const dir of dirs) {
    const path = join(dir.path, `${name.value}${KWG_EXTENSION}`);
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    const loaded = loadKwgFile(path);
    if (!loaded.ok) return loaded;
    const m = loaded.value.manifest;
    if (m.name !== name.value || (identity.hash !== undefined && m.hash !== identity.hash)) {
      return err(
        lexiconError('LEXICON_HASH_MISMATCH', `The KWG ${path} holds ${m.name} ${m.hash}, not the lexicon asked for.`, {
          path,
          name: m.name,
          found: m.hash,
          expected: identity.hash ?? null,
        }),
      );
    }
    return loaded;
  }
  return err(
    lexiconError(
      'LEXICON_NOT_FOUND',
      `No move-generation graph (${name.value}${KWG_EXTENSION}) in ${dirs.map((d) => d.path).join(' or ')}: run \`npm run lexicons\`.`,
      {
        name: name.value,
      },
    ),
  );
};
