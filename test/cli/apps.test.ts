/**
 * `arbiter apps` against a live server (the real app on an ephemeral port, as the lexicon upload test
 * runs it), with an API key holding apps:manage as a deploy script would: register (the secret printed
 * once), list, update, rotate, delete, and each refusal as one line naming the server's code and what to do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/apps.js';
import { recordingIo } from '../../cli/io.js';
import { openTestApi, STORE_TARGETS, type TestApi } from '../api/harness.js';

const KEY = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { __typename ... on NewApiKey { key } } }`;

describe('arbiter apps', () => {
  let api: TestApi;
  let server: Server;
  let url: string;
  let key: string;
  let reader: string;
  const exec = async (...args: string[]) => {
    const io = recordingIo();
    const code = await run(args, io);
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
  };
  const as = (token: string) => ['--server', url, '--token', token];

  beforeAll(async () => {
    api = await openTestApi(STORE_TARGETS[0]!);
    const { token } = await api.register('cli-developer');
    const newKey = async (apiScopes: string[]) =>
      (await api.gql(KEY, { input: { name: 'deploy', apiScopes } }, token)).body.data!['createApiKey'].key as string;
    key = await newKey(['APPS_MANAGE']);
    reader = await newKey(['GAMES_READ']);
    server = createServer(api.app.yoga);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
  });

  it('registers, lists, updates, rotates and deletes an app with an apps:manage key', async () => {
    const reg = await exec(
      'register',
      '--name',
      'Deploy Buddy',
      '--redirect-uri',
      'https://buddy.example/cb',
      '--redirect-uri',
      'http://127.0.0.1/cb',
      '--confidential',
      ...as(key),
    );
    expect(reg).toMatchObject({ code: 0, err: '' });
    const id = /^client_id: +(app_\S+)$/m.exec(reg.out)![1]!;
    const secret = /^client_secret: +(appsec_\S+)$/m.exec(reg.out)![1]!;
    expect(reg.out).toMatch(/^type: +confidential$/m);
    expect(reg.out).toMatch(/^redirect URIs: https:\/\/buddy\.example\/cb http:\/\/127\.0\.0\.1\/cb$/m);
    expect(reg.out).toContain('shown this once');

    const list = await exec('list', '--json', ...as(key));
    expect(list.code).toBe(0);
    expect(JSON.parse(list.out)).toEqual([expect.objectContaining({ id, name: 'Deploy Buddy', clientType: 'CONFIDENTIAL' })]);
    expect(list.out).not.toContain(secret);

    const upd = await exec(
      'update',
      id,
      '--redirect-uri',
      'https://buddy.example/v2/cb',
      '--icon',
      'https://buddy.example/i.png',
      ...as(key),
    );
    expect(upd).toMatchObject({ code: 0 });
    expect(upd.out).toMatch(/^redirect URIs: https:\/\/buddy\.example\/v2\/cb$/m);
    expect(upd.out).toMatch(/^icon: +https:\/\/buddy\.example\/i\.png$/m);

    const rot = await exec('rotate-secret', id, ...as(key));
    expect(rot.code).toBe(0);
    expect(/^client_secret: +(appsec_\S+)$/m.exec(rot.out)![1]).not.toBe(secret);

    expect(await exec('delete', id, ...as(key))).toMatchObject({ code: 0, out: `deleted ${id}, with every grant and token it held` });
    expect(await exec('list', ...as(key))).toMatchObject({ code: 0, out: 'no apps' });
  });

  it('says which redirect URI the server refused and why, in one line', async () => {
    const r = await exec('register', '--name', 'Buddy', '--redirect-uri', 'http://buddy.example/cb', ...as(key));
    expect(r.code).toBe(2);
    expect(r.err).toContain('HTTP 400 APP_REDIRECT_URI_INVALID');
    expect(r.err).toContain('"http://buddy.example/cb"');
  });

  it('turns a missing scope, an unknown app and a missing server into what to do', async () => {
    const forbidden = await exec('list', ...as(reader));
    expect(forbidden).toMatchObject({ code: 2 });
    expect(forbidden.err).toContain('HTTP 403');
    expect(forbidden.err).toContain('apps:manage');
    const missing = await exec('delete', 'app_nothing', ...as(key));
    expect(missing.err).toContain('HTTP 404 APP_NOT_FOUND');
    expect(missing.err).toContain('arbiter apps list');
    expect((await exec('list', '--server', 'http://127.0.0.1:1', '--token', key)).err).toContain('cannot reach the server');
    expect((await exec('update', 'app_x', ...as(key))).err).toContain('update needs');
    expect((await exec('register', '--name', 'x', '--json', ...as(key))).err).toContain('register does not take --json');
  });
});
