import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { recordingIo } from '../../cli/io.js';
import { main } from '../../cli/main.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'tsh');
const dallas = join(FIXTURES, 'cop-2023-a.t');

const arbiter = async (...args: string[]) => {
  const io = recordingIo();
  const code = await main(['tournament', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
};

const tmpFile = (text: string): string => {
  const f = join(mkdtempSync(join(tmpdir(), 'arbiter-t-')), 'a.t');
  writeFileSync(f, text);
  return f;
};

describe('arbiter tournament standings', () => {
  test('--json: one row per player with name, wins, losses, spread, firsts, seconds, rank', async () => {
    const r = await arbiter('standings', dallas, '--json', '--round', '12');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as {
      rank: number;
      name: string;
      wins: number;
      losses: number;
      spread: number;
      firsts: number;
      seconds: number;
    }[];
    expect(rows).toHaveLength(26);
    // The published standings after round 12 (test/fixtures/tsh/cop-2023-a.standings-r12.txt): Sykes 10 wins +952, Buma last.
    expect(rows[0]).toMatchObject({ rank: 1, name: 'Sykes, Christopher', wins: 10, losses: 2, spread: 952 });
    expect(rows[25]).toMatchObject({ rank: 26, name: 'Buma, Joan', wins: 1, spread: -1107 });
    expect(rows.every((x) => x.firsts + x.seconds <= 12)).toBe(true);
  });

  test('a table for people', async () => {
    const r = await arbiter('standings', dallas, '--round', '12');
    expect(r.out.split('\n')[0]).toMatch(/rank\s+name\s+wins\s+losses\s+spread\s+firsts\s+seconds/);
    expect(r.out.split('\n')[1]).toMatch(/^\s+1\s+Sykes, Christopher\s+10\s+2\s+\+952/);
  });

  test('a line that does not parse: exit 2, the line and the field named', async () => {
    const r = await arbiter('standings', tmpFile('Doe, Jane 1500 2; 400\nRoe, Rick 1400 1; 4x0\n'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/line 2: scores/);
  });

  test('bad usage: exit 2 with the usage', async () => {
    expect((await arbiter('standings')).code).toBe(2);
    expect((await arbiter('standings', dallas, '--rules', 'NOPE')).err).toMatch(/--rules must be one of/);
  });
});

describe('arbiter tournament pair', () => {
  test('pairs the next round of a real event: everyone once, nobody a repeat beyond the allowance', async () => {
    const r = await arbiter('pair', dallas, '--method', 'swiss', '--json', '--repeats', '3');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as {
      round: number;
      games: { first: number; second: number; repeats: number }[];
      byes: { player: number }[];
    };
    expect(out.round).toBe(24);
    const seen = [...out.games.flatMap((g) => [g.first, g.second]), ...out.byes.map((b) => b.player)].sort((a, b) => a - b);
    // Two of the 26 withdrew (off); every active player appears once.
    expect(new Set(seen).size).toBe(seen.length);
    expect(out.games.every((g) => g.repeats <= 3)).toBe(true);
  });

  test('a method that is not one: exit 2', async () => {
    expect((await arbiter('pair', dallas, '--method', 'coin-toss')).code).toBe(2);
  });

  test('a pairing that cannot be made: exit 1 with the engine’s code', async () => {
    // Two players who have met already, no repeats allowed.
    const f = tmpFile('A, A 1500 2; 400\nB, B 1400 1; 300\n');
    const r = await arbiter('pair', f, '--method', 'king-of-the-hill', '--repeats', '0');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/REPEAT_LIMIT/);
  });
});
