import { cite, type RuleError } from '../errors.js';
import { apply } from '../game/apply.js';
import { decide, endIfOver, type Command } from '../game/decide.js';
import type { GameEvent, Seat } from '../game/events.js';
import type { GameState } from '../game/state.js';
import type { Lexicon } from '../lexicon/lexicon.js';
import { ok, type Result } from '../result.js';
import type { RuleSet } from '../rules/ruleset.js';
import type { GcgDocument, GcgEvent } from './document.js';
import type { ReplayErrorItem, ReplayMismatch, ReplayReport, ReplayWarning, ReplayWarningCode } from './replay-report.js';

export const GCG = (rule: string) => cite('gcg', rule);

/**
 * The working set of one `replayGcg` call: the imported game as far as it has been folded, and the
 * findings so far. It is mutable on purpose (every method that records or folds changes it) and
 * never outlives the call; the report it makes is what leaves.
 */
export class ReplaySession {
  readonly nicks: readonly [string, string];
  readonly mismatches: ReplayMismatch[] = [];
  readonly errors: ReplayErrorItem[] = [];
  readonly phonies: { turn: number; player: string; words: string[] }[] = [];
  readonly warnings: ReplayWarning[] = [];
  readonly events: GameEvent[] = [];
  state: GameState | null = null;
  /**
   * Differences between the record's move scores and the engine's, already reported: the running
   * totals are then compared net of them, so one wrong score is reported once, not on every line.
   */
  readonly scoreDrift: [number, number] = [0, 0];
  /** A running total off by the same amount as on the player's previous line is the same error. */
  readonly cumulativeOff: [number, number] = [0, 0];
  /** The engine has ended the game (its game-ended held back until the record's end lines reveal the racks). */
  endDue = false;
  /** The last move line, for the lines that refer back to it (a withdrawn play, its rack and score). */
  lastMove: GcgEvent | null = null;
  /** What the record credited for `lastMove`: its score field, or what its total added when only the total agrees. */
  lastCredited = 0;
  /** Each player's running total on their previous line of the record (0 before their first). */
  readonly recordTotals: [number, number] = [0, 0];

  constructor(
    readonly doc: GcgDocument,
    readonly rules: RuleSet,
    readonly lexicon: Lexicon | null,
    /** Why a lexicon the caller gave does not judge this record's words, or null. */
    readonly lexiconSetAside: string | null = null,
  ) {
    this.nicks = [doc.players[0].nickname, doc.players[1].nickname];
  }

  /** The game so far; only called once `game-created` has been folded. */
  get st(): GameState {
    return this.state!;
  }

  report(): ReplayReport {
    const { state, nicks } = this;
    return {
      ok: this.mismatches.length === 0 && this.errors.length === 0,
      moves: this.doc.events.filter((e) => e.kind === 'move').length,
      mismatches: this.mismatches,
      finalScores: state ? { [nicks[0]]: state.scores[0], [nicks[1]]: state.scores[1] } : { [nicks[0]]: 0, [nicks[1]]: 0 },
      errors: this.errors,
      complete: state?.status === 'ended',
      result: state?.result
        ? { winner: state.result.winner === null ? null : nicks[state.result.winner], reason: state.result.reason }
        : null,
      phonies: this.phonies,
      warnings: this.warnings,
      rules: this.rules,
      events: this.events,
      tileSet: this.rules.board.distribution,
      wordsJudgedBy: this.lexicon?.name ?? null,
      lexiconSetAside: this.lexiconSetAside,
    };
  }

  /** Folds `es` in order; keeps them only if all apply. */
  push(es: readonly GameEvent[]): Result<GameState> {
    let s = this.state;
    for (const e of es) {
      const r = apply(s, e);
      if (!r.ok) return r;
      s = r.value;
    }
    this.state = s;
    this.events.push(...es);
    return ok(s!);
  }

  /** Records the violation that stops the replay at `ev` and answers the report as it stands. */
  stop(e: RuleError, ev: GcgEvent | null, turn: number | null): ReplayReport {
    this.errors.push({ code: e.code, message: ev ? `Line ${ev.line}: ${e.message}` : e.message, line: ev?.line ?? null, turn });
    return this.report();
  }

  mismatch(ev: GcgEvent, turn: number, code: string, expected: number | string, actual: number | string, reason: string): void {
    this.mismatches.push({
      turn,
      player: this.nicks[ev.player],
      expected,
      actual,
      reason: `Line ${ev.line}: ${reason}`,
      code,
      line: ev.line,
    });
  }

  warn(ev: GcgEvent, turn: number, code: ReplayWarningCode, message: string): void {
    this.warnings.push({ code, line: ev.line, turn, message: `Line ${ev.line}: ${message}` });
  }

  /**
   * The score the line claims. The score field, unless it disagrees with what the running total
   * adds and the total agrees with `expected` (the engine's number for the line): then the total
   * is believed and the old spelling noted. Old tools wrote `-- +0` (or `-0`) for a withdrawal
   * whose total already went back; the total is what the game's result rests on.
   */
  lineScore(ev: GcgEvent, turn: number, expected: number): number {
    const added = ev.cumulative - this.recordTotals[ev.player];
    if (ev.score === expected || added !== expected) return ev.score;
    const field = ev.score > 0 ? `+${ev.score}` : `${ev.score}`;
    this.warn(
      ev,
      turn,
      'SCORE_FIELD_DISAGREES',
      `the score field ${field} differs from the running total, which adds ${added} (${this.recordTotals[ev.player]} to ${ev.cumulative}) as the rules do; the total is taken.`,
    );
    return expected;
  }

  /** Compares the line's running total with the engine's score, net of score differences already reported. */
  checkCumulative(ev: GcgEvent, turn: number, engine: number): void {
    const seat = ev.player;
    const expected = engine + this.scoreDrift[seat];
    const off = ev.cumulative - expected;
    if (off !== 0 && off !== this.cumulativeOff[seat]) {
      this.mismatch(
        ev,
        turn,
        'CUMULATIVE_SCORE_MISMATCH',
        ev.cumulative,
        expected,
        `${this.nicks[seat]}'s running total is ${ev.cumulative} in the record; the scores add up to ${expected}.`,
      );
    }
    this.cumulativeOff[seat] = off;
  }

  /** Applies the engine's events; game-ended is held back until the record's end lines reveal the racks. */
  applyHeld(es: readonly GameEvent[]): Result<GameState> {
    const held = es.filter((e) => e.type !== 'game-ended');
    const r = this.push(held);
    if (r.ok && (held.length !== es.length || endIfOver(r.value, null) !== null)) this.endDue = true;
    return r;
  }

  /** Lets the engine end the game now, if it is over. */
  finishGame(): Result<GameState> {
    const end = endIfOver(this.st, null);
    return end ? this.push([end]) : ok(this.st);
  }

  /** Reveals a rack the record shows (checked drawable from the unseen tiles). */
  reveal(seat: Seat, tiles: readonly string[]): Result<GameState> {
    return tiles.length ? this.push([{ type: 'rack-revealed', seat, tiles }]) : ok(this.st);
  }

  /** Decides a command as a live game would (no seed: the game is imported). */
  run(cmd: Command): Result<GameEvent[]> {
    return decide(this.st, cmd, { lexicon: this.lexicon, seed: null });
  }
}
