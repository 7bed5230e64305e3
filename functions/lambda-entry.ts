/**
 * Every Lambda function's entry: `lambda.mjs` beside the bundle (scripts/build.ts), handler
 * `lambda.handler`. It turns on the compile cache shipped in `compile-cache/` (functions/compile-cache.ts)
 * before the bundle is compiled, which code inside index.mjs could not do (index.mjs and the chunks it
 * imports are all compiled before any of it runs), then imports index.mjs and hands on its handler.
 */
import { fileURLToPath } from 'node:url';
import { COMPILE_CACHE_DIR, enableShippedCompileCache } from './compile-cache.js';

const cache = enableShippedCompileCache(fileURLToPath(new URL(`./${COMPILE_CACHE_DIR}`, import.meta.url)));
// Worth a line in the logs: the bundle pays the full compile until it is rebuilt for this Node.
if (cache.status === 'other-node')
  console.warn(`arbiter: compile cache built for ${cache.shipped.join(', ')}, not ${process.version}: rebuild it (docs/deploying.md)`);
if (cache.status === 'failed') console.warn(`arbiter: compile cache not enabled: ${cache.message}`);

// A name esbuild leaves alone: index.mjs is the bundle beside this file, not a module to inline.
const bundle: string = './index.mjs';
export const { handler } = (await import(bundle)) as { handler: (event: unknown, context: unknown) => Promise<unknown> };
