import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { geometry } from '../render/theme.js';
import { recordingIo } from './io.js';
import { main } from './main.js';

const gcg = join(import.meta.dirname, '..', 'test', 'fixtures', 'gcg', 'liwords', 'doug_vs_emely.gcg');
const out = (name: string) => join(mkdtempSync(join(tmpdir(), 'arbiter-render-')), name);
const boardTiles = (svg: string) =>
  [...svg.matchAll(/<g class="tile" data-letter="([^"]+)"[^>]*data-square="([^"]+)"/g)].map((m) => `${m[2]}:${m[1]}`);

describe('arbiter render', () => {
  test('--turn 1: the first move of the record on the board (>doug: DINNVWY 8D WINDY +32), no rack by default', async () => {
    const file = out('board.svg');
    const io = recordingIo();
    expect(await main(['render', gcg, '--turn', '1', '-o', file], io)).toBe(0);
    expect(io.stdout.join('')).toBe(`wrote ${file}: the board after 1 of 30 lines`);
    const svg = readFileSync(file, 'utf8');
    expect(boardTiles(svg)).toEqual(['D8:W', 'E8:I', 'F8:N', 'G8:D', 'H8:Y']);
    expect(svg).toContain('>doug 32</text>');
    expect(svg).not.toContain('rack-tile');
  });

  test('--player 1 shows that player’s rack as the record gives it (>doug: ADENOST before turn 5)', async () => {
    const file = out('board.svg');
    expect(await main(['render', gcg, '--turn', '4', '--player', '1', '-o', file], recordingIo())).toBe(0);
    const rack = [...readFileSync(file, 'utf8').matchAll(/class="tile rack-tile" data-letter="([^"]+)"/g)].map((m) => m[1]).sort();
    expect(rack.join('')).toBe('ADENOST');
  });

  test('.png is the picture at its size; .gif has one frame per line plus the start', async () => {
    const png = out('board.png');
    expect(await main(['render', gcg, '-o', png], recordingIo())).toBe(0);
    const bytes = readFileSync(png);
    const g = geometry(15, false);
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([g.width, g.height]);
    const gif = out('replay.gif');
    const io = recordingIo();
    expect(await main(['render', gcg, '--width', '240', '-o', gif], io)).toBe(0);
    expect(io.stdout.join('')).toContain('31 frames');
    const g2 = readFileSync(gif);
    expect(g2.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect(g2.readUInt16LE(6)).toBe(240);
  }, 60_000);

  test.each([
    [['render'], 'give one GCG file'],
    [['render', 'x.gcg'], 'give the output file'],
    [['render', 'x.gcg', '-o', 'b.jpg'], 'must end in .svg, .png or .gif'],
    [['render', 'x.gcg', '-o', 'b.svg', '--turn', 'last'], '--turn must be a whole number'],
    [['render', 'x.gcg', '-o', 'b.svg', '--player', '3'], '--player must be 1 or 2'],
    [['render', 'no-such.gcg', '-o', 'b.svg'], 'cannot read no-such.gcg'],
    [['render', gcg, '-o', 'b.svg', '--turn', '99'], 'the record has 30 lines'],
  ])('%j → exit 2: %s', async (args, message) => {
    const io = recordingIo();
    expect(await main(args, io)).toBe(2);
    expect(io.stderr.join('\n')).toContain(message);
  });

  test('a record that does not replay: exit 1 with the engine’s reason', async () => {
    const io = recordingIo();
    const bad = join(import.meta.dirname, '..', 'test', 'fixtures', 'gcg', 'MAGPIE', 'invalid_tile_placement.gcg');
    expect(await main(['render', bad, '-o', out('b.svg')], io)).toBe(1);
    expect(io.stderr.join('\n')).toMatch(/arbiter render: .*\[[A-Z_]+\]/);
  });

  test('--help', async () => {
    const io = recordingIo();
    expect(await main(['render', '--help'], io)).toBe(0);
    expect(io.stdout.join('')).toContain('usage: arbiter render FILE.gcg');
  });
});
