/**
 * Pairing a 500-player division by the weighted method (issue 30, item 12: ≤ 2 s). The division is
 * played forward with random results (spread −250..+250), each round paired by the weighted method
 * itself, then round 9 of 12 is paired RUNS more times and timed. Baselines from the same run: the
 * Swiss method on the same request, and the matching the weighted method avoids, edmonds-blossom
 * on the complete graph (124,750 pairs) with the same costs. `npx tsx bench/tournament-pairing.ts`
 * prints the section; `npm run bench -- tournament-pairing` writes it into RESULTS.md.
 */
import { fileURLToPath } from 'node:url';
import { mayMeet } from '../engine/tournament/pairing/common.js';
import { pairRound } from '../engine/tournament/pairing/index.js';
import { minCostPerfectMatching, type CostEdge } from '../engine/tournament/pairing/matching.js';
import { Division, rng } from '../engine/tournament/pairing/pairing.fixtures.js';
import type { PairingRequest } from '../engine/tournament/pairing/types.js';
import { costModel, pairCost } from '../engine/tournament/pairing/weighted.js';
import { printSections } from './common.js';
import type { BenchRow, BenchSection } from './types.js';

const PLAYERS = 500;
const TOTAL_ROUNDS = 12;
const PLAYED = 8;
const RUNS = 5;
const TARGET_MS = 2000;

const time = (f: () => void): number => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The division after PLAYED weighted rounds, and the time each of those rounds took to pair. */
const playForward = (): { division: Division; roundMs: number[] } => {
  const division = new Division(PLAYERS, TOTAL_ROUNDS, rng(2024));
  const roundMs: number[] = [];
  for (let r = 1; r <= PLAYED; r++) {
    let pairing: ReturnType<typeof pairRound> | undefined;
    roundMs.push(time(() => (pairing = pairRound('weighted', division.request()))));
    if (!pairing?.ok) throw new Error(`round ${r} did not pair: ${pairing?.ok === false ? pairing.error.message : '?'}`);
    division.play(pairing.value);
  }
  return { division, roundMs };
};

/** The same costs over every allowed pair: what the rank window saves. */
const completeGraphMs = (request: PairingRequest): number => {
  const pool = request.players.slice(0, request.players.length - (request.players.length % 2));
  const model = costModel(request, pool.length);
  const edges: CostEdge[] = [];
  for (let i = 0; i < pool.length; i++)
    for (let j = i + 1; j < pool.length; j++)
      if (mayMeet(request, pool[i]!, pool[j]!)) edges.push([i, j, pairCost(request, model, pool[i]!, pool[j]!)]);
  return time(() => minCostPerfectMatching(pool.length, edges));
};

export async function run(): Promise<BenchSection> {
  const { division, roundMs } = playForward();
  const request = division.request();
  const weighted = Array.from({ length: RUNS }, () => time(() => pairRound('weighted', request)));
  const swiss = Array.from({ length: RUNS }, () => time(() => pairRound('swiss', request)));
  const complete = completeGraphMs(request);
  const worst = Math.max(...weighted, ...roundMs);
  const rows: BenchRow[] = [
    {
      metric: `weighted, ${PLAYERS} players, round ${PLAYED + 1}: median of ${RUNS}`,
      value: round2(median(weighted)),
      unit: 'ms',
      target: `≤ ${TARGET_MS} ms`,
      met: median(weighted) <= TARGET_MS,
    },
    {
      metric: `weighted, worst of rounds 1–${PLAYED + 1}`,
      value: round2(worst),
      unit: 'ms',
      target: `≤ ${TARGET_MS} ms`,
      met: worst <= TARGET_MS,
    },
    { metric: `baseline: swiss, same request, median of ${RUNS}`, value: round2(median(swiss)), unit: 'ms' },
    { metric: 'baseline: edmonds-blossom on the complete graph, same costs', value: round2(complete), unit: 'ms' },
  ];
  return {
    title: 'Tournament pairing',
    rows,
    notes: [
      `${PLAYERS} players, ${TOTAL_ROUNDS} rounds, maxRepeats 0; rounds 1–${PLAYED} paired by the weighted method itself with random results, then round ${PLAYED + 1} timed.`,
      `Rounds 1–${PLAYED}: ${roundMs.map((ms) => Math.round(ms)).join(', ')} ms.`,
      'The weighted method limits the matching to pairs within a rank window that doubles while needed (engine/tournament/pairing/weighted.ts); the complete-graph row is what it would cost without.',
    ],
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  printSections([await run()]);
}
