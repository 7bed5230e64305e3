import { describe, expect, test } from 'vitest';
import { openingEvents, run, start } from '../engine/game/game.fixtures.js';
import { turnViews } from '../engine/game/turn-views.js';
import { NSA_2008 } from '../engine/rules/presets.js';
import { ENGLISH } from '../engine/tiles.js';
import { replayGif } from './gif.js';
import { replayFrames } from './replay.js';

/** The GIF is read back by its format (GIF89a, the Netscape loop block, one graphic control block per frame). */
describe('the replay GIF', () => {
  test('one frame per position, looping, at the asked width', async () => {
    const s0 = start(NSA_2008, ['CATSERO', 'QIZAXEO']);
    const play = run(s0, { kind: 'play', seat: 0, move: '8G CAT' });
    const pass = run(play.state, { kind: 'pass', seat: 1 });
    const turns = turnViews([...openingEvents(NSA_2008, ['CATSERO', 'QIZAXEO']), ...play.events, ...pass.events], null);
    if (!turns.ok) throw new Error(turns.error.message);
    const frames = replayFrames(turns.value, ENGLISH);
    expect(frames).toHaveLength(3);
    expect(frames[0]).toContain('Start');
    expect(frames[2]).toContain('Move 2 of 2');
    const gif = await replayGif(frames, { width: 200 });
    const bytes = Buffer.from(gif);
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect(bytes.readUInt16LE(6)).toBe(200);
    expect(bytes.includes(Buffer.from('NETSCAPE2.0', 'latin1'))).toBe(true);
    let controls = 0;
    for (let i = bytes.indexOf(Buffer.from([0x21, 0xf9, 0x04])); i >= 0; i = bytes.indexOf(Buffer.from([0x21, 0xf9, 0x04]), i + 1))
      controls++;
    expect(controls).toBe(3);
  });

  test('no frames is an error, not an empty file', async () => {
    await expect(replayGif([])).rejects.toThrow('no frames');
  });
});
