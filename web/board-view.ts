import type { Game } from './api.js';
import { h } from './dom.js';
import { squareName, type Cell, type Direction, type Placed, type Square } from './placement.js';

/**
 * The game screen's drawing, kept apart from its state and event handling (web/game-view.ts): each
 * function builds elements from the state it is given and reports the reader's actions through
 * callbacks, so the screen stays the only place that changes anything.
 */

const PREMIUM_NAMES: Readonly<Record<string, [string, string]>> = {
  '=': ['tw', 'triple word'],
  '-': ['dw', 'double word'],
  '"': ['tl', 'triple letter'],
  "'": ['dl', 'double letter'],
  '~': ['qw', 'quadruple word'],
  '^': ['ql', 'quadruple letter'],
};

export const lastMoveText = (g: Game): string => {
  const m = g.lastMove;
  if (!m) return '';
  const who = g.seats.find((s) => s.seat === m.seat)?.player?.displayName ?? `Seat ${m.seat}`;
  return `Last move: ${who} ${m.notation} (${m.score >= 0 ? '+' : ''}${m.score}).`;
};

const tileValues = (g: Game): Map<string, number> => new Map(g.tileValues.map((t) => [t.tile, t.value]));

const tileFace = (values: ReadonlyMap<string, number>, letter: string, blank: boolean, extra = ''): HTMLElement => {
  const value = blank || letter === '?' ? '' : String(values.get(letter) ?? '');
  return h(
    'span',
    { class: `tile${blank ? ' blank' : ''}${extra}`, 'aria-hidden': 'true' },
    h('span', { class: 'letter' }, letter === '?' ? '' : letter),
    h('span', { class: 'value' }, value),
  );
};

export interface BoardState {
  readonly game: Game;
  readonly cells: (Cell | null)[][];
  readonly placed: readonly Placed[];
  readonly cursor: Square;
  readonly dir: Direction;
}

export interface BoardEvents {
  /** Asked when a drag passes over, not when drawn: only a free square takes a drop. */
  readonly isFree: (s: Square) => boolean;
  readonly square: (s: Square) => void;
  readonly drop: (data: string, target: Square | null) => void;
  readonly key: (e: KeyboardEvent) => void;
}

const squareButton = (st: BoardState, on: BoardEvents, s: Square, cell: Cell | null, lastSquares: ReadonlySet<string>): HTMLElement => {
  const g = st.game;
  const values = tileValues(g);
  const name = squareName(s);
  const premium = PREMIUM_NAMES[g.board?.premiums[s.row]?.[s.col] ?? '.'];
  const mine = st.placed.find((p) => p.row === s.row && p.col === s.col);
  const isCursor = st.cursor.row === s.row && st.cursor.col === s.col;
  const centre = s.row === (g.board!.rows.length - 1) / 2 && s.col === s.row;
  let label = `${name}, ${premium ? premium[1] : 'plain'}${centre ? ', centre' : ''}, empty`;
  if (cell) label = `${name}, ${cell.letter}${cell.blank ? ' (blank)' : `, ${values.get(cell.letter) ?? 0} points`}`;
  if (mine) label = `${name}, your ${mine.blank ? `blank as ${mine.letter}` : mine.letter}, not played yet; press to take it back`;
  const content = cell
    ? tileFace(values, cell.letter, cell.blank, lastSquares.has(name) ? ' last' : '')
    : mine
      ? tileFace(values, mine.letter, mine.blank, ' tentative')
      : h('span', { class: 'premium', 'aria-hidden': 'true' }, centre ? '★' : premium ? premium[0].toUpperCase() : '');
  return h(
    'button',
    {
      type: 'button',
      role: 'gridcell',
      id: `sq-${name}`,
      class: `square ${premium ? premium[0] : 'plain'}${isCursor ? ` cursor ${st.dir}` : ''}`,
      'aria-label': label,
      tabindex: isCursor ? 0 : -1,
      'data-square': name,
      draggable: mine ? 'true' : null,
      onclick: () => on.square(s),
      ondragstart: (e: DragEvent) => mine && e.dataTransfer?.setData('text/plain', `board:${name}`),
      ondragover: (e: DragEvent) => on.isFree(s) && e.preventDefault(),
      ondrop: (e: DragEvent) => {
        e.preventDefault();
        on.drop(e.dataTransfer?.getData('text/plain') ?? '', s);
      },
    },
    content,
  );
};

export const boardView = (st: BoardState, on: BoardEvents): HTMLElement => {
  const g = st.game;
  const n = st.cells.length;
  const last = new Set(
    g.lastMove?.kind === 'play' ? g.lastMove.words.flatMap((w) => w.letters.filter((l) => l.newlyPlaced).map((l) => l.square)) : [],
  );
  const rows = st.cells.map((row, r) =>
    h('div', { role: 'row', class: 'board-row' }, ...row.map((cell, c) => squareButton(st, on, { row: r, col: c }, cell, last))),
  );
  return h(
    'div',
    {
      role: 'grid',
      id: 'board',
      class: 'board',
      style: `--n: ${n}`,
      'aria-label': `Board, ${n} by ${n}. Arrows move, a letter puts that tile down, Space turns the direction (now ${st.dir}), Backspace takes back, Enter plays.`,
      onkeydown: (e: KeyboardEvent) => on.key(e),
    },
    ...rows,
  );
};

export interface RackState {
  readonly game: Game;
  readonly tiles: readonly string[];
  readonly placed: readonly Placed[];
  readonly selected: number | null;
  /** The rack indexes marked for an exchange, or null when no exchange is being chosen. */
  readonly exchange: ReadonlySet<number> | null;
  readonly canPlace: boolean;
}

export interface RackEvents {
  readonly tile: (index: number) => void;
  readonly drop: (data: string, target: Square | null) => void;
}

export const rackView = (st: RackState, on: RackEvents): HTMLElement => {
  const values = tileValues(st.game);
  const items = st.tiles.map((t, i) => {
    const used = st.placed.some((p) => p.rackIndex === i);
    const marked = st.exchange?.has(i) ?? false;
    const value = t === '?' ? 'blank' : `${values.get(t) ?? 0} points`;
    return h(
      'li',
      {},
      h(
        'button',
        {
          type: 'button',
          id: `rack-${i}`,
          class: `rack-tile${used ? ' used' : ''}${st.selected === i ? ' selected' : ''}${marked ? ' marked' : ''}`,
          'aria-label': `${t === '?' ? 'Blank' : t}, ${value}${used ? ', on the board' : ''}${st.exchange ? (marked ? ', to exchange' : '') : ''}`,
          'aria-pressed': st.exchange ? String(marked) : String(st.selected === i),
          disabled: used,
          draggable: !used && st.canPlace ? 'true' : null,
          'data-tile': t,
          ondragstart: (e: DragEvent) => e.dataTransfer?.setData('text/plain', `rack:${i}`),
          onclick: () => on.tile(i),
        },
        tileFace(values, t, false),
      ),
    );
  });
  return h(
    'ul',
    {
      class: 'rack',
      id: 'rack',
      'aria-label': 'Your rack',
      ondragover: (e: DragEvent) => e.preventDefault(),
      ondrop: (e: DragEvent) => {
        e.preventDefault();
        on.drop(e.dataTransfer?.getData('text/plain') ?? '', null);
      },
    },
    ...items,
  );
};

export interface ActionsState {
  readonly game: Game;
  readonly exchangeCount: number | null;
  readonly confirmResign: boolean;
  readonly placedCount: number;
  readonly busy: boolean;
}

export interface ActionsEvents {
  readonly play: () => void;
  readonly recall: () => void;
  readonly pass: () => void;
  readonly startExchange: () => void;
  readonly confirmExchange: () => void;
  readonly cancelExchange: () => void;
  readonly challenge: () => void;
  readonly startResign: () => void;
  readonly confirmResign: () => void;
  readonly cancelResign: () => void;
}

export const actionsView = (st: ActionsState, on: ActionsEvents): HTMLElement => {
  const g = st.game;
  const can = (a: string) => g.isMyTurn && g.legalActions.includes(a) && !st.busy;
  const button = (id: string, label: string, enabled: boolean, onclick: () => void) =>
    h('button', { type: 'button', id, disabled: !enabled, onclick }, label);
  const count = st.exchangeCount;
  if (count !== null)
    return h(
      'div',
      { class: 'actions' },
      button('exchange-confirm', `Exchange ${count} tile${count === 1 ? '' : 's'}`, can('exchange'), on.confirmExchange),
      button('exchange-cancel', 'Cancel', true, on.cancelExchange),
    );
  if (st.confirmResign)
    return h(
      'div',
      { class: 'actions' },
      button('resign-confirm', 'Yes, resign the game', true, on.confirmResign),
      button('resign-cancel', 'Keep playing', true, on.cancelResign),
    );
  return h(
    'div',
    { class: 'actions' },
    button('play', 'Play', can('play') && st.placedCount > 0, on.play),
    button('recall', 'Recall', st.placedCount > 0, on.recall),
    button('pass', 'Pass', can('pass'), on.pass),
    button('exchange', 'Exchange…', can('exchange'), on.startExchange),
    g.legalActions.includes('challenge') ? button('challenge', 'Challenge', can('challenge'), on.challenge) : null,
    button('resign', 'Resign', g.legalActions.includes('resign') && !st.busy, on.startResign),
  );
};

export interface PendingBlank {
  readonly square: Square;
  readonly rackIndex: number;
}

export const blankForm = (pending: PendingBlank | null, choose: (pending: PendingBlank, letter: string) => void): HTMLElement | null => {
  if (!pending) return null;
  const input = h('input', { id: 'blank-letter', maxlength: 2, autocomplete: 'off', 'aria-label': 'Letter for the blank', size: 3 });
  return h(
    'form',
    {
      class: 'blank-form',
      onsubmit: (e: Event) => {
        e.preventDefault();
        const letter = input.value.trim();
        if (letter) choose(pending, letter);
      },
    },
    h('label', { for: 'blank-letter' }, `Which letter is the blank on ${squareName(pending.square)}? `),
    input,
    h('button', { type: 'submit' }, 'Put it down'),
  );
};

export const headerView = (g: Game): HTMLElement => {
  const players = g.seats.map((s) => {
    const toMove = g.status !== 'ended' && g.whoseTurn === s.seat;
    const won = g.result?.winner === s.seat;
    return h(
      'li',
      { class: `player${toMove ? ' to-move' : ''}`, 'data-seat': s.seat },
      `${s.player?.displayName ?? 'open seat'}${s.isMe ? ' (you)' : ''}: `,
      h('strong', { class: 'score' }, String(s.score)),
      toMove ? ' — to move' : '',
      won ? ' — won' : '',
    );
  });
  const over = g.status === 'ended';
  const line = over
    ? `Game over (${g.result?.reason ?? 'ended'}).${g.result?.winner === null ? ' A tie.' : ''}`
    : g.isMyTurn
      ? 'Your turn.'
      : g.status === 'open'
        ? 'Waiting for a second player.'
        : 'Waiting for your opponent.';
  return h(
    'header',
    { class: 'game-header' },
    h('ul', { class: 'players' }, ...players),
    h('p', { id: 'turn-line', class: over ? 'over' : '' }, `${line} Bag: ${g.bagCount}. ${lastMoveText(g)}`),
    over ? h('p', {}, h('a', { href: `/v1/games/${g.id}/replay.gif`, target: '_blank', rel: 'noopener' }, 'Watch the replay (GIF)')) : null,
  );
};
