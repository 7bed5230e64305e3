import { describe, expect, test } from 'vitest';
import { NSA_2008 } from '../rules/presets.js';
import { fullBag, ENGLISH } from '../tiles.js';
import { commitment, drawTiles } from './bag.js';
import { createGame, decide } from './decide.js';
import type { GameEvent } from './events.js';
import { fold, LEX, SEED } from './game.fixtures.js';
import { verifyDraws } from './verify.js';

const play = (events: GameEvent[], ...cmds: Parameters<typeof decide>[1][]): GameEvent[] => {
  let all = events;
  for (const c of cmds) {
    const r = decide(fold(null, all), c, { lexicon: LEX, seed: SEED });
    if (!r.ok) throw new Error(r.error.message);
    all = [...all, ...r.value];
  }
  return all;
};

describe('the provably fair bag', () => {
  test('commitment is the SHA-256 of the seed', () => {
    // sha256("abc"), FIPS 180-2 test vector.
    expect(commitment('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  test('draws are deterministic and take tiles out of the bag', () => {
    const a = drawTiles(SEED, 0, fullBag(ENGLISH), 7);
    expect(drawTiles(SEED, 0, fullBag(ENGLISH), 7)).toEqual(a);
    expect(a.tiles).toHaveLength(7);
    expect(a.bag).toHaveLength(93);
    expect(drawTiles('another-seed-0123456789', 0, fullBag(ENGLISH), 7).tiles).not.toEqual(a.tiles);
  });

  const game = (): GameEvent[] => {
    const created = createGame({
      rules: NSA_2008,
      lexicon: { name: 'TEST', hash: 'sha256:test' },
      players: [{ name: 'Ann' }, { name: 'Bob' }],
      timeControl: { kind: 'untimed' },
      seed: SEED,
      createdAt: '2024-01-01T00:00:00Z',
    });
    if (!created.ok) throw new Error(created.error.message);
    const s = fold(null, created.value);
    const rack0 = s.racks[0].tiles;
    return play(
      created.value,
      { kind: 'exchange', seat: 0, tiles: rack0.slice(0, 3) },
      { kind: 'exchange', seat: 1, tiles: s.racks[1].tiles.slice(0, 7) },
      { kind: 'resign', seat: 0 },
    );
  };

  test('a finished game reveals the seed and every draw re-derives from it', () => {
    const events = game();
    const end = events[events.length - 1]!;
    expect(end).toMatchObject({ type: 'game-ended', reason: 'resigned', seed: SEED });
    const created = events[0]!;
    expect(created.type === 'game-created' && created.bag).toEqual({ kind: 'seeded', commitment: commitment(SEED) });
    // 7 + 7 opening tiles, 3 and 7 exchanged.
    expect(verifyDraws(SEED, events)).toEqual({ ok: true, value: { tilesChecked: 24 } });
  });

  test('a tampered draw or a wrong seed is caught', () => {
    const events = game();
    const i = events.findIndex((e, k) => k > 2 && e.type === 'tiles-drawn');
    const d = events[i]! as Extract<GameEvent, { type: 'tiles-drawn' }>;
    const other = fullBag(ENGLISH).find((t) => !d.tiles.includes(t))!;
    const tampered = events.map((e, k) => (k === i ? { ...d, tiles: [other, ...d.tiles.slice(1)] } : e));
    const r = verifyDraws(SEED, tampered);
    expect(r.ok ? 'ok' : r.error.code).toBe('DRAW_MISMATCH');
    const w = verifyDraws('not-the-seed-0123456789', events);
    expect(w.ok ? 'ok' : w.error.code).toBe('SEED_COMMITMENT_MISMATCH');
  });

  test('the fold refuses a game end that reveals a seed not matching the commitment', () => {
    const events = game().slice(0, -1);
    const s = fold(null, events);
    const r = decide(s, { kind: 'resign', seat: 0 }, { lexicon: LEX, seed: 'wrong-seed-0123456789' });
    expect(r.ok ? 'ok' : r.error.code).toBe('SEED_COMMITMENT_MISMATCH');
  });
});
