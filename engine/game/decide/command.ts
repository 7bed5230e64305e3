import type { Square } from '../../board.js';
import type { Lexicon } from '../../lexicon/lexicon.js';
import type { PlayMove } from '../../move.js';
import type { Result } from '../../result.js';
import type { GameEvent, Seat } from '../events.js';
import type { GameState } from '../state.js';

/**
 * The commands `decide` (decide.ts) accepts, the context it decides them in, and the handler types
 * that make `COMMAND_HANDLERS` cover every command kind.
 */

export interface DecideContext {
  /** Judges challenges, VOID submissions and self-lookups; `null` = words are not judged. */
  readonly lexicon: Lexicon | null;
  /** The game's secret bag seed (seeded games); `null` for imported games, whose draws are unknown. */
  readonly seed: string | null;
  /** ISO timestamp: every event decided is stamped with it (`at`), which the clock folds (clock.ts). */
  readonly now?: string;
}

export const COMMAND_KINDS = [
  'play',
  'exchange',
  'pass',
  'challenge',
  'resign',
  'timeout',
  'forfeit',
  'free-trade',
  'blank-substitution',
  'abort',
  'request-pause',
  'accept-pause',
  'decline-pause',
  'resume',
] as const;

export type Command =
  | { readonly kind: 'play'; readonly seat: Seat; readonly move: PlayMove | string }
  | { readonly kind: 'exchange'; readonly seat: Seat; readonly tiles: readonly string[] }
  | { readonly kind: 'pass'; readonly seat: Seat }
  /** `words`: the words challenged (default: every word the play formed). */
  | { readonly kind: 'challenge'; readonly seat: Seat; readonly words?: readonly string[] }
  | { readonly kind: 'resign'; readonly seat: Seat }
  | { readonly kind: 'timeout'; readonly seat: Seat }
  | { readonly kind: 'forfeit'; readonly seat: Seat; readonly reason: string }
  /** seed-002 Free Trades: the tiles to trade, in the announced order. */
  | { readonly kind: 'free-trade'; readonly seat: Seat; readonly tiles: readonly string[] }
  /** seed-002 Blank Substitution: take the blanks on these squares (`H8` or {row, col}), then play. */
  | {
      readonly kind: 'blank-substitution';
      readonly seat: Seat;
      readonly blanks: readonly (string | Square)[];
      readonly move: PlayMove | string;
    }
  /** Cancel the game before its first turn: no winner (platform-differences §2.1 "Abort"). */
  | { readonly kind: 'abort'; readonly seat: Seat }
  /** Ask the opponent to stop the clock for `seconds` (a vacation; clock.ts limits). */
  | { readonly kind: 'request-pause'; readonly seat: Seat; readonly seconds: number }
  | { readonly kind: 'accept-pause'; readonly seat: Seat }
  | { readonly kind: 'decline-pause'; readonly seat: Seat }
  /** End a running pause early (either player). */
  | { readonly kind: 'resume'; readonly seat: Seat };

/** The command of kind `K`, as the union narrows it. */
export type CommandOf<K extends Command['kind']> = Extract<Command, { readonly kind: K }>;

/**
 * Decides one command of kind `K`: every event it causes, each already applied in order to check it,
 * or an error and no events. `decide` has checked the seed against the game's commitment first.
 */
export type CommandHandler<K extends Command['kind']> = (
  state: GameState,
  command: CommandOf<K>,
  ctx: DecideContext,
) => Result<GameEvent[]>;

/** One handler per command kind: a kind added to `Command` without a handler fails to compile. */
export type CommandHandlers = { readonly [K in Command['kind']]: CommandHandler<K> };
