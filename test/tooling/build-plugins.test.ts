/**
 * The esbuild plugins of scripts/build.ts that rewrite dependencies' code in the Lambda bundles: what they
 * change must behave as before, and a dependency that no longer looks as expected must stop the build.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, test } from 'vitest';
import { asciiRegexLiterals, lazyNodeRequestCheck } from '../../scripts/build.js';

const work = mkdtempSync(join(tmpdir(), 'arbiter-plugins-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const bundle = async (name: string, entry: string, plugins: Parameters<typeof build>[0]['plugins']): Promise<string> => {
  const source = join(work, `${name}.mjs`);
  const outfile = join(work, `${name}.out.mjs`);
  writeFileSync(source, entry);
  await build({
    entryPoints: [source],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    plugins,
    logLevel: 'silent',
    absWorkingDir: process.cwd(),
    nodePaths: [join(process.cwd(), 'node_modules')],
  });
  return outfile;
};

describe('lazyNodeRequestCheck (Yoga without Node’s undici at start-up)', () => {
  test('a server adapter made from the rewritten code still answers Node http requests', async () => {
    const outfile = await bundle(
      'adapter',
      `import { createServerAdapter } from '@whatwg-node/server';
export const make = () => createServerAdapter(async (request) => Response.json({ path: new URL(request.url).pathname, aborted: request.signal.aborted }));`,
      [lazyNodeRequestCheck],
    );
    expect(readFileSync(outfile, 'utf8')).toContain('const customAbortCtrl = () => ');
    const { make } = (await import(pathToFileURL(outfile).href)) as { make: () => Parameters<typeof createServer>[1] };
    const server = createServer(make());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hello`);
      expect(await res.json()).toEqual({ path: '/hello', aborted: false });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a version whose check is written otherwise stops the build', async () => {
    const fake = join(work, 'node_modules', '@whatwg-node', 'server', 'esm');
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'createServerAdapter.js'), 'export const useCustomAbortCtrl = globalThis.Request === undefined;\n');
    await expect(
      bundle(
        'changed',
        `import { useCustomAbortCtrl } from ${JSON.stringify(join(fake, 'createServerAdapter.js'))}; console.log(useCustomAbortCtrl);`,
        [lazyNodeRequestCheck],
      ),
    ).rejects.toThrow(/not the useCustomAbortCtrl check/);
  });
});

describe('asciiRegexLiterals', () => {
  const only = /[\\/]ascii-input\.js$/;

  test('escapes the non-ASCII characters of a regular expression literal, which then matches the same text', async () => {
    writeFileSync(
      join(work, 'ascii-input.js'),
      'var TOKENS = /[^\\s:–—-]+|./g;\nvar MIDDLE = /^[\\p{L}·]+$/u;\nexport { TOKENS, MIDDLE };\n',
    );
    const outfile = await bundle('ascii', `export { TOKENS, MIDDLE } from ${JSON.stringify(join(work, 'ascii-input.js'))};`, [
      asciiRegexLiterals(only),
    ]);
    expect(isAscii(readFileSync(outfile))).toBe(true);
    const { TOKENS, MIDDLE } = (await import(pathToFileURL(outfile).href)) as { TOKENS: RegExp; MIDDLE: RegExp };
    expect('Rules – a test—of dashes: ok'.match(TOKENS)).toEqual([
      'Rules',
      ' ',
      '–',
      ' ',
      'a',
      ' ',
      'test',
      '—',
      'of',
      ' ',
      'dashes',
      ':',
      ' ',
      'ok',
    ]);
    expect(MIDDLE.test('L·L')).toBe(true);
    expect(MIDDLE.test('L-L')).toBe(false);
  });

  test('a non-ASCII character anywhere else stops the build rather than change a string', async () => {
    writeFileSync(join(work, 'ascii-input.js'), 'export var DASH = "–";\n');
    await expect(
      bundle('ascii-string', `export { DASH } from ${JSON.stringify(join(work, 'ascii-input.js'))};`, [asciiRegexLiterals(only)]),
    ).rejects.toThrow(/outside a regular expression literal/);
  });
});
