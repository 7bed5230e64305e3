import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticFile, StaticFileName, StaticFiles } from '../graph/pages.js';

/**
 * The browser pages' files (graph/pages.ts) as the deployed API finds them: in `static/` beside the
 * bundle, where `npm run build` writes the play page's bundle and Swagger UI's files
 * (scripts/build.ts). Locally, functions/dev-assets.ts makes the same files from the sources.
 */

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export const contentTypeOf = (name: string): string => TYPES[/\.[a-z]+$/.exec(name)?.[0] ?? ''] ?? 'application/octet-stream';

/** The folder of the bundle's static files (`dist/graphql/static/` once built). */
export const BUNDLED_STATIC_DIR = fileURLToPath(new URL('./static/', import.meta.url));

/** Files read from `dir/<name>`, each once, then kept in memory (they never change while the process lives). */
export const directoryFiles = (dir: string): StaticFiles => {
  const cache = new Map<StaticFileName, StaticFile | null>();
  return (name) => {
    if (!cache.has(name)) {
      const path = join(dir, name);
      cache.set(name, existsSync(path) ? { body: new Uint8Array(readFileSync(path)), type: contentTypeOf(name) } : null);
    }
    return Promise.resolve(cache.get(name)!);
  };
};
