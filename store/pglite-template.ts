import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { PROJECT_ROOT } from './lexicon-files.js';
import { readMigrations } from './migrate.js';

/**
 * A migrated, empty PGlite data directory kept as a tarball, so that a new data directory starts from it
 * instead of running PGlite's initdb and every migration again (issue 34: a first `npm start` on a fresh
 * data directory spent most of its time there — about 6 s of initdb and 1 s of migrations on this 2-core
 * machine, against about 1 s to unpack the tarball). The tarball is made the first time a data directory
 * is created the slow way, right after its migrations, so it holds the schema and the migration records
 * and nothing else (no players, no lexicons: those are written after). It is named by a hash of PGlite's
 * version and of every migration file, so a new migration or a new PGlite makes a new one, and it lives
 * in node_modules/.cache, which `npm ci` empties with the rest of node_modules.
 */

export const TEMPLATE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'arbiter');

const pgliteVersion = (): string => {
  const require = createRequire(import.meta.url);
  try {
    return (JSON.parse(readFileSync(require.resolve('@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
};

/** Where the template for the current migrations and PGlite would be. */
export const templatePath = async (): Promise<string> => {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const m of await readMigrations()) hash.update(`\0${m.name}\0${m.sql}`);
  return join(TEMPLATE_DIR, `pglite-${hash.digest('hex').slice(0, 16)}.tar.gz`);
};

/**
 * A data directory that PGlite would have to create (initdb), as opposed to open. An in-memory database is
 * always new: the test suites open hundreds, and from the template each costs a fraction of initdb's seconds.
 */
export const isNewDataDir = (dataDir: string): boolean =>
  dataDir.startsWith('memory://') || (!dataDir.includes('://') && !existsSync(join(dataDir, 'PG_VERSION')));

/** The template for a new data directory, if one was made for the current migrations. */
export const readTemplate = async (): Promise<Blob | null> => {
  const path = await templatePath();
  const kept = read.get(path);
  if (kept) return kept;
  if (!existsSync(path)) return null;
  // Unpacked here once, so PGlite does not gunzip it again for every database (its type says it is a plain tar).
  const blob = new Blob([gunzipSync(readFileSync(path))], { type: 'application/x-tar' });
  read.set(path, blob);
  return blob;
};
/** Read once per process: a process that opens many databases (the tests) reads and unpacks the file once. */
const read = new Map<string, Blob>();

/** Keeps `pglite` (just created and migrated) as the template. A failure only costs the next start its speed. */
export const saveTemplate = async (pglite: PGlite): Promise<void> => {
  try {
    const path = await templatePath();
    if (existsSync(path)) return;
    const dump = await pglite.dumpDataDir('gzip');
    mkdirSync(TEMPLATE_DIR, { recursive: true });
    // Written aside and renamed: two processes starting at once never read half a tarball.
    const part = `${path}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
    renameSync(part, path);
  } catch (e) {
    console.warn(JSON.stringify({ msg: 'pglite.template-not-saved', error: String(e) }));
  }
};
