/**
 * What the stream reliability tests share (issue 31, docs/live.md "Resuming"): the API as a child process
 * (test/reliability/crash-server.ts) on a fresh Postgres schema; a stream client that behaves like a
 * browser's EventSource — it reconnects after the `retry:` the server asked for and sends the last id it
 * saw as `Last-Event-ID`, whatever broke the connection (a killed server, a refused connection, a `close`
 * event); and a player who keeps taking turns, retrying a failed request with the same idempotency key.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Lexicon } from '../../engine/lexicon/lexicon.js';
import { clientOver, LEXICONS, type TestApi } from '../api/harness.js';
import { findPlay, isGame, readGame, submit, type GameView, type Player } from '../e2e/client.js';
import { eventsPath, parseBlock, type StreamEventJson } from '../live/stream-client.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = join(ROOT, 'test', 'reliability', 'crash-server.ts');
const JWT_SECRET = 'reliability-stream-resume-secret-0123456789';
const LEX = (LEXICONS.get('SOWPODS') as { ok: true; value: Lexicon }).value;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface Server {
  readonly proc: ChildProcess;
  readonly base: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the API on `databaseUrl`; `crashAt` n ≥ 1 makes it SIGKILL itself right after its n-th turn commits. */
export const startServer = async (databaseUrl: string, crashAt = 0): Promise<Server> => {
  const proc = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ARBITER_JWT_SECRET: JWT_SECRET, ARBITER_TEST_CRASH_AFTER_COMMIT: String(crashAt) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      try {
        const { port: p } = JSON.parse(line) as { port?: number };
        if (typeof p === 'number') resolve(p);
      } catch {
        // other output
      }
    });
    void exited.then(() => reject(new Error(`crash-server exited before listening: ${stderr}`)));
  });
  return { proc, base: `http://127.0.0.1:${port}`, exited };
};

export const stopServer = async (s: Server): Promise<void> => {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
  s.proc.kill('SIGTERM');
  await s.exited;
};

/** A fresh schema on the Postgres at `serverUrl` (the first server made on it creates and migrates it): its URL, and its drop. */
export const freshSchema = (serverUrl: string, params: Record<string, string> = {}) => {
  const schema = `arbiter_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(serverUrl);
  url.searchParams.set('schema', schema);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return {
    databaseUrl: url.toString(),
    drop: async () => {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
    },
  };
};

/** The API at whatever address `base()` names now (the server of the moment), as the e2e helpers want it. */
export const apiAt = (base: () => string): TestApi => clientOver((path, init) => fetch(`${base()}${path}`, init)) as unknown as TestApi;

/** Two players (the second one's handle is `opponent`) and a game between them, on the server at `base`. */
export const newGame = async (api: TestApi): Promise<{ players: [Player, Player]; game: GameView }> => {
  const tag = randomBytes(3).toString('hex');
  const [ann, bob] = await Promise.all([`ann${tag}`, `bob${tag}`].map(async (h) => ({ handle: h, ...(await api.register(h)) })));
  const r = await api.gql(
    `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id } } }`,
    { input: { opponent: bob!.handle } },
    ann!.token,
  );
  const id = r.body.data?.['createGame']?.id as string;
  return { players: [ann!, bob!], game: await readGame(api, ann!, id) };
};

/** One event as the follower got it, and when. */
export interface Arrival {
  readonly event: StreamEventJson;
  readonly at: number;
  /** The follower's connection it came on (0: the first). */
  readonly connection: number;
}

/**
 * Follows `gameId` as `who` like EventSource: from the start of the log, then, after any break, from the
 * last id it saw. Every event received is kept (a repeat would show as one); `connections` counts the
 * connections made, `closes` the `close` events the server sent.
 */
export const follow = (base: () => string, gameId: string, who: Player) => {
  const arrivals: Arrival[] = [];
  const state = { connections: 0, closes: [] as string[], stopped: false, retryMs: 3000 };
  const abort = new AbortController();
  const last = (): number | null => arrivals.at(-1)?.event.version ?? null;
  const once = async (): Promise<void> => {
    const lastId = last();
    const connection = state.connections++;
    const res = await fetch(`${base()}${eventsPath(gameId)}`, {
      headers: { authorization: `Bearer ${who.token}`, ...(lastId === null ? {} : { 'last-event-id': String(lastId) }) },
      signal: abort.signal,
    });
    if (res.status !== 200) return void (await res.body?.cancel());
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const got = await reader.read();
      if (got.done) return;
      text += decoder.decode(got.value, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop()!;
      for (const block of blocks) {
        const f = parseBlock(block);
        const retry = /^retry: (\d+)$/m.exec(block);
        if (retry) state.retryMs = Number(retry[1]);
        if (f.event === 'close') state.closes.push(f.data ?? '');
        else if (f.id !== undefined && f.data !== undefined)
          arrivals.push({ event: JSON.parse(f.data) as StreamEventJson, at: Date.now(), connection });
      }
    }
  };
  const loop = (async () => {
    while (!state.stopped) {
      await once().catch(() => undefined);
      if (!state.stopped) await sleep(state.retryMs);
    }
  })();
  return {
    arrivals,
    state,
    /** Resolves true once version `v` has arrived, false after `ms`. */
    until: async (v: number, ms: number): Promise<boolean> => {
      const end = Date.now() + ms;
      while ((last() ?? 0) < v && Date.now() < end) await sleep(20);
      return (last() ?? 0) >= v;
    },
    stop: async (): Promise<void> => {
      state.stopped = true;
      abort.abort();
      await loop;
    },
  };
};

/** A turn the player took: the versions it wrote and when its answer came. */
export interface Taken {
  readonly from: number;
  readonly to: number;
  readonly answeredAt: number;
  /** Requests it took (more than one: a retry with the same key). */
  readonly attempts: number;
}

/**
 * Takes the turn of whoever is to move (a play when one is found, else a pass), retrying every failure —
 * a refused connection, a 5xx, an unexpected error — with the same idempotency key and expected version
 * until an answer comes; null once the game is over.
 */
export const takeTurn = async (api: TestApi, players: readonly [Player, Player], gameId: string): Promise<Taken | null> => {
  const key = `turn-${randomBytes(8).toString('hex')}`;
  let plan: { mover: Player; version: number; action: Parameters<typeof submit>[4] } | null = null;
  for (let attempts = 1; attempts < 200; attempts++) {
    try {
      if (!plan) {
        const seen = await readGame(api, players[0], gameId);
        if (seen.status !== 'playing' || seen.whoseTurn === null) return null;
        const mover = players.find((p) => p.id === seen.seats.find((s) => s.seat === seen.whoseTurn)!.player!.id)!;
        const view = await readGame(api, mover, gameId);
        const found = findPlay(view, LEX, true);
        plan = { mover, version: view.version, action: found ? { play: { move: found.move } } : { pass: true } };
      }
      const r = await submit(api, plan.mover, gameId, plan.version, plan.action, key);
      if (!isGame(r)) throw new Error(`turn refused: ${JSON.stringify(r)}`);
      return { from: plan.version + 1, to: r.version, answeredAt: Date.now(), attempts };
    } catch (e) {
      if (String(e).includes('turn refused')) throw e;
      await sleep(200);
    }
  }
  throw new Error('a turn found no server for 40 s');
};

/** The versions received, and whether they are 1, 2, … `n`, each once, in order. */
export const versionsOf = (arrivals: readonly Arrival[]): number[] => arrivals.map((a) => a.event.version);
export const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
