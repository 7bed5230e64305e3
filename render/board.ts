import { formatSquare, isBricked, premiumAt, startSquare, tileAt, type Layout } from '../engine/board.js';
import type { SeatView, SpectatorView } from '../engine/game/view.js';
import type { TurnRecord } from '../engine/game/state.js';
import { BLANK, tileScore, type Distribution } from '../engine/tiles.js';
import { el, text } from './svg.js';
import { COLOURS, FONT_FAMILY, geometry, LIGHT_SQUARES, SQUARE_FILL, type Geometry, type SquareKind } from './theme.js';

/**
 * The board picture (issue 20): pure TypeScript from an engine view to SVG text — no browser, no canvas.
 * It shows the layout's premium squares with their labels, the tiles with their values (blanks in
 * colour and without a value), the last play highlighted, coordinates, the players' names and scores,
 * whose turn it is and the tiles left in the bag; and the rack only when the view is a seat's, which
 * holds that seat's rack alone (engine/game/view.ts). A spectator's view has no rack, so neither has
 * the picture: the renderer never sees the other rack or the bag's order, so it cannot leak them.
 *
 * Every square, tile and rack tile is a `<g>` with `data-` attributes (square, premium, letter,
 * value) so that clients and tests can read the picture as data.
 */

export interface BoardPicture {
  readonly view: SeatView | SpectatorView;
  /** The game's letter distribution (tile values): `DISTRIBUTIONS[rules.board.distribution]`. */
  readonly distribution: Distribution;
  /** A caption under the header, e.g. "Turn 12 of 24" in a replay. */
  readonly caption?: string;
}

const COLUMNS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The printed label of a square's premium: DL/TL/QL for letters, DW/TW/QW for words; `bricked` for a square no tile may take. */
export const squareKind = (layout: Layout, row: number, col: number): SquareKind => {
  if (isBricked(layout, row, col)) return 'bricked';
  const p = premiumAt(layout, row, col);
  const name = ['', '', 'D', 'T', 'Q'];
  if (p.word > 1) return `${name[p.word]}W` as SquareKind;
  if (p.letter > 1) return `${name[p.letter]}L` as SquareKind;
  return 'plain';
};

const isSeatView = (v: SeatView | SpectatorView): v is SeatView => 'rack' in v;

/**
 * Squares covered by the new tiles of the last play still on the board (`H8`, …): the score sheet's
 * last play, unless a later line took it back (a withdrawn phony); later passes or end lines do not hide it.
 */
const lastPlaySquares = (history: readonly TurnRecord[]): ReadonlySet<string> => {
  const out = new Set<string>();
  let withdrawn = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const t = history[i]!;
    if (t.kind === 'phony-withdrawn') withdrawn++;
    if (t.kind !== 'play') continue;
    if (withdrawn > 0) {
      withdrawn--;
      continue;
    }
    for (const w of t.words ?? []) for (const l of w.letters) if (l.newlyPlaced) out.add(formatSquare(l));
    break;
  }
  return out;
};

interface TileFace {
  readonly letter: string;
  readonly blank: boolean;
  readonly value: number;
}

/** One tile at (x, y): a rounded square, its letter, and its value unless it is a blank. */
const tile = (x: number, y: number, size: number, face: TileFace, extra: Record<string, string | boolean>, last = false): string => {
  const letterSize = face.letter.length > 1 ? size * 0.42 : size * 0.6;
  const shown = face.letter === BLANK ? '' : face.letter;
  return el(
    'g',
    { class: 'tile', 'data-letter': face.letter, 'data-value': face.value, 'data-blank': face.blank, 'data-last': last, ...extra },
    el('rect', {
      x: x + 1.5,
      y: y + 1.5,
      width: size - 3,
      height: size - 3,
      rx: size * 0.12,
      fill: last ? COLOURS.lastTile : COLOURS.tile,
      stroke: last ? COLOURS.lastEdge : COLOURS.tileEdge,
      'stroke-width': last ? 2 : 1,
    }),
    text(
      {
        x: x + size * (face.blank ? 0.5 : 0.44),
        y: y + size * 0.5,
        'font-size': letterSize,
        'font-weight': 'bold',
        'text-anchor': 'middle',
        'dominant-baseline': 'central',
        fill: face.blank ? COLOURS.blankText : COLOURS.tileText,
      },
      shown,
    ),
    face.blank || face.letter === BLANK
      ? ''
      : text(
          { x: x + size * 0.9, y: y + size * 0.88, 'font-size': size * 0.26, 'text-anchor': 'end', fill: COLOURS.tileText },
          String(face.value),
        ),
  );
};

const premiumSquare = (g: Geometry, layout: Layout, row: number, col: number): string => {
  const kind = squareKind(layout, row, col);
  const x = g.x0 + col * g.square;
  const y = g.y0 + row * g.square;
  const start = startSquare(layout);
  const centre = row === start.row && col === start.col;
  const label = centre ? '★' : kind === 'plain' || kind === 'bricked' ? '' : kind;
  return el(
    'g',
    { class: 'square', 'data-square': formatSquare({ row, col }), 'data-premium': kind },
    el('rect', { x, y, width: g.square, height: g.square, fill: SQUARE_FILL[kind], stroke: COLOURS.grid, 'stroke-width': 1 }),
    label
      ? text(
          {
            class: 'premium-label',
            x: x + g.square / 2,
            y: y + g.square / 2,
            'font-size': centre ? g.square * 0.5 : g.square * 0.3,
            'text-anchor': 'middle',
            'dominant-baseline': 'central',
            fill: LIGHT_SQUARES.has(kind) ? COLOURS.lightPremiumText : COLOURS.premiumText,
          },
          label,
        )
      : '',
  );
};

const coordinates = (g: Geometry, n: number): string => {
  const out: string[] = [];
  const style = { 'font-size': 12, fill: COLOURS.muted, 'text-anchor': 'middle', 'dominant-baseline': 'central' };
  for (let i = 0; i < n; i++) {
    out.push(text({ class: 'coord', ...style, x: g.x0 + (i + 0.5) * g.square, y: g.y0 - g.coord / 2 }, COLUMNS[i]!));
    out.push(text({ class: 'coord', ...style, x: g.x0 - g.coord / 2, y: g.y0 + (i + 0.5) * g.square }, String(i + 1)));
  }
  return el('g', { class: 'coordinates' }, ...out);
};

const boardTiles = (g: Geometry, p: BoardPicture): string => {
  const { board, history } = p.view;
  const n = board.layout.rows.length;
  const last = lastPlaySquares(history);
  const out: string[] = [];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const t = tileAt(board, row, col);
      if (!t) continue;
      const square = formatSquare({ row, col });
      const face = { letter: t.letter, blank: t.blank, value: tileScore(p.distribution, t.letter, t.blank) };
      out.push(tile(g.x0 + col * g.square, g.y0 + row * g.square, g.square, face, { 'data-square': square }, last.has(square)));
    }
  }
  return el('g', { class: 'tiles' }, ...out);
};

/** Names, scores, whose turn (or who won), the bag, the last move and the caption. */
const header = (g: Geometry, p: BoardPicture): string => {
  const v = p.view;
  const ended = v.status === 'ended';
  const mark = (seat: 0 | 1): string => {
    if (ended) return v.result?.winner === seat ? ' (won)' : '';
    return v.turn === seat ? ' ◀ to move' : '';
  };
  const right = g.width - g.pad;
  const line2: string[] = [`Bag: ${v.bagCount}`];
  if (v.lastMove) line2.push(`Last: ${v.players[v.lastMove.seat].name} ${v.lastMove.move} ${signed(v.lastMove.score)}`);
  if (ended) line2.push(v.result?.winner === null ? 'Game over: a tie' : 'Game over');
  if (p.caption) line2.push(p.caption);
  const player = (seat: 0 | 1, x: number, anchor: string) =>
    el(
      'g',
      { class: 'player', 'data-seat': seat, 'data-score': v.scores[seat], 'data-to-move': !ended && v.turn === seat },
      text(
        { x, y: 26, 'font-size': 18, 'font-weight': 'bold', 'text-anchor': anchor, fill: COLOURS.text },
        `${v.players[seat].name} ${v.scores[seat]}`,
      ),
      text({ x, y: 44, 'font-size': 12, 'text-anchor': anchor, fill: COLOURS.turnMarker }, mark(seat).trim()),
    );
  return el(
    'g',
    { class: 'header' },
    player(0, g.pad, 'start'),
    player(1, right, 'end'),
    text({ class: 'status', x: g.pad, y: 62, 'font-size': 12, fill: COLOURS.muted, 'data-bag': v.bagCount }, line2.join(' · ')),
  );
};

const signed = (n: number): string => (n >= 0 ? `+${n}` : String(n));

/** The viewer's own rack under the board (a seat's view only). */
const rack = (g: Geometry, v: SeatView, distribution: Distribution): string => {
  const y = g.y0 + v.board.layout.rows.length * g.square + 28;
  const tiles = v.rack.map((t, i) =>
    tile(
      g.x0 + 80 + i * (g.square + 4),
      y,
      g.square,
      { letter: t, blank: t === BLANK, value: tileScore(distribution, t, t === BLANK) },
      {
        class: 'tile rack-tile',
      },
    ),
  );
  return el(
    'g',
    { class: 'rack', 'data-seat': v.seat },
    text({ x: g.x0, y: y + g.square / 2, 'font-size': 13, 'dominant-baseline': 'central', fill: COLOURS.muted }, 'Your rack'),
    ...tiles,
  );
};

/** A one-sentence description for screen readers (the SVG's `<title>`). */
export const describeBoard = (v: SeatView | SpectatorView): string => {
  const [a, b] = v.players;
  const score = `${a.name} ${v.scores[0]}, ${b.name} ${v.scores[1]}`;
  if (v.status === 'ended') {
    const w = v.result?.winner;
    return `${score}. Game over${w === null || w === undefined ? ': a tie' : `: ${v.players[w].name} won`}.`;
  }
  return `${score}. ${v.players[v.turn].name} to move; ${v.bagCount} tiles in the bag.`;
};

/** The SVG text of the board picture. */
export const renderBoardSvg = (p: BoardPicture): string => {
  const { layout } = p.view.board;
  const n = layout.rows.length;
  const own = isSeatView(p.view) ? p.view : null;
  const g = geometry(n, own !== null);
  const squares: string[] = [];
  for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) squares.push(premiumSquare(g, layout, row, col));
  return el(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width: g.width,
      height: g.height,
      viewBox: `0 0 ${g.width} ${g.height}`,
      role: 'img',
      'aria-labelledby': 'board-title',
      'font-family': `${FONT_FAMILY}, Verdana, sans-serif`,
      'data-size': n,
    },
    el(
      'title',
      { id: 'board-title' },
      describeBoard(p.view).replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`),
    ),
    el('rect', { x: 0, y: 0, width: g.width, height: g.height, fill: COLOURS.background }),
    header(g, p),
    coordinates(g, n),
    el('g', { class: 'board', 'data-layout': layout.name }, ...squares),
    boardTiles(g, p),
    own ? rack(g, own, p.distribution) : '',
  );
};
