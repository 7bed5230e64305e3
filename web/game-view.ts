import { ApiFailure, checkPlay, gameVersion, getGame, submitTurn, type Game } from './api.js';
import {
  actionsView,
  blankForm,
  boardView,
  headerView,
  lastMoveText,
  rackView,
  type ActionsEvents,
  type BoardEvents,
  type PendingBlank,
  type RackEvents,
} from './board-view.js';
import { h, replaceContent } from './dom.js';
import { coalesced, followGame, type Following } from './live.js';
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
 * server's checkPlay says what it scores or which rule it breaks. The screen follows the game's event
 * stream (web/live.ts), so the opponent's move appears by itself as soon as it is committed.
 */

/** Only where the server does not stream (501, a deployment without streams yet): the version is polled instead. */
const POLL_MS = 5000;

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
  private pendingBlank: PendingBlank | null = null;
  private alert: Message | null = null;
  private status = '';
  private checkSeq = 0;
  private timer: number | undefined;
  private live: Following | null = null;
  private stopped = false;
  private busy = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly id: string,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    if (this.stopped) return;
    // The stream starts after the version just read, so nothing is missed between the read and the stream.
    this.live = followGame(this.id, {
      version: () => this.game?.version ?? 0,
      onEvent: (e) => {
        if (e.version > (this.game?.version ?? 0)) this.refresh();
      },
      onRefused: (status, detail) => {
        if (status === 501) this.timer = window.setInterval(() => void this.poll(), POLL_MS);
        else this.fail(new ApiFailure({ code: 'STREAM', message: `The game stopped updating: ${detail}` }));
      },
    });
  }

  stop(): void {
    this.stopped = true;
    this.live?.stop();
    window.clearInterval(this.timer);
  }

  /**
   * One read of the whole game view for any number of events: an event says what changed but not the board
   * or the legal actions, and the game view is what every other path of the page draws from.
   */
  private readonly refresh = coalesced(async () => {
    try {
      const g = await getGame(this.id);
      // A turn of our own may have answered with a later version meanwhile: never go back.
      if (!this.stopped && (!this.game || g.version > this.game.version)) this.setGame(g);
    } catch {
      // The stream has moved past the event already and will not send it again: read again shortly.
      if (!this.stopped) window.setTimeout(this.refresh, POLL_MS);
    }
  });

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
      if (before && g.isMyTurn && !before.isMyTurn) this.status = `Your turn. ${lastMoveText(g)}`;
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
      // The stream may have brought a later version during the turn (a robot answers at once): keep that.
      if ((this.game?.version ?? 0) < g.version) {
        this.game = null;
        this.setGame(g);
      }
      this.status = `${done} ${lastMoveText(g)}`;
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

  private onRackTile(i: number): void {
    if (this.exchange?.has(i)) this.exchange.delete(i);
    else if (this.exchange) this.exchange.add(i);
    else this.selected = this.selected === i ? null : i;
    this.render();
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

  // -------------------------------------------------------------------------------------------
  // Drawing (web/board-view.ts)

  private readonly boardEvents: BoardEvents = {
    isFree: (s) => this.isFree(s),
    square: (s) => this.onSquare(s),
    drop: (data, target) => this.onDrop(data, target),
    key: (e) => this.onBoardKey(e),
  };

  private readonly rackEvents: RackEvents = {
    tile: (i) => this.onRackTile(i),
    drop: (data, target) => this.onDrop(data, target),
  };

  private readonly actionsEvents: ActionsEvents = {
    play: () => this.play(),
    recall: () => this.recall(),
    pass: () => void this.act({ pass: true }, 'You passed.'),
    startExchange: () => {
      this.recall();
      this.exchange = new Set();
      this.status = 'Choose the tiles to exchange, then confirm.';
      this.render();
    },
    confirmExchange: () => this.exchangeTiles(),
    cancelExchange: () => ((this.exchange = null), this.render()),
    challenge: () => void this.act({ challenge: {} }, 'You challenged.'),
    startResign: () => ((this.confirmResign = true), this.render()),
    confirmResign: () => void this.act({ resign: true }, 'You resigned.'),
    cancelResign: () => ((this.confirmResign = false), this.render()),
  };

  private drawBoard(g: Game): HTMLElement {
    return boardView({ game: g, cells: this.boardCells(), placed: this.placed, cursor: this.cursor, dir: this.dir }, this.boardEvents);
  }

  private drawRack(g: Game): HTMLElement {
    const state = { game: g, tiles: this.rackTiles(), placed: this.placed, selected: this.selected, exchange: this.exchange };
    return rackView({ ...state, canPlace: this.canPlace() }, this.rackEvents);
  }

  private drawActions(g: Game): HTMLElement {
    const state = { game: g, exchangeCount: this.exchange?.size ?? null, confirmResign: this.confirmResign, busy: this.busy };
    return actionsView({ ...state, placedCount: this.placed.length }, this.actionsEvents);
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
        headerView(g),
        g.board ? this.drawBoard(g) : h('p', {}, 'The board appears when the second player sits down.'),
        g.mySeat !== null ? this.drawRack(g) : h('p', {}, 'You are watching this game.'),
        blankForm(this.pendingBlank, (p, letter) => this.place(p.square, p.rackIndex, letter)) ?? '',
        status,
        alert,
        g.mySeat !== null && g.status !== 'ended' ? this.drawActions(g) : '',
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
