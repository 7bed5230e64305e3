import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { compileWordList } from '../engine/lexicon/compile.js';
import {
  clearLexiconCache,
  findLexicon,
  lexiconDirs,
  listLexicons,
  loadLexicon,
  loadLexiconFile,
  loadLexiconMatching,
  PROJECT_ROOT,
  SHIPPED_LEXICON_DIR,
  userLexiconDir,
  type LexiconDir,
} from './lexicon-files.js';

const root = mkdtempSync(join(tmpdir(), 'arbiter-lexfiles-'));
const shipped = join(root, 'shipped');
const user = join(root, 'user');
const DIRS: LexiconDir[] = [
  { path: shipped, origin: 'shipped' },
  { path: user, origin: 'user' },
];

const write = (dir: string, name: string, text: string, file = `${name}.dawg`): string => {
  const r = compileWordList(name, text);
  if (!r.ok) throw new Error(r.error.message);
  const path = join(dir, file);
  writeFileSync(path, r.value.bytes);
  return path;
};

beforeEach(() => {
  for (const d of [shipped, user]) {
    rmSync(d, { recursive: true, force: true });
    mkdirSync(d, { recursive: true });
  }
  clearLexiconCache();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('directories', () => {
  test('the shipped directory is data/lexicons under the project root', () => {
    expect(SHIPPED_LEXICON_DIR).toBe(join(PROJECT_ROOT, 'data', 'lexicons'));
  });

  test('the user directory comes from ARBITER_LEXICON_DIR, else ~/.arbiter/lexicons', () => {
    expect(userLexiconDir({ ARBITER_LEXICON_DIR: '/srv/lex' })).toBe(resolve('/srv/lex'));
    expect(userLexiconDir({})).toBe(join(homedir(), '.arbiter', 'lexicons'));
    expect(lexiconDirs({ ARBITER_LEXICON_DIR: '/srv/lex' }).map((d) => d.origin)).toEqual(['shipped', 'user']);
  });
});

describe('loading', () => {
  test('loadLexiconFile loads and caches until the file changes', () => {
    const path = write(user, 'MINE', 'qi\nza');
    const a = loadLexiconFile(path);
    const b = loadLexiconFile(path);
    expect(a.ok && b.ok && a.value === b.value).toBe(true);
    expect(a.ok && a.value.has('QI')).toBe(true);
    write(user, 'MINE', 'qi\nza\nzo\nxu');
    const c = loadLexiconFile(path);
    expect(c.ok && c.value.wordCount).toBe(4);
  });

  test('a missing file is LEXICON_NOT_FOUND; a directory is LEXICON_UNREADABLE', () => {
    const missing = loadLexiconFile(join(user, 'NONE.dawg'));
    expect(!missing.ok && missing.error.code).toBe('LEXICON_NOT_FOUND');
    const dir = loadLexiconFile(user);
    expect(!dir.ok && dir.error.code).toBe('LEXICON_UNREADABLE');
  });

  test('a file that does not decode reports the decode error with its path', () => {
    const path = join(user, 'JUNK.dawg');
    writeFileSync(path, 'hello');
    const r = loadLexiconFile(path);
    expect(!r.ok && r.error.code).toBe('LEXICON_BAD_MAGIC');
    expect(!r.ok && r.error.details?.path).toBe(path);
  });

  test('loadLexicon finds names case-insensitively, shipped before user', () => {
    write(shipped, 'BASE', 'aa\nab');
    write(user, 'BASE', 'zz');
    write(user, 'MINE', 'qi');
    const base = loadLexicon('base', DIRS);
    expect(base.ok && [...base.value.words()]).toEqual(['AA', 'AB']);
    const mine = loadLexicon('Mine', DIRS);
    expect(mine.ok && mine.value.name).toBe('MINE');
    expect(findLexicon('mine', DIRS)).toEqual({ ok: true, value: join(user, 'MINE.dawg') });
  });

  test('an unknown name is LEXICON_NOT_FOUND naming the directories; a bad name is LEXICON_BAD_NAME', () => {
    const r = loadLexicon('NOPE', DIRS);
    expect(!r.ok && r.error.code).toBe('LEXICON_NOT_FOUND');
    expect(!r.ok && r.error.message).toContain(user);
    const shippedHint = loadLexicon('SOWPODS', DIRS);
    expect(!shippedHint.ok && shippedHint.error.message).toContain('npm run lexicons');
    const bad = loadLexicon('../etc/passwd', DIRS);
    expect(!bad.ok && bad.error.code).toBe('LEXICON_BAD_NAME');
  });

  test('a renamed file cannot pass for another lexicon', () => {
    const path = write(user, 'REAL', 'qi');
    renameSync(path, join(user, 'FAKE.dawg'));
    const r = loadLexicon('FAKE', DIRS);
    expect(!r.ok && r.error.code).toBe('LEXICON_BAD_HEADER');
  });
});

describe('loadLexiconMatching', () => {
  test('loads the named lexicon only when its content hash matches', () => {
    write(user, 'MINE', 'za\nqi');
    // sha256 of "QI\nZA", from sha256sum
    const hash = 'sha256:3e3c96102416a9f2f1e86316e25a846f162d242e7e8b35d8c3607cbf9cb17301';
    const same = loadLexiconMatching({ name: 'MINE', hash }, DIRS);
    expect(same.ok && same.value.hash).toBe(hash);
    write(user, 'MINE', 'za\nqi\nxu');
    clearLexiconCache();
    const changed = loadLexiconMatching({ name: 'MINE', hash }, DIRS);
    expect(!changed.ok && changed.error.code).toBe('LEXICON_HASH_MISMATCH');
    expect(!changed.ok && changed.error.details).toMatchObject({ name: 'MINE', expected: hash });
  });
});

describe('listLexicons', () => {
  test('lists valid files with name, hash, count and origin; first directory wins; junk is left out', () => {
    write(shipped, 'BASE', 'aa\nab');
    write(user, 'BASE', 'zz');
    write(user, 'MINE', 'qi\nza');
    writeFileSync(join(user, 'JUNK.dawg'), 'not a lexicon');
    writeFileSync(join(user, 'notes.txt'), 'hello');
    const list = listLexicons([...DIRS, { path: join(root, 'missing'), origin: 'user' }]);
    expect(list.map(({ name, wordCount, origin, path }) => ({ name, wordCount, origin, path }))).toEqual([
      { name: 'BASE', wordCount: 2, origin: 'shipped', path: join(shipped, 'BASE.dawg') },
      { name: 'MINE', wordCount: 2, origin: 'user', path: join(user, 'MINE.dawg') },
    ]);
    // sha256 of "QI\nZA", from sha256sum
    expect(list[1]!.hash).toBe('sha256:' + '3e3c96102416a9f2f1e86316e25a846f162d242e7e8b35d8c3607cbf9cb17301');
  });
});
