import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ensureShippedLexicons, shippedSourcePath } from '../../scripts/build-lexicons.js';

const out = mkdtempSync(join(tmpdir(), 'arbiter-lexbuild-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

test('builds every shipped lexicon, then skips the ones newer than their source', () => {
  const first = ensureShippedLexicons({ outDir: out });
  expect(first.map((l) => [l.name, l.status])).toEqual([
    ['SOWPODS', 'built'],
    ['WORDLIST', 'built'],
  ]);
  expect(statSync(join(out, 'SOWPODS.dawg')).size).toBe(first[0]!.bytes);

  const second = ensureShippedLexicons({ outDir: out });
  expect(second.map((l) => l.status)).toEqual(['up to date', 'up to date']);
  expect(second.map((l) => l.hash)).toEqual(first.map((l) => l.hash));

  // An output older than its source is rebuilt.
  const source = statSync(shippedSourcePath('sowpods', 'SOWPODS.txt'));
  const older = new Date(source.mtimeMs - 60_000);
  utimesSync(join(out, 'SOWPODS.dawg'), older, older);
  expect(ensureShippedLexicons({ outDir: out }).map((l) => l.status)).toEqual(['built', 'up to date']);
});
