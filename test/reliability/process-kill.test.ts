/**
 * The process killed between commit and response (issue 6; heavy: `npm run test:reliability`).
 * The API runs as a child process (test/reliability/crash-server.ts) on a fresh Postgres schema,
 * armed to SIGKILL itself right after a turn commits; the client's request dies with the socket.
 * A new process on the same database answers the client's retry (same idempotency key) with the
 * committed result: the turn is in the store exactly once, and nothing is lost or doubled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../store/db.js';
import { recorder } from './summary.js';
import { STORE_TARGETS } from './world.js';

const rec = recorder('process-kill');
afterAll(() => rec.flush());

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = join(ROOT, 'test', 'reliability', 'crash-server.ts');
const JWT_SECRET = 'reliability-process-kill-secret-0123456789';

interface Child {
  readonly proc: ChildProcess;
  readonly base: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const start = async (databaseUrl: string, crash: boolean): Promise<Child> => {
  const proc = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, ARBITER_JWT_SECRET: JWT_SECRET, ARBITER_TEST_CRASH_AFTER_COMMIT: crash ? '1' : '0' },
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
    const lines = createInterface({ input: proc.stdout! });
    lines.on('line', (line) => {
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

const gql = async (child: Child, query: string, variables: Record<string, unknown>, token?: string) => {
  rec.add('requestsSent');
  const res = await fetch(`${child.base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBeLessThan(500);
  return (await res.json()) as { data?: Record<string, any>; errors?: unknown[] };
};

const REGISTER = `mutation($input: RegisterPlayerInput!) { registerPlayer(input: $input) { __typename ... on AuthPayload { token player { id } } } }`;
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on Game { id version } } }`;
const SUBMIT = `mutation($input: SubmitTurnInput!) { submitTurn(input: $input) { __typename ... on Game { id version whoseTurn history { seat kind } } ... on Error { code message } } }`;

const POSTGRES = STORE_TARGETS.filter((t) => t.kind === 'postgres');

describe('the server process killed between commit and response', () => {
  if (POSTGRES.length === 0) {
    it('needs Postgres: set ARBITER_TEST_POSTGRES_URL or run one at the local default', () => {
      expect.fail('no Postgres reachable: the process-kill test runs only against a real server');
    });
  }

  it.each(POSTGRES)('on $kind: the retry with the same key returns the committed turn, which is stored once', async (target) => {
    if (target.unreachable !== undefined || !target.url) throw new Error(`Postgres at ${target.url} is unreachable: ${target.unreachable}`);
    const schema = `arbiter_test_${randomBytes(6).toString('hex')}`;
    const url = new URL(target.url);
    url.searchParams.set('schema', schema);
    const databaseUrl = url.toString();
    const db = await createDb({ databaseUrl }); // migrates the fresh schema
    const children: Child[] = [];
    try {
      const first = await start(databaseUrl, true);
      children.push(first);
      const reg = async (handle: string) => {
        const r = await gql(first, REGISTER, { input: { handle, displayName: handle.toUpperCase(), password: `${handle}-password` } });
        return { id: r.data!['registerPlayer'].player.id as string, token: r.data!['registerPlayer'].token as string };
      };
      const ann = await reg('ann');
      await reg('bob');
      const created = await gql(first, CREATE, { input: { opponent: 'bob' } }, ann.token);
      const game = created.data!['createGame'] as { id: string; version: number };
      expect(game.version).toBeGreaterThan(0);

      const input = {
        gameId: game.id,
        expectedVersion: game.version,
        idempotencyKey: `kill-${randomBytes(6).toString('hex')}`,
        action: { pass: true },
      };
      rec.add('faultsInjected');
      await expect(gql(first, SUBMIT, { input }, ann.token)).rejects.toThrow();
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

      // The turn committed before the kill: it is in the store, once.
      const count = () => db.prisma.gameEvent.count({ where: { gameId: game.id } });
      expect(await count()).toBe(game.version + 1);
      expect((await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } })).version).toBe(game.version + 1);

      // A new process; the client retries.
      const second = await start(databaseUrl, false);
      children.push(second);
      const retry = await gql(second, SUBMIT, { input }, ann.token);
      expect(retry.data!['submitTurn']).toMatchObject({ __typename: 'Game', id: game.id, version: game.version + 1, whoseTurn: 1 });
      expect((retry.data!['submitTurn'] as { history: { seat: number; kind: string }[] }).history).toEqual([{ seat: 0, kind: 'pass' }]);
      const again = await gql(second, SUBMIT, { input }, ann.token);
      expect(again).toEqual(retry);
      const events = await count();
      rec.add('eventsLost', Math.max(0, game.version + 1 - events));
      expect(events).toBe(game.version + 1);
    } finally {
      for (const c of children) {
        if (c.proc.exitCode === null && c.proc.signalCode === null) {
          c.proc.kill('SIGTERM');
          await c.exited;
        }
      }
      await db.close();
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
    }
  });
});
