import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticFile, StaticFileName, StaticFiles } from '../graph/pages.js';
import { contentTypeOf } from './static-files.js';

/**
 * The browser pages' files made from the sources, for `npm start`, the tests and `npm run build`:
 * the play page bundled from web/ by esbuild (on first request, then kept), Swagger UI from
 * swagger-ui-dist, GraphiQL from @graphql-yoga/render-graphiql (which ships it as strings). None of
 * this is imported by the deployed API, which reads the built folder (static-files.ts); esbuild is a
 * development dependency.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The play page: web/main.ts and web/app.css bundled for browsers (no framework, see web/README.md), and its push service worker. */
export const buildPlayPage = async (): Promise<{ js: string; css: string; sw: string }> => {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { app: 'web/main.ts', style: 'web/app.css', 'push-sw': 'web/push-sw.ts' },
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'iife',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const text = (suffix: string) => result.outputFiles.find((f) => f.path.endsWith(suffix))?.text ?? '';
  return { js: text('app.js'), css: text('style.css'), sw: text('push-sw.js') };
};

const swaggerFile = (file: string): string => readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), file), 'utf8');

const graphiqlParts = async (): Promise<Record<string, string>> => {
  const g = await import('@graphql-yoga/render-graphiql/graphiql');
  return {
    'graphiql/graphiql.js': g.js,
    'graphiql/graphiql.css': g.css,
    'graphiql/editor.worker.js': g.editorWorkerService,
    'graphiql/json.worker.js': g.jsonWorker,
    'graphiql/graphql.worker.js': g.graphqlWorker,
  };
};

const SOURCES: Record<StaticFileName, () => Promise<string>> = {
  'play/app.js': async () => (await playPage()).js,
  'play/app.css': async () => (await playPage()).css,
  'play/push-sw.js': async () => (await playPage()).sw,
  'swagger/swagger-ui-bundle.js': () => Promise.resolve(swaggerFile('swagger-ui-bundle.js')),
  'swagger/swagger-ui.css': () => Promise.resolve(swaggerFile('swagger-ui.css')),
  'graphiql/graphiql.js': async () => (await graphiql())['graphiql/graphiql.js']!,
  'graphiql/graphiql.css': async () => (await graphiql())['graphiql/graphiql.css']!,
  'graphiql/editor.worker.js': async () => (await graphiql())['graphiql/editor.worker.js']!,
  'graphiql/json.worker.js': async () => (await graphiql())['graphiql/json.worker.js']!,
  'graphiql/graphql.worker.js': async () => (await graphiql())['graphiql/graphql.worker.js']!,
};

let play: Promise<{ js: string; css: string; sw: string }> | null = null;
const playPage = () => (play ??= buildPlayPage());
let graphiqlCache: Promise<Record<string, string>> | null = null;
const graphiql = () => (graphiqlCache ??= graphiqlParts());

/** Every page file, made on first request and kept. */
export const devStaticFiles = (): StaticFiles => {
  const cache = new Map<StaticFileName, Promise<StaticFile>>();
  return (name) => {
    let file = cache.get(name);
    if (!file) {
      file = SOURCES[name]().then((body) => ({ body, type: contentTypeOf(name) }));
      cache.set(name, file);
    }
    return file;
  };
};
