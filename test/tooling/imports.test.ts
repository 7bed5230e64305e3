import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importCycles, importGraph, sourceFiles } from './import-graph.js';

const ROOT = process.cwd();
const FOLDERS = ['engine', 'render', 'web', 'store', 'service', 'graph', 'rest', 'functions', 'cli', 'infra'];

describe('imports', () => {
  test('no import circle anywhere in our code, type-only imports included', () => {
    const cycles = importCycles(importGraph(sourceFiles(ROOT, FOLDERS)), ROOT);
    expect(cycles).toEqual([]);
  });

  test('the checker finds a circle made only of type imports', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-cycle-'));
    mkdirSync(join(dir, 'engine'));
    writeFileSync(join(dir, 'engine/a.ts'), "import type { B } from './b.js';\nexport interface A { b: B }\n");
    writeFileSync(join(dir, 'engine/b.ts'), "import type { A } from './a.js';\nexport interface B { a?: A }\n");
    writeFileSync(join(dir, 'engine/c.ts'), "export { type A } from './a.js';\n");
    expect(importCycles(importGraph(sourceFiles(dir, ['engine'])), dir)).toEqual([['engine/a.ts', 'engine/b.ts']]);
  });
});
