/**
 * The lobby (issue 33, item 6): accepting a seek with 10,000 open seeks must cost at most twice accepting one
 * with 10. Open seeks are bulk-inserted with generate_series beside a handful of fresh ones; each timed accept
 * (service/seeks.ts acceptSeek: the read by id, the conditional UPDATE by primary key and the game's write, one
 * transaction) takes a fresh seek. The listing's first page is timed too, and the plans of the listing and of
 * the accept's UPDATE are printed in the notes (EXPLAIN ANALYZE): both read an index, never the whole table.
 * On PGlite and on Postgres. `npx tsx bench/lobby.ts` prints the section.
 */
import type { ServiceDeps } from '../service/context.js';
import { loadLexiconRegistry, registerLexicons } from '../service/lexicons.js';
import { acceptSeek, createSeek, listSeeks } from '../service/seeks.js';
import type { Db } from '../store/db.js';
import { openSeeksSql } from '../store/lobby.js';
import { insertPlayer } from '../store/players.js';
import { onBothDatabases, percentile, runWhenMain } from './server.js';
import type { BenchRow, BenchSection } from './types.js';

const SMALL = 10;
const LARGE = Number(process.env['BENCH_LOBBY_SEEKS'] ?? 10_000);
const ACCEPTS = 30;
const LEXICONS = loadLexiconRegistry();

const p50 = (xs: number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** `count` open seeks by `authors` bench players, expiring in a week. */
const seedSql = (count: number, from: number) => [
  `INSERT INTO seeks (author_id, rule_set_id, lexicon_name, days_per_move, rated, category, status, expires_at, created_at)
   SELECT md5('lobby' || (i % 200))::uuid, 'NSA_2008', '${LEXICONS.defaultName ?? 'NWL2023'}', 1 + i % 14, i % 2 = 0, 'tournament/correspondence',
          'open', now() + interval '7 days', now() - (i || ' seconds')::interval
   FROM generate_series(${from}, ${from + count - 1}) AS i`,
  'ANALYZE seeks',
];

class RolledBack extends Error {}

const explain = async (db: Db, sql: string): Promise<string[]> => {
  const rows = await db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF, BUFFERS OFF) ${sql}`);
  return rows.map((r) => r['QUERY PLAN']);
};

const measure = async (db: Db, kind: string): Promise<{ rows: BenchRow[]; notes: string[] }> => {
  await registerLexicons(db.prisma, LEXICONS);
  const deps: ServiceDeps = { db, lexicons: LEXICONS, now: () => new Date() };
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO players (id, handle, display_name) SELECT md5('lobby' || i)::uuid, 'lobby' || i, 'Lobby ' || i FROM generate_series(0, 199) AS i`,
  );
  const author = (await insertPlayer(db.prisma, { handle: 'bench-author', displayName: 'A', passwordHash: null }))!;
  const acceptor = (await insertPlayer(db.prisma, { handle: 'bench-acceptor', displayName: 'B', passwordHash: null }))!;
  const acceptMs = async (): Promise<number[]> => {
    const ms: number[] = [];
    for (let i = 0; i < ACCEPTS + 5; i++) {
      const seek = await createSeek(deps, author.id, { daysPerMove: 3 });
      if (!seek.ok) throw new Error(seek.error.message);
      const t0 = performance.now();
      const game = await acceptSeek(deps, acceptor.id, seek.value.seek.id);
      if (!game.ok) throw new Error(game.error.message);
      if (i >= 5) ms.push(performance.now() - t0);
    }
    return ms;
  };
  const listMs = async (): Promise<number[]> => {
    const ms: number[] = [];
    for (let i = 0; i < ACCEPTS; i++) {
      const t0 = performance.now();
      const page = await listSeeks(deps, { first: 20 });
      if (!page.ok || page.value.edges.length === 0) throw new Error('no seeks listed');
      ms.push(performance.now() - t0);
    }
    return ms;
  };
  for (const sql of seedSql(SMALL, 1)) await db.prisma.$executeRawUnsafe(sql);
  const small = p50(await acceptMs());
  const smallList = p50(await listMs());
  for (const sql of seedSql(LARGE - SMALL, SMALL + 1)) await db.prisma.$executeRawUnsafe(sql);
  const large = p50(await acceptMs());
  const largeList = p50(await listMs());
  const open = await db.prisma.seek.count({ where: { status: 'open' } });
  const { sql } = openSeeksSql({}, false);
  const listPlan = await explain(
    db,
    sql.replace('$1', 'now()').replace('$2', '21').replace('$3::text', 'NULL::text').replace('$4::text', 'NULL::text'),
  );
  const someId = (await db.prisma.seek.findFirst({ where: { status: 'open' }, select: { id: true } }))!.id;
  // The accept's claim as Prisma sends it (updateMany by id and state), inside a transaction rolled back.
  let claimPlan: string[] = [];
  await db
    .transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN (ANALYZE, COSTS OFF, BUFFERS OFF) UPDATE seeks SET status = 'accepted', closed_at = now() WHERE id = '${someId}'::uuid AND status = 'open' AND expires_at > now()`,
      );
      claimPlan = rows.map((r) => r['QUERY PLAN']);
      throw new RolledBack();
    })
    .catch((e: unknown) => {
      if (!(e instanceof RolledBack)) throw e;
    });
  const r2 = (x: number) => Number(x.toFixed(2));
  const ratio = large / small;
  const indexed = (plan: string[], index: string) => plan.some((l) => l.includes(`using ${index}`));
  return {
    rows: [
      { metric: `${kind}: acceptSeek with ${SMALL} open seeks, p50`, value: r2(small), unit: 'ms' },
      { metric: `${kind}: acceptSeek with ${open.toLocaleString('en')} open seeks, p50`, value: r2(large), unit: 'ms' },
      {
        metric: `${kind}: accept with ${LARGE.toLocaleString('en')} ÷ with ${SMALL}`,
        value: r2(ratio),
        unit: '×',
        target: '≤ 2×, by primary key',
        met: ratio <= 2 && indexed(claimPlan, 'seeks_pkey'),
      },
      { metric: `${kind}: seeks first page (20) with ${SMALL} open, p50`, value: r2(smallList), unit: 'ms' },
      {
        metric: `${kind}: seeks first page (20) with ${open.toLocaleString('en')} open, p50`,
        value: r2(largeList),
        unit: 'ms',
        target: 'from seeks_status_created_at_id_idx',
        met: indexed(listPlan, 'seeks_status_created_at_id_idx'),
      },
    ],
    notes: [
      `${kind}: plan of the accept's claim:`,
      ...claimPlan.map((l) => `    ${l}`),
      `${kind}: plan of the list's first page:`,
      ...listPlan.map((l) => `    ${l}`),
    ],
  };
};

export async function run(): Promise<BenchSection> {
  const title = `Lobby (accepting a seek among ${LARGE.toLocaleString('en')} open ones)`;
  const m = await onBothDatabases('bench_lobby', measure);
  return {
    title,
    rows: m.rows,
    notes: [
      `${ACCEPTS} accepts per size, each of a fresh seek, after 5 warm-up accepts; the game is written in the accept's transaction.`,
      ...m.notes,
    ],
  };
}

await runWhenMain(import.meta.url, run);
