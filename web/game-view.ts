import { ApiFailure, checkPlay, gameVersion, getGame, submitTurn, type Game } from './api.js';
import { h, replaceContent } from './dom.js';
import {
  notationOf,
  parseRows,
  parseSquare,
  splitTiles,
  squareName,
  type Cell,
  type Direction,
  type Placed,
  type Square,
} from './placement.js';

/**
 * The game screen: the board as a grid of buttons (one per square, each labelled for screen
 * readers), the rack, and the turn actions. Tiles go down by click (tile, then square), by drag and
 * drop, or by keyboard (arrows move on the board, a letter puts that tile down and moves on, Space
 * turns the direction, Backspace takes the last tile back, Enter plays). Before a play is sent the
 * server's checkPlay says what it scores or which rule it breaks. The game is polled for a new
 * version every few seconds, so the opponent's move appears by itself.
 */

const PREMIUM_NAMES: Readonly<Record<string, [string, string]>> = {
  '=': ['tw', 'triple word'],
  '-': ['dw', 'double word'],
  '"': ['tl', 'triple letter'],
  "'": ['dl', 'double letter'],
  '~': ['qw', 'quadruple word'],
  '^': ['ql', 'quadruple letter'],
};
const POLL_MS = 2000;

interface Message {
  readonly kind: 'error' | 'info';
  readonly text: string;
}

export class GameScreen {
  private game: Game | null = null;
  private placed: Placed[] = [];
  private selected: number | null = null;
  private cursor: Square = { row: 7, col: 7 };
  private dir: Direction = 'across';
  private exchange: Set<number> | null = null;
  private confirmResign = false;
  private pendingBlank: { square: Square; rackIndex: number } | null = null;
  private alert: Message | null = null;
  private status = '';
  private checkSeq = 0;
  private timer: number | undefined;
  private busy = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly id: string,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    this.timer = window.setInterval(() => void this.poll(), POLL_MS);
  }

  stop(): void {
    window.clearInterval(this.timer);
  }

  private async reload(): Promise<void> {
    try {
      this.setGame(await getGame(this.id));
    } catch (e) {
      this.fail(e);
    }
  }

  private setGame(g: Game): void {
    const before = this.game;
    this.game = g;
    if (!before || before.version !== g.version) {
      this.placed = [];
      this.exchange = null;
      this.confirmResign = false;
      this.pendingBlank = null;
      const n = g.board?.rows.length ?? 15;
      if (!before) this.cursor = { row: (n - 1) / 2, col: (n - 1) / 2 };
      if (before && g.isMyTurn && !before.isMyTurn) this.status = `Your turn. ${this.lastMoveText(g)}`;
    }
    this.render();
  }

  private async poll(): Promise<void> {
    if (!this.game || this.busy || document.hidden) return;
    try {
      if ((await gameVersion(this.id)) > this.game.version) await this.reload();
    } catch {
      // A missed poll is retried by the next one.
    }
  }

  private fail(e: unknown): void {
    this.alert = { kind: 'error', text: e instanceof ApiFailure ? e.message : 'Something went wrong; try again.' };
    this.render();
  }

  // -------------------------------------------------------------------------------------------
  // Tiles

  private rackTiles(): string[] {
    return this.game?.myRack ? splitTiles(this.game.myRack) : [];
  }

  private boardCells(): (Cell | null)[][] {
    return parseRows(this.game?.board?.rows ?? []);
  }

  private placedAt(s: Square): Placed | undefined {
    return this.placed.find((p) => p.row === s.row && p.col === s.col);
  }

  private isFree(s: Square): boolean {
    const cells = this.boardCells();
    return s.row >= 0 && s.col >= 0 && s.row < cells.length && s.col < cells.length && !cells[s.row]![s.col] && !this.placedAt(s);
  }

  private canPlace(): boolean {
    return Boolean(this.game?.isMyTurn && this.game.legalActions.includes('play') && this.exchange === null);
  }

  private place(square: Square, rackIndex: number, letter?: string): void {
    const tile = this.rackTiles()[rackIndex];
    if (!tile || !this.canPlace() || !this.isFree(square) || this.placed.some((p) => p.rackIndex === rackIndex)) return;
    if (tile === '?' && !letter) {
      this.pendingBlank = { square, rackIndex };
      this.render();
      document.getElementById('blank-letter')?.focus();
      return;
    }
    const blank = tile === '?';
    this.placed.push({ ...square, letter: blank ? letter!.toUpperCase() : tile, blank, rackIndex });
    this.selected = null;
    this.pendingBlank = null;
    this.changed();
  }

  private takeBack(square: Square): void {
    this.placed = this.placed.filter((p) => p.row !== square.row || p.col !== square.col);
    this.changed();
  }

  private recall(): void {
    this.placed = [];
    this.selected = null;
    this.changed();
  }

  /** After every change of the placed tiles: redraw, then ask checkPlay what the play would score. */
  private changed(): void {
    this.alert = null;
    this.status = '';
    this.render();
    void this.check();
  }

  private async check(): Promise<void> {
    const seq = ++this.checkSeq;
    const game = this.game;
    if (!game || this.placed.length === 0) return;
    const n = notationOf(this.boardCells(), this.placed);
    if (!n.ok) {
      this.alert = { kind: 'error', text: n.message };
      return this.render();
    }
    try {
      const t = await checkPlay(game, n.move);
      if (seq !== this.checkSeq) return;
      const words = t.words.map((w) => `${w.word} ${w.score}`).join(', ');
      const phony = t.phonies.length ? ` Not in the word list: ${t.phonies.join(', ')} (it may be challenged).` : '';
      this.status = `${t.move} scores ${t.score} (${words}).${phony}`;
    } catch (e) {
      if (seq !== this.checkSeq) return;
      this.alert = { kind: 'error', text: e instanceof ApiFailure ? e.message : 'The play could not be checked.' };
    }
    this.render();
  }

  // -------------------------------------------------------------------------------------------
  // Turns

  private async act(action: Record<string, unknown>, done: string): Promise<void> {
    if (!this.game || this.busy) return;
    this.busy = true;
    try {
      const g = await submitTurn(this.game, action);
      this.alert = null;
      this.status = done;
      this.game = null;
      this.setGame(g);
      this.status = `${done} ${this.lastMoveText(g)}`;
    } catch (e) {
      this.fail(e);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  private play(): void {
    const n = notationOf(this.boardCells(), this.placed);
    if (!n.ok) {
      this.alert = { kind: 'error', text: n.message };
      return this.render();
    }
    void this.act({ play: { move: n.move } }, 'Played.');
  }

  private exchangeTiles(): void {
    const tiles = this.rackTiles();
    const chosen = [...(this.exchange ?? [])].map((i) => tiles[i]!);
    if (chosen.length === 0) {
      this.alert = { kind: 'error', text: 'Choose the tiles to exchange first.' };
      return this.render();
    }
    void this.act({ exchange: { tiles: chosen.map((t) => (t.length > 1 ? `[${t}]` : t)).join('') } }, 'Exchanged.');
  }

  // -------------------------------------------------------------------------------------------
  // Keyboard on the board

  private moveCursor(dr: number, dc: number): void {
    const n = this.boardCells().length;
    this.cursor = { row: Math.min(n - 1, Math.max(0, this.cursor.row + dr)), col: Math.min(n - 1, Math.max(0, this.cursor.col + dc)) };
    this.render();
  }

  /** The next free square after the cursor in the typing direction. */
  private advance(): void {
    const n = this.boardCells().length;
    let s = this.cursor;
    do s = this.dir === 'across' ? { row: s.row, col: s.col + 1 } : { row: s.row + 1, col: s.col };
    while (s.row < n && s.col < n && !this.isFree(s));
    if (s.row < n && s.col < n) this.cursor = s;
  }

  private typeLetter(key: string, shift: boolean): void {
    const letter = key.toUpperCase();
    const tiles = this.rackTiles();
    const free = (i: number) => !this.placed.some((p) => p.rackIndex === i);
    const exact = shift ? -1 : tiles.findIndex((t, i) => t === letter && free(i));
    const blank = tiles.findIndex((t, i) => t === '?' && free(i));
    const index = exact >= 0 ? exact : blank;
    if (index < 0 || !this.isFree(this.cursor)) {
      this.alert = { kind: 'error', text: index < 0 ? `No ${letter} on your rack.` : `${squareName(this.cursor)} is taken.` };
      return this.render();
    }
    const at = this.cursor;
    this.advance();
    this.place(at, index, tiles[index] === '?' ? letter : undefined);
  }

  /** Keeps the keyboard on the square the cursor is on after the board was redrawn. */
  private focusCursor(): void {
    document.getElementById(`sq-${squareName(this.cursor)}`)?.focus();
  }

  private onBoardKey(e: KeyboardEvent): void {
    this.handleBoardKey(e);
    if (!e.defaultPrevented || !this.game) return;
    this.focusCursor();
  }

  private handleBoardKey(e: KeyboardEvent): void {
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[e.key];
    if (move) return (e.preventDefault(), this.moveCursor(...move));
    if (e.key === ' ' || e.key === '/') {
      e.preventDefault();
      this.dir = this.dir === 'across' ? 'down' : 'across';
      this.status = `Typing ${this.dir}.`;
      return this.render();
    }
    if (e.key === 'Backspace') {
      e.preventDefault();
      const last = this.placed[this.placed.length - 1];
      if (last) {
        this.cursor = { row: last.row, col: last.col };
        this.takeBack(last);
      }
      return;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      return this.recall();
    }
    if (e.key === 'Enter') {
      e.preventDefault();
      if (this.selected !== null && this.isFree(this.cursor)) return this.place(this.cursor, this.selected);
      return this.play();
    }
    if (/^[a-zA-ZÑñ]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      this.typeLetter(e.key, e.shiftKey);
    }
  }

  private onSquare(s: Square): void {
    if (this.placedAt(s)) return this.takeBack(s);
    if (this.selected !== null && this.isFree(s)) return this.place(s, this.selected);
    if (this.cursor.row === s.row && this.cursor.col === s.col) this.dir = this.dir === 'across' ? 'down' : 'across';
    this.cursor = s;
    this.render();
  }

  // -------------------------------------------------------------------------------------------
  // Drawing

  private lastMoveText(g: Game): string {
    const m = g.lastMove;
    if (!m) return '';
    const who = g.seats.find((s) => s.seat === m.seat)?.player?.displayName ?? `Seat ${m.seat}`;
    return `Last move: ${who} ${m.notation} (${m.score >= 0 ? '+' : ''}${m.score}).`;
  }

  private values(): Map<string, number> {
    return new Map(this.game?.tileValues.map((t) => [t.tile, t.value]) ?? []);
  }

  private tileFace(letter: string, blank: boolean, extra = ''): HTMLElement {
    const value = blank || letter === '?' ? '' : String(this.values().get(letter) ?? '');
    return h(
      'span',
      { class: `tile${blank ? ' blank' : ''}${extra}`, 'aria-hidden': 'true' },
      h('span', { class: 'letter' }, letter === '?' ? '' : letter),
      h('span', { class: 'value' }, value),
    );
  }

  private squareButton(s: Square, cell: Cell | null, lastSquares: ReadonlySet<string>): HTMLElement {
    const g = this.game!;
    const name = squareName(s);
    const premium = PREMIUM_NAMES[g.board?.premiums[s.row]?.[s.col] ?? '.'];
    const mine = this.placedAt(s);
    const isCursor = this.cursor.row === s.row && this.cursor.col === s.col;
    const centre = s.row === (g.board!.rows.length - 1) / 2 && s.col === s.row;
    let label = `${name}, ${premium ? premium[1] : 'plain'}${centre ? ', centre' : ''}, empty`;
    if (cell) label = `${name}, ${cell.letter}${cell.blank ? ' (blank)' : `, ${this.values().get(cell.letter) ?? 0} points`}`;
    if (mine) label = `${name}, your ${mine.blank ? `blank as ${mine.letter}` : mine.letter}, not played yet; press to take it back`;
    const content = cell
      ? this.tileFace(cell.letter, cell.blank, lastSquares.has(name) ? ' last' : '')
      : mine
        ? this.tileFace(mine.letter, mine.blank, ' tentative')
        : h('span', { class: 'premium', 'aria-hidden': 'true' }, centre ? '★' : premium ? premium[0].toUpperCase() : '');
    return h(
      'button',
      {
        type: 'button',
        role: 'gridcell',
        id: `sq-${name}`,
        class: `square ${premium ? premium[0] : 'plain'}${isCursor ? ` cursor ${this.dir}` : ''}`,
        'aria-label': label,
        tabindex: isCursor ? 0 : -1,
        'data-square': name,
        draggable: mine ? 'true' : null,
        onclick: () => this.onSquare(s),
        ondragstart: (e: DragEvent) => mine && e.dataTransfer?.setData('text/plain', `board:${name}`),
        ondragover: (e: DragEvent) => this.isFree(s) && e.preventDefault(),
        ondrop: (e: DragEvent) => {
          e.preventDefault();
          this.onDrop(e.dataTransfer?.getData('text/plain') ?? '', s);
        },
      },
      content,
    );
  }

  private onDrop(data: string, target: Square | null): void {
    if (data.startsWith('rack:') && target) return this.place(target, Number(data.slice(5)));
    if (data.startsWith('board:')) {
      const from = parseSquare(data.slice(6));
      const p = from && this.placedAt(from);
      if (!p) return;
      this.placed = this.placed.filter((x) => x !== p);
      if (target && this.isFree(target)) this.placed.push({ ...p, row: target.row, col: target.col });
      this.changed();
    }
  }

  private boardView(): HTMLElement {
    const g = this.game!;
    const cells = this.boardCells();
    const n = cells.length;
    const last = new Set(
      g.lastMove?.kind === 'play' ? g.lastMove.words.flatMap((w) => w.letters.filter((l) => l.newlyPlaced).map((l) => l.square)) : [],
    );
    const rows = cells.map((row, r) =>
      h('div', { role: 'row', class: 'board-row' }, ...row.map((cell, c) => this.squareButton({ row: r, col: c }, cell, last))),
    );
    return h(
      'div',
      {
        role: 'grid',
        id: 'board',
        class: 'board',
        style: `--n: ${n}`,
        'aria-label': `Board, ${n} by ${n}. Arrows move, a letter puts that tile down, Space turns the direction (now ${this.dir}), Backspace takes back, Enter plays.`,
        onkeydown: (e: KeyboardEvent) => this.onBoardKey(e),
      },
      ...rows,
    );
  }

  private rackView(): HTMLElement {
    const tiles = this.rackTiles();
    const items = tiles.map((t, i) => {
      const used = this.placed.some((p) => p.rackIndex === i);
      const marked = this.exchange?.has(i) ?? false;
      const value = t === '?' ? 'blank' : `${this.values().get(t) ?? 0} points`;
      return h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            id: `rack-${i}`,
            class: `rack-tile${used ? ' used' : ''}${this.selected === i ? ' selected' : ''}${marked ? ' marked' : ''}`,
            'aria-label': `${t === '?' ? 'Blank' : t}, ${value}${used ? ', on the board' : ''}${this.exchange ? (marked ? ', to exchange' : '') : ''}`,
            'aria-pressed': this.exchange ? String(marked) : String(this.selected === i),
            disabled: used,
            draggable: !used && this.canPlace() ? 'true' : null,
            'data-tile': t,
            ondragstart: (e: DragEvent) => e.dataTransfer?.setData('text/plain', `rack:${i}`),
            onclick: () => {
              if (this.exchange?.has(i)) this.exchange.delete(i);
              else if (this.exchange) this.exchange.add(i);
              else this.selected = this.selected === i ? null : i;
              this.render();
            },
          },
          this.tileFace(t, false),
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
          this.onDrop(e.dataTransfer?.getData('text/plain') ?? '', null);
        },
      },
      ...items,
    );
  }

  private actionsView(): HTMLElement {
    const g = this.game!;
    const can = (a: string) => g.isMyTurn && g.legalActions.includes(a) && !this.busy;
    const button = (id: string, label: string, enabled: boolean, onclick: () => void) =>
      h('button', { type: 'button', id, disabled: !enabled, onclick }, label);
    if (this.exchange)
      return h(
        'div',
        { class: 'actions' },
        button('exchange-confirm', `Exchange ${this.exchange.size} tile${this.exchange.size === 1 ? '' : 's'}`, can('exchange'), () =>
          this.exchangeTiles(),
        ),
        button('exchange-cancel', 'Cancel', true, () => ((this.exchange = null), this.render())),
      );
    if (this.confirmResign)
      return h(
        'div',
        { class: 'actions' },
        button('resign-confirm', 'Yes, resign the game', true, () => void this.act({ resign: true }, 'You resigned.')),
        button('resign-cancel', 'Keep playing', true, () => ((this.confirmResign = false), this.render())),
      );
    return h(
      'div',
      { class: 'actions' },
      button('play', 'Play', can('play') && this.placed.length > 0, () => this.play()),
      button('recall', 'Recall', this.placed.length > 0, () => this.recall()),
      button('pass', 'Pass', can('pass'), () => void this.act({ pass: true }, 'You passed.')),
      button('exchange', 'Exchange…', can('exchange'), () => {
        this.recall();
        this.exchange = new Set();
        this.status = 'Choose the tiles to exchange, then confirm.';
        this.render();
      }),
      g.legalActions.includes('challenge')
        ? button('challenge', 'Challenge', can('challenge'), () => void this.act({ challenge: {} }, 'You challenged.'))
        : null,
      button('resign', 'Resign', g.legalActions.includes('resign') && !this.busy, () => ((this.confirmResign = true), this.render())),
    ) as HTMLElement;
  }

  private blankForm(): HTMLElement | null {
    const pending = this.pendingBlank;
    if (!pending) return null;
    const input = h('input', { id: 'blank-letter', maxlength: 2, autocomplete: 'off', 'aria-label': 'Letter for the blank', size: 3 });
    return h(
      'form',
      {
        class: 'blank-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const letter = input.value.trim();
          if (letter) this.place(pending.square, pending.rackIndex, letter);
        },
      },
      h('label', { for: 'blank-letter' }, `Which letter is the blank on ${squareName(pending.square)}? `),
      input,
      h('button', { type: 'submit' }, 'Put it down'),
    );
  }

  private headerView(): HTMLElement {
    const g = this.game!;
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
      h('p', { id: 'turn-line', class: over ? 'over' : '' }, `${line} Bag: ${g.bagCount}. ${this.lastMoveText(g)}`),
      over
        ? h('p', {}, h('a', { href: `/v1/games/${g.id}/replay.gif`, target: '_blank', rel: 'noopener' }, 'Watch the replay (GIF)'))
        : null,
    );
  }

  render(): void {
    const g = this.game;
    if (!g) return;
    const alert = h('p', { id: 'alert', role: 'alert', class: this.alert ? 'alert' : 'alert empty' }, this.alert?.text ?? '');
    const status = h('p', { id: 'status', role: 'status', 'aria-live': 'polite' }, this.status);
    const keepFocus = (id: string) => (id.startsWith('sq-') ? `sq-${squareName(this.cursor)}` : id);
    replaceContent(
      this.root,
      [
        h('p', {}, h('a', { href: '#games', id: 'back' }, '← My games')),
        this.headerView(),
        g.board ? this.boardView() : h('p', {}, 'The board appears when the second player sits down.'),
        g.mySeat !== null ? this.rackView() : h('p', {}, 'You are watching this game.'),
        this.blankForm() ?? '',
        status,
        alert,
        g.mySeat !== null && g.status !== 'ended' ? this.actionsView() : '',
        h(
          'details',
          { class: 'history' },
          h('summary', {}, 'Score sheet'),
          h('ol', {}, ...g.history.map((m) => h('li', {}, `${g.seats[m.seat]?.player?.displayName ?? m.seat}: ${m.notation} ${m.score} `))),
        ),
      ],
      keepFocus,
    );
  }
}
