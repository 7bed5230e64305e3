/**
 * The curl examples of docs/rest.md, run as written — by curl, through bash, in order — against a live
 * HTTP server over the app (functions/app.ts on a fresh database). The line after each command,
 * `# → <status> [NAME=.json.path | NAME=@header …]`, is what it must answer and what later commands
 * take from the answer (as shell variables). On PGlite and Postgres.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { curlExamples, runCurlExamples } from './curl-examples.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';

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
    await runCurlExamples(curlExamples(PAGE), base, dir);
  });
});
