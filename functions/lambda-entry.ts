/**
 * Every Lambda function's entry: `lambda.mjs` beside the bundle (scripts/build.ts), handler
 * `lambda.handler`. It loads the bundle with what was shipped to start it sooner (functions/code-cache.ts):
 * the one script `index.cjs` with its warm code cache, or index.mjs with Node's module compile cache
 * (functions/compile-cache.ts), turned on before index.mjs is compiled, which code inside index.mjs could not
 * do (index.mjs and the chunks it imports are all compiled before any of it runs); without either, index.mjs.
 */
import { fileURLToPath } from 'node:url';
import { loadFunctionBundle, loadWarning } from './code-cache.js';

const { exports, load } = await loadFunctionBundle(fileURLToPath(new URL('.', import.meta.url)));
// Worth a line in the logs: the bundle pays the full compile until it is rebuilt for this Node.
const warning = loadWarning(load);
if (warning) console.warn(warning);

export const { handler } = exports as { handler: (event: unknown, context: unknown) => Promise<unknown> };
