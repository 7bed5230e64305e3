/**
 * The API's Lambda bundle carries what the pictures and the pages need at run time (issue 20): resvg's
 * loader with its linux-arm64 binary (the functions run on arm64, whatever machine builds them), the
 * font, and the play page's and the API docs' files where functions/static-files.ts looks for them.
 */
import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { directoryFiles } from '../../functions/static-files.js';
import { CODE_CACHE_FILE, SCRIPT_BUNDLE, scriptSource } from '../../functions/code-cache.js';
import { buildFunction, buildScriptBundle, EXTERNAL, FUNCTION_BUNDLES, type BundleResult } from '../../scripts/build.js';
import { buildCodeCache } from '../../scripts/compile-cache.js';
import { elfMachine, RESVG } from '../../scripts/lambda-native.js';
import { ensureShippedLexicons } from '../../scripts/build-lexicons.js';

/** index.mjs and every chunk beside it, concatenated. */
const allCode = (dir: string): string =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');

/** The files a cold start evaluates: index.mjs and the chunks it imports statically, transitively. */
const coldStartFiles = (dir: string): string[] => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dir, file), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/(chunk-[\w-]+\.mjs)"/g)) visit(m[1]!);
  };
  visit('index.mjs');
  return [...seen];
};

describe('the API bundle for Lambda (linux-arm64)', () => {
  const dist = mkdtempSync(join(tmpdir(), 'arbiter-dist-'));
  const dir = join(dist, 'graphql');
  let built: BundleResult | undefined;
  beforeAll(async () => {
    ensureShippedLexicons();
    built = await buildFunction(
      FUNCTION_BUNDLES.find((b) => b.name === 'graphql')!,
      dist,
    );
  }, 180_000);
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  test('resvg stays outside the bundle and its arm64 binary sits beside it, where Node resolves it', () => {
    expect(EXTERNAL).toContain(RESVG.name);
    expect(allCode(dir)).toContain('import("@resvg/resvg-js")');
    const binary = join(dir, 'node_modules', RESVG.binary, RESVG.file);
    expect(elfMachine(binary)).toBe('arm64');
    const loader = readFileSync(join(dir, 'node_modules', RESVG.name, 'js-binding.js'), 'utf8');
    expect(loader).toContain(RESVG.binary);
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', RESVG.binary, 'package.json'), 'utf8'));
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
    expect(pkg.version).toBe(lock.packages[`node_modules/${RESVG.binary}`].version);
  });

  test("Lambda's entry, lambda.mjs, loads index.cjs with a warm code cache or index.mjs (with a compile cache) at run time, nothing of the bundle itself", () => {
    const entry = readFileSync(join(dir, 'lambda.mjs'), 'utf8');
    for (const name of ['"index.mjs"', `"${SCRIPT_BUNDLE}"`, `"${CODE_CACHE_FILE}"`, '"compile-cache"', 'cachedData'])
      expect(entry).toContain(name);
    expect(entry).not.toMatch(/chunk-/);
    expect(entry.length).toBeLessThan(6144);
    // Without ARBITER_COMPILE_CACHE_NODE no cache ships, nor the script: lambda.mjs imports index.mjs.
    expect(existsSync(join(dir, 'compile-cache'))).toBe(false);
    expect(existsSync(join(dir, SCRIPT_BUNDLE))).toBe(false);
  });

  test('the function as one script (index.cjs, for the warm code cache) finds its files beside itself, keeps the external packages external, and answers a request without a database', async () => {
    await buildScriptBundle(
      FUNCTION_BUNDLES.find((b) => b.name === 'graphql')!,
      dir,
    );
    const bytes = readFileSync(join(dir, SCRIPT_BUNDLE));
    // ASCII, so that the loader reads it as Latin-1 (functions/code-cache.ts scriptSource), the same string as UTF-8.
    expect(isAscii(bytes)).toBe(true);
    const script = bytes.toString('utf8');
    expect(scriptSource(bytes)).toBe(script);
    expect(script).not.toContain('import.meta');
    expect(script).toContain('pathToFileURL(__filename)');
    expect(script).not.toMatch(/chunk-/);
    expect(script).toContain('import("@resvg/resvg-js")');
    expect(script).toContain('import("@aws-sdk/client-sqs")');
    // The warm-up of the build: the app built and `{ __typename }` answered by this Node, then the cache written.
    const cache = await buildCodeCache(dir, [process.execPath]);
    expect(readdirSync(join(dir, 'compile-cache', cache.folder))).toEqual([CODE_CACHE_FILE]);
    expect(cache.bytes).toBeGreaterThan(100_000);
    rmSync(join(dir, 'compile-cache'), { recursive: true, force: true });
    rmSync(join(dir, SCRIPT_BUNDLE));
  }, 120_000);

  test("a cold start answers without loading Node's own fetch (its bundled undici, ~10 ms): Yoga's fetch classes do the work", () => {
    // A recorded API Gateway event (its headers, base64 body and all), asking `{ __typename }`, which needs no database.
    const event = JSON.parse(readFileSync(join('test', 'fixtures', 'apigw', 'graphql-post.json'), 'utf8')) as {
      headers: Record<string, string>;
    };
    const body = JSON.stringify({ query: '{ __typename }' });
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        // pg asks whether it runs on Cloudflare Workers through \`navigator\`, which Node has since 21 (Lambda runs
        // 22), and on Node 20 through \`Response\`, which loads undici: give Node 20 the global Node 22 has.
        `globalThis.navigator ??= { userAgent: 'Node.js' };
const { handler } = await import(${JSON.stringify(pathToFileURL(join(dir, 'lambda.mjs')).href)});
const res = await handler(JSON.parse(process.env.TEST_EVENT), {});
console.log(JSON.stringify({ status: res.statusCode, body: res.body, undici: process.moduleLoadList.filter((m) => m.includes('undici')) }));
process.exit(0);`,
      ],
      {
        cwd: dir,
        encoding: 'utf8',
        env: {
          PATH: process.env['PATH'],
          TEST_EVENT: JSON.stringify({
            ...event,
            headers: { ...event.headers, 'content-length': String(body.length) },
            body: Buffer.from(body).toString('base64'),
          }),
          ARBITER_MIGRATE_ON_START: '0',
          DATABASE_URL: 'postgresql://nobody@127.0.0.1:9/none',
          ARBITER_JWT_SECRET: 'bundle-test-secret-of-at-least-thirty-two-bytes',
          ARBITER_LEXICON_DIR: join(dir, 'lexicons'),
        },
      },
    );
    expect(child.status, child.stderr).toBe(0);
    const out = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { status: number; body: string; undici: string[] };
    expect(out.status).toBe(200);
    expect(JSON.parse(out.body)).toEqual({ data: { __typename: 'Query' } });
    expect(out.undici).toEqual([]);
  }, 60_000);

  test('the migrations sit beside the bundle for GET /ready, and the tracing SDK stays out (the ADOT layer brings its own)', () => {
    expect(existsSync(join(dir, 'migrations'))).toBe(true);
    const code = allCode(dir);
    expect(code).not.toContain('BasicTracerProvider');
    expect(code).toContain('opentelemetry');
  });

  test('a cold start leaves out what only some requests need: the SQS client, SOFA, the OpenAPI builder and its examples', () => {
    const cold = coldStartFiles(dir);
    const lazy = readdirSync(dir).filter((f) => f.endsWith('.mjs') && !cold.includes(f));
    expect(lazy.length).toBeGreaterThan(0);
    const coldCode = cold.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    // Imported on the first robot turn, not with the bundle.
    expect(coldCode).toContain('import("@aws-sdk/client-sqs")');
    expect(coldCode).not.toMatch(/from\s*"@aws-sdk\/client-sqs"/);
    // sofa-api's route builder and the examples of the OpenAPI document sit in chunks a cold start does not load.
    expect(coldCode).not.toContain('[Sofa] Creating router');
    expect(allCode(dir)).toContain('[Sofa] Creating router');
    const example = Object.keys(JSON.parse(readFileSync('rest/examples.json', 'utf8')) as Record<string, unknown>)[0]!;
    expect(allCode(dir)).toContain(`${example}:{request:`);
    expect(coldCode).not.toContain(`${example}:{request:`);
  });

  test("a cold start leaves out Prisma's client (made on its first query), zod's locales, and graphql-js's unused half", () => {
    const coldCode = coldStartFiles(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    // Prisma's runtime (store/prisma-open.ts, imported by store/prisma-client.ts on the first query).
    expect(allCode(dir)).toContain('getPrismaClient');
    expect(coldCode).not.toContain('getPrismaClient');
    // `import { z } from 'zod'` would keep every locale (60-odd languages); `import * as z` lets them go.
    expect(coldCode).not.toContain('Ongeldige invoer');
    // graphql-js as ESM (scripts/build.ts), one copy: its CommonJS twin is not bundled at all.
    const graphqlInputs = Object.keys(built!.metafile.inputs).filter((p) => p.includes('node_modules/graphql/'));
    expect(graphqlInputs.length).toBeGreaterThan(0);
    expect(graphqlInputs.filter((p) => !p.endsWith('.mjs'))).toEqual([]);
    expect(coldCode).not.toContain('buildClientSchema');
    expect(built!.coldBytes).toBeLessThan(built!.bytes);
  });

  test('the font and its licence are in fonts/, as render/png.ts expects beside the bundle', () => {
    for (const f of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'LICENSE']) expect(existsSync(join(dir, 'fonts', f)), f).toBe(true);
  });

  test('the play page and the API docs are in static/, and the deployed reader finds them', async () => {
    const files = directoryFiles(join(dir, 'static'));
    const app = await files('play/app.js');
    expect(app?.type).toBe('text/javascript; charset=utf-8');
    expect(Buffer.from(app!.body).toString('utf8')).toContain('/graphql');
    expect(await files('play/app.css')).not.toBeNull();
    expect(await files('swagger/swagger-ui-bundle.js')).not.toBeNull();
    expect(await files('swagger/swagger-ui.css')).not.toBeNull();
    // GraphiQL is not deployed (the API Lambda runs without it).
    expect(await files('graphiql/graphiql.js')).toBeNull();
  });
});
