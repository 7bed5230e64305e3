/**
 * Colours and sizes of a board picture. Exported so that tests can check a PNG's pixels against the
 * colour a square should have, rather than against a picture the renderer wrote itself.
 */

/** Fill of each kind of square (premium labels as printed on the classic board). */
export const SQUARE_FILL = {
  plain: '#d8cfb4',
  DL: '#a9d2ea',
  TL: '#2f7fbf',
  QL: '#1f4e79',
  DW: '#f2b0a8',
  TW: '#c8402f',
  QW: '#7b1d3a',
  /** A bricked square (issue 21): dark, unlabelled, never holds a tile. */
  bricked: '#3b3526',
} as const;
export type SquareKind = keyof typeof SQUARE_FILL;

export const COLOURS = {
  background: '#f7f4ec',
  grid: '#f7f4ec',
  text: '#222222',
  muted: '#5c5648',
  premiumText: '#ffffff',
  lightPremiumText: '#3b3526',
  tile: '#f0d9a0',
  tileEdge: '#a8894a',
  tileText: '#1b1b1b',
  /** A blank's letter: coloured, with no value, so a blank is told apart at a glance. */
  blankText: '#b0272c',
  /** The tiles of the last play. */
  lastTile: '#ffe46b',
  lastEdge: '#d08a00',
  turnMarker: '#2e7d32',
} as const;

/** Light premium squares take dark labels; dark ones white labels. */
export const LIGHT_SQUARES: ReadonlySet<SquareKind> = new Set(['plain', 'DL', 'DW']);

export const FONT_FAMILY = 'DejaVu Sans';

/** Pixel geometry for a board of `n` squares a side. */
export interface Geometry {
  readonly square: number;
  readonly pad: number;
  /** The band holding column letters (above) and row numbers (left). */
  readonly coord: number;
  readonly header: number;
  readonly footer: number;
  /** Top-left corner of square A1. */
  readonly x0: number;
  readonly y0: number;
  readonly width: number;
  readonly height: number;
}

export const geometry = (n: number, withRack: boolean): Geometry => {
  const square = n > 15 ? 32 : 40;
  const pad = 16;
  const coord = 20;
  const header = 70;
  const footer = withRack ? square + 44 : 16;
  const x0 = pad + coord;
  const y0 = header + coord;
  return { square, pad, coord, header, footer, x0, y0, width: x0 + n * square + pad, height: y0 + n * square + footer };
};
