/**
 * The move generator (engine/movegen): the KWG's load time and memory, µs per real mid-game position
 * for every move with its score and equity, scrabble-solver on the same positions in the same run
 * (speed, and its plays as a second oracle), the robots' reply latency, and the equity robot against
 * the greedy one over many self-play games (`BENCH_ROBOT_GAMES`, default 2,000).
 */
import { readFileSync } from 'node:fs';
import type { Kwg } from '../engine/lexicon/kwg.js';
import { decodeKwg } from '../engine/lexicon/kwg.js';
import { parseKwgManifest } from '../engine/lexicon/kwg-manifest.js';
import { generateMoves, MoveGenerator, type MoveSet } from '../engine/movegen/generate.js';
import type { Position } from '../engine/movegen/position.js';
import { playSelfGame } from '../engine/movegen/self-play.js';
import { SHIPPED_LEAVES } from '../engine/movegen/shipped-leaves.js';
import { ensureShippedKwgs } from '../scripts/build-lexicons.js';
import { sowpods } from '../test/movegen/positions.js';
import { median, retainedMb, timeMs } from './common.js';
import { benchPositions, quantile, robotReplyRows } from './robot-reply.js';
import { loadScrabbleSolver, ssBoardOf, type ScrabbleSolver, type SsTrie } from './scrabble-solver.js';
import type { BenchRow, BenchSection } from './types.js';

const LOAD_MS_TARGET = 50;
const MEMORY_MB_TARGET = 30;
const MEDIAN_US_TARGET = 1000;
const SPEEDUP_TARGET = 20;
const WIN_RATE_TARGET = 0.58;

const r3 = (x: number): number => Number(x.toPrecision(3));

/** Read + manifest + decode of SOWPODS.kwg, as a cold process would do it. */
const kwgLoad = (path: string): Kwg => {
  const manifest = parseKwgManifest(readFileSync(path.replace(/\.kwg$/, '.kwg.json'), 'utf8'));
  if (!manifest.ok) throw new Error(manifest.error.message);
  const kwg = decodeKwg(readFileSync(path), manifest.value.alphabet, { sha256: manifest.value.sha256 });
  if (!kwg.ok) throw new Error(kwg.error.message);
  return kwg.value;
};

const lexiconRows = (path: string): BenchRow[] => {
  const cold = timeMs(() => kwgLoad(path));
  const kwg = kwgLoad(path);
  const ms = median(Array.from({ length: 15 }, () => timeMs(() => kwgLoad(path))));
  const full = median(Array.from({ length: 15 }, () => timeMs(() => decodeKwg(readFileSync(path), kwg.alphabet))));
  const mem = retainedMb(() => kwgLoad(path));
  return [
    { metric: 'SOWPODS.kwg: nodes (DAWG + GADDAG)', value: kwg.nodes.length, unit: 'nodes' },
    { metric: 'SOWPODS.kwg: file size', value: r3((4 * kwg.nodes.length) / 2 ** 20), unit: 'MB' },
    {
      metric: 'SOWPODS.kwg ready, first load in the process',
      value: r3(cold),
      unit: 'ms',
      target: `≤ ${LOAD_MS_TARGET} ms`,
      met: cold <= LOAD_MS_TARGET,
    },
    {
      metric: 'SOWPODS.kwg ready (read + manifest + digest check), median of 15',
      value: r3(ms),
      unit: 'ms',
      target: `≤ ${LOAD_MS_TARGET} ms`,
      met: ms <= LOAD_MS_TARGET,
    },
    { metric: 'the same with the node-by-node check instead of the digest (a KWG built elsewhere)', value: r3(full), unit: 'ms' },
    {
      metric: 'SOWPODS.kwg memory (heap + buffers)',
      value: r3(mem.total),
      unit: 'MB',
      target: `≤ ${MEMORY_MB_TARGET} MB`,
      met: mem.total <= MEMORY_MB_TARGET,
    },
  ];
};

/** Times every position `rounds` times (after one warm-up pass); returns per-position µs (best of the rounds). */
const timeEach = (positions: readonly Position[], rounds: number, f: (p: Position) => unknown): number[] => {
  for (const p of positions) f(p);
  const best = positions.map(() => Infinity);
  for (let r = 0; r < rounds; r++)
    positions.forEach((p, i) => {
      const t0 = performance.now();
      f(p);
      best[i] = Math.min(best[i]!, (performance.now() - t0) * 1000);
    });
  return best;
};

/** Placement keys with scores of our plays, and of scrabble-solver's. */
const ourPlays = (set: MoveSet): Map<string, number> => {
  const out = new Map<string, number>();
  const { list, codec } = set;
  for (let m = 0; m < list.count; m++) {
    if (list.kind[m] !== 0) continue;
    const keys: string[] = [];
    for (let i = 0; i < list.length[m]!; i++) {
      const b = list.tiles[m * list.width + i]!;
      if (b === 0) continue;
      const at = list.start[m]! + i;
      const [row, col] = list.dir[m] === 1 ? [at, list.lane[m]!] : [list.lane[m]!, at];
      const letter = codec.letters[b & 0x7f]!;
      keys.push(`${row},${col},${b >= 0x80 ? letter.toLowerCase() : letter}`);
    }
    out.set(keys.sort().join(' '), list.score[m]!);
  }
  return out;
};

const theirPlays = (ss: ScrabbleSolver, trie: SsTrie, p: Position): Map<string, number> => {
  const tiles = p.rack.map((t) => ss.newTile({ character: t === '?' ? ' ' : t.toLowerCase(), isBlank: t === '?' }));
  const out = new Map<string, number>();
  for (const r of ss.solve(trie, ss.config, ssBoardOf(ss, p.board), tiles)) {
    const keys = r.cells
      .filter((c) => c.isEmpty)
      .map((c) => `${c.y},${c.x},${c.tile.isBlank ? c.tile.character.toLowerCase() : c.tile.character.toUpperCase()}`);
    out.set(keys.sort().join(' '), r.points);
  }
  return out;
};

const generationRows = (positions: readonly Position[], kwg: Kwg): { rows: BenchRow[]; ours: number[]; notes: string[] } => {
  const g = new MoveGenerator(15);
  let moves = 0;
  for (const p of positions) moves += g.generate(p, kwg, { leaves: SHIPPED_LEAVES }).list.count;
  const ours = timeEach(positions, 3, (p) => g.generate(p, kwg, { leaves: SHIPPED_LEAVES }));
  const objects = timeEach(positions, 1, (p) => generateMoves(p, kwg, { leaves: SHIPPED_LEAVES }));
  const noBlank = ours.filter((_, i) => !positions[i]!.rack.includes('?'));
  const med = median(ours);
  return {
    ours,
    rows: [
      {
        metric: `all moves with score and equity, median (${positions.length} positions)`,
        value: Math.round(med),
        unit: 'µs',
        target: `≤ ${MEDIAN_US_TARGET} µs`,
        met: med <= MEDIAN_US_TARGET,
      },
      { metric: 'all moves with score and equity, p99', value: Math.round(quantile(ours, 0.99)), unit: 'µs' },
      { metric: 'the same, racks without a blank: median', value: Math.round(median(noBlank)), unit: 'µs' },
      { metric: 'moves per position (plays, exchanges, pass), mean', value: Math.round(moves / positions.length), unit: 'moves' },
      { metric: 'all moves as objects, sorted by equity (generateMoves), median', value: Math.round(median(objects)), unit: 'µs' },
    ],
    notes: [
      `Positions: every decision point of the ${'liwords'} records (test/fixtures/gcg/liwords) with a full known rack, tiles on the board and tiles in the bag; lexicon SOWPODS (KWG); best of 3 timed passes after a warm-up; one core. The list is typed arrays (move kind, squares, tiles, score, leave index, equity) with the shipped leave values; "as objects" adds building a GeneratedMove per move and sorting.`,
    ],
  };
};

const scrabbleSolverRows = (positions: readonly Position[], kwg: Kwg, oursUs: readonly number[]): { rows: BenchRow[]; notes: string[] } => {
  const ss = loadScrabbleSolver();
  if (!ss.ok) return { rows: [], notes: [`scrabble-solver comparison skipped: ${ss.reason}.`] };
  const trie = ss.value.trieFromArray(sowpods().words.map((w) => w.toLowerCase()));
  const step = Math.max(1, Math.floor(positions.length / 40));
  const sample = positions.filter((_, i) => i % step === 0).slice(0, 40);
  const theirs = sample.map((p) => timeMs(() => theirPlays(ss.value, trie, p)) * 1000);
  const oursSample = positions
    .map((_, i) => i)
    .filter((i) => i % step === 0)
    .slice(0, 40)
    .map((i) => oursUs[i]!);
  const g = new MoveGenerator(15);
  let agree = 0;
  let plays = 0;
  const diffs: string[] = [];
  for (const p of sample) {
    const a = ourPlays(g.generate(p, kwg, { nonPlays: false }));
    const b = theirPlays(ss.value, trie, p);
    plays += a.size;
    const missing = [...b].filter(([k, v]) => a.get(k) !== v).length;
    const extra = [...a.keys()].filter((k) => !b.has(k)).length;
    if (missing + extra === 0) agree++;
    else diffs.push(`${missing} of theirs not ours, ${extra} of ours not theirs`);
  }
  const speedup = median(theirs) / median(oursSample);
  return {
    rows: [
      {
        metric: `baseline: scrabble-solver ${ss.value.version} solve(), same ${sample.length} positions, median`,
        value: Math.round(median(theirs)),
        unit: 'µs',
      },
      { metric: 'Arbiter on those positions, median', value: Math.round(median(oursSample)), unit: 'µs' },
      {
        metric: 'Arbiter ÷ scrabble-solver, speed (ratio of medians)',
        value: r3(speedup),
        unit: '×',
        target: `≥ ${SPEEDUP_TARGET}×`,
        met: speedup >= SPEEDUP_TARGET,
      },
      { metric: 'positions where both list exactly the same plays with the same scores', value: agree, unit: `of ${sample.length}` },
    ],
    notes: [
      `scrabble-solver (fetched into bench/.cache, never a dependency) with a trie of the same SOWPODS words, English GB config; its solve() scores plays but has no equity, so Arbiter's time above includes equity and exchanges it does not. Second oracle: ${plays} of our plays on the sample compared as sets of placements with scores${diffs.length ? `; differences: ${diffs.slice(0, 3).join('; ')}` : ''}.`,
    ],
  };
};

const robotRows = (positions: readonly Position[], kwg: Kwg): { rows: BenchRow[]; notes: string[] } => {
  const reply = robotReplyRows(positions, kwg);
  const games = Number(process.env.BENCH_ROBOT_GAMES ?? 2000);
  const t0 = performance.now();
  let wins = 0;
  let ties = 0;
  const spreads: number[] = [];
  for (let g = 0; g < games; g++) {
    // The equity robot sits in seat g % 2 and seat 0 moves first, so each side starts half the games.
    const eq = (g % 2) as 0 | 1;
    const r = playSelfGame({
      kwg,
      seed: `bench-robots-${g}`,
      seats: eq === 0 ? [{ policy: 'equity' }, { policy: 'greedy' }] : [{ policy: 'greedy' }, { policy: 'equity' }],
    });
    if (r.winner === eq) wins++;
    else if (r.winner === null) ties++;
    spreads.push(r.scores[eq] - r.scores[1 - eq]!);
  }
  const seconds = (performance.now() - t0) / 1000;
  const rate = (wins + ties / 2) / games;
  const mean = spreads.reduce((a, b) => a + b, 0) / games;
  const sd = Math.sqrt(spreads.reduce((a, b) => a + (b - mean) ** 2, 0) / (games - 1));
  return {
    rows: [
      ...reply.rows,
      {
        metric: `equity robot vs greedy robot: win rate over ${games} games (ties ½)`,
        value: r3(rate),
        unit: 'share',
        target: `≥ ${WIN_RATE_TARGET}`,
        met: rate >= WIN_RATE_TARGET,
      },
      { metric: 'equity robot vs greedy robot: mean spread per game', value: r3(mean), unit: 'points' },
      { metric: 'equity robot vs greedy robot: spread standard deviation', value: r3(sd), unit: 'points' },
      { metric: `self-play time for ${games} games`, value: Math.round(seconds), unit: 's' },
    ],
    notes: [
      ...reply.notes,
      `Robots: engine/movegen/robot.ts; games: engine/movegen/self-play.ts (SOWPODS, standard board, seeded bag of engine/game/bag.ts, NSA_2008 end of game), seeds bench-robots-0…${games - 1}, each robot first in half of them. Win rate standard error ≈ ${r3(Math.sqrt((rate * (1 - rate)) / games))}; spread standard error ≈ ${r3(sd / Math.sqrt(games))} points. Leave values: engine/movegen/shipped-leaves.ts (${SHIPPED_LEAVES.provenance?.gamesPerRound ?? '?'} games × ${SHIPPED_LEAVES.provenance?.rounds ?? '?'} rounds of self-play, seeds other than these).`,
    ],
  };
};

export async function run(): Promise<BenchSection> {
  const built = ensureShippedKwgs();
  const kwgPath = built.find((b) => b.name === 'SOWPODS')!.path;
  const { kwg } = sowpods();
  const positions = benchPositions();
  const rows: BenchRow[] = [...lexiconRows(kwgPath)];
  const gen = generationRows(positions, kwg);
  const ss = scrabbleSolverRows(positions, kwg, gen.ours);
  const robots = robotRows(positions, kwg);
  rows.push(...gen.rows, ...ss.rows, ...robots.rows);
  return {
    title: 'Move generation, equity and robots (engine/movegen)',
    rows,
    notes: [
      'MAGPIE (optimised C, one thread) takes about 0.6 ms per real mid-game position with equity (~880 plays, a smaller list than SOWPODS); the mark was within 2× of it.',
      ...gen.notes,
      ...ss.notes,
      ...robots.notes,
    ],
  };
}
