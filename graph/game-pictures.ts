import type { Board } from '../engine/board.js';
import { DISTRIBUTIONS, BLANK } from '../engine/tiles.js';
import { renderBoardSvg } from '../render/board.js';
import { getGame, type GameSnapshot } from '../service/game-reads.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { ValidationError } from './errors.js';
import { deps, GameType, value } from './game.js';
import { BoardType } from './game-parts.js';

/**
 * Pictures and the facts a client needs to draw a game itself (issue 20): `Game.boardSvg(version)`
 * (the board picture of render/, as the caller sees the game: their own rack when seated, none
 * otherwise), `Game.tileValues` and `Board.premiums`. The image routes (board.png, replay.gif) are in
 * rest/images.ts.
 */

/** The legend of `Board.premiums`: engine/board.ts writes plain squares as a space, shown here as `.`. */
const premiumRows = (b: Board): string[] => b.layout.rows.map((r) => r.replace(/ /g, '.'));

const TileValueType = builder.objectRef<{ tile: string; value: number }>('TileValue').implement({
  description: 'A tile of the game’s distribution and its face value.',
  fields: (t) => ({
    tile: t.exposeString('tile', { description: 'The letter (a digraph tile such as CH is one tile), or ? for a blank.' }),
    value: t.exposeInt('value', { description: 'Points the tile scores (0 for the blank).' }),
  }),
});

builder.objectFields(BoardType, (t) => ({
  premiums: t.stringList({
    description:
      'The layout’s premium squares, one string per row, top first, one character per square: `=` triple word, `-` double word, `"` triple letter, `\'` double letter, `~` quadruple word, `^` quadruple letter, `#` bricked (no tile may be placed there), `.` plain.',
    resolve: premiumRows,
  }),
}));

const svgAt = async (g: GameSnapshot, version: number | null | undefined, ctx: Parameters<typeof requirePlayer>[0]) => {
  if (version !== null && version !== undefined && (!Number.isInteger(version) || version < 1))
    throw new ValidationError([{ field: 'version', message: `version must be a positive event count, not ${version}.` }]);
  const snapshot =
    version === null || version === undefined || version >= g.version
      ? g
      : value(await getGame(deps(ctx), requirePlayer(ctx).player.id, g.id, { atVersion: version }));
  const distribution = DISTRIBUTIONS[snapshot.rules.board.distribution];
  if (!snapshot.view || !distribution) return null;
  return renderBoardSvg({ view: snapshot.view, distribution });
};

builder.objectFields(GameType, (t) => ({
  boardSvg: t.string({
    nullable: true,
    description:
      'The board as an SVG picture, as you see the game: your own rack under the board when you play in it, no rack otherwise. `version` shows it as it was after that many events (default: now). null while the game waits for its second player. The same picture as PNG: GET /v1/games/{id}/board.png.',
    args: { version: t.arg.int({ required: false, description: 'An earlier version of the game (1 … version).' }) },
    resolve: (g, args, ctx) => svgAt(g, args.version, ctx),
  }),
  tileValues: t.field({
    type: [TileValueType],
    description: 'Every tile of the game’s letter distribution with its value, in the distribution’s order, the blank (?) last.',
    resolve: (g) => {
      const d = DISTRIBUTIONS[g.rules.board.distribution];
      return d ? [...d.letters.map((k) => ({ tile: k.letter, value: k.score })), ...(d.blanks ? [{ tile: BLANK, value: 0 }] : [])] : [];
    },
  }),
}));
