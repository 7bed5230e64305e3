import type { Anchor } from './board.js';

/**
 * One move, as notation writes it: syntax only, not legality (that is `placement.ts`).
 *
 * A play's word lists every square of the main word from its first square. A square that was
 * already occupied is written either as `.` (modern records) or as its letter (older records);
 * a `letter` entry on an occupied square is resolved against the board by the placement code.
 */
export type WordTile =
  /** A tile of the word: placed from the rack this turn, or (old style) a letter already on the board. */
  | { readonly kind: 'letter'; readonly letter: string; readonly blank: boolean }
  /** `.`: a square already occupied, played through. */
  | { readonly kind: 'through' };

export interface PlayMove {
  readonly kind: 'play';
  readonly anchor: Anchor;
  readonly word: readonly WordTile[];
}

/** `-ABC` (tiles known) or `-3` (count only: `tiles` is null). `-` alone is a pass, not an exchange. */
export interface ExchangeMove {
  readonly kind: 'exchange';
  readonly tiles: readonly string[] | null;
  readonly count: number;
}

export interface PassMove {
  readonly kind: 'pass';
}

export type Move = PlayMove | ExchangeMove | PassMove;
export const MOVE_KINDS = ['play', 'exchange', 'pass'] as const;
