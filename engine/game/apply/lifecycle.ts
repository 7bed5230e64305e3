import { emptyBoard, LAYOUTS } from '../../board.js';
import { ok, type Result } from '../../result.js';
import { DISTRIBUTIONS, fullBag, joinTiles } from '../../tiles.js';
import { commitment } from '../bag.js';
import { checkPauseEvent, initialClock } from '../clock.js';
import { decideWinner } from '../end.js';
import { checkClockReading } from '../recorded-clock.js';
import type { GameCreated } from '../events.js';
import type { GameState, RackState, TurnRecord } from '../state.js';
import { nextEvent, record, rescore, setAt, violation, type EventHandler, type EventOf } from './common.js';

/**
 * The game's life outside the turns: its creation, pauses, how it ends (resignation, timeout,
 * forfeit, abort, the end itself) and the score changes that may land after the end.
 */

/** The state of a new game (seed-003 rule 2: racks are then filled by `tiles-drawn`). */
export const createState = (e: GameCreated): Result<GameState> => {
  const layout = e.layout ?? LAYOUTS[e.rules.board.layout];
  const distribution = DISTRIBUTIONS[e.rules.board.distribution];
  if (!layout)
    return violation('UNKNOWN_LAYOUT', `The rule set names board layout "${e.rules.board.layout}", which Arbiter does not have.`, {
      layout: e.rules.board.layout,
    });
  if (!distribution) {
    return violation(
      'UNKNOWN_DISTRIBUTION',
      `The rule set names tile distribution "${e.rules.board.distribution}", which Arbiter does not have.`,
      {
        distribution: e.rules.board.distribution,
      },
    );
  }
  const empty: RackState = { tiles: [], hidden: 0 };
  return ok({
    rules: e.rules,
    distribution,
    lexicon: e.lexicon,
    players: e.players,
    timeControl: e.timeControl,
    firstSeat: e.firstSeat,
    bagKind: e.bag.kind,
    commitment: e.bag.kind === 'seeded' ? e.bag.commitment : null,
    board: emptyBoard(layout),
    racks: [empty, empty],
    bag: fullBag(distribution),
    drawCount: 0,
    aside: null,
    scores: [0, 0],
    turn: e.firstSeat,
    scorelessTurns: 0,
    consecutiveExchanges: 0,
    pending: null,
    substitutedBlanks: 0,
    freeTradeThisTurn: false,
    status: 'playing',
    result: null,
    history: [],
    eventCount: 1,
    clock: initialClock(e.timeControl, e.createdAt),
  });
};

/** `game-created` on an existing game: a game is created once (`apply` folds the first one with {@link createState}). */
export const foldGameCreated: EventHandler<'game-created'> = () =>
  violation('GAME_ALREADY_CREATED', 'The game already exists: game-created can only be its first event.');

/** Resigned, timed out or forfeited: a marker for the record; `game-ended` that follows carries the result. */
export const foldEndMarker = (s: GameState, e: EventOf<'resigned' | 'timed-out' | 'forfeited'>): Result<GameState> =>
  s.status === 'ended' ? violation('GAME_OVER', `The game is over: ${e.type} comes after its end.`, { seat: e.seat }) : ok(s);

/** Pause requests, answers and resumptions change only the clock (`advanceClock`, after the handler). */
export const foldPauseEvent = (
  s: GameState,
  e: EventOf<'pause-requested' | 'pause-accepted' | 'pause-declined' | 'resumed'>,
): Result<GameState> => {
  const checked = checkPauseEvent(s, e);
  return checked.ok ? ok(s) : checked;
};

/** An abort cancels a game before its first turn (platform-differences §2.1 "Abort"); `game-ended` follows. */
export const foldAborted: EventHandler<'aborted'> = (s, e) => {
  if (s.status === 'ended') return violation('GAME_OVER', 'The game is over: it can no longer be aborted.', { seat: e.seat });
  if (s.history.length > 0) {
    return violation(
      'ABORT_TOO_LATE',
      `A game can be aborted only before its first turn; ${s.history.length} turn(s) have been taken. Resign instead.`,
      { seat: e.seat, turns: s.history.length },
    );
  }
  return ok(s);
};

/** Scores and history lines after the end-of-game rack adjustments (seed-003 scoring 9). */
const adjusted = (s: GameState, e: EventOf<'game-ended'>): { scores: [number, number]; history: readonly TurnRecord[] } => {
  let scores: [number, number] = [s.scores[0], s.scores[1]];
  let history = s.history;
  for (const a of e.adjustments) {
    scores = setAt(scores, a.seat, scores[a.seat] + a.points);
    history = [
      ...history,
      {
        seat: a.seat,
        kind: 'end-adjustment',
        move: `(${joinTiles(a.tiles)})`,
        score: a.points,
        cumulative: scores[a.seat],
        event: nextEvent(s),
        tiles: a.tiles,
      },
    ];
  }
  return { scores, history };
};

/**
 * The end of the game: the rack adjustments applied, the winner decided, and for a seeded game the
 * bag seed revealed, which must hash to the commitment made at creation (so the draws can be verified).
 */
export const foldGameEnded: EventHandler<'game-ended'> = (s, e) => {
  if (s.status === 'ended') return violation('GAME_OVER', 'The game has already ended.');
  if (e.seed !== null) {
    if (s.bagKind !== 'seeded' || commitment(e.seed) !== s.commitment) {
      return violation(
        'SEED_COMMITMENT_MISMATCH',
        'The revealed bag seed does not hash to the commitment made when the game was created.',
        {
          commitment: s.commitment,
        },
      );
    }
  }
  const { scores, history } = adjusted(s, e);
  const before: [number, number] = [s.scores[0], s.scores[1]];
  return ok({
    ...s,
    scores,
    history,
    status: 'ended',
    pending: null,
    result: {
      reason: e.reason,
      adjustments: e.adjustments,
      loser: e.loser,
      scoresBeforeAdjustments: before,
      // An aborted game has no winner (platform-differences §2.1), whatever the score.
      winner: e.reason === 'aborted' ? null : decideWinner(s.rules, scores, before, e.loser),
      seed: e.seed,
    },
  });
};

/** Points taken for overtime; may land after the end, and then the winner follows the new scores. */
export const foldTimePenalty: EventHandler<'time-penalty'> = (s, e) => {
  const scores = setAt(s.scores, e.seat, s.scores[e.seat] - e.points);
  return ok({
    ...s,
    scores,
    result: rescore(s, scores),
    history: record(
      s,
      { seat: e.seat, kind: 'time-penalty', move: '(time)', score: -e.points, ...(e.citations ? { citations: e.citations } : {}) },
      scores,
    ),
  });
};

/**
 * A recorded game's clock read after a move (recorded-clock.ts checks it); the reading also goes on
 * the score sheet's last line when that line is the reader's move. The clock state keeps it (`advanceClock`).
 */
export const foldClockReading: EventHandler<'clock-reading'> = (s, e) => {
  const checked = checkClockReading(s, e);
  if (!checked.ok) return checked;
  const last = s.history[s.history.length - 1];
  if (!last || last.seat !== e.seat) return ok(s);
  return ok({ ...s, history: [...s.history.slice(0, -1), { ...last, secondsLeft: e.secondsLeft }] });
};

/** A director's ruling changes scores (one history line per change); the winner follows. */
export const foldRulingApplied: EventHandler<'ruling-applied'> = (s, e) => {
  let scores: [number, number] = [s.scores[0], s.scores[1]];
  let history = s.history;
  for (const c of e.scoreChanges) {
    scores = setAt(scores, c.seat, scores[c.seat] + c.points);
    history = [
      ...history,
      { seat: c.seat, kind: 'ruling', move: e.ruling, score: c.points, cumulative: scores[c.seat], event: nextEvent(s) },
    ];
  }
  return ok({ ...s, scores, history, result: rescore(s, scores) });
};
