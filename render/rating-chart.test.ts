import { describe, expect, test } from 'vitest';
import { svgToPixels } from './png.js';
import { CHART, renderRatingChartSvg } from './rating-chart.js';

/** The elements of an SVG text with their attributes, in document order (the chart writes no CDATA or comments). */
const elements = (svg: string): { tag: string; attrs: Record<string, string> }[] =>
  [...svg.matchAll(/<([a-zA-Z]+)((?:\s+[\w:-]+="[^"]*")*)\s*\/?>/g)].map((m) => ({
    tag: m[1]!,
    attrs: Object.fromEntries([...m[2]!.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  }));

const HISTORY = [
  { rating: 1500, deviation: 350 },
  { rating: 1662.31, deviation: 290.3 },
  { rating: 1618.9, deviation: 250 },
  { rating: 1731.2, deviation: 180.5 },
];

describe('the rating chart', () => {
  test('one circle per rated game, placed on an axis computed here from the data alone', () => {
    const svg = renderRatingChartSvg({ handle: 'alice', category: 'tournament/correspondence', points: HISTORY });
    const els = elements(svg);
    const root = els[0]!;
    expect(root.tag).toBe('svg');
    expect(root.attrs['role']).toBe('img');
    const circles = els.filter((e) => e.tag === 'circle');
    expect(circles.map((c) => Number(c.attrs['data-rating']))).toEqual([1500, 1662, 1619, 1731]);
    // The axis the test expects: whole 50s around 1500..1731.2 → 1500..1750.
    const lo = 1500;
    const hi = 1750;
    expect([Number(root.attrs['data-axis-lo']), Number(root.attrs['data-axis-hi'])]).toEqual([lo, hi]);
    const top = CHART.top;
    const bottom = CHART.height - CHART.bottom;
    const yOf = (r: number) => top + ((hi - r) / (hi - lo)) * (bottom - top);
    const last = circles[circles.length - 1]!;
    expect(Number(last.attrs['cy'])).toBeCloseTo(yOf(1731.2), 1);
    expect(Number(circles[0]!.attrs['cy'])).toBeCloseTo(bottom, 1);
    // Games step evenly from the left edge of the plot to its right edge.
    expect(Number(circles[0]!.attrs['cx'])).toBeCloseTo(CHART.left, 1);
    expect(Number(last.attrs['cx'])).toBeCloseTo(CHART.width - CHART.right, 1);
    // The line goes through the same points, in order.
    const line = els.find((e) => e.tag === 'polyline')!;
    const pts = line.attrs['points']!.split(' ').map((p) => p.split(',').map(Number));
    expect(pts.map(([, y]) => y)).toEqual(circles.map((c) => Number(c.attrs['cy'])));
    // A band of rating ± 2·RD, clipped to the plot.
    const band = els.find((e) => e.tag === 'polygon')!;
    expect(band.attrs['clip-path']).toBe('url(#chart-plot)');
    const bandYs = band.attrs['points']!.split(' ').map((p) => Number(p.split(',')[1]));
    expect(bandYs[3]).toBeCloseTo(yOf(1731.2 + 2 * 180.5), 1);
  });

  test('accessible: a title and a description with the figures; the same data gives the same bytes', () => {
    const chart = { handle: 'a<b', category: 'friendly/recorded', points: HISTORY };
    const svg = renderRatingChartSvg(chart);
    expect(svg).toContain('<title id="chart-title">Rating history of a&lt;b in friendly/recorded</title>');
    expect(svg).toMatch(/<desc id="chart-desc">4 rated games: from 1500 to 1731 \(deviation 181\); lowest 1500, highest 1731\.<\/desc>/);
    expect(elements(svg)[0]!.attrs['aria-labelledby']).toBe('chart-title chart-desc');
    expect(renderRatingChartSvg(chart)).toBe(svg);
  });

  test('a lone game sits mid-plot on a one-step axis; no games say so; both are valid SVG for resvg', async () => {
    const one = renderRatingChartSvg({ handle: 'bob', category: 'void/correspondence', points: [{ rating: 1500, deviation: 350 }] });
    const c = elements(one).find((e) => e.tag === 'circle')!;
    expect(Number(c.attrs['cx'])).toBeCloseTo((CHART.left + CHART.width - CHART.right) / 2, 1);
    expect(elements(one)[0]!.attrs['data-axis-lo']).toBe('1450');
    const none = renderRatingChartSvg({ handle: 'bob', category: 'void/correspondence', points: [] });
    expect(none).toContain('No rated games yet');
    expect(elements(none).some((e) => e.tag === 'circle')).toBe(false);
    for (const svg of [one, none]) expect((await svgToPixels(svg)).width).toBe(CHART.width);
  });
});
