/**
 * Robot seats end to end (issue 19): the time from a person's committed turn to the robot's reply
 * committed by the in-process worker (service/robot-worker.ts) — reading the game, generating every
 * move with equity, and its own `submitTurn` transaction — on the embedded database (PGlite in memory).
 * The person passes every turn, so the robot plays each game until its bag runs out. The engine part
 * alone is bench/movegen.ts's "equity robot reply".
 */
import { createApp } from '../functions/app.js';
import { seedDemoPlayers } from '../service/accounts.js';
import { createGame, setBagSeedSourceForTests } from '../service/game-create.js';
import { submitTurn } from '../service/turns.js';
import type { BenchRow, BenchSection } from './types.js';

const GAMES = Number(process.env['BENCH_ROBOT_SEAT_GAMES'] ?? 12);
const TARGET_MS = 50;

const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

export async function run(): Promise<BenchSection> {
  const app = await createApp({
    dbOptions: { dataDir: 'memory://' },
    env: { ARBITER_JWT_SECRET: 'bench-only-secret-of-at-least-32-characters' },
    robotSweepMs: 0,
    warn: () => undefined,
  });
  const replies: number[] = [];
  /** The process's first reply: it loads the KWG and compiles the move generator (reported apart). */
  let first: number | null = null;
  try {
    await seedDemoPlayers(app.services.db.prisma);
    const alice = await app.services.db.prisma.player.findUniqueOrThrow({ where: { handle: 'alice' } });
    for (let g = 0; g < GAMES; g++) {
      setBagSeedSourceForTests(() => `bench-robot-seats-${g}-0123456789abcdef`);
      const made = await createGame(app.services, alice.id, { opponent: 'robot:equity' });
      if (!made.ok) throw new Error(made.error.message);
      let version = made.value.version;
      for (let turn = 0; turn < 60; turn++) {
        const r = await submitTurn(app.services, alice.id, {
          gameId: made.value.id,
          expectedVersion: version,
          idempotencyKey: `bench-${g}-${turn}`,
          action: { kind: 'pass' },
        });
        if (!r.ok) break; // the game is over
        const t0 = performance.now();
        await app.robots!.idle();
        const after = await app.services.db.prisma.game.findUniqueOrThrow({ where: { id: made.value.id } });
        if (after.version === r.value.receipt.version) break; // the robot had nothing to do
        if (first === null) first = performance.now() - t0;
        else replies.push(performance.now() - t0);
        version = after.version;
        if (after.status === 'ended') break;
      }
    }
  } finally {
    setBagSeedSourceForTests(null);
    await app.close();
  }
  const p50 = quantile(replies, 0.5);
  const p99 = quantile(replies, 0.99);
  const rows: BenchRow[] = [
    { metric: "the process's first robot reply (KWG load, cold move generator)", value: Math.round((first ?? NaN) * 10) / 10, unit: 'ms' },
    {
      metric: `robot seat reply (person's commit → robot's commit), median over ${replies.length} replies`,
      value: Math.round(p50 * 10) / 10,
      unit: 'ms',
    },
    {
      metric: "robot seat reply (person's commit → robot's commit), p99",
      value: Math.round(p99 * 10) / 10,
      unit: 'ms',
      target: `≤ ${TARGET_MS} ms`,
      met: p99 <= TARGET_MS,
    },
  ];
  return {
    title: 'Robot seats (service/robot-worker.ts)',
    rows,
    notes: [
      `${GAMES} games against robot:equity on PGlite in memory (seeds bench-robot-seats-0…${GAMES - 1}); the person passes each turn, the robot plays until the bag is out; every reply after the process's first is counted. Includes reading the game (the state this process just committed, service/log-cache.ts, or else the log folded), move generation with equity (bench/movegen.ts: equity robot reply) and the robot's submitTurn transaction.`,
    ],
  };
}
