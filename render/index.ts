/**
 * Board pictures (issue 20): `renderBoardSvg` (pure: an engine view → SVG text), and at the edge
 * `svgToPng` (resvg, with the fonts of render/fonts/) and `replayGif` (one frame per turn).
 * render/ imports only engine/; see docs/pictures.md.
 */
export { describeBoard, renderBoardSvg, squareKind, type BoardPicture } from './board.js';
export { replayFrames } from './replay.js';
export { DEFAULT_FONT_DIR, svgToPixels, svgToPng, type Pixels, type RasterOptions } from './png.js';
export { replayGif, type ReplayGifOptions } from './gif.js';
export { COLOURS, SQUARE_FILL, geometry, type SquareKind } from './theme.js';

/** Bumped when pictures change, so that ETags (and caches keyed on them) change with them. */
export const RENDER_VERSION = 1;
