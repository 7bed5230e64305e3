import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FONT_FAMILY } from './theme.js';
import type * as ResvgJs from '@resvg/resvg-js';

/**
 * The raster edge of render/: SVG text → PNG bytes or RGBA pixels with resvg (@resvg/resvg-js, a
 * prebuilt native module per platform). Only the fonts shipped in render/fonts/ are used, never the
 * system's, so a picture is the same on a laptop, in CI and on Lambda.
 *
 * resvg is imported on first use: the API's cold start does not load a native module it may never need.
 */

/**
 * Where the fonts are: `render/fonts/` beside this module, or `fonts/` beside the Lambda bundle
 * (scripts/build.ts copies them there; the bundle's `import.meta.url` is its index.mjs).
 */
export const DEFAULT_FONT_DIR = fileURLToPath(new URL('./fonts/', import.meta.url));

export interface RasterOptions {
  /** Output width in pixels; the height follows the picture's aspect. Default: the SVG's own width. */
  readonly width?: number;
  readonly fontDir?: string;
}

export interface Pixels {
  readonly width: number;
  readonly height: number;
  /** RGBA, 4 bytes per pixel, row by row. */
  readonly rgba: Uint8Array<ArrayBuffer>;
}

type ResvgModule = typeof ResvgJs;
let resvgModule: Promise<ResvgModule> | null = null;
const loadResvg = (): Promise<ResvgModule> => (resvgModule ??= import('@resvg/resvg-js'));

const fontFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ttf'))
    .sort()
    .map((f) => `${dir.replace(/\/$/, '')}/${f}`);

const fontCache = new Map<string, string[]>();

const renderer = async (svg: string, options: RasterOptions) => {
  const { Resvg } = await loadResvg();
  const dir = options.fontDir ?? DEFAULT_FONT_DIR;
  let files = fontCache.get(dir);
  if (!files) {
    files = fontFiles(dir);
    if (files.length === 0) throw new Error(`render: no .ttf font in ${dir}`);
    fontCache.set(dir, files);
  }
  return new Resvg(svg, {
    font: { fontFiles: files, loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
    ...(options.width ? { fitTo: { mode: 'width' as const, value: options.width } } : {}),
  });
};

/** The picture as PNG bytes. */
export const svgToPng = async (svg: string, options: RasterOptions = {}): Promise<Uint8Array<ArrayBuffer>> => {
  const r = await renderer(svg, options);
  return new Uint8Array(r.render().asPng());
};

/** The picture as RGBA pixels (for the replay GIF and for tests that look at colours). */
export const svgToPixels = async (svg: string, options: RasterOptions = {}): Promise<Pixels> => {
  const image = (await renderer(svg, options)).render();
  return { width: image.width, height: image.height, rgba: new Uint8Array(image.pixels) };
};
