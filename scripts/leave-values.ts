/**
 * Fits Arbiter's leave values by self-play and writes engine/movegen/shipped-leaves.ts.
 *
 *   npx tsx scripts/leave-values.ts [--games 3000] [--rounds 2] [--seed leaves] [--date 2026-11-25]
 *
 * Method (docs/movegen.md, "Leave values"): robots play each other with the SOWPODS KWG on the
 * standard board (engine/movegen/self-play.ts, the seeded bag of engine/game/bag.ts, NSA_2008 end of
 * game). After every play or exchange that leaves tiles in the bag, the tiles kept are a sample; its
 * target is the points the same player scores on their next turn. A ridge regression (λ = 1) of the
 * target on the leave's features — per tile kind, a first copy and each further copy; the (vowels,
 * consonants) balance — gives each feature's value; the intercept (the next turn after keeping
 * nothing, i.e. after a fresh draw) is the baseline, so a leave's value is what it adds to the next
 * turn over drawing seven new tiles. Round 1 plays score-greedy robots; each later round plays
 * equity robots using the previous round's values and refits. Same arguments, same file.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import { LEAVE_FORMAT, type LeaveModel } from '../engine/movegen/leave.js';
import { playSelfGame } from '../engine/movegen/self-play.js';
import { BLANK, ENGLISH } from '../engine/tiles.js';
import { loadKwg, PROJECT_ROOT } from '../store/lexicon-files.js';
import { ensureShippedKwgs } from './build-lexicons.js';

const KINDS = [...ENGLISH.letters.map((l) => l.letter), BLANK];
const VOWEL = new Set(ENGLISH.letters.filter((l) => l.vowel).map((l) => l.letter));
/** Leaves of up to rack size − 1 tiles are fitted (a pass keeps 7; its balance term is 0). */
const MAX_LEAVE = 6;
/** (v, c) cells with 1 ≤ v + c ≤ 6, in a fixed order. */
const CELLS: [number, number][] = [];
for (let v = 0; v <= MAX_LEAVE; v++) for (let c = 0; c + v <= MAX_LEAVE; c++) if (v + c > 0) CELLS.push([v, c]);
const FEATURES = 1 + 2 * KINDS.length + CELLS.length;

/** The feature vector of a leave: intercept, first copies, further copies, balance cell. */
const features = (leave: readonly string[]): Float64Array => {
  const x = new Float64Array(FEATURES);
  x[0] = 1;
  const counts = new Map<string, number>();
  for (const t of leave) counts.set(t, (counts.get(t) ?? 0) + 1);
  let v = 0;
  let c = 0;
  for (const [t, n] of counts) {
    const k = KINDS.indexOf(t);
    x[1 + k] = 1;
    x[1 + KINDS.length + k] = n - 1;
    if (t !== BLANK) {
      if (VOWEL.has(t)) v += n;
      else c += n;
    }
  }
  const cell = CELLS.findIndex(([a, b]) => a === v && b === c);
  if (cell >= 0) x[1 + 2 * KINDS.length + cell] = 1;
  return x;
};

/** Solves (XᵀX + λI) w = Xᵀy by Gaussian elimination with partial pivoting (the intercept is not shrunk). */
const ridge = (xtx: Float64Array[], xty: Float64Array, lambda: number): Float64Array => {
  const n = xty.length;
  const a = xtx.map((row, i) => {
    const r = Float64Array.from([...row, xty[i]!]);
    if (i > 0) r[i]! += lambda;
    return r;
  });
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]! / a[col]![col]!;
      for (let k = col; k <= n; k++) a[r]![k]! -= f * a[col]![k]!;
    }
  }
  return Float64Array.from({ length: n }, (_, i) => a[i]![n]! / a[i]![i]!);
};

interface Round {
  readonly model: LeaveModel;
  readonly samples: number;
  readonly intercept: number;
}

/** Plays `games` games with `model` (greedy when null) and fits a new model on their leaves. */
const fitRound = (kwg: Parameters<typeof playSelfGame>[0]['kwg'], games: number, seed: string, model: LeaveModel | null): Round => {
  const xtx = Array.from({ length: FEATURES }, () => new Float64Array(FEATURES));
  const xty = new Float64Array(FEATURES);
  let samples = 0;
  const add = (x: Float64Array, y: number): void => {
    for (let i = 0; i < FEATURES; i++) {
      if (x[i] === 0) continue;
      xty[i]! += x[i]! * y;
      for (let j = 0; j < FEATURES; j++) xtx[i]![j]! += x[i]! * x[j]!;
    }
    samples++;
  };
  for (let g = 0; g < games; g++) {
    const pending: [Float64Array | null, Float64Array | null] = [null, null];
    const seat = model ? { policy: 'equity' as const, leaves: model } : { policy: 'greedy' as const };
    playSelfGame({
      kwg,
      seed: `${seed}-${g}`,
      seats: [seat, seat],
      first: (g % 2) as 0 | 1,
      onMove: (s, move, bagAfter) => {
        const before = pending[s];
        if (before) add(before, move.score);
        pending[s] = move.kind !== 'pass' && bagAfter > 0 ? features(move.leave) : null;
      },
    });
  }
  const w = ridge(xtx, xty, 1);
  const round2 = (x: number): number => Math.round(x * 100) / 100;
  const tile: Record<string, number> = {};
  const duplicate: Record<string, number> = {};
  KINDS.forEach((k, i) => {
    tile[k] = round2(w[1 + i]!);
    duplicate[k] = round2(w[1 + KINDS.length + i]!);
  });
  const balance = Array.from({ length: MAX_LEAVE + 2 }, () => new Array<number>(MAX_LEAVE + 2).fill(0));
  CELLS.forEach(([v, c], i) => (balance[v]![c] = round2(w[1 + 2 * KINDS.length + i]!)));
  return { model: { format: LEAVE_FORMAT, distribution: ENGLISH.name, tile, duplicate, balance }, samples, intercept: w[0]! };
};

const render = (model: LeaveModel): string => `/**
 * Generated by \`npx tsx scripts/leave-values.ts\` (docs/movegen.md, "Leave values"): do not edit by
 * hand. Values in points, fitted by self-play; \`provenance\` says how.
 */
import { LEAVE_FORMAT, type LeaveModel } from './leave.js';

export const SHIPPED_LEAVES: LeaveModel = ${JSON.stringify({ ...model, format: '__FORMAT__' }, null, 2).replace('"__FORMAT__"', 'LEAVE_FORMAT')};
`;

const main = async (): Promise<void> => {
  const { values } = parseArgs({
    options: {
      games: { type: 'string', default: '3000' },
      rounds: { type: 'string', default: '2' },
      seed: { type: 'string', default: 'leaves' },
      date: { type: 'string' },
    },
  });
  ensureShippedKwgs();
  const loaded = loadKwg({ name: 'SOWPODS' });
  if (!loaded.ok) throw new Error(loaded.error.message);
  const games = Number(values.games);
  const rounds = Number(values.rounds);
  let model: LeaveModel | null = null;
  let last: Round | null = null;
  const t0 = performance.now();
  for (let r = 1; r <= rounds; r++) {
    last = fitRound(loaded.value.kwg, games, `${values.seed}-round${r}`, model);
    model = last.model;
    process.stderr.write(
      `round ${r}: ${last.samples} samples, baseline ${last.intercept.toFixed(1)} points, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
    );
  }
  if (!last) throw new Error('--rounds must be at least 1');
  const provenance = {
    lexicon: `${loaded.value.manifest.name} ${loaded.value.manifest.hash}`,
    distribution: ENGLISH.name,
    layout: 'CrosswordGame (15×15), NSA_2008 end of game',
    gamesPerRound: games,
    rounds,
    seed: values.seed,
    samples: last.samples,
    baselineNextTurnPoints: Math.round(last.intercept * 100) / 100,
    date: values.date ?? new Date().toISOString().slice(0, 10),
    method:
      'ridge regression (λ=1) of the next-turn score on leave features (first copy and further copies per tile kind, vowel/consonant balance); round 1 greedy self-play, later rounds equity self-play with the previous fit',
    script: `scripts/leave-values.ts --games ${games} --rounds ${rounds} --seed ${values.seed}`,
  };
  const out = join(PROJECT_ROOT, 'engine', 'movegen', 'shipped-leaves.ts');
  writeFileSync(out, await format(render({ ...last.model, provenance }), { filepath: out, ...(await resolveConfig(out)) }));
};

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
