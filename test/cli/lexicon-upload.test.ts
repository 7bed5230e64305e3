/**
 * `arbiter lexicon upload` against a live server (the real app on an ephemeral port, as
 * test/rest/docs.test.ts runs curl): the answer printed, and each refusal one clear line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingIo } from '../../cli/io.js';
import { run } from '../../cli/lexicon.js';
import { lexiconRegistry } from '../../service/lexicons.js';
import { LEXICONS, openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';

const KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { __typename ... on NewApiKey { key } } }`;

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('arbiter lexicon upload', () => {
  let api: TestApi;
  let server: Server;
  let url: string;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-cli-upload-'));
  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const exec = async (...args: string[]) => {
    const io = recordingIo();
    const code = await run(['upload', ...args], io);
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
  };

  beforeAll(async () => {
    api = await openTestApi(STORE_TARGETS[0]!, { lexicons: lexiconRegistry([...LEXICONS.all]) });
    token = (await api.register('cli-uploader')).token;
    server = createServer(api.app.yoga);
    url = await listen(server);
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('posts the file as text/plain and prints name, hash, word count and the unspellable words', async () => {
    const words = file('club.txt', 'cat\ndog\nmaña\n');
    const r = await exec(words, '--name', 'cli-club', '--tile-set', 'english', '--server', url, '--token', token);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^name: +CLI-CLUB$/m);
    expect(r.out).toMatch(/^hash: +sha256:[0-9a-f]{64}$/m);
    expect(r.out).toMatch(/^words: +3$/m);
    expect(r.out).toMatch(/^stored: +new edition$/m);
    expect(r.out).toMatch(/^unspellable: 1 \(MAÑA\)$/m);
    // The token from the environment; the same list again is stored already.
    process.env['ARBITER_TOKEN'] = token;
    try {
      const again = await exec(words, '--name', 'cli-club', '--tile-set', 'english', '--server', `${url}/`);
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/^stored: +already stored \(same list\)$/m);
    } finally {
      delete process.env['ARBITER_TOKEN'];
    }
  });

  it('refuses clearly: no server, no token, a bad token (401), a key without the scope (403), a list the server rejects', async () => {
    const words = file('small.txt', 'qi\n');
    const closed = createServer();
    const dead = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const down = await exec(words, '--name', 'x', '--tile-set', 'english', '--server', dead, '--token', token);
    expect(down).toMatchObject({ code: 2, out: '' });
    expect(down.err).toMatch(/cannot reach the server at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);

    const saved = process.env['ARBITER_URL'];
    delete process.env['ARBITER_URL'];
    expect((await exec(words, '--name', 'x', '--tile-set', 'english', '--token', token)).err).toMatch(/no server: pass --server URL/);
    if (saved !== undefined) process.env['ARBITER_URL'] = saved;
    expect((await exec(words, '--name', 'x', '--tile-set', 'english', '--server', url)).err).toMatch(/no token: pass --token/);
    expect((await exec(words, '--tile-set', 'english', '--server', url, '--token', token)).err).toMatch(/needs --name NAME/);

    const bad = await exec(words, '--name', 'x', '--tile-set', 'english', '--server', url, '--token', 'not-a-token');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/HTTP 401 \w+/);
    expect(bad.err).toMatch(/did not accept the token/);

    const key = (await api.gql(KEY, { input: { name: 'play only', apiScopes: ['GAMES_PLAY'] } }, token)).body.data!['createApiKey'];
    const forbidden = await exec(words, '--name', 'x', '--tile-set', 'english', '--server', url, '--token', key.key);
    expect(forbidden.err).toMatch(/HTTP 403 \w+/);
    expect(forbidden.err).toMatch(/lexicons:manage scope/);

    const rejected = await exec(file('bad.txt', 'cat\ndog2\n'), '--name', 'x', '--tile-set', 'english', '--server', url, '--token', token);
    expect(rejected.err).toMatch(/HTTP 422 LEXICON_BAD_WORD\): Line 2: "dog2"/);
  });

  it('a file over the server’s body cap is 413 REQUEST_TOO_LARGE, said so', async () => {
    const huge = file('huge.txt', 'ABCDEFGHIJ\n'.repeat(600_000));
    const r = await exec(huge, '--name', 'huge', '--tile-set', 'english', '--server', url, '--token', token);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/HTTP 413 REQUEST_TOO_LARGE\): The request body is 6600000 bytes/);
    expect(r.err).toMatch(/larger than the server takes/);
  });
});
