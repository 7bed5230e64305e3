/**
 * Test fixtures for placement and scoring tests: compact builders for moves, boards and a
 * Set-backed lexicon. Test-only; kept out of the engine's public surface.
 */
import { emptyBoard, parseAnchor, STANDARD_LAYOUT, withTiles, type Board, type Layout } from './board.js';
import type { Lexicon } from './lexicon/lexicon.js';
import type { PlayMove, WordTile } from './move.js';
import { splitTiles } from './tiles.js';

/**
 * `play('8H', 'Q.iZ')`: a PlayMove from a GCG coordinate and a word (uppercase = tile, lowercase =
 * designated blank, `.` = played through, `[CH]` = digraph tile). Throws on bad input: tests only.
 */
export const play = (coord: string, word: string): PlayMove => {
  const anchor = parseAnchor(coord);
  const tiles = splitTiles(word);
  if (!anchor.ok || !tiles) throw new Error(`bad test move ${coord} ${word}`);
  return {
    kind: 'play',
    anchor: anchor.value,
    word: tiles.map((t): WordTile =>
      t === '.' ? { kind: 'through' } : { kind: 'letter', letter: t.toUpperCase(), blank: t !== t.toUpperCase() },
    ),
  };
};

/** A board with these words already on it (written like {@link play}, `.` skipped); no legality checks. */
export const boardWith = (words: readonly (readonly [string, string])[], layout: Layout = STANDARD_LAYOUT): Board => {
  let board = emptyBoard(layout);
  for (const [coord, word] of words) {
    const m = play(coord, word);
    const dr = m.anchor.dir === 'down' ? 1 : 0;
    const placed = [];
    for (let i = 0; i < m.word.length; i++) {
      const t = m.word[i]!;
      if (t.kind === 'letter')
        placed.push({ row: m.anchor.row + dr * i, col: m.anchor.col + (1 - dr) * i, letter: t.letter, blank: t.blank });
    }
    board = withTiles(board, placed);
  }
  return board;
};

/** A Set-backed lexicon. */
export const setLexicon = (words: readonly string[], name = 'TEST'): Lexicon => {
  const set = new Set(words);
  return { name, hash: 'sha256:test', wordCount: set.size, has: (w) => set.has(w) };
};
