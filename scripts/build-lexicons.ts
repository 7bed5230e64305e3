/**
 * `npm run lexicons`: compiles the shipped word lists from node_modules into data/lexicons/*.kwg.
 * A lexicon is rebuilt only when its file is missing, older than its source, or of another format
 * version, so `npm test` pays for it once. `--force` rebuilds everything.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEXICON_FORMAT_VERSION, peekLexiconHeader } from '../engine/lexicon/binary.js';
import { compileWordList } from '../engine/lexicon/compile.js';
import { LEXICON_EXTENSION, PROJECT_ROOT, SHIPPED_LEXICON_DIR } from '../store/lexicon-files.js';
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
    const header = peekLexiconHeader(bytes);
    if (!header.ok || header.value.version !== LEXICON_FORMAT_VERSION || header.value.name !== name) return undefined;
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
    // Write then rename, so parallel test workers never read a half-written file.
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, compiled.value.bytes);
    renameSync(tmp, out);
    const { wordCount, hash } = compiled.value.lexicon;
    return { name, path: out, status: 'built', wordCount, hash, bytes: compiled.value.bytes.length, ms: performance.now() - t0 };
  });
};

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  for (const l of ensureShippedLexicons({ force: process.argv.includes('--force') })) {
    process.stdout.write(`lexicons: ${l.name} ${l.status} (${l.wordCount} words, ${l.bytes} bytes, ${l.ms.toFixed(0)} ms) ${l.hash}\n`);
  }
}
