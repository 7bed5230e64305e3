import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { clearLexiconCache, loadKwg } from '../store/lexicon-files.js';
import { ensureShippedLexicons } from '../scripts/build-lexicons.js';
import { recordingIo } from './io.js';
import { run } from './lexicon.js';
import { main } from './main.js';

const root = mkdtempSync(join(tmpdir(), 'arbiter-cli-lexicon-'));
const userDir = join(root, 'user');
const savedEnv = process.env.ARBITER_LEXICON_DIR;

const file = (name: string, text: string): string => {
  const path = join(root, name);
  writeFileSync(path, text);
  return path;
};
const exec = async (...args: string[]) => {
  const io = recordingIo();
  const code = await run(args, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
};

beforeAll(() => ensureShippedLexicons());
beforeEach(() => {
  rmSync(userDir, { recursive: true, force: true });
  mkdirSync(userDir, { recursive: true });
  process.env.ARBITER_LEXICON_DIR = userDir;
  clearLexiconCache();
});
afterEach(() => {
  if (savedEnv === undefined) delete process.env.ARBITER_LEXICON_DIR;
  else process.env.ARBITER_LEXICON_DIR = savedEnv;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('arbiter lexicon compile', () => {
  test('compiles into the user directory under the file name, and prints the identity', async () => {
    const r = await exec('compile', file('mylist.txt', '# test list\nza\nqi\nqi\n'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('name:  MYLIST');
    expect(r.out).toContain('words: 2');
    // sha256 of "QI\nZA", from sha256sum
    expect(r.out).toContain('hash:  sha256:3e3c96102416a9f2f1e86316e25a846f162d242e7e8b35d8c3607cbf9cb17301');
    expect(r.out).toMatch(/bytes: \d+/);
    expect(existsSync(join(userDir, 'MYLIST.dawg'))).toBe(true);
    expect(r.out).toContain(`kwg:   ${join(userDir, 'MYLIST.kwg')} (`);
    const kwg = loadKwg({ name: 'mylist' }, [{ path: userDir, origin: 'user' }]);
    expect(kwg.ok && kwg.value.manifest.distribution).toBe('english');
    expect(kwg.ok && kwg.value.kwg.hasTiles([17, 9])).toBe(true); // Q I
  });

  test('--distribution spanish spells digraph words in its tiles; an unknown one writes no KWG', async () => {
    const es = await exec('compile', file('es.txt', 'chico\nllama'), '--distribution', 'spanish');
    expect(es.out).toMatch(/kwg: .*ES\.kwg \(\d+ nodes, spanish tiles\)/);
    const none = await exec('compile', file('kl.txt', 'qi'), '--distribution', 'klingon');
    expect(none.code).toBe(0);
    expect(none.out).toContain('kwg:   not written: no distribution "klingon"');
  });

  test('--name and --out choose the name and directory', async () => {
    const out = join(root, 'elsewhere');
    const r = await exec('compile', file('x.txt', 'qi'), '--name', 'nwl-test', '--out', out);
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'NWL-TEST.dawg'))).toBe(true);
  });

  test('recompiling a different list under the same name says so', async () => {
    await exec('compile', file('same.txt', 'qi'));
    const r = await exec('compile', file('same.txt', 'qi\nza'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('replaced a different list with the same name');
  });

  test.each([
    [['compile', '/nonexistent/words.txt'], 'cannot read /nonexistent/words.txt'],
    [['compile'], 'compile takes one word list file'],
    [['compile', 'a.txt', '--json'], 'compile does not take --json'],
    [['compile', 'a.txt', '--bogus'], "Unknown option '--bogus'"],
  ])('%j exits 2: %s', async (args, message) => {
    const r = await exec(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  test('a bad word exits 2 naming the file and line', async () => {
    const path = file('bad.txt', 'cat\ndog\nice cream\n');
    const r = await exec('compile', path);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${path}: Line 3: "ice cream" contains " ", which is not a letter.`);
    expect(r.err).toContain('[LEXICON_BAD_WORD]');
  });

  test('a file name that is not a lexicon name asks for --name', async () => {
    const r = await exec('compile', file('my words.txt', 'qi'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('Pass --name NAME');
  });

  test('a shipped name would be hidden, so it is refused for the user directory', async () => {
    const r = await exec('compile', file('sowpods.txt', 'qi'));
    expect(r.code).toBe(2);
    expect(r.err).toContain('SOWPODS is the name of a shipped lexicon');
  });
});

describe('arbiter lexicon list', () => {
  test('--json lists shipped and user lexicons with hash and word count', async () => {
    await exec('compile', file('mine.txt', 'qi\nza'));
    const r = await exec('list', '--json');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as { name: string; wordCount: number; origin: string; hash: string }[];
    expect(list.map((l) => [l.name, l.origin])).toEqual([
      ['SOWPODS', 'shipped'],
      ['WORDLIST', 'shipped'],
      ['MINE', 'user'],
    ]);
    expect(list[2]).toMatchObject({ wordCount: 2, hash: 'sha256:3e3c96102416a9f2f1e86316e25a846f162d242e7e8b35d8c3607cbf9cb17301' });
  });

  test('the table has one row per lexicon', async () => {
    const r = await exec('list');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+WORDS\s+ORIGIN\s+HASH\s+PATH$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      ['SOWPODS', '267751', 'shipped'],
      ['WORDLIST', '274137', 'shipped'],
    ]);
  });
});

describe('arbiter lexicon check', () => {
  test('all valid → exit 0; words are uppercased', async () => {
    const r = await exec('check', 'sowpods', 'qi', 'ZA', 'quixotic');
    expect(r).toEqual({ code: 0, out: 'QI VALID\nZA VALID\nQUIXOTIC VALID', err: '' });
  });

  test('any invalid → exit 1', async () => {
    const r = await exec('check', 'SOWPODS', 'QI', 'QX');
    expect(r).toEqual({ code: 1, out: 'QI VALID\nQX INVALID', err: '' });
  });

  test('checks a user lexicon', async () => {
    await exec('compile', file('tiny.txt', 'año\nl·l'));
    expect((await exec('check', 'tiny', 'año', 'L·L', 'ANO')).out).toBe('AÑO VALID\nL·L VALID\nANO INVALID');
  });

  test.each([
    [['check', 'NOPE', 'QI'], 'No lexicon named NOPE'],
    [['check', 'SOWPODS'], 'check takes a lexicon name and at least one word'],
    [['frobnicate'], 'unknown subcommand "frobnicate"'],
  ])('%j exits 2: %s', async (args, message) => {
    const r = await exec(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });
});

test('registered in the arbiter command', async () => {
  const io = recordingIo();
  expect(await main(['lexicon', 'check', 'SOWPODS', 'ZA'], io)).toBe(0);
  expect(io.stdout).toEqual(['ZA VALID']);
});
