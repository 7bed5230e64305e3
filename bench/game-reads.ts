/**
 * A game's read on a long game (issue #17 follow-up): service-level `getGame` p50 on an endless game of
 * ~300 pass turns (bench/server.ts `ENDLESS`), side by side in one run:
 * - full read: what getGame did before the known log — Prisma's game row and whole log, the seats, the
 *   fold from the first event (store/games.ts loadGame, seatsOf, service/game-log.ts fold);
 * - fresh process: getGame on a database handle that knows nothing (its one statement reads the whole log);
 * - known, nothing new: getGame in the process that played the turns (the statement reads no event);
 * - known, after the other process's turn: each read follows a turn another handle committed (one event read).
 * The first three are interleaved read by read. `npx tsx bench/game-reads.ts [postgres|pglite]` prints the figures
 * (standalone: not part of bench/run.ts; `BENCH_READ_TURNS`, `BENCH_READS` change the sizes).
 */
import { randomUUID } from 'node:crypto';
import { getGame, snapshotOf } from '../service/game-reads.js';
import { engineEvents, fold } from '../service/game-log.js';
import { submitTurn } from '../service/turns.js';
import { loadGame } from '../store/games.js';
import { seatsOf } from '../store/seats.js';
import { percentile, startBenchServer, type BenchBackend } from './server.js';

const TURNS = Number(process.env['BENCH_READ_TURNS'] ?? 300);
const READS = Number(process.env['BENCH_READS'] ?? 60);

const p50 = (xs: readonly number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

const timeEach = async (n: number, f: (i: number) => Promise<unknown>, between?: (i: number) => Promise<unknown>): Promise<number[]> => {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    if (between) await between(i);
    const t0 = performance.now();
    await f(i);
    ms.push(performance.now() - t0);
  }
  return ms;
};

export async function main(backend: BenchBackend): Promise<void> {
  const server = await startBenchServer(`bench_reads_${randomUUID().slice(0, 8)}`, backend);
  try {
    const deps = server.app.services;
    const players = [await server.register(`r${randomUUID().slice(0, 6)}`), await server.register(`r${randomUUID().slice(0, 6)}`)] as const;
    const game = await server.createGame(players[0], players[1]);
    let version = game.version;
    const pass = async (d: typeof deps) => {
      const r = await submitTurn(d, players[(version - game.version) % 2]!.id, {
        gameId: game.id,
        expectedVersion: version,
        idempotencyKey: randomUUID(),
        action: { kind: 'pass' },
      });
      if (!r.ok) throw new Error(r.error.message);
      version = r.value.receipt.version;
    };
    for (let i = 0; i < TURNS; i++) await pass(deps);
    const viewer = players[0].id;
    const full = async () => {
      const loaded = await loadGame(deps.db.prisma, game.id);
      if (!loaded.ok) throw new Error(loaded.error.message);
      const seats = await seatsOf(deps.db.prisma, game.id);
      const state = fold(engineEvents(loaded.value.events));
      return snapshotOf(
        loaded.value.game,
        seats,
        loaded.value.events,
        state,
        viewer,
        loaded.value.game.version,
        loaded.value.game.deadlineAt,
        deps.now(),
      );
    };
    const read = async (d: typeof deps) => {
      const r = await getGame(d, viewer, game.id);
      if (!r.ok) throw new Error(r.error.message);
    };
    // Warm-up: the statements' plans, the JIT.
    for (let i = 0; i < 10; i++) await Promise.all([full(), read(deps), read({ ...deps, db: { ...deps.db } })]);
    // Interleaved, so that the machine's drift (a shared 2-core box) falls on all three alike.
    const before: number[] = [];
    const fresh: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < READS; i++) {
      before.push(...(await timeEach(1, full)));
      fresh.push(...(await timeEach(1, () => read({ ...deps, db: { ...deps.db } }))));
      known.push(...(await timeEach(1, () => read(deps))));
    }
    // Another process (another handle: another cache) plays a turn before each read of this one.
    const other = { ...deps, db: { ...deps.db } };
    const afterOther = await timeEach(
      READS,
      () => read(deps),
      () => pass(other),
    );
    const rows = [
      ['full read of the whole log (before)', p50(before)],
      ['getGame, fresh process (whole log, one statement)', p50(fresh)],
      ['getGame, known log, nothing new', p50(known)],
      ['getGame, known log, after another process’s turn', p50(afterOther)],
    ] as const;
    console.log(`game reads on ${backend}: a game of ${TURNS}+ pass turns (version ${version}), ${READS} reads each, p50`);
    for (const [name, ms] of rows)
      console.log(`  ${name.padEnd(52)} ${ms.toFixed(2)} ms  (${(p50(before) / ms).toFixed(1)}× faster than before)`);
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const backend = (process.argv[2] ?? 'postgres') as BenchBackend;
  await main(backend);
}
