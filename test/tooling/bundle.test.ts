/**
 * The API's Lambda bundle carries what the pictures and the pages need at run time (issue 20): resvg's
 * loader with its linux-arm64 binary (the functions run on arm64, whatever machine builds them), the
 * font, and the play page's and the API docs' files where functions/static-files.ts looks for them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { directoryFiles } from '../../functions/static-files.js';
import { buildFunction, EXTERNAL, FUNCTION_BUNDLES } from '../../scripts/build.js';
import { elfMachine, RESVG } from '../../scripts/lambda-native.js';
import { ensureShippedLexicons } from '../../scripts/build-lexicons.js';

describe('the API bundle for Lambda (linux-arm64)', () => {
  const dist = mkdtempSync(join(tmpdir(), 'arbiter-dist-'));
  const dir = join(dist, 'graphql');
  beforeAll(async () => {
    ensureShippedLexicons();
    await buildFunction(
      FUNCTION_BUNDLES.find((b) => b.name === 'graphql')!,
      dist,
    );
  }, 180_000);
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  test('resvg stays outside the bundle and its arm64 binary sits beside it, where Node resolves it', () => {
    expect(EXTERNAL).toContain(RESVG.name);
    expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).toContain('import("@resvg/resvg-js")');
    const binary = join(dir, 'node_modules', RESVG.binary, RESVG.file);
    expect(elfMachine(binary)).toBe('arm64');
    const loader = readFileSync(join(dir, 'node_modules', RESVG.name, 'js-binding.js'), 'utf8');
    expect(loader).toContain(RESVG.binary);
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', RESVG.binary, 'package.json'), 'utf8'));
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
    expect(pkg.version).toBe(lock.packages[`node_modules/${RESVG.binary}`].version);
  });

  test('the migrations sit beside the bundle for GET /ready, and the tracing SDK stays out (the ADOT layer brings its own)', () => {
    expect(existsSync(join(dir, 'migrations'))).toBe(true);
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code).not.toContain('BasicTracerProvider');
    expect(code).toContain('opentelemetry');
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
