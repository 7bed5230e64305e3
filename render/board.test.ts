import { describe, expect, test } from 'vitest';
import { run, start } from '../engine/game/game.fixtures.js';
import type { GameState } from '../engine/game/state.js';
import { spectatorView, viewFor } from '../engine/game/view.js';
import { NSA_2008 } from '../engine/rules/presets.js';
import type { RuleSet } from '../engine/rules/ruleset.js';
import { DISTRIBUTIONS, ENGLISH } from '../engine/tiles.js';
import { renderBoardSvg } from './board.js';
import { svgToPixels } from './png.js';
import { COLOURS, geometry, SQUARE_FILL } from './theme.js';

/**
 * The picture is checked as a structure (its squares, labels, tiles and rack read back from the SVG's
 * data attributes and text) and, as PNG, by the colour of a few pixels. The expectations are facts of
 * the game (the standard board has 8 triple-word squares …), never a picture the renderer made.
 */

const all = (svg: string, re: RegExp): RegExpMatchArray[] => [...svg.matchAll(new RegExp(re.source, 'g'))];
const count = (svg: string, re: RegExp): number => all(svg, re).length;
/** The `<g class="tile" …>` openings, as attribute maps. */
const tiles = (svg: string, cls = 'tile'): Record<string, string>[] =>
  all(svg, new RegExp(`<g class="${cls}"([^>]*)>`)).map((m) =>
    Object.fromEntries(all(m[1]!, /([\w-]+)="([^"]*)"/).map((a) => [a[1], a[2]])),
  );
const rackTiles = (svg: string): Record<string, string>[] => tiles(svg, 'tile rack-tile');

const played = (): GameState => run(start(NSA_2008, ['CATSERO', 'QIZAXEO']), { kind: 'play', seat: 0, move: '8G CAT' }).state;

describe('the board picture (SVG)', () => {
  test('the standard board: 225 squares, the premium squares the board has, coordinates', () => {
    const svg = renderBoardSvg({ view: spectatorView(start(NSA_2008, ['CATSERO', 'QIZAXEO'])), distribution: ENGLISH });
    expect(count(svg, /<g class="square"/)).toBe(225);
    // The standard board: 8 TW, 17 DW (the centre star among them), 12 TL, 24 DL.
    expect(count(svg, /data-premium="TW"/)).toBe(8);
    expect(count(svg, /data-premium="DW"/)).toBe(17);
    expect(count(svg, /data-premium="TL"/)).toBe(12);
    expect(count(svg, /data-premium="DL"/)).toBe(24);
    expect(count(svg, /class="premium-label"[^>]*>TW</)).toBe(8);
    expect(count(svg, /class="premium-label"[^>]*>DW</)).toBe(16);
    expect(count(svg, /class="premium-label"[^>]*>★</)).toBe(1);
    expect(svg).toMatch(/data-square="H8" data-premium="DW"/);
    expect(svg).toMatch(/data-square="A1" data-premium="TW"/);
    expect(count(svg, /class="coord"/)).toBe(30);
    expect(svg).toMatch(/class="coord"[^>]*>O</);
    expect(svg).toMatch(/class="coord"[^>]*>15</);
    expect(count(svg, /<g class="tile"/)).toBe(0);
  });

  test('tiles with their letters and values, the last play marked, names, scores and the bag', () => {
    const s = played();
    const svg = renderBoardSvg({ view: spectatorView(s), distribution: ENGLISH });
    expect(tiles(svg).map((t) => [t['data-square'], t['data-letter'], t['data-value'], t['data-last']])).toEqual([
      ['G8', 'C', '3', 'true'],
      ['H8', 'A', '1', 'true'],
      ['I8', 'T', '1', 'true'],
    ]);
    expect(svg).toMatch(/font-weight="bold"[^>]*>C<\/text>/);
    expect(svg).toContain('>Ann 10</text>');
    expect(svg).toContain('>Bob 0</text>');
    expect(svg).toMatch(/data-seat="1" data-score="0" data-to-move="true"/);
    expect(svg).toContain(`data-bag="${s.bag.length}"`);
    expect(svg).toContain('Last: Ann 8G CAT +10');
    expect(svg).toContain('<title id="board-title">Ann 10, Bob 0. Bob to move; 83 tiles in the bag.</title>');
  });

  test('a seat sees its own rack and nothing of the other; a spectator sees no rack', () => {
    const s = played();
    const bob = renderBoardSvg({ view: viewFor(s, 1), distribution: ENGLISH });
    expect(rackTiles(bob).map((t) => t['data-letter'])).toEqual(['Q', 'I', 'Z', 'A', 'X', 'E', 'O']);
    expect(rackTiles(bob).map((t) => t['data-value'])).toEqual(['10', '1', '10', '1', '8', '1', '1']);
    const ann = renderBoardSvg({ view: viewFor(s, 0), distribution: ENGLISH });
    const annRack = rackTiles(ann).map((t) => t['data-letter']);
    expect(annRack).toEqual([...viewFor(s, 0).rack]);
    expect(annRack.slice(0, 4)).toEqual(['S', 'E', 'R', 'O']);
    // Bob's Q, Z and X are nowhere in Ann's picture (nor in the bag's order: a view has none).
    for (const letter of ['Q', 'Z', 'X']) expect(ann).not.toMatch(new RegExp(`data-letter="${letter}"`));
    const spectator = renderBoardSvg({ view: spectatorView(s), distribution: ENGLISH });
    expect(spectator).not.toContain('class="rack');
    expect(spectator).not.toContain('Your rack');
  });

  test('a blank is coloured and carries no value', () => {
    const s = run(start(NSA_2008, ['C?TSERO', 'QIZAXEO']), { kind: 'play', seat: 0, move: '8G CaT' }).state;
    const svg = renderBoardSvg({ view: spectatorView(s), distribution: ENGLISH });
    const blank = tiles(svg).find((t) => t['data-square'] === 'H8')!;
    expect(blank).toMatchObject({ 'data-letter': 'A', 'data-value': '0', 'data-blank': 'true' });
    expect(svg).toMatch(new RegExp(`fill="${COLOURS.blankText}"[^>]*>A</text>`));
  });

  test('the 21×21 super board and its quadruple squares', () => {
    const rules: RuleSet = { ...NSA_2008, board: { ...NSA_2008.board, layout: 'SuperCrosswordGame', distribution: 'english_super' } };
    const s = run(start(rules, ['CATSERO', 'QIZAXEO']), { kind: 'play', seat: 0, move: '11J CAT' }).state;
    const svg = renderBoardSvg({ view: viewFor(s, 0), distribution: DISTRIBUTIONS['english_super']! });
    expect(svg).toContain('data-size="21"');
    expect(count(svg, /<g class="square"/)).toBe(441);
    expect(count(svg, /data-premium="QW"/)).toBe(4);
    expect(svg).toMatch(/data-square="U21" data-premium="QW"/);
    expect(count(svg, /class="coord"/)).toBe(42);
    expect(
      tiles(svg)
        .filter((t) => t['data-square'])
        .map((t) => t['data-square']),
    ).toEqual(['J11', 'K11', 'L11']);
  });

  test('accented and digraph tiles of other sets: Polish Ł and Ź, the Catalan L·L, each with its value', () => {
    const polish: RuleSet = { ...NSA_2008, board: { ...NSA_2008.board, distribution: 'polish' } };
    const p = run(start(polish, ['ŹŁEAIKO', 'AIZAAEO']), { kind: 'play', seat: 0, move: '8H ŹŁE' }, null).state;
    const psvg = renderBoardSvg({ view: viewFor(p, 0), distribution: DISTRIBUTIONS['polish']! });
    expect(tiles(psvg).find((t) => t['data-square'] === 'H8')).toMatchObject({ 'data-letter': 'Ź', 'data-value': '9' });
    expect(tiles(psvg).find((t) => t['data-square'] === 'I8')).toMatchObject({ 'data-letter': 'Ł', 'data-value': '3' });
    expect(psvg).toMatch(/>Ź<\/text>/);
    const catalan: RuleSet = { ...NSA_2008, board: { ...NSA_2008.board, distribution: 'catalan' } };
    const c = run(start(catalan, ['CE[L·L]ARST', 'AEIOUSR']), { kind: 'play', seat: 0, move: '8H CE[L·L]A' }, null).state;
    const csvg = renderBoardSvg({ view: viewFor(c, 0), distribution: DISTRIBUTIONS['catalan']! });
    expect(tiles(csvg).find((t) => t['data-square'] === 'J8')).toMatchObject({ 'data-letter': 'L·L', 'data-value': '10' });
    expect(csvg).toMatch(/>L·L<\/text>/);
  });

  test('Spanish digraph tiles are one tile with their own value', () => {
    const rules: RuleSet = { ...NSA_2008, board: { ...NSA_2008.board, distribution: 'spanish' } };
    const s = run(start(rules, ['[CH]EAROS', 'QIZAXEO']), { kind: 'play', seat: 0, move: '8G [CH]E' }, null).state;
    const svg = renderBoardSvg({ view: viewFor(s, 0), distribution: DISTRIBUTIONS['spanish']! });
    expect(tiles(svg).find((t) => t['data-square'] === 'G8')).toMatchObject({ 'data-letter': 'CH', 'data-value': '5' });
    expect(svg).toMatch(/>CH<\/text>/);
  });

  test('names from users are escaped', () => {
    const s = played();
    const view = { ...spectatorView(s), players: [{ name: '<script>alert(1)</script>' }, { name: 'B & "B"' }] as const };
    const svg = renderBoardSvg({ view, distribution: ENGLISH });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt; 10');
    expect(svg).toContain('B &amp; &quot;B&quot; 0');
  });
});

describe('the board picture as pixels (resvg, the shipped font)', () => {
  /** The pixel at (x, y) as #rrggbb. */
  const at = (px: { width: number; rgba: Uint8Array }, x: number, y: number): string => {
    const i = (Math.round(y) * px.width + Math.round(x)) * 4;
    return `#${[0, 1, 2].map((k) => px.rgba[i + k]!.toString(16).padStart(2, '0')).join('')}`;
  };

  test('its size is the layout’s, and squares and tiles have their colours', async () => {
    const s = played();
    const px = await svgToPixels(renderBoardSvg({ view: viewFor(s, 0), distribution: ENGLISH }));
    const g = geometry(15, true);
    expect([px.width, px.height]).toEqual([g.width, g.height]);
    // Near a square's corner: clear of labels and letters.
    const corner = (col: number, row: number) => at(px, g.x0 + col * g.square + 4, g.y0 + row * g.square + 4);
    expect(corner(0, 0)).toBe(SQUARE_FILL.TW); // A1
    expect(corner(3, 0)).toBe(SQUARE_FILL.DL); // D1
    expect(corner(5, 1)).toBe(SQUARE_FILL.TL); // F2
    expect(corner(1, 1)).toBe(SQUARE_FILL.DW); // B2
    expect(corner(2, 0)).toBe(SQUARE_FILL.plain); // C1
    // The last play's tiles are highlighted; the middle of H8's tile, left of its letter, is tile-coloured.
    expect(at(px, g.x0 + 7 * g.square + 7, g.y0 + 7 * g.square + g.square / 2)).toBe(COLOURS.lastTile);
    // The letter itself is dark ink: some pixel across the middle of the C on G8 is nearly black.
    const row = Array.from({ length: g.square }, (_, i) => at(px, g.x0 + 6 * g.square + i, g.y0 + 7 * g.square + g.square / 2));
    expect(row.some((c) => parseInt(c.slice(1, 3), 16) < 80)).toBe(true);
  });

  test('a spectator picture has no rack band, so it is shorter', async () => {
    const px = await svgToPixels(renderBoardSvg({ view: spectatorView(played()), distribution: ENGLISH }));
    expect(px.height).toBe(geometry(15, false).height);
  });

  test('a width rescales the picture', async () => {
    const px = await svgToPixels(renderBoardSvg({ view: spectatorView(played()), distribution: ENGLISH }), { width: 330 });
    const g = geometry(15, false);
    expect(px.width).toBe(330);
    expect(px.height).toBe(Math.round((g.height * 330) / g.width));
  });
});
