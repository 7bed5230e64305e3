import { readdirSync, readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

/**
 * The layer and size rules of eslint.config.js are only worth having if they fail: each fixture under
 * test/fixtures/lint is linted as if it stood at the path on its first line (`// lint-as: …`).
 */
const dir = 'test/fixtures/lint';
const eslint = new ESLint({ cwd: process.cwd() });

const lintFixture = async (name: string) => {
  let text = readFileSync(`${dir}/${name}`, 'utf8');
  const as = /^\/\/ lint-as: (\S+)/.exec(text)?.[1];
  if (!as) throw new Error(`${name} has no "// lint-as: <path>" first line`);
  text = text.replace(/^REPEAT(\d+)(.*\n)/m, (_, n: string, line: string) => line.repeat(Number(n)));
  const [result] = await eslint.lintText(text, { filePath: as });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
};

describe('lint rules fail where they should', () => {
  test.each([
    ['engine-imports-store.ts.txt', /no-restricted-imports: .*engine\/ imports nothing of ours outside engine/],
    ['engine-reads-files.ts.txt', /no-restricted-imports: .*engine\/ does no I\/O/],
    ['graph-imports-store.ts.txt', /no-restricted-imports: .*graph\/ asks service\//],
    ['graph-imports-prisma.ts.txt', /no-restricted-imports: .*Prisma belongs to store/],
    ['store-imports-service.ts.txt', /no-restricted-imports: .*store\/ is below service\//],
    ['rest-imports-store.ts.txt', /no-restricted-imports: .*rest\/ is an edge beside graph\//],
    ['store-imports-render.ts.txt', /no-restricted-imports: .*store\/ is below service\//],
    ['render-imports-service.ts.txt', /no-restricted-imports: .*render\/ reads engine views only/],
    ['web-imports-engine.ts.txt', /no-restricted-imports: .*web\/ is browser code/],
    ['long-function.ts.txt', /max-lines-per-function: Function 'tooLong' has too many lines/],
  ])('%s', async (name, expected) => {
    const messages = await lintFixture(name);
    expect(
      messages.some((m) => expected.test(m)),
      messages.join('\n'),
    ).toBe(true);
  });

  test('an allowed import (graph → engine types) passes', async () => {
    expect(await lintFixture('allowed.ts.txt')).toEqual([]);
  });

  test('every fixture is covered by a case above', () => {
    const fixtures = readdirSync(dir).filter((f) => f.endsWith('.ts.txt'));
    expect(fixtures.sort()).toEqual(
      [
        'allowed.ts.txt',
        'engine-imports-store.ts.txt',
        'engine-reads-files.ts.txt',
        'graph-imports-prisma.ts.txt',
        'graph-imports-store.ts.txt',
        'long-function.ts.txt',
        'rest-imports-store.ts.txt',
        'store-imports-service.ts.txt',
        'store-imports-render.ts.txt',
        'render-imports-service.ts.txt',
        'web-imports-engine.ts.txt',
      ].sort(),
    );
  });
});
