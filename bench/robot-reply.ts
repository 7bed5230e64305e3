/**
 * The equity robot's reply time on the bench's real positions: the pruned best-move search the robot
 * runs (`chooseMove`) and the exhaustive choice over every generated move (`chooseMoveExhaustive`),
 * timed position by position in the same run, alternating which goes first, so load from other
 * processes weighs on both alike. Part of `npm run bench -- movegen`; on its own (about half a
 * minute, RESULTS.md untouched): `npx tsx bench/robot-reply.ts`.
 */
import { fileURLToPath } from 'node:url';
import type { Kwg } from '../engine/lexicon/kwg.js';
import { positionFromState, type Position } from '../engine/movegen/position.js';
import { chooseMove, chooseMoveExhaustive, seededRng } from '../engine/movegen/robot.js';
import { realPositions, sowpods } from '../test/movegen/positions.js';
import { median } from './common.js';
import type { BenchRow } from './types.js';

export const REPLY_P99_MS_TARGET = 50;

export const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const r3 = (x: number): number => Number(x.toPrecision(3));

/** The bench's positions: every liwords decision point with a full known rack, tiles on the board and in the bag. */
export const benchPositions = (): Position[] =>
  realPositions()
    .filter((p) => p.state.board.tileCount > 0 && p.state.racks[p.seat].tiles.length === 7)
    .map((p) => positionFromState(p.state, p.seat))
    .filter((p) => p.bagCount > 0);

/** Milliseconds per position for the pruned and the exhaustive equity robot, after one warm-up pass of each. */
export const replyTimes = (positions: readonly Position[], kwg: Kwg): { pruned: number[]; exhaustive: number[] } => {
  const rng = seededRng(1);
  for (const p of positions) {
    chooseMove(p, kwg, 'equity', rng);
    chooseMoveExhaustive(p, kwg, 'equity', rng);
  }
  const pruned: number[] = [];
  const exhaustive: number[] = [];
  const time = (f: typeof chooseMove, p: Position, into: number[]): void => {
    const t0 = performance.now();
    f(p, kwg, 'equity', rng);
    into.push(performance.now() - t0);
  };
  positions.forEach((p, i) => {
    if (i % 2 === 0) time(chooseMove, p, pruned);
    time(chooseMoveExhaustive, p, exhaustive);
    if (i % 2 === 1) time(chooseMove, p, pruned);
  });
  return { pruned, exhaustive };
};

export const robotReplyRows = (positions: readonly Position[], kwg: Kwg): { rows: BenchRow[]; notes: string[] } => {
  const { pruned, exhaustive } = replyTimes(positions, kwg);
  const p99 = quantile(pruned, 0.99);
  return {
    rows: [
      {
        metric: 'equity robot reply (generate + choose), p99 over the positions',
        value: r3(p99),
        unit: 'ms',
        target: `≤ ${REPLY_P99_MS_TARGET} ms`,
        met: p99 <= REPLY_P99_MS_TARGET,
      },
      { metric: 'equity robot reply, median', value: r3(median(pruned)), unit: 'ms' },
      { metric: 'the same by exhaustive choice (every move generated), p99', value: r3(quantile(exhaustive, 0.99)), unit: 'ms' },
      { metric: 'the same by exhaustive choice, median', value: r3(median(exhaustive)), unit: 'ms' },
    ],
    notes: [
      `Robot reply: chooseMove (the pruned best-move search of engine/movegen/shadow.ts, docs/movegen.md) and, in the same run, the exhaustive choice over every generated move, each position timed once per method after a warm-up pass, the two alternating which goes first; same ${positions.length} positions. Both choose the same move (engine/movegen/best-move.test.ts). On its own: \`npx tsx bench/robot-reply.ts\`.`,
    ],
  };
};

const main = async (): Promise<void> => {
  const { loadavg } = await import('node:os');
  const { kwg } = sowpods();
  const positions = benchPositions();
  const before = loadavg()[0]!;
  const { rows } = robotReplyRows(positions, kwg);
  for (const r of rows) process.stdout.write(`${r.metric}: ${r.value} ${r.unit}\n`);
  process.stdout.write(
    `positions: ${positions.length}; load average (1 min) before ${before.toFixed(2)}, after ${loadavg()[0]!.toFixed(2)}\n`,
  );
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
