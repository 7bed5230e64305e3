/**
 * Live event streams (issue 31, docs/live.md) with a thousand subscribers, on Postgres and on PGlite:
 * - commit → event delivered to each of 1,000 open SSE subscribers of one game, p50 and p99, beside a bare
 *   NOTIFY → LISTEN round trip on the same database handle (`Db.listen` and a `pg_notify` statement);
 * - memory per idle subscriber in the server process (JS heap + external, and RSS), target ≤ 20 KB;
 * - a turn's own latency with the 1,000 subscribers on its game ÷ the same turn on a game nobody follows,
 *   the two interleaved turn by turn in the same run (target ≤ 1.2×).
 * The subscribers are real HTTP connections to GET /v1/games/{id}/events, from a child process
 * (bench/stream-clients.ts) so that their sockets and parsing count neither in the server's memory nor on its
 * event loop. They are one spectator's (the per-caller limit raised to let them open), as 1,000 spectators'
 * would be: streams share what they may share (one read, one view per seat and version) whoever opened them. The commit's time is when the turn's
 * commit statement returns in the server (store/turn-statements.ts), the delivery's when the event's `id:`
 * reaches the subscriber's socket, on one clock (ms since the epoch, sub-millisecond, both processes).
 * On PGlite, then on Postgres (bench/server.ts onBothDatabases); `npx tsx bench/streams.ts` prints the section alone.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createApp } from '../functions/app.js';
import { NO_RATE_LIMITS } from '../service/rate-limits.js';
import { ensureShippedLexicons } from '../scripts/build-lexicons.js';
import type { Db } from '../store/db.js';
import { TURN_STATEMENTS } from '../store/turn-statements.js';
import { gc } from './common.js';
import {
  BENCH_JWT_SECRET,
  benchClient,
  onBothDatabases,
  percentile,
  runWhenMain,
  SUBMIT_TURN,
  type BenchPlayer,
  type Measured,
} from './server.js';
import type { ClientsReply, ClientsRequest } from './stream-clients.js';
import type { BenchRow, BenchSection } from './types.js';

const SUBSCRIBERS = Number(process.env['BENCH_STREAM_SUBSCRIBERS'] ?? 1000);
const TURN_PAIRS = 40;
const WARM_TURNS = 20;
const BARE_ROUNDS = 200;

export const TARGETS = { bytesPerIdleSubscriber: 20 * 1024, turnWithOverNone: 1.2 } as const;

const now = (): number => performance.timeOrigin + performance.now();
const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
const p = (xs: readonly number[], q: number): number => percentile(sorted(xs), q);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Figures {
  readonly bare: number[];
  /** Commit → delivered, every subscriber of every turn. */
  readonly delivery: number[];
  /** Commit → delivered to the last of the subscribers, per turn. */
  readonly last: number[];
  readonly turnNone: number[];
  readonly turnWith: number[];
  /** The followed game's turns, and the other's, before any subscriber opened. */
  readonly turnBefore: number[];
  readonly quietBefore: number[];
  readonly jsBytesPerSubscriber: number;
  readonly rssBytesPerSubscriber: number;
  readonly opened: number;
  readonly missing: number;
  readonly load: readonly number[];
}

/** The API on `db` over HTTP, the time of the last turn commit it made, and its close. */
const serve = async (db: Db) => {
  const clock = { lastCommit: 0 };
  const watched: Db = {
    ...db,
    statement: async <R extends Record<string, unknown>>(name: string, sql: string, params: readonly unknown[]) => {
      const rows = await db.statement<R>(name, sql, params);
      if (name === TURN_STATEMENTS.commit && Number((rows[0] as { committed?: unknown } | undefined)?.committed) > 0)
        clock.lastCommit = now();
      return rows;
    },
  };
  const app = await createApp({
    db: watched,
    jwt: { secret: new TextEncoder().encode(BENCH_JWT_SECRET), ttlSeconds: 24 * 3600, issuer: 'arbiter' },
    graphiql: false,
    rateLimits: NO_RATE_LIMITS,
    live: { streamsPerCaller: SUBSCRIBERS + 10 },
    logError: (e) => process.stderr.write(`bench streams: ${String(e)}\n`),
    warn: () => undefined,
  });
  const server = createServer(app.yoga);
  server.maxConnections = SUBSCRIBERS + 100;
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    clock,
    port,
    client: benchClient('127.0.0.1', port),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
};

/** A bare NOTIFY → LISTEN round trip on `db`: a `pg_notify` statement sent until its own listener hears it (ms). */
const bareRoundTrips = async (db: Db): Promise<number[]> => {
  let heard: ((at: number) => void) | null = null;
  const stop = await db.listen!('arbiter_bench_streams', () => heard?.(now()));
  const times: number[] = [];
  try {
    for (let i = 0; i < BARE_ROUNDS; i++) {
      const got = new Promise<number>((resolve) => (heard = resolve));
      const t0 = now();
      await db.statement('arbiter_bench_notify', 'SELECT pg_notify($1, $2)', ['arbiter_bench_streams', String(i)]);
      times.push((await got) - t0);
    }
  } finally {
    await stop();
  }
  return times;
};

/** The subscribers' process. */
const clientsProcess = () => {
  const proc: ChildProcess = fork(fileURLToPath(new URL('./stream-clients.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((m: ClientsReply) => void)[] = [];
  proc.on('message', (m: ClientsReply) => waiting.shift()?.(m));
  const ask = <K extends ClientsReply['kind']>(m: ClientsRequest): Promise<Extract<ClientsReply, { kind: K }>> =>
    new Promise((resolve) => {
      waiting.push(resolve as (r: ClientsReply) => void);
      proc.send(m);
    });
  return { ask, close: () => proc.send({ kind: 'close' } satisfies ClientsRequest) };
};

interface Game {
  readonly id: string;
  version: number;
}

type Clients = ReturnType<typeof clientsProcess>;

/**
 * One pass turn of `game` by whoever is to move (games of bench/server.ts's ENDLESS rules alternate), sent by
 * the player's process; its latency (ms).
 */
const turn = async (
  player: Clients,
  port: number,
  players: readonly [BenchPlayer, BenchPlayer],
  game: Game,
  n: number,
): Promise<number> => {
  const input = { gameId: game.id, expectedVersion: game.version, idempotencyKey: randomUUID(), action: { pass: true } };
  const url = `http://127.0.0.1:${port}/graphql`;
  const r = await player.ask<'turned'>({
    kind: 'turn',
    url,
    token: players[n % 2]!.token,
    body: JSON.stringify({ query: SUBMIT_TURN, variables: { input } }),
  });
  const answer = (r.body as { data?: { submitTurn?: { __typename: string; version: number } } }).data?.submitTurn;
  if (answer?.__typename !== 'Game') throw new Error(`turn: ${JSON.stringify(r.body)}`);
  game.version = answer.version;
  return r.ms;
};

/** Opens and cancels a few streams, so that code loaded and compiled on the first ones is not counted per subscriber. */
const warmStreams = async (port: number, gameId: string, token: string): Promise<void> => {
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/v1/games/${gameId}/events`, { headers: { authorization: `Bearer ${token}` } });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
  }
  await sleep(200);
};

/** Heap + external bytes, and RSS, after collecting garbage twice. */
const memory = (): { js: number; rss: number } => {
  gc();
  gc();
  const m = process.memoryUsage();
  return { js: m.heapUsed + m.external, rss: m.rss };
};

const figuresOn = async (db: Db): Promise<Figures> => {
  ensureShippedLexicons();
  const api = await serve(db);
  const clients = clientsProcess();
  const player = clientsProcess();
  try {
    const tag = randomUUID().slice(0, 6);
    const players = [await api.client.register(`ann${tag}`), await api.client.register(`bob${tag}`)] as const;
    const watcher = await api.client.register(`cy${tag}`);
    const quiet: Game = await api.client.createGame(players[0], players[1]);
    const followed: Game = await api.client.createGame(players[0], players[1]);
    for (let i = 0; i < WARM_TURNS; i++) {
      await turn(player, api.port, players, quiet, i);
      await turn(player, api.port, players, followed, i);
    }
    const bare = await bareRoundTrips(db);
    const turnBefore: number[] = [];
    const quietBefore: number[] = [];
    for (let i = 0; i < TURN_PAIRS; i++) {
      // Each game's turn first in one pair, second in the next: the second of two turns in a row pays for the
      // first's after-work (seen: up to 2× on a busy machine), which must not count as the subscribers' cost.
      if (i % 2) turnBefore.push(await turn(player, api.port, players, followed, i));
      quietBefore.push(await turn(player, api.port, players, quiet, i));
      if (!(i % 2)) turnBefore.push(await turn(player, api.port, players, followed, i));
    }

    await warmStreams(api.port, quiet.id, watcher.token);
    const before = memory();
    const url = `http://127.0.0.1:${api.port}/v1/games/${followed.id}/events?after=${followed.version}`;
    const opened = await clients.ask<'opened'>({ kind: 'open', url, token: watcher.token, count: SUBSCRIBERS });
    await sleep(1000);
    const after = memory();

    const figures = { delivery: [] as number[], last: [] as number[], turnNone: [] as number[], turnWith: [] as number[], missing: 0 };
    const followedTurn = async (i: number): Promise<void> => {
      figures.turnWith.push(await turn(player, api.port, players, followed, i));
      const committed = api.clock.lastCommit;
      // Every subscriber has it before the next turn: no fan-out overlaps another turn.
      const got = await clients.ask<'arrived'>({ kind: 'wait', version: followed.version, timeoutMs: 30_000 });
      figures.missing += got.missing;
      const delays = got.times.map((t) => t - committed);
      figures.delivery.push(...delays);
      figures.last.push(Math.max(...delays));
    };
    for (let i = 0; i < TURN_PAIRS; i++) {
      if (i % 2) await followedTurn(i);
      figures.turnNone.push(await turn(player, api.port, players, quiet, i));
      if (!(i % 2)) await followedTurn(i);
    }
    return {
      bare,
      ...figures,
      turnBefore,
      quietBefore,
      jsBytesPerSubscriber: (after.js - before.js) / Math.max(1, opened.open),
      rssBytesPerSubscriber: (after.rss - before.rss) / Math.max(1, opened.open),
      opened: opened.open,
      load: loadavg(),
    };
  } finally {
    clients.close();
    player.close();
    await api.close();
  }
};

const ms = (x: number): number => Math.round(x * 100) / 100;

const rowsOf = (f: Figures, name: string): BenchRow[] => {
  const ratio = p(f.turnWith, 50) / p(f.turnNone, 50);
  return [
    { metric: `${name}: commit → delivered to ${f.opened} SSE subscribers, p50`, value: ms(p(f.delivery, 50)), unit: 'ms' },
    { metric: `${name}: commit → delivered, p99`, value: ms(p(f.delivery, 99)), unit: 'ms' },
    { metric: `${name}: commit → delivered to the last subscriber of a turn, p50`, value: ms(p(f.last, 50)), unit: 'ms' },
    { metric: `${name}: bare NOTIFY → LISTEN round trip, p50`, value: ms(p(f.bare, 50)), unit: 'ms' },
    { metric: `${name}: bare NOTIFY → LISTEN round trip, p99`, value: ms(p(f.bare, 99)), unit: 'ms' },
    { metric: `${name}: delivery p50 ÷ bare round trip p50`, value: ms(p(f.delivery, 50) / p(f.bare, 50)), unit: '×' },
    {
      metric: `${name}: memory per idle subscriber (JS heap + external)`,
      value: Math.round(f.jsBytesPerSubscriber / 102.4) / 10,
      unit: 'KB',
      target: `≤ ${TARGETS.bytesPerIdleSubscriber / 1024} KB`,
      met: f.jsBytesPerSubscriber <= TARGETS.bytesPerIdleSubscriber,
    },
    { metric: `${name}: memory per idle subscriber (RSS)`, value: Math.round(f.rssBytesPerSubscriber / 102.4) / 10, unit: 'KB' },
    { metric: `${name}: turn p50, game followed by ${f.opened}`, value: ms(p(f.turnWith, 50)), unit: 'ms' },
    { metric: `${name}: turn p50, game followed by none (interleaved)`, value: ms(p(f.turnNone, 50)), unit: 'ms' },
    {
      metric: `${name}: turn p50 with ${f.opened} subscribers ÷ with none`,
      value: ms(ratio),
      unit: '×',
      target: `≤ ${TARGETS.turnWithOverNone}×`,
      met: ratio <= TARGETS.turnWithOverNone,
    },
    {
      metric: `${name}: before any subscriber opened, turn p50 of the game to be followed ÷ the other's`,
      value: ms(p(f.turnBefore, 50) / p(f.quietBefore, 50)),
      unit: '×',
    },
    { metric: `${name}: events not delivered within 30 s`, value: f.missing, unit: 'events', target: '0', met: f.missing === 0 },
  ];
};

/** One database's rows, and its load average during the run. */
const measure = async (db: Db, name: string): Promise<Measured> => {
  const f = await figuresOn(db);
  return {
    rows: rowsOf(f, name),
    notes: [`${name}: load average during the run ${f.load.map((x) => x.toFixed(1)).join(' / ')} (1 / 5 / 15 min).`],
  };
};

export async function run(): Promise<BenchSection> {
  const { rows, notes } = await onBothDatabases('bench_streams', measure);
  return {
    title: 'Live event streams (1,000 subscribers; issue 31)',
    rows,
    notes: [
      ...notes,
      `${SUBSCRIBERS} real HTTP SSE connections to GET /v1/games/{id}/events from a child process, all one spectator's (the per-caller limit raised for the bench); streams at the same version with the same seat share the events made from one read (service/streams.ts), each writes its own frames. ${TURN_PAIRS} pass turns on the followed game, interleaved with as many on a game nobody follows (each game's turn first in one pair, second in the next), each followed one waited for until every subscriber had it (so no fan-out overlaps the next turn); ${WARM_TURNS} warm-up turns each first. Turns are sent and timed by a process of their own.`,
      'Commit: when the turn’s commit statement returns in the server; delivered: when the event’s `id:` line reaches the subscriber’s socket (one clock for both processes). The bare round trip is a `SELECT pg_notify(…)` on the app’s database handle until its own `Db.listen` hears it: on Postgres another connection, on PGlite in process.',
      'Memory: the server process’s heap + external (and RSS) after two collections, with the subscribers open and idle ÷ their number, against the same before they opened.',
    ],
  };
}

await runWhenMain(import.meta.url, run);
