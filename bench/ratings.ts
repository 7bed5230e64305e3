/**
 * A rated game's last turn against a casual one's (issue 33 item 6: "a rating update adds ≤ 10% to a
 * game's last turn"), as a client sees it: on each database, pairs of fresh games between the same two
 * players in the same position (just started, the same rule set), one rated and one casual, each created
 * and ended over HTTP (GraphQL `createGame`, then a resignation through `submitTurn`, timed from the request
 * to the parsed answer). The game this process just created is held (service/log-cache.ts), so the casual
 * end is one statement; the rated end is that statement with both players' rating rows and changes folded
 * in (store/turn-statements.ts COMMIT_RATED_TURN_SQL), from the rows this process wrote at the previous
 * pair (service/rating-cache.ts; the first pair reads them). Rated and casual alternate, each first in
 * every other pair, so the machine's drift falls on both alike; the figure is p50 rated ÷ p50 casual.
 * `npx tsx bench/ratings.ts [postgres|pglite]` prints this section alone.
 */
import { randomUUID } from 'node:crypto';
import { median } from './common.js';
import {
  postgresUrl,
  runWhenMain,
  startBenchServer,
  SUBMIT_TURN,
  unreachable,
  type BenchBackend,
  type BenchPlayer,
  type BenchServer,
} from './server.js';
import type { BenchRow, BenchSection } from './types.js';

const PAIRS = Number(process.env['BENCH_RATING_PAIRS'] ?? 300);
const WARM_PAIRS = 10;
export const TARGET = 1.1;

const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id version } ... on Error { code message } } }`;

const newGame = async (server: BenchServer, a: BenchPlayer, b: BenchPlayer, rated: boolean): Promise<{ id: string; version: number }> => {
  const d = await server.gql<{ createGame: { __typename: string; id?: string; version?: number } }>(
    CREATE,
    { input: { opponent: b.handle, rated } },
    a.token,
  );
  const g = d.createGame;
  if (g.__typename !== 'Game' || !g.id || g.version === undefined) throw new Error(`createGame: ${JSON.stringify(g)}`);
  return { id: g.id, version: g.version };
};

/** The resignation that ends the game, timed from the request to the parsed answer. */
const lastTurn = async (server: BenchServer, p: BenchPlayer, game: { id: string; version: number }): Promise<number> => {
  const input = { gameId: game.id, expectedVersion: game.version, idempotencyKey: randomUUID(), action: { resign: true } };
  const t0 = performance.now();
  const d = await server.gql<{ submitTurn: { __typename: string; status?: string } }>(SUBMIT_TURN, { input }, p.token);
  const ms = performance.now() - t0;
  if (d.submitTurn.__typename !== 'Game' || d.submitTurn.status !== 'ended') throw new Error(`resign: ${JSON.stringify(d.submitTurn)}`);
  return ms;
};

interface Figures {
  readonly backend: BenchBackend;
  readonly rated: number;
  readonly casual: number;
}

const measure = async (backend: BenchBackend): Promise<Figures> => {
  const server = await startBenchServer(`bench_ratings_${randomUUID().slice(0, 8)}`, backend);
  try {
    const [a, b] = [await server.register(`ra${randomUUID().slice(0, 6)}`), await server.register(`rb${randomUUID().slice(0, 6)}`)];
    const rated: number[] = [];
    const casual: number[] = [];
    for (let i = 0; i < WARM_PAIRS + PAIRS; i++) {
      const [r, c] = [await newGame(server, a, b, true), await newGame(server, a, b, false)];
      const order = i % 2 === 0 ? ([true, false] as const) : ([false, true] as const);
      for (const isRated of order) {
        const ms = await lastTurn(server, b, isRated ? r : c);
        if (i >= WARM_PAIRS) (isRated ? rated : casual).push(ms);
      }
    }
    if (server.loggedErrors.length) throw new Error(`the server logged errors: ${String(server.loggedErrors[0])}`);
    return { backend, rated: median(rated), casual: median(casual) };
  } finally {
    await server.close();
  }
};

const name = (b: BenchBackend): string => (b === 'postgres' ? 'Postgres' : 'PGlite');

const rowsOf = (f: Figures): BenchRow[] => {
  const ratio = f.rated / f.casual;
  return [
    {
      metric: `${name(f.backend)}: last turn (GraphQL submitTurn resign over HTTP) of a rated game ÷ of a casual one, p50`,
      value: Number(ratio.toFixed(3)),
      unit: '×',
      target: `≤ ${TARGET}×`,
      met: ratio <= TARGET,
    },
    { metric: `${name(f.backend)}: last turn of a rated game, p50`, value: Number(f.rated.toFixed(2)), unit: 'ms' },
    { metric: `${name(f.backend)}: last turn of a casual game, p50`, value: Number(f.casual.toFixed(2)), unit: 'ms' },
  ];
};

export async function run(backends: readonly BenchBackend[] = ['postgres', 'pglite']): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const backend of backends) {
    const down = backend === 'postgres' ? await unreachable() : null;
    if (down) {
      notes.push(`Postgres not measured: no Postgres at ${postgresUrl()} (${down}).`);
      continue;
    }
    rows.push(...rowsOf(await measure(backend)));
  }
  notes.push(
    `${PAIRS} pairs of fresh games between the same two players (after ${WARM_PAIRS} warm-up pairs), one rated and one casual, each created over HTTP and ended by a resignation through GraphQL submitTurn over HTTP (timed: request to parsed answer); rated and casual alternate which goes first. Both ends are one statement on the driver's session: the rated one writes both rating rows (only over the rows it was computed from, as this process last wrote them), both rating changes and rating-changed in the turn's commit statement (store/turn-statements.ts COMMIT_RATED_TURN_SQL), into projection tables without foreign keys and with one index besides each key (migration 20270104090000_rating_projection_lean). A process that has not rated these players yet reads their rows first (one more statement), and a row changed elsewhere makes the commit write nothing and the turn rate again in a transaction.`,
  );
  return { title: 'Rated games: the rating update on the last turn (issue 33)', rows, notes };
}

const asked = process.argv.slice(2).filter((a): a is BenchBackend => a === 'postgres' || a === 'pglite');
await runWhenMain(import.meta.url, () => run(asked.length ? asked : undefined));
