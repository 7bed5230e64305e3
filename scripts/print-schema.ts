/**
 * Writes the API schema to `schema.graphql` (committed, so that schema changes show in review).
 * `npm run print-schema`; `--check` exits 1 when the file is stale instead of writing it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../store/lexicon-files.js';
import { printArbiterSchema } from '../graph/schema.js';

export const SCHEMA_FILE = join(PROJECT_ROOT, 'schema.graphql');

const sdl = printArbiterSchema();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(SCHEMA_FILE, 'utf8');
  } catch {
    // missing: stale
  }
  if (current !== sdl) {
    console.error('schema.graphql is stale: run npm run print-schema');
    process.exit(1);
  }
} else {
  writeFileSync(SCHEMA_FILE, sdl);
  console.log(`wrote ${SCHEMA_FILE}`);
}
