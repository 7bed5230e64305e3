/**
 * The rules engine on real games: validation + scoring of every play in the GCG corpus with the
 * SOWPODS lexicon (target ≥ 100,000 plays/s on one core), and whole-record GCG replay through the
 * game state machine (games/s). Each figure comes with baselines measured in the same run: the
 * `scrabble-solver` npm package on the very same positions (fetched into bench/.cache/ at bench time,
 * see bench/scrabble-solver.ts; skipped with a note when offline), and the same words looked up in a
 * plain `Set`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGcg } from '../engine/gcg/index.js';
import { replayGcg } from '../engine/gcg/replay.js';
import { apply } from '../engine/game/apply.js';
import type { GameState } from '../engine/game/state.js';
import { ensureShippedLexicons } from '../scripts/build-lexicons.js';
import { decodeDawgFile } from '../engine/lexicon/dawg-file.js';
import { loadLexicon } from '../store/lexicon-files.js';
import type { PlayMove } from '../engine/move.js';
import { parseMove } from '../engine/move.js';
import { checkPlay, type PlayContext } from '../engine/placement.js';
import { SHIPPED_LEXICONS } from '../engine/lexicon/shipped.js';
import { shippedSourcePath } from '../scripts/build-lexicons.js';
import { bestOf, median, retainedMb, timeMs } from './common.js';
import {
  loadScrabbleSolver,
  ssBoardOf,
  type ScrabbleSolver,
  type SsBoard,
  type SsCell,
  type SsPattern,
  type SsTrie,
} from './scrabble-solver.js';
import type { BenchRow, BenchSection } from './types.js';

const PLAYS_TARGET = 100_000;
const CORPUS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'gcg', 'liwords');

/**
 * The same play through scrabble-solver, as its solver judges a filled pattern: the pattern from the
 * move (board cells for squares played through, new cells for the tiles laid), `canBePlaced`, the main
 * word and every cross word in its trie, then `getPatternScore`. Null when it refuses the play.
 */
const ssCheck = (ss: ScrabbleSolver, trie: SsTrie, board: SsBoard, move: PlayMove): number | null => {
  const across = move.anchor.dir === 'across';
  const cells: SsCell[] = [];
  let { row: y, col: x } = move.anchor;
  for (const t of move.word) {
    const existing = board.rows[y]?.[x];
    if (!existing) return null;
    if (t.kind === 'through' || !existing.isEmpty) cells.push(existing);
    else cells.push(ss.newCell({ isEmpty: true, tile: ss.newTile({ character: t.letter.toLowerCase(), isBlank: t.blank }), x, y }));
    if (across) x++;
    else y++;
  }
  const pattern: SsPattern = across ? ss.horizontal(board, cells) : ss.vertical(board, cells);
  if (!pattern.canBePlaced(ss.config)) return null;
  if (!trie.has(pattern.toString())) return null;
  for (const c of pattern.getCollisions()) if (!trie.has(c.toString())) return null;
  return ss.getPatternScore(ss.config, pattern);
};

/** Three significant figures: ratios span 0.001 to 1000. */
const ratio = (x: number): number => Number(x.toPrecision(3));

export async function run(): Promise<BenchSection> {
  const built = ensureShippedLexicons();
  const lexicon = loadLexicon('SOWPODS');
  if (!lexicon.ok) throw new Error(lexicon.error.message);
  const files = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.gcg'))
    .map((f) => readFileSync(join(CORPUS, f)));

  // Every play of the corpus with the board and rack it was made from, taken from the replayed games.
  const plays: { ctx: PlayContext; move: PlayMove; words: string[]; score: number }[] = [];
  for (const bytes of files) {
    const doc = parseGcg(bytes);
    if (!doc.ok) continue;
    const report = replayGcg(doc.value);
    let state: GameState | null = null;
    for (const e of report.events) {
      if (e.type === 'play' && state) {
        const m = parseMove(e.move);
        if (m.ok && m.value.kind === 'play') {
          plays.push({
            ctx: {
              board: state.board,
              distribution: state.distribution,
              rack: state.racks[e.seat].tiles,
              lexicon: lexicon.value,
              requireValidWords: false,
            },
            move: m.value,
            words: e.words.map((w) => w.word),
            score: e.score,
          });
        }
      }
      const r = apply(state, e);
      if (!r.ok) break;
      state = r.value;
    }
  }

  const rounds = 20;
  let sink = 0;
  const checkMs = bestOf(5, () => {
    for (let k = 0; k < rounds; k++)
      for (const p of plays) {
        const r = checkPlay(p.ctx, p.move);
        if (r.ok) sink += r.value.score;
      }
  });
  const set = new Set(plays.flatMap((p) => p.words));
  const setMs = bestOf(5, () => {
    for (let k = 0; k < rounds; k++) for (const p of plays) for (const w of p.words) if (set.has(w)) sink++;
  });
  const playsPerSec = (plays.length * rounds) / (checkMs / 1000);
  const setPlaysPerSec = (plays.length * rounds) / (setMs / 1000);
  const ours = plays.map((p) => checkPlay(p.ctx, p.move));
  const oursAgree = ours.filter((r, i) => r.ok && r.value.score === plays[i]!.score).length;

  const replayRounds = 5;
  const replayMs = bestOf(3, () => {
    for (let k = 0; k < replayRounds; k++)
      for (const bytes of files) {
        const doc = parseGcg(bytes);
        if (doc.ok) sink += replayGcg(doc.value).moves;
      }
  });
  const parseMs = bestOf(3, () => {
    for (let k = 0; k < replayRounds; k++) for (const bytes of files) if (parseGcg(bytes).ok) sink++;
  });
  const gamesPerSec = (files.length * replayRounds) / (replayMs / 1000);
  const parsePerSec = (files.length * replayRounds) / (parseMs / 1000);

  const rows: BenchRow[] = [
    {
      metric: 'plays validated and scored (SOWPODS)',
      value: Math.round(playsPerSec),
      unit: 'plays/s',
      target: `≥ ${PLAYS_TARGET.toLocaleString('en-US')} plays/s`,
      met: playsPerSec >= PLAYS_TARGET,
    },
  ];
  const notes = [
    `${plays.length} plays from ${files.length} liwords records (test/fixtures/gcg/liwords), ${rounds} passes, best of 5; one core. checkPlay gives the score the replay (checked against the record) gave for ${oursAgree} of ${plays.length} plays.`,
  ];

  // scrabble-solver on the same positions, with a trie of the same word list.
  const ss = loadScrabbleSolver();
  if (ss.ok) {
    const sowpods = SHIPPED_LEXICONS.find((l) => l.name === 'SOWPODS')!;
    const words = readFileSync(shippedSourcePath(sowpods.package, sowpods.file), 'utf8')
      .split('\n')
      .map((w) => w.trim().toLowerCase())
      .filter(Boolean);
    const trieMs = median(Array.from({ length: 3 }, () => timeMs(() => ss.value.trieFromArray(words))));
    const trieMem = retainedMb(() => ss.value.trieFromArray(words));
    const kwg = built.find((b) => b.name === 'SOWPODS')!.path;
    const ourLoadMs = median(Array.from({ length: 9 }, () => timeMs(() => decodeDawgFile(readFileSync(kwg)))));
    const ourMem = retainedMb(() => decodeDawgFile(readFileSync(kwg)));
    const trie = ss.value.trieFromArray(words);
    const positions = plays.map((p) => ({ board: ssBoardOf(ss.value, p.ctx.board), move: p.move }));
    const theirs = positions.map((p) => ssCheck(ss.value, trie, p.board, p.move));
    const clean = ours.map((r) => r.ok && r.value.phonies.length === 0);
    const agree = theirs.filter((score, i) => clean[i] && ours[i]!.ok && ours[i]!.value.score === score).length;
    const refusedPhonies = theirs.filter((score, i) => !clean[i] && score === null).length;
    const ssMs = bestOf(5, () => {
      for (let k = 0; k < rounds; k++)
        for (const p of positions) {
          const score = ssCheck(ss.value, trie, p.board, p.move);
          if (score !== null) sink += score;
        }
    });
    const ssPlaysPerSec = (plays.length * rounds) / (ssMs / 1000);
    rows.push(
      {
        metric: `baseline: scrabble-solver ${ss.value.version}, same plays (pattern, trie lookups, getPatternScore)`,
        value: Math.round(ssPlaysPerSec),
        unit: 'plays/s',
      },
      { metric: 'Arbiter ÷ scrabble-solver, plays/s', value: ratio(playsPerSec / ssPlaysPerSec), unit: '×' },
      {
        metric: 'SOWPODS ready: Arbiter (read + decode .dawg)',
        value: ratio(ourLoadMs),
        unit: 'ms',
        target: '≤ 20 ms',
        met: ourLoadMs <= 20,
      },
      { metric: 'baseline: scrabble-solver Trie.fromArray of the word list', value: ratio(trieMs), unit: 'ms' },
      { metric: 'Arbiter ÷ scrabble-solver, lexicon ready time', value: ratio(ourLoadMs / trieMs), unit: '×' },
      {
        metric: 'SOWPODS memory: Arbiter (heap + buffers)',
        value: ratio(ourMem.total),
        unit: 'MB',
        target: '≤ 15 MB',
        met: ourMem.total <= 15,
      },
      { metric: 'baseline: scrabble-solver trie memory', value: ratio(trieMem.total), unit: 'MB' },
      { metric: 'Arbiter ÷ scrabble-solver, lexicon memory', value: ratio(ourMem.total / trieMem.total), unit: '×' },
    );
    notes.push(
      `scrabble-solver (CC-BY-NC-ND-4.0, fetched by \`npm pack\` into the gitignored bench/.cache/, never a dependency) judges each play as its solver judges a filled pattern: canBePlaced, the main word and cross words in its trie, getPatternScore. It does not check the rack, the board edges, whether the word is whole or the first move's centre square, so it does less work than Arbiter's checkPlay. Of the ${clean.filter(Boolean).length} plays whose words are all in SOWPODS, its score equals Arbiter's for ${agree}; it refuses ${refusedPhonies} of the ${plays.length - clean.filter(Boolean).length} plays with words SOWPODS lacks (the records are from newer lists), which Arbiter scores and lists as phonies.`,
    );
  } else {
    notes.push(`scrabble-solver comparison skipped: ${ss.reason}. The Set baseline below still runs.`);
  }
  rows.push(
    { metric: "baseline: the same plays' words looked up in a Set", value: Math.round(setPlaysPerSec), unit: 'plays/s' },
    { metric: 'Arbiter ÷ Set lookups, plays/s', value: ratio(playsPerSec / setPlaysPerSec), unit: '×' },
    { metric: 'GCG records parsed and replayed through the state machine', value: Math.round(gamesPerSec), unit: 'games/s' },
    { metric: 'baseline: GCG records parsed only', value: Math.round(parsePerSec), unit: 'games/s' },
    { metric: 'replay ÷ parse-only, games/s', value: ratio(gamesPerSec / parsePerSec), unit: '×' },
  );
  notes.push('Replay = parse + events + fold with every score, rack and running total checked (no lexicon).');
  if (sink === -1) console.log(sink);
  return { title: 'Rules engine (placement, scoring, game replay)', rows, notes };
}
