/**
 * `npm start` on several cores (functions/cluster.ts): ARBITER_WORKERS forks that many servers on one
 * port over Postgres; with the embedded database the start stays (or insists on being) one process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { workerCount } from '../../functions/cluster.js';
import { STORE_TARGETS } from '../store/targets.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERVER = join(ROOT, 'functions', 'server.ts');
const PG_URL = 'postgresql://u@h/db';

describe('ARBITER_WORKERS', () => {
  it('is one process unless asked; a number or `auto` (one per core) on Postgres', () => {
    expect(workerCount({ DATABASE_URL: PG_URL }, 8)).toBe(1);
    expect(workerCount({ DATABASE_URL: PG_URL, ARBITER_WORKERS: '3' }, 8)).toBe(3);
    expect(workerCount({ DATABASE_URL: PG_URL, ARBITER_WORKERS: 'auto' }, 8)).toBe(8);
    expect(workerCount({ DATABASE_URL: PG_URL, ARBITER_WORKERS: ' 1 ' }, 8)).toBe(1);
  });

  it('on PGlite, `auto` is one process and an explicit count above one stops the start', () => {
    expect(workerCount({ ARBITER_WORKERS: 'auto' }, 8)).toBe(1);
    expect(workerCount({ ARBITER_WORKERS: '1' }, 8)).toBe(1);
    expect(() => workerCount({ ARBITER_WORKERS: '2' }, 8)).toThrow(/ARBITER_WORKERS=2 needs DATABASE_URL.*PGlite/);
  });

  it('refuses what is not a count, naming the variable', () => {
    for (const bad of ['0', '-1', 'two', '1.5', '999', 'auto2'])
      expect(() => workerCount({ DATABASE_URL: PG_URL, ARBITER_WORKERS: bad }, 8), bad).toThrow(/^ARBITER_WORKERS must be/);
  });
});

interface Started {
  readonly proc: ChildProcess;
  readonly out: string[];
  readonly exited: Promise<number | null>;
}

const startServer = (env: Record<string, string>): Started => {
  const proc = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, ARBITER_LOG_LEVEL: 'info', PORT: '0', ARBITER_JWT_SECRET: 'cluster-test-secret-cluster-test-secret-01', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const keep = (d: Buffer) => out.push(...d.toString().split('\n'));
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, out, exited };
};

const waitFor = async <T>(what: string, started: Started, find: () => T | undefined, ms = 90_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until || started.proc.exitCode !== null) throw new Error(`no ${what}:\n${started.out.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** One request on a connection of its own, so that the primary hands each to a worker in turn. */
const post = (port: number, body: unknown): Promise<{ status: number; json: any }> =>
  new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/graphql', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });

const LOGIN = `mutation { login(handle: "alice", password: "alice-demo-1") { __typename ... on AuthPayload { player { handle } } } }`;

describe('npm start with ARBITER_WORKERS=2 on PGlite', () => {
  it('stops at start, saying why, before opening anything', async () => {
    const started = startServer({ ARBITER_WORKERS: '2', DATABASE_URL: '' });
    expect(await started.exited).not.toBe(0);
    expect(started.out.join('\n')).toMatch(
      /ARBITER_WORKERS=2 needs DATABASE_URL: the embedded database \(PGlite\) serves one process only/,
    );
  }, 60_000);
});

const POSTGRES = STORE_TARGETS.filter((t) => t.kind === 'postgres');

describe.each(POSTGRES)('npm start with ARBITER_WORKERS=2 on $kind', (target) => {
  const schema = `arbiter_test_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    if (!target.url || target.unreachable !== undefined) return;
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('two workers answer on one port over one database, and SIGTERM stops them all', async () => {
    if (target.unreachable !== undefined || !target.url) throw new Error(`Postgres at ${target.url} is unreachable: ${target.unreachable}`);
    const url = new URL(target.url);
    url.searchParams.set('schema', schema);
    const started = startServer({ ARBITER_WORKERS: '2', DATABASE_URL: url.toString() });
    try {
      const primary = Number(
        await waitFor('all workers listening', started, () => /2 workers listening, primary pid (\d+)/.exec(started.out.join('\n'))?.[1]),
      );
      const port = Number(await waitFor('banner', started, () => /GraphiQL +http:\/\/localhost:(\d+)\//.exec(started.out.join('\n'))?.[1]));
      expect(started.out.join('\n')).toContain('2 workers');

      // The leader seeded the demo players; whichever worker answers finds them in the shared database.
      const answers = [];
      for (let i = 0; i < 12; i++) answers.push(await post(port, { query: LOGIN }));
      for (const a of answers) expect(a.json.data.login).toEqual({ __typename: 'AuthPayload', player: { handle: 'alice' } });

      const lines = () =>
        started.out.filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l) as { operation: string | null; pid?: number });
      const served = await waitFor('request lines', started, () => (lines().length >= 12 ? lines() : undefined));
      const pids = new Set(served.map((l) => l.pid));
      expect(pids.size).toBe(2);
      expect(pids.has(primary)).toBe(false);
      expect([...pids].every((p) => typeof p === 'number')).toBe(true);

      started.proc.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      for (const pid of pids) expect(() => process.kill(pid!, 0), `worker ${pid} still running`).toThrow();
    } finally {
      if (started.proc.exitCode === null) started.proc.kill('SIGKILL');
    }
  }, 180_000);
});
