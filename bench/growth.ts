/**
 * Growth: how one request's latency changes (a) with the game's length — `game(id)` and `submitTurn`
 * early in a game (moves 1–5) against late (moves 40–44) — and (b) with the size of the tables —
 * the same requests on fresh games with 1,000 and then 100,000 games stored (bulk rows made with
 * `generate_series`: games, secrets, seats, events, idempotency keys, players). Target: flat, i.e.
 * each late ÷ early and 100k ÷ 1k ratio ≤ 1.5×. Also counts the SQL statements per request.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { GAME, percentile, postgresUrl, startBenchServer, SUBMIT_TURN, unreachable, type BenchPlayer, type BenchServer } from './server.js';
import type { BenchRow, BenchSection } from './types.js';

const FLAT = 1.5;
const GAMES_PER_PHASE = 6;
const EARLY = [1, 5] as const;
const LATE = [40, 44] as const;
const READS = 15;
/** Bulk games: events (and idempotency keys) per stored game, and distinct players seated in them. */
const BULK_EVENTS = 8;
const BULK_KEYS = 2;
const BULK_PLAYERS = 1000;

/** Statements sent through node-postgres in this process (Prisma's adapter uses it too). */
let statements = 0;
const countStatements = (): (() => void) => {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    statements++;
    return original.apply(this, args);
  };
  return () => {
    proto.query = original;
  };
};

const median = (xs: readonly number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

interface Timed {
  readonly ms: number;
  readonly statements: number;
}

const timed = async (f: () => Promise<unknown>): Promise<Timed> => {
  const s0 = statements;
  const t0 = performance.now();
  await f();
  return { ms: performance.now() - t0, statements: statements - s0 };
};

/** Plays `moves` pass turns in a fresh game; times each turn and READS reads of the game at the given move numbers. */
const playGame = async (
  server: BenchServer,
  players: readonly [BenchPlayer, BenchPlayer],
  moves: number,
  readAt: readonly number[],
): Promise<{ turns: Timed[]; reads: Map<number, Timed[]> }> => {
  const game = await server.createGame(players[0], players[1]);
  let version = game.version;
  const turns: Timed[] = [];
  const reads = new Map<number, Timed[]>();
  for (let move = 1; move <= moves; move++) {
    const player = players[(move - 1) % 2]!;
    let answer: { __typename: string; version?: number } | undefined;
    turns.push(
      await timed(async () => {
        const d = await server.gql<{ submitTurn: { __typename: string; version?: number } }>(
          SUBMIT_TURN,
          { input: { gameId: game.id, expectedVersion: version, idempotencyKey: randomUUID(), action: { pass: true } } },
          player.token,
        );
        answer = d.submitTurn;
      }),
    );
    if (answer?.__typename !== 'Game' || answer.version === undefined)
      throw new Error(`growth: turn ${move} refused: ${JSON.stringify(answer)}`);
    version = answer.version;
    if (readAt.includes(move)) {
      const rs: Timed[] = [];
      for (let i = 0; i < READS; i++) rs.push(await timed(() => server.gql(GAME, { id: game.id }, players[i % 2]!.token)));
      reads.set(move, rs);
    }
  }
  return { turns, reads };
};

interface Phase {
  readonly turnEarly: number[];
  readonly turnLate: number[];
  readonly readEarly: number[];
  readonly readLate: number[];
  readonly turnStatements: { early: number; late: number };
  readonly readStatements: { early: number; late: number };
}

const phase = async (server: BenchServer, players: readonly [BenchPlayer, BenchPlayer], moves: number): Promise<Phase> => {
  const p: Phase = {
    turnEarly: [],
    turnLate: [],
    readEarly: [],
    readLate: [],
    turnStatements: { early: 0, late: 0 },
    readStatements: { early: 0, late: 0 },
  };
  for (let g = 0; g < GAMES_PER_PHASE; g++) {
    const { turns, reads } = await playGame(server, players, moves, moves >= LATE[0] ? [EARLY[0], LATE[0]] : [EARLY[0]]);
    turns.forEach((t, i) => {
      const move = i + 1;
      if (move >= EARLY[0] && move <= EARLY[1]) p.turnEarly.push(t.ms);
      if (move >= LATE[0] && move <= LATE[1]) p.turnLate.push(t.ms);
    });
    p.turnStatements.early = turns[EARLY[0] - 1]!.statements;
    if (turns[LATE[0] - 1]) p.turnStatements.late = turns[LATE[0] - 1]!.statements;
    for (const r of reads.get(EARLY[0]) ?? []) p.readEarly.push(r.ms);
    for (const r of reads.get(LATE[0]) ?? []) p.readLate.push(r.ms);
    p.readStatements.early = reads.get(EARLY[0])?.[0]?.statements ?? 0;
    p.readStatements.late = reads.get(LATE[0])?.[0]?.statements ?? 0;
  }
  return p;
};

/**
 * `count` more stored games (numbered from `from`) with their secrets, seats, events and idempotency
 * keys, in set-based SQL. Payloads are shaped like real pass/draw events; seats use BULK_PLAYERS players.
 */
const bulkInsert = async (client: pg.Client, from: number, count: number): Promise<void> => {
  const lex = await client.query<{ name: string; content_hash: string }>('SELECT name, content_hash FROM lexicons ORDER BY name LIMIT 1');
  const { name, content_hash: hash } = lex.rows[0]!;
  await client.query('BEGIN');
  await client.query(
    `CREATE TEMP TABLE bulk_ids ON COMMIT DROP AS
       SELECT n, gen_random_uuid() AS id FROM generate_series($1::int, $2::int) AS n`,
    [from, from + count - 1],
  );
  await client.query(
    `INSERT INTO games (id, rule_set_id, rule_overrides, lexicon_name, lexicon_hash, status, version, turn_seat, deadline_at, bag_seed_commitment, created_at, updated_at)
     SELECT id, 'NSA_2008', '{}', $1, $2, CASE WHEN n % 3 = 0 THEN 'ended' ELSE 'playing' END, $3, CASE WHEN n % 3 = 0 THEN NULL ELSE n % 2 END,
            CASE WHEN n % 5 = 0 THEN now() + (n % 72) * interval '1 hour' END, md5(id::text) || md5(n::text), now() - (n % 1000) * interval '1 minute', now()
     FROM bulk_ids`,
    [name, hash, BULK_EVENTS],
  );
  await client.query(`INSERT INTO game_secrets (game_id, bag_seed) SELECT id, md5(n::text) || md5(id::text) FROM bulk_ids`);
  await client.query(
    `INSERT INTO seats (game_id, seat, player_id)
     SELECT b.id, s.seat, p.id FROM bulk_ids b CROSS JOIN (VALUES (0), (1)) AS s(seat)
     JOIN bulk_players p ON p.k = (b.n * 7 + s.seat * 13) % ${BULK_PLAYERS}`,
  );
  await client.query(
    `INSERT INTO game_events (game_id, seq, type, payload, created_at)
     SELECT b.id, e.seq, CASE WHEN e.seq = 1 THEN 'game-created' WHEN e.seq % 2 = 0 THEN 'tiles-drawn' ELSE 'pass' END,
            jsonb_build_object('type', CASE WHEN e.seq = 1 THEN 'game-created' WHEN e.seq % 2 = 0 THEN 'tiles-drawn' ELSE 'pass' END,
                               'seat', e.seq % 2, 'tiles', jsonb_build_array('A', 'E', 'I', 'R', 'S', 'T', '?'), 'at', now()::text, 'n', b.n),
            now()
     FROM bulk_ids b CROSS JOIN generate_series(1, ${BULK_EVENTS}) AS e(seq)`,
  );
  await client.query(
    `INSERT INTO idempotency_keys (scope, key, request_hash, response)
     SELECT 'player:' || (b.n % ${BULK_PLAYERS}), b.id::text || ':' || k, md5(b.id::text || k), jsonb_build_object('gameId', b.id, 'version', k)
     FROM bulk_ids b CROSS JOIN generate_series(1, ${BULK_KEYS}) AS k`,
  );
  await client.query('COMMIT');
  await client.query('ANALYZE');
};

const r1 = (x: number): number => Number(x.toFixed(1));
const r2 = (x: number): number => Number(x.toFixed(2));

export async function run(): Promise<BenchSection> {
  const title = 'Growth (game length, stored games)';
  const down = await unreachable();
  if (down) return { title, rows: [], notes: [`Not measured: no Postgres at ${postgresUrl()} (${down}).`] };

  const schema = `bench_growth_${process.pid}`;
  const server = await startBenchServer(schema);
  const client = new pg.Client({ connectionString: postgresUrl(), options: `-c search_path=${schema}` });
  const restore = countStatements();
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const t0 = performance.now();
  try {
    await client.connect();
    const players = [await server.register('growth-a'), await server.register('growth-b')] as const;
    await client.query(`CREATE TABLE bulk_players (k int PRIMARY KEY, id uuid NOT NULL)`);
    await client.query(
      `WITH made AS (INSERT INTO players (handle, display_name) SELECT 'bulk-' || k, 'Bulk ' || k FROM generate_series(0, ${BULK_PLAYERS - 1}) AS k RETURNING id, handle)
       INSERT INTO bulk_players (k, id) SELECT substr(handle, 6)::int, id FROM made`,
    );
    await playGame(server, players, 5, [1]); // warm-up

    // (a) game length, on a small table.
    await bulkInsert(client, 1, 1000);
    const small = await phase(server, players, LATE[1]);
    const row = (metric: string, early: number[], late: number[], what: string): void => {
      const e = median(early);
      const l = median(late);
      const x = l / e;
      rows.push(
        { metric: `${metric}: ${what.split('|')[0]}`, value: r1(e), unit: 'ms (median)' },
        { metric: `${metric}: ${what.split('|')[1]}`, value: r1(l), unit: 'ms (median)' },
        { metric: `${metric}: ratio`, value: r2(x), unit: '×', target: `≤ ${FLAT}× (flat)`, met: x <= FLAT },
      );
    };
    row('submitTurn, game length', small.turnEarly, small.turnLate, `moves ${EARLY.join('–')}|moves ${LATE.join('–')}`);
    row('game(id), game length', small.readEarly, small.readLate, `after move ${EARLY[0]}|after move ${LATE[0]}`);

    // (b) table size: the same early-game requests with 1k, then 100k stored games.
    const bulk100k = performance.now();
    await bulkInsert(client, 1001, 99_000);
    const bulkSeconds = (performance.now() - bulk100k) / 1000;
    const large = await phase(server, players, EARLY[1]);
    row('submitTurn, stored games', small.turnEarly, large.turnEarly, '1k games|100k games');
    row('game(id), stored games', small.readEarly, large.readEarly, '1k games|100k games');
    const counts = await client.query<{ games: string; events: string }>(
      'SELECT (SELECT count(*) FROM games) AS games, (SELECT count(*) FROM game_events) AS events',
    );
    rows.push(
      {
        metric: 'SQL statements per submitTurn (move 1 / move 40)',
        value: small.turnStatements.early,
        unit: `/ ${small.turnStatements.late}`,
      },
      {
        metric: 'SQL statements per game(id) read (move 1 / move 40)',
        value: small.readStatements.early,
        unit: `/ ${small.readStatements.late}`,
      },
    );
    notes.push(
      `Each phase plays ${GAMES_PER_PHASE} fresh games of pass turns over HTTP, one request at a time (no concurrency); a turn figure is the median of moves ${EARLY.join('–')} or ${LATE.join('–')} across the games, a read figure the median of ${READS} reads per game.`,
      `Stored games: bulk rows inserted with generate_series (${BULK_EVENTS} events, ${BULK_KEYS} idempotency keys, 2 seats among ${BULK_PLAYERS} players and a secret per game), then ANALYZE; at the end ${Number(counts.rows[0]!.games).toLocaleString('en-US')} games and ${Number(counts.rows[0]!.events).toLocaleString('en-US')} events (99k games inserted in ${bulkSeconds.toFixed(1)} s).`,
      'Every request looks rows up by primary key (games.id, seats (game_id, seat), game_events (game_id, seq), idempotency_keys (scope, key)), so the number of stored games should not matter; what grows with a game is its event log, which each turn and each read loads and folds whole (no snapshot).',
      'Statements are counted at node-postgres (BEGIN/COMMIT included); they are the same at move 1 and move 40, so any growth with game length is rows per statement and the fold.',
    );
  } finally {
    restore();
    await client.end().catch(() => undefined);
    await server.close();
  }
  notes.push(`Module time ${((performance.now() - t0) / 1000).toFixed(0)} s.`);
  return { title, rows, notes };
}
