import { describe, expect, it } from 'vitest';
import { recordingIo } from './io.js';
import { run } from './moves.js';

const EMPTY = '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15';
const GCG = 'test/fixtures/gcg/liwords/doug_vs_emely.gcg';

describe('arbiter moves', () => {
  it('--cgp --json: the opening bingo of AEINRST first, scored (7 + 1) × 2 + 50 = 66, keeping nothing', async () => {
    const io = recordingIo();
    expect(await run(['--cgp', `${EMPTY} AEINRST/ 0/0 0 lex SOWPODS;`, '--top', '3', '--json'], io)).toBe(0);
    const out = JSON.parse(io.stdout.join('')) as {
      moveCount: number;
      moves: { rank: number; kind: string; notation: string; score: number; leave: string }[];
      played: unknown;
    };
    expect(out.moves.map((m) => m.rank)).toEqual([1, 2, 3]);
    for (const m of out.moves) {
      expect(m).toMatchObject({ kind: 'play', score: 66, leave: '' });
      expect([...m.notation.split(' ')[1]!].sort().join('')).toBe('AEINRST');
    }
    expect(out.played).toBeNull();
  });

  it('a GCG record: the move made at the turn is found, with its recorded notation', async () => {
    const io = recordingIo();
    expect(await run([GCG, '--turn', '5', '--top', '1', '--json'], io)).toBe(0);
    const out = JSON.parse(io.stdout.join('')) as { cgp: string; played: { rank: number; notation: string; score: number } | null };
    // doug_vs_emely.gcg, Doug's third move: 10B DONATES for 82 (the record's line).
    expect(out.played).toMatchObject({ notation: '10B DONATES', score: 82 });
    expect(out.played!.rank).toBeGreaterThanOrEqual(1);
    expect(out.cgp.split(' ')[1]).toBe('ADENOST/');
  });

  it('refuses a bad CGP line, a turn out of range and a missing source with exit code 2', async () => {
    for (const args of [['--cgp', 'nonsense'], [GCG, '--turn', '999'], ['--top', '3'], [GCG]]) {
      const io = recordingIo();
      expect(await run(args, io)).toBe(2);
      expect(io.stderr.join('')).not.toBe('');
    }
  });
});
