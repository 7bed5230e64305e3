/**
 * Position analysis (issue 19), pure: every move of a position ranked by static equity, the rank of
 * the move actually made, and a whole game's decision points (the play made, the best, equity lost).
 * Who may see what is the service's decision; this reads only the position it is handed.
 */
import type { Placement } from '../board.js';
import { apply } from '../game/apply.js';
import type { GameEvent, Seat } from '../game/events.js';
import type { GameState } from '../game/state.js';
import type { Kwg } from '../lexicon/kwg.js';
import { generateMoves, type GeneratedMove } from './generate.js';
import type { LeaveModel } from './leave.js';
import { positionFromState, type Position } from './position.js';
import { SHIPPED_LEAVES } from './shipped-leaves.js';

/** The move made at a decision point, as the log records it. */
export type MadeMove =
  | { readonly kind: 'play'; readonly placements: readonly Placement[] }
  | { readonly kind: 'exchange'; readonly tiles: readonly string[] | null }
  | { readonly kind: 'pass' };

/** A generated move with its rank (1 = the best by equity). */
export interface RankedMove extends GeneratedMove {
  readonly rank: number;
}

export interface PositionAnalysis {
  /** How many legal moves the position has (plays, exchanges, the pass). */
  readonly moveCount: number;
  /** The best `top` moves, best first. */
  readonly top: readonly RankedMove[];
  /** The move made, found in the list; null when none was given or it is not a legal move (a phony, an unknown exchange). */
  readonly made: RankedMove | null;
}

const placementKey = (ps: readonly Placement[]): string =>
  ps
    .map((p) => `${p.row},${p.col},${p.letter},${p.blank ? 1 : 0}`)
    .sort()
    .join(' ');
const tilesKey = (tiles: readonly string[]): string => [...tiles].sort().join(',');

/** Whether the generated move is the one made. */
export const isMadeMove = (g: GeneratedMove, made: MadeMove): boolean => {
  if (g.kind !== made.kind) return false;
  if (made.kind === 'play') return placementKey(g.placements) === placementKey(made.placements);
  if (made.kind === 'exchange')
    return made.tiles !== null && g.move.kind === 'exchange' && tilesKey(g.move.tiles ?? []) === tilesKey(made.tiles);
  return true;
};

/** Ranks every move of the position by equity (shipped leave values unless `leaves` says otherwise). */
export const analyzePosition = (
  position: Position,
  kwg: Kwg,
  options: { readonly top: number; readonly made?: MadeMove | null; readonly leaves?: LeaveModel },
): PositionAnalysis => {
  const all = generateMoves(position, kwg, { leaves: options.leaves ?? SHIPPED_LEAVES });
  const ranked = all.map((m, i) => ({ ...m, rank: i + 1 }));
  const made = options.made ? (ranked.find((m) => isMadeMove(m, options.made!)) ?? null) : null;
  return { moveCount: ranked.length, top: ranked.slice(0, Math.max(0, options.top)), made };
};

/** A point in a game where a seat chose a move: the state before it, the seat and what it did. */
export interface DecisionPoint {
  /** Events before the move (the game's version at that moment). */
  readonly version: number;
  readonly state: GameState;
  readonly seat: Seat;
  readonly made: MadeMove;
}

const madeOf = (e: GameEvent): MadeMove | null => {
  if (e.type === 'play') return { kind: 'play', placements: e.placements };
  if (e.type === 'exchange') return { kind: 'exchange', tiles: e.tiles };
  if (e.type === 'pass') return { kind: 'pass' };
  return null;
};

/**
 * Every move of a log made while the game was on and the mover's rack was known, in order. A log
 * that stops replaying (it cannot, for a stored game) ends the list there.
 */
export const decisionPoints = (events: readonly GameEvent[]): DecisionPoint[] => {
  const out: DecisionPoint[] = [];
  let state: GameState | null = null;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const made = madeOf(e);
    if (made && state && state.status === 'playing' && 'seat' in e && e.seat !== null) {
      const rack = state.racks[e.seat];
      if (rack.hidden === 0 && rack.tiles.length > 0) out.push({ version: i, state, seat: e.seat, made });
    }
    const r = apply(state, e);
    if (!r.ok) break;
    state = r.value;
  }
  return out;
};

/** Equities are sums of leave values in hundredths: a difference is rounded back to them. */
export const hundredths = (x: number): number => Math.round(x * 100) / 100;

/** One turn of a game analysis: the move made, the best one and what choosing the former cost. */
export interface TurnAnalysis {
  readonly point: DecisionPoint;
  readonly best: RankedMove;
  readonly made: RankedMove | null;
  /** best.equity − made.equity; null when the move made is not in the list (a phony). */
  readonly equityLost: number | null;
}

/** Analyses each decision point (`keep` chooses which, e.g. only the caller's own turns of a live game). */
export const analyzeGame = (
  events: readonly GameEvent[],
  kwg: Kwg,
  keep: (p: DecisionPoint) => boolean = () => true,
  leaves?: LeaveModel,
): TurnAnalysis[] =>
  decisionPoints(events)
    .filter(keep)
    .map((point) => {
      const a = analyzePosition(positionFromState(point.state, point.seat), kwg, {
        top: 1,
        made: point.made,
        ...(leaves ? { leaves } : {}),
      });
      const best = a.top[0]!; // the pass is always a move
      return { point, best, made: a.made, equityLost: a.made ? hundredths(best.equity - a.made.equity) : null };
    });
