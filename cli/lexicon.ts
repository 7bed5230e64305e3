/**
 * `arbiter lexicon`: compile a word list into a lexicon, list the known lexicons, check words, upload a
 * list to a server (cli/lexicon-upload.ts).
 * Exit codes: 0 success (every word valid), 1 some word invalid, 2 usage or input error.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RuleError } from '../engine/errors.js';
import { peekDawgHeader } from '../engine/lexicon/dawg-file.js';
import { compileKwg, compileWordList } from '../engine/lexicon/compile.js';
import { formatKwgManifest } from '../engine/lexicon/kwg-manifest.js';
import { normaliseWordList } from '../engine/lexicon/wordlist.js';
import { DISTRIBUTIONS } from '../engine/tiles.js';
import {
  KWG_EXTENSION,
  KWG_MANIFEST_EXTENSION,
  LEXICON_EXTENSION,
  listLexicons,
  loadLexicon,
  userLexiconDir,
} from '../store/lexicon-files.js';
import { SHIPPED_LEXICON_NAMES } from '../engine/lexicon/shipped.js';
import { normaliseLexiconName } from '../engine/lexicon/wordlist.js';
import type { CliIo } from './io.js';
import { upload } from './lexicon-upload.js';

export const USAGE = `usage:
  arbiter lexicon compile WORDS.txt [--name NAME] [--out DIR] [--distribution english]
      Compile a word list (one word per line, # comments) into NAME.dawg in DIR
      (default: $ARBITER_LEXICON_DIR or ~/.arbiter/lexicons), and its move-generation graph
      NAME.kwg (+ NAME.kwg.json) over the distribution's tiles. NAME defaults to the file name.
  arbiter lexicon list [--json]
      List the shipped and user lexicons with word count and content hash.
  arbiter lexicon check NAME WORD...
      Print VALID or INVALID for each word; exit 0 when all are valid, 1 otherwise.
  arbiter lexicon upload WORDS.txt --name NAME --tile-set TILESET [--server URL] [--token TOKEN]
      Send the list to a server (POST /v1/lexicons; --server defaults to $ARBITER_URL, --token to
      $ARBITER_TOKEN, a key with the lexicons:manage scope) and print its name, hash, word count and
      the words the tile set cannot spell.`;

const fail = (io: CliIo, error: RuleError | string): number => {
  io.err(typeof error === 'string' ? `arbiter lexicon: ${error}` : `arbiter lexicon: ${error.message} [${error.code}]`);
  return 2;
};

/** Writes `data` to `path` through a temporary file, so a reader never sees half of it. */
const writeAtomically = (path: string, data: Uint8Array | string): void => {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
};

/** The KWG beside the `.dawg`; returns the line to print about it. */
const writeKwg = (dir: string, name: string, text: string, distributionName: string): string => {
  const dist = DISTRIBUTIONS[distributionName];
  if (!dist) return `kwg:   not written: no distribution "${distributionName}" (${Object.keys(DISTRIBUTIONS).join(', ')})`;
  const list = normaliseWordList(text);
  const kwg = list.ok ? compileKwg(name, list.value, dist) : list;
  if (!kwg.ok) return `kwg:   not written: ${kwg.error.message}`;
  const path = join(dir, `${name}${KWG_EXTENSION}`);
  writeAtomically(join(dir, `${name}${KWG_MANIFEST_EXTENSION}`), formatKwgManifest(kwg.value.manifest));
  writeAtomically(path, kwg.value.bytes);
  const { nodes, unspellable } = kwg.value.manifest;
  return `kwg:   ${path} (${nodes} nodes, ${dist.name} tiles${unspellable > 0 ? `, ${unspellable} words not spellable in them` : ''})`;
};

const compile = (positionals: string[], values: { name?: string; out?: string; distribution?: string }, io: CliIo): number => {
  if (positionals.length !== 1) return fail(io, `compile takes one word list file\n${USAGE}`);
  const file = positionals[0]!;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return fail(io, `cannot read ${file}: ${(e as Error).message}`);
  }
  const name = normaliseLexiconName(values.name ?? basename(file, extname(file)));
  if (!name.ok) return fail(io, values.name === undefined ? `${name.error.message} Pass --name NAME.` : name.error.message);
  if (values.out === undefined && SHIPPED_LEXICON_NAMES.includes(name.value)) {
    return fail(io, `${name.value} is the name of a shipped lexicon, which would hide yours; pass --name with another name.`);
  }
  const compiled = compileWordList(name.value, text);
  if (!compiled.ok) return fail(io, { ...compiled.error, message: `${file}: ${compiled.error.message}` });
  const dir = resolve(values.out ?? userLexiconDir());
  const out = join(dir, `${name.value}${LEXICON_EXTENSION}`);
  let replaced: string | undefined;
  if (existsSync(out)) {
    const old = peekDawgHeader(readFileSync(out));
    if (old.ok && old.value.hash !== compiled.value.lexicon.hash) replaced = old.value.hash;
  }
  let kwgLine: string;
  try {
    mkdirSync(dir, { recursive: true });
    writeAtomically(out, compiled.value.bytes);
    kwgLine = writeKwg(dir, name.value, text, values.distribution ?? 'english');
  } catch (e) {
    return fail(io, `cannot write in ${dir}: ${(e as Error).message}`);
  }
  const { lexicon, bytes } = compiled.value;
  io.out(
    [
      `name:  ${lexicon.name}`,
      `words: ${lexicon.wordCount}`,
      `hash:  ${lexicon.hash}`,
      `bytes: ${bytes.length}`,
      `file:  ${out}`,
      kwgLine,
      ...(replaced ? [`replaced a different list with the same name (was ${replaced})`] : []),
    ].join('\n'),
  );
  return 0;
};

const list = (json: boolean, io: CliIo): number => {
  const all = listLexicons();
  if (json) {
    io.out(JSON.stringify(all, null, 2));
    return 0;
  }
  if (all.length === 0) {
    io.out('no lexicons found (run `npm run lexicons`, or `arbiter lexicon compile WORDS.txt`)');
    return 0;
  }
  const rows = all.map((l) => [l.name, String(l.wordCount), l.origin, l.hash, l.path]);
  const head = ['NAME', 'WORDS', 'ORIGIN', 'HASH', 'PATH'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  io.out([head, ...rows].map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n'));
  return 0;
};

const check = (positionals: string[], io: CliIo): number => {
  const [name, ...words] = positionals;
  if (name === undefined || words.length === 0) return fail(io, `check takes a lexicon name and at least one word\n${USAGE}`);
  const lexicon = loadLexicon(name);
  if (!lexicon.ok) return fail(io, lexicon.error);
  let allValid = true;
  for (const raw of words) {
    const word = raw.normalize('NFC').toUpperCase();
    const valid = lexicon.value.has(word);
    allValid &&= valid;
    io.out(`${word} ${valid ? 'VALID' : 'INVALID'}`);
  }
  return allValid ? 0 : 1;
};

export async function run(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(USAGE);
    return sub === undefined ? 2 : 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        out: { type: 'string' },
        distribution: { type: 'string' },
        json: { type: 'boolean' },
        'tile-set': { type: 'string' },
        server: { type: 'string' },
        token: { type: 'string' },
      },
    });
  } catch (e) {
    return fail(io, `${(e as Error).message}\n${USAGE}`);
  }
  const { positionals, values } = parsed;
  const allowed: Record<string, readonly string[]> = {
    compile: ['name', 'out', 'distribution'],
    list: ['json'],
    check: [],
    upload: ['name', 'tile-set', 'server', 'token'],
  };
  const options = allowed[sub];
  if (!options) return fail(io, `unknown subcommand "${sub}"\n${USAGE}`);
  const stray = Object.keys(values).find((k) => !options.includes(k));
  if (stray) return fail(io, `${sub} does not take --${stray}\n${USAGE}`);
  switch (sub) {
    case 'compile':
      return compile(positionals, values, io);
    case 'list':
      if (positionals.length > 0) return fail(io, `list takes no arguments\n${USAGE}`);
      return list(values.json === true, io);
    case 'upload': {
      const { name, server, token } = values;
      return upload(positionals, { name, tileSet: values['tile-set'], server, token }, io, (m) => fail(io, m));
    }
    default:
      return check(positionals, io);
  }
}
