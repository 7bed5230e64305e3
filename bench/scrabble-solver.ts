/**
 * The `scrabble-solver` npm package (Kamil Mielnik), fetched at bench time for a side-by-side run on
 * the same positions. Its licence (CC-BY-NC-ND-4.0) rules out making it a dependency or committing its
 * code, so it lives only in the gitignored `bench/.cache/scrabble-solver/`: `npm pack scrabble-solver`
 * (the tarball carries the monorepo's built `solver`, `types`, `configs` and `constants` packages),
 * plus `@kamilmielnik/trie` (MIT, its dictionary) through `npm install --prefix`. Offline, the loader
 * answers why, and the engine bench skips the comparison with that note.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Board } from '../engine/board.js';

export const CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), '.cache', 'scrabble-solver');
/** The monorepo packages the comparison needs, as `@scrabble-solver/<name>`. */
const PACKAGES = ['constants', 'types', 'configs', 'solver'] as const;
const TRIE = '@kamilmielnik/trie@4';

/** The slice of scrabble-solver's API the bench uses (its own types stay in the cache). */
export interface SsTile {
  character: string;
  isBlank: boolean;
}
export interface SsCell {
  readonly isEmpty: boolean;
  tile: SsTile;
  readonly x: number;
  readonly y: number;
}
export interface SsPattern {
  readonly cells: SsCell[];
  canBePlaced(config: unknown): boolean;
  getCollisions(): SsPattern[];
  toString(): string;
}
export interface SsBoard {
  readonly rows: SsCell[][];
}
export interface SsTrie {
  has(word: string): boolean;
}
/** One play as scrabble-solver's `solve` returns it: every cell of the word (new tiles have `isEmpty`), and its points. */
export interface SsResult {
  readonly cells: readonly { readonly x: number; readonly y: number; readonly isEmpty: boolean; readonly tile: SsTile }[];
  readonly points: number;
}
export interface ScrabbleSolver {
  readonly version: string;
  readonly config: unknown;
  newBoard(rows: SsCell[][]): SsBoard;
  newCell(init: { isEmpty: boolean; tile?: SsTile; x: number; y: number }): SsCell;
  newTile(init: { character: string; isBlank: boolean }): SsTile;
  readonly nullTile: SsTile;
  horizontal(board: SsBoard, cells: SsCell[]): SsPattern;
  vertical(board: SsBoard, cells: SsCell[]): SsPattern;
  getPatternScore(config: unknown, pattern: SsPattern): number;
  trieFromArray(words: string[]): SsTrie;
  /** All plays of `tiles` (a blank is `{ character: ' ', isBlank: true }`) on the board. */
  solve(trie: SsTrie, config: unknown, board: SsBoard, tiles: SsTile[]): SsResult[];
}

/** scrabble-solver's board for one of our positions (lowercase letters, as its English config has them). */
export const ssBoardOf = (ss: ScrabbleSolver, board: Board): SsBoard => {
  const n = board.layout.rows.length;
  const rows: SsCell[][] = [];
  for (let y = 0; y < n; y++) {
    const row: SsCell[] = [];
    for (let x = 0; x < n; x++) {
      const t = board.cells[y * n + x];
      row.push(
        t
          ? ss.newCell({ isEmpty: false, tile: ss.newTile({ character: t.letter.toLowerCase(), isBlank: t.blank }), x, y })
          : ss.newCell({ isEmpty: true, x, y }),
      );
    }
    rows.push(row);
  }
  return ss.newBoard(rows);
};

const run = (cmd: string, args: readonly string[], cwd: string): string =>
  execFileSync(cmd, [...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });

/** Downloads into the cache unless it is already there. Throws with npm's message when it cannot. */
const ensureCache = (): void => {
  const modules = join(CACHE_DIR, 'node_modules');
  if (existsSync(join(modules, '@scrabble-solver', 'solver', 'build', 'index.js')) && existsSync(join(modules, '@kamilmielnik', 'trie')))
    return;
  rmSync(CACHE_DIR, { recursive: true, force: true });
  mkdirSync(CACHE_DIR, { recursive: true });
  writeFileSync(join(CACHE_DIR, 'package.json'), '{ "private": true, "description": "bench cache: not part of Arbiter" }\n');
  // The trie first: npm install prunes what its package.json does not list, i.e. the packages copied below.
  run(
    'npm',
    ['install', '--prefix', CACHE_DIR, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', TRIE],
    CACHE_DIR,
  );
  const tmp = mkdtempSync(join(CACHE_DIR, 'pack-'));
  try {
    const out = run('npm', ['pack', 'scrabble-solver', '--silent', '--pack-destination', tmp], tmp).trim().split('\n').pop()!;
    run('tar', ['xzf', join(tmp, out), '-C', tmp], tmp);
    for (const p of PACKAGES) {
      const from = join(tmp, 'package', 'packages', p);
      const to = join(modules, '@scrabble-solver', p);
      cpSync(join(from, 'build'), join(to, 'build'), { recursive: true });
      cpSync(join(from, 'package.json'), join(to, 'package.json'));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
};

/** scrabble-solver from the cache (fetched on first use), or the reason it is not available. */
export const loadScrabbleSolver = (): { ok: true; value: ScrabbleSolver } | { ok: false; reason: string } => {
  try {
    ensureCache();
  } catch (e) {
    const msg = e instanceof Error ? (e as { stderr?: string }).stderr || e.message : String(e);
    rmSync(CACHE_DIR, { recursive: true, force: true });
    return { ok: false, reason: `could not fetch scrabble-solver from npm (${msg.trim().split('\n').slice(-2).join(' ')})` };
  }
  const require = createRequire(join(CACHE_DIR, 'index.js'));
  const types = require('@scrabble-solver/types');
  const solver = require('@scrabble-solver/solver');
  const configs = require('@scrabble-solver/configs');
  const { Trie } = require('@kamilmielnik/trie');
  const version = (
    JSON.parse(readFileSync(join(CACHE_DIR, 'node_modules', '@scrabble-solver', 'solver', 'package.json'), 'utf8')) as { version: string }
  ).version;
  return {
    ok: true,
    value: {
      version,
      config: configs.languages.englishGbScrabble,
      newBoard: (rows) => new types.Board({ rows }),
      newCell: (init) => new types.Cell(init),
      newTile: (init) => new types.Tile(init),
      nullTile: types.Tile.Null,
      horizontal: (board, cells) => new types.HorizontalPattern(board, cells),
      vertical: (board, cells) => new types.VerticalPattern(board, cells),
      getPatternScore: (config, pattern) => solver.getPatternScore(config, pattern),
      trieFromArray: (words) => Trie.fromArray(words),
      solve: (trie, config, board, tiles) => solver.solve(trie, config, board, tiles),
    },
  };
};
