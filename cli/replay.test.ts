import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { recordingIo } from './io.js';
import { main } from './main.js';

const gcg = (dir: string, file: string) => join(import.meta.dirname, '..', 'test', 'fixtures', 'gcg', dir, file);

describe('arbiter replay', () => {
  test('a record that agrees: exit 0, final scores and result', async () => {
    const io = recordingIo();
    expect(await main(['replay', gcg('MAGPIE', 'success_six_pass.gcg')], io)).toBe(0);
    const out = io.stdout.join('\n');
    expect(out).toContain('final scores: Marlon_Hill -6, Ben_Schoenbrun -16.');
    expect(out).toContain('Result: Marlon_Hill wins (six scoreless turns).');
  });

  test('--json: one object as specified; exit 1 when the record disagrees', async () => {
    const io = recordingIo();
    expect(await main(['replay', gcg('MAGPIE', 'last_rack_penalty_incorrect.gcg'), '--json'], io)).toBe(1);
    const out = JSON.parse(io.stdout.join(''));
    expect(out).toMatchObject({
      ok: false,
      moves: 6,
      finalScores: { Marlon_Hill: -6, Ben_Schoenbrun: -16 },
      errors: [],
      result: { winner: 'Marlon_Hill', reason: 'scoreless-turns' },
    });
    // EIOQRRT = 1 + 1 + 1 + 10 + 1 + 1 + 1 = 16, recorded as 18.
    expect(out.mismatches).toEqual([
      {
        turn: 10,
        player: 'Ben_Schoenbrun',
        expected: -18,
        actual: -16,
        reason: expect.stringContaining('Line 17'),
        code: 'END_RACK_PENALTY_INCORRECT',
        line: 17,
      },
    ]);
  });

  test('a file that cannot be parsed: exit 2 with the line named', async () => {
    const io = recordingIo();
    expect(await main(['replay', gcg('MAGPIE', 'malformed_play.gcg')], io)).toBe(2);
    expect(io.stderr.join('')).toMatch(/Line \d+/);
  });

  test('no file: exit 2 with usage', async () => {
    const io = recordingIo();
    expect(await main(['replay'], io)).toBe(2);
    expect(io.stderr.join('')).toContain('usage: arbiter replay');
  });

  test('--tile-set: an Italian record in plain A–Z is replayed with the Italian tiles', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'arbiter-replay-')), 'italian.gcg');
    // 8H ZIO: (Z 8 + I 1 + O 1) × 2 = 20 with Italian values; English would give (10 + 1 + 1) × 2 = 24.
    writeFileSync(file, '#player1 Ann Ann\n#player2 Bob Bob\n>Ann: AEILOTZ 8H ZIO +20 20\n');
    const english = recordingIo();
    expect(await main(['replay', file, '--json'], english)).toBe(1);
    expect(JSON.parse(english.stdout.join(''))).toMatchObject({ tileSet: 'english', mismatches: [{ expected: 20, actual: 24 }] });
    const italian = recordingIo();
    expect(await main(['replay', file, '--tile-set', 'italian', '--json'], italian)).toBe(0);
    expect(JSON.parse(italian.stdout.join(''))).toMatchObject({ ok: true, tileSet: 'italian', wordsJudgedBy: null });
  });
});
