import { describe, expect, test } from 'vitest';
import { start } from '../engine/game/game.fixtures.js';
import { spectatorView } from '../engine/game/view.js';
import { NSA_2008 } from '../engine/rules/presets.js';
import type { RuleSet } from '../engine/rules/ruleset.js';
import { ENGLISH } from '../engine/tiles.js';
import { renderBoardSvg } from './board.js';
import { SQUARE_FILL } from './theme.js';

/** Board pictures of the named layouts of issue 21: bricked squares, quadruple premiums, the start star where the start is. */

const onLayout = (layout: string): RuleSet => ({ ...NSA_2008, board: { ...NSA_2008.board, layout } });
const picture = (layout: string): string =>
  renderBoardSvg({ view: spectatorView(start(onLayout(layout), ['CATSERO', 'QIZAXEO'])), distribution: ENGLISH });
const count = (svg: string, re: RegExp): number => [...svg.matchAll(new RegExp(re.source, 'g'))].length;

describe('pictures of other layouts', () => {
  test('the bricked box: 121 squares, 9 bricked ones drawn dark without a label, the star on the start square F2', () => {
    const svg = picture('TestBrickedBox11');
    expect(count(svg, /<g class="square"/)).toBe(121);
    expect(count(svg, /data-premium="bricked"/)).toBe(9);
    for (const sq of ['E5', 'F6', 'G7'])
      expect(svg).toMatch(new RegExp(`data-square="${sq}" data-premium="bricked"><rect[^>]*fill="${SQUARE_FILL.bricked}"`));
    expect(svg).toMatch(/data-square="F2" data-premium="DL"><rect[^>]*\/><text class="premium-label"[^>]*>★</);
    expect(count(svg, /class="premium-label"[^>]*>★</)).toBe(1);
  });

  test('the corner board: QW and QL labels, the star in the corner A1', () => {
    const svg = picture('TestStartCorner7');
    expect(count(svg, /data-premium="QW"/)).toBe(2);
    expect(count(svg, /data-premium="QL"/)).toBe(4);
    expect(count(svg, /class="premium-label"[^>]*>QW</)).toBe(2);
    expect(count(svg, /class="premium-label"[^>]*>QL</)).toBe(4);
    expect(svg).toMatch(/data-square="A1" data-premium="DW"><rect[^>]*\/><text class="premium-label"[^>]*>★</);
  });

  test('the board without premiums has plain squares only and the star at H8', () => {
    const svg = picture('NoPremium15');
    expect(count(svg, /data-premium="plain"/)).toBe(225);
    expect(svg).toMatch(/data-square="H8" data-premium="plain"><rect[^>]*\/><text class="premium-label"[^>]*>★</);
  });
});
