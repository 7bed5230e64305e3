import { el, escapeXml, text } from './svg.js';
import { COLOURS, FONT_FAMILY } from './theme.js';

/**
 * A player's rating history in one category as a small line chart (issue 33, item 4; docs/players.md),
 * drawn as the board pictures are: SVG text from data (pure, no clock: the same history gives the same
 * bytes), coordinates rounded by render/svg.ts, the shipped font for PNG (render/png.ts). Each rated game
 * is one step along x (games, not days: a month without play is not a flat line); y is the rating after the game.
 * The band is rating ± 2·RD, where the true strength lies with about 95% confidence (Glickman), clipped
 * to the plot. Accessible: `role="img"` with a title and a description that states the figures.
 */

export interface ChartPoint {
  readonly rating: number;
  readonly deviation: number;
}

export interface RatingChart {
  /** Who and which category, for the title: `alice`, `tournament/correspondence`. */
  readonly handle: string;
  readonly category: string;
  /** Oldest first. */
  readonly points: readonly ChartPoint[];
  /** Prefix of the element ids (default `chart`): several charts inlined in one page need their own. */
  readonly idPrefix?: string;
}

export const CHART = { width: 640, height: 260, left: 52, right: 16, top: 36, bottom: 32 } as const;
const STEP = 50;

const LINE = '#0b4f8a';
const BAND = '#9cc3e6';

/**
 * The y axis: the ratings' range widened to whole steps of 50, at least one step above and below the
 * extremes' rounding, so a flat history still has an axis. Exported for the tests to check against.
 */
export const chartAxis = (ratings: readonly number[]): { readonly lo: number; readonly hi: number } => {
  const min = Math.min(...ratings);
  const max = Math.max(...ratings);
  const lo = Math.floor(min / STEP) * STEP;
  const hi = Math.ceil(max / STEP) * STEP;
  return hi > lo ? { lo, hi } : { lo: lo - STEP, hi: hi + STEP };
};

const plot = { x0: CHART.left, x1: CHART.width - CHART.right, y0: CHART.top, y1: CHART.height - CHART.bottom };

/** The x of the i-th of n points: spread over the plot, a lone point in its middle. */
export const chartX = (i: number, n: number): number => (n === 1 ? (plot.x0 + plot.x1) / 2 : plot.x0 + ((plot.x1 - plot.x0) * i) / (n - 1));

/** The y of a rating on the axis `lo`..`hi` (higher ratings higher up). */
export const chartY = (rating: number, axis: { lo: number; hi: number }): number =>
  plot.y0 + ((axis.hi - rating) / (axis.hi - axis.lo)) * (plot.y1 - plot.y0);

const r0 = (n: number): string => String(Math.round(n));

const describe = (c: RatingChart): string => {
  if (c.points.length === 0) return `${c.handle} has no rated games in ${c.category}.`;
  const first = c.points[0]!;
  const last = c.points[c.points.length - 1]!;
  const ratings = c.points.map((p) => p.rating);
  return (
    `${c.points.length} rated game${c.points.length === 1 ? '' : 's'}: from ${r0(first.rating)} to ${r0(last.rating)} ` +
    `(deviation ${r0(last.deviation)}); lowest ${r0(Math.min(...ratings))}, highest ${r0(Math.max(...ratings))}.`
  );
};

const gridLines = (axis: { lo: number; hi: number }): string[] => {
  const every = Math.max(STEP, Math.ceil((axis.hi - axis.lo) / 5 / STEP) * STEP);
  const out: string[] = [];
  for (let r = Math.ceil(axis.lo / every) * every; r <= axis.hi; r += every) {
    const y = chartY(r, axis);
    out.push(
      el('line', { x1: plot.x0, x2: plot.x1, y1: y, y2: y, stroke: '#d9d2c0', 'stroke-width': 1, 'data-tick': r }),
      text({ x: plot.x0 - 6, y, 'font-size': 11, 'text-anchor': 'end', 'dominant-baseline': 'central', fill: COLOURS.muted }, String(r)),
    );
  }
  return out;
};

const series = (points: readonly ChartPoint[], axis: { lo: number; hi: number }, id: string): string[] => {
  const n = points.length;
  const xy = points.map((p, i) => `${num(chartX(i, n))},${num(chartY(p.rating, axis))}`);
  const upper = points.map((p, i) => `${num(chartX(i, n))},${num(chartY(p.rating + 2 * p.deviation, axis))}`);
  const lower = points.map((p, i) => `${num(chartX(i, n))},${num(chartY(p.rating - 2 * p.deviation, axis))}`).reverse();
  return [
    el('clipPath', { id: `${id}-plot` }, el('rect', { x: plot.x0, y: plot.y0, width: plot.x1 - plot.x0, height: plot.y1 - plot.y0 })),
    n > 1
      ? el('polygon', {
          class: 'band',
          points: [...upper, ...lower].join(' '),
          fill: BAND,
          'fill-opacity': 0.45,
          'clip-path': `url(#${id}-plot)`,
        })
      : '',
    n > 1 ? el('polyline', { class: 'line', points: xy.join(' '), fill: 'none', stroke: LINE, 'stroke-width': 2 }) : '',
    el(
      'g',
      { class: 'points', fill: LINE },
      ...points.map((p, i) =>
        el('circle', {
          cx: chartX(i, n),
          cy: chartY(p.rating, axis),
          r: i === n - 1 ? 4 : 2.5,
          'data-index': i,
          'data-rating': r0(p.rating),
        }),
      ),
    ),
  ];
};

/** Rounded as render/svg.ts rounds attributes, for the point lists it does not write itself. */
const num = (n: number): string => String(Math.round(n * 100) / 100);

/** The chart as SVG text. An empty history draws the frame and says so. */
export const renderRatingChartSvg = (c: RatingChart): string => {
  const ratings = c.points.map((p) => p.rating);
  const axis = c.points.length ? chartAxis(ratings) : { lo: 1400, hi: 1600 };
  const last = c.points[c.points.length - 1];
  const heading = `${c.handle} · ${c.category}${last ? ` · ${r0(last.rating)}` : ''}`;
  const id = c.idPrefix ?? 'chart';
  return el(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width: CHART.width,
      height: CHART.height,
      viewBox: `0 0 ${CHART.width} ${CHART.height}`,
      role: 'img',
      'aria-labelledby': `${id}-title ${id}-desc`,
      'font-family': `${FONT_FAMILY}, Verdana, sans-serif`,
      'data-axis-lo': axis.lo,
      'data-axis-hi': axis.hi,
    },
    el('title', { id: `${id}-title` }, escapeXml(`Rating history of ${c.handle} in ${c.category}`)),
    el('desc', { id: `${id}-desc` }, escapeXml(describe(c))),
    el('rect', { x: 0, y: 0, width: CHART.width, height: CHART.height, fill: COLOURS.background }),
    text({ x: plot.x0, y: 22, 'font-size': 14, 'font-weight': 'bold', fill: COLOURS.text }, heading),
    ...gridLines(axis),
    ...(c.points.length
      ? series(c.points, axis, id)
      : [
          text(
            { x: (plot.x0 + plot.x1) / 2, y: (plot.y0 + plot.y1) / 2, 'font-size': 13, 'text-anchor': 'middle', fill: COLOURS.muted },
            'No rated games yet',
          ),
        ]),
    text(
      { x: (plot.x0 + plot.x1) / 2, y: CHART.height - 10, 'font-size': 11, 'text-anchor': 'middle', fill: COLOURS.muted },
      'rated games, oldest first',
    ),
  );
};
