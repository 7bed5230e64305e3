import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { recordingIo } from './io.js';
import { run } from './jwt-secret.js';

it('rotates the key in the data directory: the old one becomes jwt-secret.previous', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'arbiter-cli-jwt-'));
  try {
    const io = recordingIo();
    expect(await run(['rotate', '--data-dir', dir], io)).toBe(0);
    const first = await readFile(join(dir, 'jwt-secret'), 'utf8');
    expect(await run(['rotate', '--data-dir', dir], io)).toBe(0);
    expect(await readFile(join(dir, 'jwt-secret.previous'), 'utf8')).toBe(first);
    expect(await readFile(join(dir, 'jwt-secret'), 'utf8')).not.toBe(first);
    expect(io.stdout.join('\n')).toMatch(/restart the server/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it('answers usage and exit 2 for anything else', async () => {
  const io = recordingIo();
  expect(await run(['spin'], io)).toBe(2);
  expect(await run(['rotate', '--bogus'], io)).toBe(2);
  expect(io.stderr.join('\n')).toMatch(/usage: arbiter jwt-secret rotate/);
});
