/**
 * Generated moves in flat typed arrays (no object per move): what the generator writes in its hot
 * loop. `generate.ts` turns the ones a caller wants into {@link GeneratedMove} objects.
 */

export const MOVE_PLAY = 0;
export const MOVE_EXCHANGE = 1;
export const MOVE_PASS = 2;

export class MoveList {
  count = 0;
  private capacity = 0;
  /** Longest word: the board size. */
  readonly width: number;
  kind: Uint8Array = new Uint8Array(0);
  /** 0 across, 1 down. */
  dir: Uint8Array = new Uint8Array(0);
  lane: Uint8Array = new Uint8Array(0);
  start: Uint8Array = new Uint8Array(0);
  length: Uint8Array = new Uint8Array(0);
  played: Uint8Array = new Uint8Array(0);
  score: Int32Array = new Int32Array(0);
  /** Index of the tiles kept, in the position's leave table (`leave.ts`). */
  leave: Uint32Array = new Uint32Array(0);
  equity: Float64Array = new Float64Array(0);
  /** `width` bytes per move: the tile placed on each square of the word (blank bit set for a blank), 0 where it plays through. */
  tiles: Uint8Array = new Uint8Array(0);

  constructor(width: number, capacity = 1024) {
    this.width = width;
    this.grow(capacity);
  }

  clear(): void {
    this.count = 0;
  }

  /** Room for one more move; returns its index. */
  push(): number {
    if (this.count === this.capacity) this.grow(this.capacity * 2);
    return this.count++;
  }

  private grow(capacity: number): void {
    const copy = <T extends Uint8Array | Int32Array | Uint32Array | Float64Array>(old: T, make: (n: number) => T, per = 1): T => {
      const next = make(capacity * per);
      next.set(old as never);
      return next;
    };
    this.kind = copy(this.kind, (n) => new Uint8Array(n));
    this.dir = copy(this.dir, (n) => new Uint8Array(n));
    this.lane = copy(this.lane, (n) => new Uint8Array(n));
    this.start = copy(this.start, (n) => new Uint8Array(n));
    this.length = copy(this.length, (n) => new Uint8Array(n));
    this.played = copy(this.played, (n) => new Uint8Array(n));
    this.score = copy(this.score, (n) => new Int32Array(n));
    this.leave = copy(this.leave, (n) => new Uint32Array(n));
    this.equity = copy(this.equity, (n) => new Float64Array(n));
    this.tiles = copy(this.tiles, (n) => new Uint8Array(n), this.width);
    this.capacity = capacity;
  }
}
