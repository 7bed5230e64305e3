/**
 * The curl examples of docs/rest.md, run as written — by curl, through bash, in order — against a live
 * HTTP server over the app (functions/app.ts on a fresh database). The line after each command,
 * `# → <status> [NAME=.json.path | NAME=@header …]`, is what it must answer and what later commands
 * take from the answer (as shell variables). On PGlite and Postgres.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';

interface Example {
  readonly command: string;
  readonly status: number;
  readonly captures: readonly { name: string; from: string }[];
}

/** The curl commands of the shell blocks of a page, each with the `# →` line after it. */
export const curlExamples = (markdown: string): Example[] => {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/\\\n\s*/g, ''));
  const out: Example[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((l) => l.trim());
    lines.forEach((line, i) => {
      if (!line.startsWith('curl ')) return;
      const expect = /^# → (\d{3})((?: \w+=\S+)*)\s*$/.exec(lines[i + 1] ?? '');
      if (!expect) throw new Error(`docs/rest.md: no "# → <status>" line after: ${line}`);
      const captures = expect[2]!
        .trim()
        .split(' ')
        .filter(Boolean)
        .map((c) => ({ name: c.split('=')[0]!, from: c.slice(c.indexOf('=') + 1) }));
      out.push({ command: line, status: Number(expect[1]), captures });
    });
  }
  return out;
};

const run = promisify(execFile);
const PAGE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'rest.md'), 'utf8');

describe.each(STORE_TARGETS)('the curl examples of docs/rest.md on $kind', (target) => {
  let api: TestApi;
  let server: Server;
  let base: string;
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-curl-'));
  beforeAll(async () => {
    api = await openTestApi(target);
    server = createServer(api.app.yoga);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('there are examples for every part of a game, each with its expected status', () => {
    const examples = curlExamples(PAGE);
    expect(examples.length).toBeGreaterThan(25);
    expect(new Set(examples.map((e) => e.status))).toEqual(new Set([200, 201, 304, 401, 403, 404, 409, 412, 422, 428]));
  });

  it('each answers its status, in order', async () => {
    const vars: Record<string, string> = {};
    for (const example of curlExamples(PAGE)) {
      const command = example.command.replaceAll('localhost:4000', base).replace(/^curl -i /, 'curl ');
      const body = join(dir, 'body');
      const headers = join(dir, 'headers');
      // Not execFileSync: the server answers from this very process.
      const { stdout: status } = await run('bash', ['-c', `${command} -s -o ${body} -D ${headers} -w '%{http_code}'`], {
        env: { PATH: process.env['PATH'], ...vars },
        encoding: 'utf8',
      });
      const text = readFileSync(body, 'utf8');
      expect(Number(status), `${example.command}\n${text}`).toBe(example.status);
      for (const { name, from } of example.captures) {
        const value = from.startsWith('@')
          ? new RegExp(`^${from.slice(1)}: (.*)$`, 'im').exec(readFileSync(headers, 'utf8'))?.[1]?.trim()
          : from
              .slice(1)
              .split('.')
              .reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], JSON.parse(text));
        expect(value, `${name} from ${from} of ${example.command}`).toBeTypeOf('string');
        vars[name] = value as string;
      }
    }
  });
});
