/**
 * `npm run lexicons`: compiles the shipped word lists from node_modules into data/lexicons/: the
 * referee's `NAME.dawg` (Arbiter DAWG v1) and the move generator's `NAME.kwg` (the wolges/MAGPIE
 * KWG: DAWG + GADDAG over the English tiles) with its `NAME.kwg.json` manifest. A file is rebuilt
 * only when it is missing, older than its source, or of another format version, so `npm test` pays
 * for it once (the KWG takes ~10 s per list). `--force` rebuilds everything.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DAWG_FORMAT_VERSION, peekDawgHeader } from '../engine/lexicon/dawg-file.js';
import { compileKwg, compileWordList } from '../engine/lexicon/compile.js';
import { formatKwgManifest, parseKwgManifest } from '../engine/lexicon/kwg-manifest.js';
import { normaliseWordList } from '../engine/lexicon/wordlist.js';
import { ENGLISH, type Distribution } from '../engine/tiles.js';
import { KWG_EXTENSION, KWG_MANIFEST_EXTENSION, LEXICON_EXTENSION, PROJECT_ROOT, SHIPPED_LEXICON_DIR } from '../store/lexicon-files.js';
import { SHIPPED_LEXICONS } from '../engine/lexicon/shipped.js';

export interface BuiltLexicon {
  readonly name: string;
  readonly path: string;
  readonly status: 'built' | 'up to date';
  readonly wordCount: number;
  readonly hash: string;
  readonly bytes: number;
  readonly ms: number;
}

export const shippedSourcePath = (pkg: string, file: string): string => join(PROJECT_ROOT, 'node_modules', pkg, file);

const upToDate = (out: string, source: string, name: string): { wordCount: number; hash: string; bytes: number } | undefined => {
  try {
    if (statSync(out).mtimeMs < statSync(source).mtimeMs) return undefined;
    const bytes = readFileSync(out);
    const header = peekDawgHeader(bytes);
    if (!header.ok || header.value.version !== DAWG_FORMAT_VERSION || header.value.name !== name) return undefined;
    return { wordCount: header.value.wordCount, hash: header.value.hash, bytes: bytes.length };
  } catch {
    return undefined;
  }
};

/**
 * Makes sure every shipped lexicon is built; tests call this too so they never depend on the npm
 * script having run. Throws when a source list is missing (node_modules not installed) or does not
 * compile: both are broken installs, not user errors.
 */
export const ensureShippedLexicons = (opts: { force?: boolean; outDir?: string } = {}): BuiltLexicon[] => {
  const outDir = opts.outDir ?? SHIPPED_LEXICON_DIR;
  mkdirSync(outDir, { recursive: true });
  return SHIPPED_LEXICONS.map(({ name, package: pkg, file }) => {
    const t0 = performance.now();
    const source = shippedSourcePath(pkg, file);
    const out = join(outDir, `${name}${LEXICON_EXTENSION}`);
    const current = opts.force ? undefined : upToDate(out, source, name);
    if (current) return { name, path: out, status: 'up to date', ...current, ms: performance.now() - t0 };
    const compiled = compileWordList(name, readFileSync(source, 'utf8'));
    if (!compiled.ok) throw new Error(`${source}: ${compiled.error.message}`);
    writeAtomically(out, compiled.value.bytes);
    const { wordCount, hash } = compiled.value.lexicon;
    return { name, path: out, status: 'built', wordCount, hash, bytes: compiled.value.bytes.length, ms: performance.now() - t0 };
  });
};

/** Write then rename, so parallel test workers never read a half-written file. */
const writeAtomically = (path: string, data: Uint8Array | string): void => {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
};

/** The KWG of a shipped lexicon is current when its manifest names the same list and it is newer than the source. */
const kwgUpToDate = (kwgPath: string, source: string, hash: string, dist: Distribution): boolean => {
  try {
    if (statSync(kwgPath).mtimeMs < statSync(source).mtimeMs) return false;
    const m = parseKwgManifest(readFileSync(`${kwgPath.slice(0, -KWG_EXTENSION.length)}${KWG_MANIFEST_EXTENSION}`, 'utf8'));
    return (
      m.ok &&
      m.value.hash === hash &&
      m.value.distribution === dist.name &&
      m.value.sha256 !== undefined &&
      m.value.nodes * 4 === statSync(kwgPath).size
    );
  } catch {
    return false;
  }
};

/**
 * Makes sure every shipped lexicon has its move-generation KWG (over the English tiles, which the
 * English super distribution shares), building the `.dawg` first when needed.
 */
export const ensureShippedKwgs = (
  opts: { force?: boolean; outDir?: string } = {},
  dawgs: readonly BuiltLexicon[] = ensureShippedLexicons({ outDir: opts.outDir }),
): BuiltLexicon[] => {
  const outDir = opts.outDir ?? SHIPPED_LEXICON_DIR;
  return SHIPPED_LEXICONS.map(({ name, package: pkg, file }, i) => {
    const t0 = performance.now();
    const source = shippedSourcePath(pkg, file);
    const out = join(outDir, `${name}${KWG_EXTENSION}`);
    const { hash } = dawgs[i]!;
    if (!opts.force && kwgUpToDate(out, source, hash, ENGLISH)) {
      return { name, path: out, status: 'up to date', wordCount: dawgs[i]!.wordCount, hash, bytes: statSync(out).size, ms: 0 };
    }
    const list = normaliseWordList(readFileSync(source, 'utf8'));
    if (!list.ok) throw new Error(`${source}: ${list.error.message}`);
    const compiled = compileKwg(name, list.value, ENGLISH);
    if (!compiled.ok) throw new Error(`${source}: ${compiled.error.message}`);
    const { bytes, manifest } = compiled.value;
    writeAtomically(join(outDir, `${name}${KWG_MANIFEST_EXTENSION}`), formatKwgManifest(manifest));
    writeAtomically(out, bytes);
    return { name, path: out, status: 'built', wordCount: manifest.wordCount, hash, bytes: bytes.length, ms: performance.now() - t0 };
  });
};

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const force = process.argv.includes('--force');
  const dawgs = ensureShippedLexicons({ force });
  for (const l of [...dawgs, ...ensureShippedKwgs({ force }, dawgs)]) {
    process.stdout.write(
      `lexicons: ${l.name}${l.path.slice(l.path.lastIndexOf('.'))} ${l.status} (${l.wordCount} words, ${l.bytes} bytes, ${l.ms.toFixed(0)} ms) ${l.hash}\n`,
    );
  }
}
