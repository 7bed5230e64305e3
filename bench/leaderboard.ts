/**
 * The leaderboard of a big category (issue 33, item 6): 100,000 rated players in one category (1% hidden,
 * 0.5% deleted, a tenth provisional), bulk-inserted with generate_series, then the first page of the
 * established list through the service (`leaderboard`, service/leaderboard.ts) and a page deep in the list
 * (after a cursor at rank 40,000), on PGlite and on Postgres. Target: the first page ≤ 20 ms, read from
 * the index `player_ratings_leaderboard_idx`; each database's plan (EXPLAIN ANALYZE) is printed in the notes.
 * `npx tsx bench/leaderboard.ts` prints the section.
 */
import { leaderboard } from '../service/leaderboard.js';
import type { Db } from '../store/db.js';
import { LEADERBOARD_AFTER_SQL, LEADERBOARD_FIRST_SQL } from '../store/rating-reads.js';
import { onBothDatabases, percentile, runWhenMain } from './server.js';
import type { BenchRow, BenchSection } from './types.js';

const PLAYERS = Number(process.env['BENCH_LEADERBOARD_PLAYERS'] ?? 100_000);
const READS = 50;
const PAGE = 50;
const TARGET_MS = 20;
const CATEGORY = 'tournament/correspondence';

/** Deterministic players and ratings: ids from md5, ratings spread 800–2600 with ties, every tenth provisional. */
const SEED_SQL = [
  `INSERT INTO players (id, handle, display_name, profile_hidden, deleted_at)
   SELECT md5('lb' || i)::uuid, 'lb' || i, 'Player ' || i, i % 100 = 7, CASE WHEN i % 200 = 3 THEN now() END
   FROM generate_series(1, ${PLAYERS}) AS i`,
  `INSERT INTO player_ratings (player_id, category, rating, deviation, volatility, games, provisional, last_rated_at)
   SELECT md5('lb' || i)::uuid, '${CATEGORY}', 800 + ((i * 7919) % 18000) / 10.0, CASE WHEN i % 10 = 0 THEN 200 ELSE 60 + i % 50 END,
          0.06, 5 + i % 300, i % 10 = 0, now() - (i % 365) * interval '1 day'
   FROM generate_series(1, ${PLAYERS}) AS i`,
  // A second category of the same size, so the index holds more than the list read.
  `INSERT INTO player_ratings (player_id, category, rating, deviation, volatility, games, provisional, last_rated_at)
   SELECT md5('lb' || i)::uuid, 'friendly/correspondence', 1500, 100, 0.06, 10, false, now() FROM generate_series(1, ${PLAYERS}) AS i`,
  'ANALYZE players',
  'ANALYZE player_ratings',
];

const p50 = (xs: number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

const timed = async (n: number, f: () => Promise<unknown>): Promise<number[]> => {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return ms;
};

/** The statement's plan with its figures, its parameters written in (EXPLAIN takes no bind parameters on every driver). */
const explain = async (db: Db, sql: string, params: readonly unknown[]): Promise<string[]> => {
  const literal = sql.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    return typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v);
  });
  const rows = await db.prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF, BUFFERS OFF) ${literal}`);
  return rows.map((r) => r['QUERY PLAN']);
};

const measure = async (db: Db, kind: string): Promise<{ rows: BenchRow[]; notes: string[] }> => {
  for (const sql of SEED_SQL) await db.prisma.$executeRawUnsafe(sql);
  const first = async () => {
    const r = await leaderboard({ db }, { category: CATEGORY, first: PAGE });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  // Walk to rank 40,000 once with big pages for a deep cursor, then time the page after it.
  let after: string | null = null;
  for (let rank = 0; rank < Math.min(40_000, PLAYERS * 0.4); rank += 100) {
    const r = await leaderboard({ db }, { category: CATEGORY, first: 100, after });
    if (!r.ok) throw new Error(r.error.message);
    after = r.value.edges[r.value.edges.length - 1]!.cursor;
  }
  const deep = async () => {
    const r = await leaderboard({ db }, { category: CATEGORY, first: PAGE, after });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  for (let i = 0; i < 10; i++) await Promise.all([first(), deep()]);
  const firstMs = p50(await timed(READS, first));
  const deepMs = p50(await timed(READS, deep));
  const top = (await first()).edges[PAGE - 1]!.node;
  const deepPage = await deep();
  const deepKey = deepPage.edges[0]!.node;
  const planFirst = await explain(db, LEADERBOARD_FIRST_SQL, [CATEGORY, false, PAGE + 1]);
  const planDeep = await explain(db, LEADERBOARD_AFTER_SQL, [CATEGORY, false, deepKey.rating, deepKey.playerId, PAGE + 1]);
  const indexed = (plan: string[]) => plan.some((l) => /Index (Only )?Scan using player_ratings_leaderboard_idx/.test(l));
  const r2 = (x: number) => Number(x.toFixed(2));
  return {
    rows: [
      {
        metric: `${kind}: first page (${PAGE} of ${PLAYERS.toLocaleString('en')}), service call p50`,
        value: r2(firstMs),
        unit: 'ms',
        target: `≤ ${TARGET_MS} ms from the index`,
        met: firstMs <= TARGET_MS && indexed(planFirst),
      },
      { metric: `${kind}: page at rank ${deepPage.edges[0]!.node.rank.toLocaleString('en')}, p50`, value: r2(deepMs), unit: 'ms' },
    ],
    notes: [
      `${kind}: the 50th of the first page is rated ${top.rating}; plan of the first page:`,
      ...planFirst.map((l) => `    ${l}`),
      `${kind}: plan of the deep page:`,
      ...planDeep.map((l) => `    ${l}`),
    ],
  };
};

export async function run(): Promise<BenchSection> {
  const title = `Leaderboard (${PLAYERS.toLocaleString('en')} rated players in one category)`;
  const m = await onBothDatabases('bench_leaderboard', measure);
  return {
    title,
    rows: m.rows,
    notes: ['Players hidden (1%) and deleted (0.5%) are skipped by the join; a tenth are provisional (the other list).', ...m.notes],
  };
}

await runWhenMain(import.meta.url, run);
