import type { FirstSecond } from '../game/forfeits.js';
import type { OutcomeKind, GameResult } from './results.js';
import { standings, type StandingRow } from './standings.js';
import type { DivisionState } from './state.js';

/**
 * The crosstable (issue 30, item 6): one row per player in standings order, one cell per round —
 * opponent, first or second, both scores, and the record so far (wins, losses, spread after that round).
 */

export interface CrosstableCell {
  readonly round: number;
  readonly kind: OutcomeKind;
  readonly opponent: number | null;
  readonly position: FirstSecond;
  readonly score: number | null;
  readonly opponentScore: number | null;
  readonly result: GameResult | null;
  readonly forfeit: boolean;
  /** After this round. */
  readonly wins: number;
  readonly losses: number;
  readonly spread: number;
}

export interface CrosstableRow {
  readonly standing: StandingRow;
  readonly cells: readonly CrosstableCell[];
}

export const crosstable = (division: DivisionState, throughRound = division.rounds.length): CrosstableRow[] =>
  standings(division, throughRound).map((standing) => {
    let wins = 0;
    let losses = 0;
    let spread = 0;
    const cells = standing.outcomes.map((o): CrosstableCell => {
      if (o.result === 'win') wins += 1;
      else if (o.result === 'loss') losses += 1;
      else if (o.result === 'tie') {
        wins += 0.5;
        losses += 0.5;
      }
      spread += o.result === null ? 0 : o.spread;
      return {
        round: o.round,
        kind: o.kind,
        opponent: o.opponent,
        position: o.position,
        score: o.score,
        opponentScore: o.opponentScore,
        result: o.result,
        forfeit: o.forfeit,
        wins,
        losses,
        spread,
      };
    });
    return { standing, cells };
  });
