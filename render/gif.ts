import * as gifencModule from 'gifenc';
import { svgToPixels, type RasterOptions } from './png.js';

/**
 * The animated replay (issue 20): one GIF frame per board picture, in order. Each frame is rasterised
 * by resvg (png.ts) and quantised to its own palette by gifenc (pure JavaScript). Every frame has the
 * same size because every picture of one game has the same layout and the same rack band.
 */

/**
 * gifenc is CommonJS marked `__esModule`: Node's ESM loader hands over its exports as `default`, while
 * esbuild and vitest expose the named functions; this takes whichever the loader gave.
 */
const loaded = gifencModule as unknown as typeof gifencModule.default & { readonly default?: typeof gifencModule.default };
const gifenc: typeof gifencModule.default = typeof loaded.GIFEncoder === 'function' ? loaded : loaded.default!;

export interface ReplayGifOptions extends RasterOptions {
  /** How long each frame shows, in milliseconds (default 1200). */
  readonly frameMs?: number;
  /** How long the last position stays before the loop starts again (default 4000). */
  readonly lastFrameMs?: number;
  /** Colours per frame (default 64: a board has few, and fewer make a smaller file). */
  readonly colours?: number;
}

/** Encodes SVG pictures as an endlessly looping GIF. */
export const replayGif = async (frames: readonly string[], options: ReplayGifOptions = {}): Promise<Uint8Array<ArrayBuffer>> => {
  if (frames.length === 0) throw new Error('replayGif: no frames');
  const encoder = gifenc.GIFEncoder();
  let size: { width: number; height: number } | null = null;
  for (let i = 0; i < frames.length; i++) {
    const px = await svgToPixels(frames[i]!, options);
    size ??= { width: px.width, height: px.height };
    if (px.width !== size.width || px.height !== size.height)
      throw new Error(`replayGif: frame ${i} is ${px.width}×${px.height}, the first is ${size.width}×${size.height}`);
    const palette = gifenc.quantize(px.rgba, options.colours ?? 64);
    const index = gifenc.applyPalette(px.rgba, palette);
    const last = i === frames.length - 1;
    encoder.writeFrame(index, px.width, px.height, {
      palette,
      delay: last ? (options.lastFrameMs ?? 4000) : (options.frameMs ?? 1200),
      ...(i === 0 ? { repeat: 0 } : {}),
    });
  }
  encoder.finish();
  return new Uint8Array(encoder.bytes());
};
