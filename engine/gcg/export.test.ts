import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openingEvents, run, SEED, start } from '../game/game.fixtures.js';
import type { GameEvent } from '../game/events.js';
import { loadLexicon } from '../../store/lexicon-files.js';
import { NSA_2008 } from '../rules/presets.js';
import { gameToGcg } from './export.js';
import { formatGcg } from './format.js';
import { parseGcg } from './parse.js';
import { replayGcg } from './replay.js';

const CORPUS = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'gcg', 'liwords');
const lexicon = (() => {
  const l = loadLexicon('SOWPODS');
  return l.ok ? l.value : null;
})();

describe('gameToGcg: a game log as a GCG record', () => {
  test.each(readdirSync(CORPUS).filter((f) => f.endsWith('.gcg')))(
    '%s: import → export → replay keeps every play, score and the result',
    (file) => {
      const doc = parseGcg(readFileSync(join(CORPUS, file)));
      if (!doc.ok) throw new Error(doc.error.message);
      const first = replayGcg(doc.value, { lexicon });
      expect(first.ok).toBe(true);
      const text = formatGcg(gameToGcg(first.events, { viewer: null }));
      const again = parseGcg(text);
      if (!again.ok) throw new Error(again.error.message);
      const second = replayGcg(again.value, { lexicon });
      expect(second.errors).toEqual([]);
      expect(second.mismatches).toEqual([]);
      expect(second.finalScores).toEqual(first.finalScores);
      expect(second.result).toEqual(first.result);
      // Every play, with the score the engine gave it (a record's mis-scored withdrawn play is written as scored).
      const written = again.value.events.flatMap((e) => (e.kind === 'move' && e.move.kind === 'play' ? [[e.player, e.score]] : []));
      expect(written).toEqual(first.events.flatMap((e) => (e.type === 'play' ? [[e.seat, e.score]] : [])));
    },
  );

  // Ann opens with CAT; Bob exchanges QZ; the game is still on.
  const s0 = start(NSA_2008, ['CATSERO', 'QIZAXEO']);
  const s1 = run(s0, { kind: 'play', seat: 0, move: '8G CAT' });
  const s2 = run(s1.state, { kind: 'exchange', seat: 1, tiles: ['Q', 'Z'] });
  const live: GameEvent[] = [...openingEvents(NSA_2008, ['CATSERO', 'QIZAXEO']), ...s1.events, ...s2.events];

  test('while the game is on, a player sees only their own racks, a spectator none, and no seed', () => {
    const forAnn = gameToGcg(live, { viewer: 0 });
    expect(forAnn.events.map((e) => [e.player, e.rack])).toEqual([
      [0, 'CATSERO'],
      [1, ''],
    ]);
    expect(forAnn.events[1]).toMatchObject({ kind: 'move', move: { kind: 'exchange', tiles: null, count: 2 } });
    expect(forAnn.lastRacks[1]).toBeNull();
    expect(forAnn.lastRacks[0]!.rack).toHaveLength(7);
    const forBob = gameToGcg(live, { viewer: 1 });
    expect(forBob.events.map((e) => e.rack)).toEqual(['', 'QIZAXEO']);
    expect(forBob.events[1]).toMatchObject({ move: { kind: 'exchange', tiles: ['Q', 'Z'], count: 2 } });
    const spectator = formatGcg(gameToGcg(live, { viewer: null }));
    expect(spectator).not.toMatch(/CATSERO|QIZAXEO|#rack|#bag-seed/);
    expect(spectator).toContain('>Ann:  8G CAT +10 10');
    expect(spectator).toContain('>Bob:  -2 +0 0');
  });

  test('once the game is over, every rack and the bag seed are in the record', () => {
    const s3 = run(s2.state, { kind: 'resign', seat: 0 });
    const text = formatGcg(gameToGcg([...live, ...s3.events], { viewer: null, gameId: 'g1' }));
    expect(text).toContain('>Ann: CATSERO 8G CAT +10 10');
    expect(text).toContain('>Bob: QIZAXEO -QZ +0 0');
    expect(text).toContain(`#bag-seed ${SEED}`);
    expect(text).toContain('#id arbiter g1');
    expect(text).toContain('#note Ann lost the game (resigned).');
  });
});
