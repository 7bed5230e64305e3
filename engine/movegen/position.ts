import type { Board } from '../board.js';
import { bagCount, type GameState } from '../game/state.js';
import { other, type Seat } from '../game/events.js';
import { DEFAULT_BINGO_BONUS, DEFAULT_RACK_SIZE } from '../scoring.js';
import type { Distribution } from '../tiles.js';

/** The rule parameters move generation and equity depend on (`RuleSet` fields of the same meaning). */
export interface PositionRules {
  /** Tiles on a full rack: placing them all earns the bingo bonus (seed-003 scoring 8). */
  readonly rackSize: number;
  readonly bingoBonus: number;
  /** Fewest tiles in the bag for an exchange (`rules.exchange.minBag`; 0 = any). */
  readonly exchangeMinBag: number;
  /** At most as many tiles as are in the bag may be exchanged (`rules.exchange.maxIsBagCount`). */
  readonly exchangeMaxIsBagCount: boolean;
}

export const DEFAULT_POSITION_RULES: PositionRules = {
  rackSize: DEFAULT_RACK_SIZE,
  bingoBonus: DEFAULT_BINGO_BONUS,
  exchangeMinBag: 7,
  exchangeMaxIsBagCount: true,
};

/**
 * One player's decision point: what the player to move can see. The layout comes with the board.
 * `unseen` (the bag and the opponent's rack together, when known) makes the end-game equity exact:
 * with the bag empty it is the opponent's rack.
 */
export interface Position {
  readonly board: Board;
  readonly distribution: Distribution;
  /** The mover's tiles (`?` = blank, digraphs as one tile: `CH`). */
  readonly rack: readonly string[];
  /** Tiles left in the bag (exchanges need enough; 0 switches equity to end-game rules). */
  readonly bagCount: number;
  readonly unseen?: readonly string[];
  readonly rules?: Partial<PositionRules>;
}

export const positionRules = (p: Position): PositionRules => ({ ...DEFAULT_POSITION_RULES, ...p.rules });

/**
 * The position of `seat` (by default the player to move) in a game state. It holds that seat's
 * rack and the unseen pool from that seat's side only: the opponent's tiles are in `unseen`, mixed
 * with the bag, as that player would count them. Whether the caller may ask is the service's call.
 */
export const positionFromState = (state: GameState, seat: Seat = state.turn): Position => {
  const { rules } = state;
  return {
    board: state.board,
    distribution: state.distribution,
    rack: state.racks[seat].tiles,
    bagCount: Math.max(0, bagCount(state)),
    unseen: [...state.bag, ...state.racks[other(seat)].tiles],
    rules: {
      rackSize: rules.board.rackSize,
      bingoBonus: rules.board.bingoBonus,
      exchangeMinBag: rules.exchange.minBag,
      exchangeMaxIsBagCount: rules.exchange.maxIsBagCount,
    },
  };
};
