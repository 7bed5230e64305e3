import type { TurnView } from '../engine/game/turn-views.js';
import type { Distribution } from '../engine/tiles.js';
import { renderBoardSvg } from './board.js';

/** The SVG pictures of a replay: one per position of `turnViews` (engine/game/turn-views.ts), captioned with its move number. */
export const replayFrames = (turns: readonly TurnView[], distribution: Distribution): string[] =>
  turns.map(({ view }, i) => renderBoardSvg({ view, distribution, caption: i === 0 ? 'Start' : `Move ${i} of ${turns.length - 1}` }));
