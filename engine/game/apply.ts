import { emptyBoard, formatSquare, LAYOUTS, tileAt, withoutTiles, withTiles } from '../board.js';
import { cite, ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { BLANK, DISTRIBUTIONS, fullBag, joinTiles } from '../tiles.js';
import { commitment } from './bag.js';
import { CHALLENGE_EFFECTS } from './challenge.js';
import { advanceClock, checkPauseEvent, initialClock } from './clock.js';
import { decideWinner, nextScoreless } from './end.js';
import { other, type GameCreated, type GameEvent, type Seat } from './events.js';
import { missingFrom, withAdded, without } from './multiset.js';
import { bagCount, type GameState, type RackState, type TurnRecord } from './state.js';

/**
 * The fold: `apply(state, event)` returns the next state or the rule the event violates. It checks
 * the invariants an event must keep (turn order, tiles where the event says they are, the game not
 * over); rule decisions that need a lexicon or the seed are `decide.ts`'s, which only emits events
 * this fold accepts.
 */

const violation = (code: string, message: string, details?: Record<string, unknown>, rule?: ReturnType<typeof cite>): Result<never> =>
  err(ruleError(code, message, details, rule));

const setAt = <T>(pair: readonly [T, T], seat: Seat, value: T): [T, T] => (seat === 0 ? [value, pair[1]] : [pair[0], value]);

const seatName = (s: GameState, seat: Seat): string => s.players[seat].name;

/** The state of a new game (seed-003 rule 2: racks are then filled by `tiles-drawn`). */
export const createState = (e: GameCreated): Result<GameState> => {
  const layout = LAYOUTS[e.rules.board.layout];
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

const record = (s: GameState, r: Omit<TurnRecord, 'cumulative'>, scores: readonly [number, number]): TurnRecord[] => [
  ...s.history,
  { ...r, cumulative: scores[r.seat] },
];

/** Scores changed after the end (time penalty, ruling): the winner follows the new scores. */
const rescore = (s: GameState, scores: [number, number]): GameState['result'] =>
  s.result && s.result.reason !== 'aborted'
    ? { ...s.result, winner: decideWinner(s.rules, scores, s.result.scoresBeforeAdjustments, s.result.loser) }
    : s.result;

const mustBeOnTurn = (s: GameState, seat: Seat, what: string): Result<true> => {
  if (s.status === 'ended')
    return violation('GAME_OVER', `The game is over: ${what} by ${seatName(s, seat)} comes after its end.`, { seat });
  if (s.turn !== seat) {
    return violation(
      'NOT_YOUR_TURN',
      `It is ${seatName(s, s.turn)}'s turn, not ${seatName(s, seat)}'s (${what}).`,
      { seat, turn: s.turn },
      cite('seed-003', 'rule 4'),
    );
  }
  return ok(true);
};

/** Applies one event; see the module comment. */
export function apply(state: GameState | null, event: GameEvent): Result<GameState> {
  if (state === null) {
    if (event.type !== 'game-created')
      return violation('GAME_NOT_CREATED', `The first event of a game must be game-created, not ${event.type}.`, { type: event.type });
    return createState(event);
  }
  const next = step(state, event);
  return next.ok ? ok({ ...next.value, eventCount: state.eventCount + 1, clock: advanceClock(state, next.value, event) }) : next;
}

function step(s: GameState, e: GameEvent): Result<GameState> {
  const dist = s.distribution;
  switch (e.type) {
    case 'game-created':
      return violation('GAME_ALREADY_CREATED', 'The game already exists: game-created can only be its first event.');

    case 'tiles-drawn': {
      if (s.status === 'ended') return violation('GAME_OVER', 'The game is over: no more tiles are drawn.', { seat: e.seat });
      const hidden = e.hidden ?? 0;
      const bag = without(s.bag, e.tiles);
      if (bag === null || hidden > bagCount(s) - e.tiles.length) {
        return violation(
          'TILES_NOT_IN_BAG',
          `${seatName(s, e.seat)} cannot draw ${joinTiles(e.tiles)}${hidden ? ` and ${hidden} unseen tiles` : ''}: the bag does not hold them.`,
          {
            seat: e.seat,
            tiles: e.tiles,
            hidden,
            missing: missingFrom(s.bag, e.tiles),
          },
        );
      }
      const rack = s.racks[e.seat];
      const size = rack.tiles.length + rack.hidden + e.tiles.length + hidden;
      if (size > s.rules.board.rackSize) {
        return violation(
          'RACK_OVERFLOW',
          `${seatName(s, e.seat)}'s rack would hold ${size} tiles; a rack holds ${s.rules.board.rackSize}.`,
          { seat: e.seat, size },
          cite('seed-003', 'rule 4'),
        );
      }
      const pending =
        s.pending && s.pending.seat === e.seat
          ? { ...s.pending, drawn: [...s.pending.drawn, ...e.tiles], drawnHidden: s.pending.drawnHidden + hidden }
          : s.pending;
      return ok({
        ...s,
        bag,
        racks: setAt(s.racks, e.seat, { tiles: [...rack.tiles, ...e.tiles], hidden: rack.hidden + hidden }),
        drawCount: s.bagKind === 'seeded' ? s.drawCount + e.tiles.length : s.drawCount,
        pending,
      });
    }

    case 'rack-revealed': {
      if (s.bagKind !== 'imported')
        return violation('NOT_IMPORTED', 'Racks are revealed only in imported games; a seeded game knows every draw.');
      const rack = s.racks[e.seat];
      // The record's rack replaces what the log knew (as liwords' import does): the tiles thought
      // kept go back among the unseen, and the rack shown must come from them. A record may show
      // only the tiles played; the rest of the rack stays unseen.
      let pool = withAdded(dist, s.bag, rack.tiles);
      let racks = s.racks;
      const opp = s.racks[other(e.seat)];
      const short = missingFrom(pool, e.tiles);
      const fromOpp = missingFrom(opp.tiles, short).length === 0 ? short : [];
      if (short.length && fromOpp.length) {
        // The log's guess at the opponent's kept tiles (from its last line) was wrong: they were unseen.
        pool = withAdded(dist, pool, fromOpp);
        racks = setAt(racks, other(e.seat), { tiles: without(opp.tiles, fromOpp)!, hidden: opp.hidden + fromOpp.length });
      }
      const bag = without(pool, e.tiles);
      if (bag === null) {
        const missing = missingFrom(pool, e.tiles);
        return violation(
          'RACK_NOT_IN_BAG',
          `${seatName(s, e.seat)}'s rack ${joinTiles(e.tiles)} cannot have been drawn: ${joinTiles(missing)} ${missing.length === 1 ? 'is' : 'are'} not among the unseen tiles.`,
          {
            seat: e.seat,
            tiles: e.tiles,
            missing,
          },
        );
      }
      const size = rack.tiles.length + rack.hidden;
      if (e.tiles.length > s.rules.board.rackSize) {
        return violation(
          'RACK_OVERFLOW',
          `The rack ${joinTiles(e.tiles)} shown for ${seatName(s, e.seat)} has more than ${s.rules.board.rackSize} tiles.`,
          { seat: e.seat, tiles: e.tiles },
        );
      }
      return ok({ ...s, bag, racks: setAt(racks, e.seat, { tiles: e.tiles.slice(), hidden: Math.max(0, size - e.tiles.length) }) });
    }

    case 'tiles-set-aside': {
      const rack = s.racks[e.seat];
      const rest = without(rack.tiles, e.tiles);
      if (rest === null)
        return violation(
          'TILES_NOT_IN_RACK',
          `${seatName(s, e.seat)}'s rack ${joinTiles(rack.tiles)} does not hold ${joinTiles(e.tiles)} to set aside.`,
          { seat: e.seat, tiles: e.tiles },
        );
      if (s.aside && s.aside.seat !== e.seat)
        return violation('ASIDE_IN_USE', 'The other player has tiles face down on the table.', { seat: e.seat });
      return ok({
        ...s,
        racks: setAt(s.racks, e.seat, { ...rack, tiles: rest }),
        aside: { seat: e.seat, tiles: [...(s.aside?.tiles ?? []), ...e.tiles] },
      });
    }

    case 'tiles-taken-back': {
      const rest = s.aside && s.aside.seat === e.seat ? without(s.aside.tiles, e.tiles) : null;
      if (rest === null)
        return violation(
          'TILES_NOT_ASIDE',
          `${joinTiles(e.tiles)} ${e.tiles.length === 1 ? 'is' : 'are'} not face down on the table for ${seatName(s, e.seat)}.`,
          { seat: e.seat, tiles: e.tiles },
        );
      const rack = s.racks[e.seat];
      return ok({
        ...s,
        aside: rest.length ? { seat: e.seat, tiles: rest } : null,
        racks: setAt(s.racks, e.seat, { ...rack, tiles: [...rack.tiles, ...e.tiles] }),
      });
    }

    case 'tiles-returned': {
      const hidden = e.hidden ?? 0;
      const rack = s.racks[e.seat];
      if (e.from === 'aside') {
        const rest = s.aside && s.aside.seat === e.seat ? without(s.aside.tiles, e.tiles) : null;
        if (rest === null || hidden > 0)
          return violation(
            'TILES_NOT_ASIDE',
            `${joinTiles(e.tiles)} ${e.tiles.length === 1 ? 'is' : 'are'} not face down on the table for ${seatName(s, e.seat)}.`,
            { seat: e.seat, tiles: e.tiles },
          );
        return ok({ ...s, aside: rest.length ? { seat: e.seat, tiles: rest } : null, bag: withAdded(dist, s.bag, e.tiles) });
      }
      const rest = without(rack.tiles, e.tiles);
      if (rest === null || hidden > rack.hidden) {
        return violation(
          'TILES_NOT_IN_RACK',
          `${seatName(s, e.seat)}'s rack ${joinTiles(rack.tiles)} does not hold ${joinTiles(e.tiles)} to return to the bag.`,
          { seat: e.seat, tiles: e.tiles, hidden },
        );
      }
      return ok({
        ...s,
        racks: setAt(s.racks, e.seat, { tiles: rest, hidden: rack.hidden - hidden }),
        bag: withAdded(dist, s.bag, e.tiles),
      });
    }

    case 'play': {
      const on = mustBeOnTurn(s, e.seat, 'a play');
      if (!on.ok) return on;
      if (s.status !== 'playing')
        return violation(
          'GAME_ENDING',
          'The last tile has been played: only a final pass or a challenge may follow.',
          { seat: e.seat },
          cite('seed-001', '§9'),
        );
      for (const p of e.placements) {
        if (tileAt(s.board, p.row, p.col))
          return violation('SQUARE_OCCUPIED', `${formatSquare(p)} already holds a tile.`, { square: formatSquare(p) });
      }
      const rack = s.racks[e.seat];
      const used = e.placements.map((p) => (p.blank ? BLANK : p.letter));
      const rest = without(rack.tiles, used);
      if (rest === null) {
        return violation(
          'TILES_NOT_IN_RACK',
          `${seatName(s, e.seat)}'s rack ${joinTiles(rack.tiles)} does not hold ${joinTiles(missingFrom(rack.tiles, used))} for ${e.move}.`,
          {
            seat: e.seat,
            move: e.move,
            missing: missingFrom(rack.tiles, used),
          },
          cite('seed-003', 'rule 4'),
        );
      }
      const blanksPlayed = used.filter((t) => t === BLANK).length;
      if (blanksPlayed < s.substitutedBlanks) {
        return violation(
          'BLANK_NOT_REPLAYED',
          `${seatName(s, e.seat)} took ${s.substitutedBlanks} blank${s.substitutedBlanks > 1 ? 's' : ''} by substitution and must play ${s.substitutedBlanks > 1 ? 'them' : 'it'} this turn; ${e.move} plays ${blanksPlayed}.`,
          {
            seat: e.seat,
            substituted: s.substitutedBlanks,
            played: blanksPlayed,
          },
          cite('seed-002', 'Blank Substitution', 'Seed'),
        );
      }
      const scores = setAt(s.scores, e.seat, s.scores[e.seat] + e.score);
      const newRack = { tiles: rest, hidden: rack.hidden };
      const wentOut = newRack.tiles.length + newRack.hidden === 0 && bagCount(s) === 0;
      return ok({
        ...s,
        board: withTiles(s.board, e.placements),
        racks: setAt(s.racks, e.seat, newRack),
        scores,
        turn: other(e.seat),
        scorelessTurns: nextScoreless(s.rules, s.scorelessTurns, e.score === 0 ? 'zero-point-play' : 'scoring-play'),
        consecutiveExchanges: 0,
        pending: {
          seat: e.seat,
          move: e.move,
          placements: e.placements,
          words: e.words,
          score: e.score,
          drawn: [],
          drawnHidden: 0,
          scorelessBefore: s.scorelessTurns,
          exchangesBefore: s.consecutiveExchanges,
          wentOut,
          challenged: false,
        },
        substitutedBlanks: 0,
        freeTradeThisTurn: false,
        status: wentOut ? 'waiting-final' : 'playing',
        history: record(s, { seat: e.seat, kind: 'play', move: e.move, score: e.score, words: e.words }, scores),
      });
    }

    case 'exchange': {
      const on = mustBeOnTurn(s, e.seat, 'an exchange');
      if (!on.ok) return on;
      if (s.status !== 'playing')
        return violation('GAME_ENDING', 'The last tile has been played: only a final pass or a challenge may follow.', { seat: e.seat });
      const rack = s.racks[e.seat];
      let racks = s.racks;
      let bag = s.bag;
      let aside = s.aside;
      if (e.tiles) {
        const rest = without(rack.tiles, e.tiles);
        if (rest === null) {
          return violation(
            'TILES_NOT_IN_RACK',
            `${seatName(s, e.seat)}'s rack ${joinTiles(rack.tiles)} does not hold ${joinTiles(missingFrom(rack.tiles, e.tiles))} to exchange.`,
            {
              seat: e.seat,
              tiles: e.tiles,
              missing: missingFrom(rack.tiles, e.tiles),
            },
            cite('seed-003', 'rule 11'),
          );
        }
        racks = setAt(s.racks, e.seat, { ...rack, tiles: rest });
        aside = e.tiles.length ? { seat: e.seat, tiles: e.tiles } : null;
      } else {
        // Only the count is known (`-3`): which tiles stayed is unknown, so the whole rack becomes unseen.
        if (e.count > rack.tiles.length + rack.hidden)
          return violation(
            'TILES_NOT_IN_RACK',
            `${seatName(s, e.seat)} cannot exchange ${e.count} tiles from a rack of ${rack.tiles.length + rack.hidden}.`,
            { seat: e.seat, count: e.count },
          );
        bag = withAdded(dist, s.bag, rack.tiles);
        racks = setAt(s.racks, e.seat, { tiles: [], hidden: rack.tiles.length + rack.hidden });
      }
      const scores = s.scores;
      return ok({
        ...s,
        racks,
        bag,
        aside,
        turn: other(e.seat),
        scorelessTurns: nextScoreless(s.rules, s.scorelessTurns, 'exchange'),
        consecutiveExchanges: s.consecutiveExchanges + 1,
        pending: null,
        substitutedBlanks: 0,
        freeTradeThisTurn: false,
        history: record(
          s,
          {
            seat: e.seat,
            kind: 'exchange',
            move: e.tiles ? `-${joinTiles(e.tiles)}` : `-${e.count}`,
            score: 0,
            count: e.count,
            ...(e.tiles ? { tiles: e.tiles } : {}),
          },
          scores,
        ),
      });
    }

    case 'pass': {
      const on = mustBeOnTurn(s, e.seat, 'a pass');
      if (!on.ok) return on;
      const finalPass = s.status === 'waiting-final';
      return ok({
        ...s,
        turn: other(e.seat),
        scorelessTurns: finalPass ? s.scorelessTurns : nextScoreless(s.rules, s.scorelessTurns, 'pass'),
        consecutiveExchanges: 0,
        pending: null,
        substitutedBlanks: 0,
        freeTradeThisTurn: false,
        history: record(s, { seat: e.seat, kind: 'pass', move: '-', score: 0 }, s.scores),
      });
    }

    case 'challenge': {
      const on = mustBeOnTurn(s, e.seat, 'a challenge');
      if (!on.ok) return on;
      if (!CHALLENGE_EFFECTS[s.rules.challenge.mode].challengeable) {
        return violation('NO_CHALLENGES', `Under ${s.rules.name} plays cannot be challenged: invalid words are rejected when played.`, {
          mode: s.rules.challenge.mode,
        });
      }
      if (!s.pending || s.pending.seat !== other(e.seat) || s.pending.challenged) {
        return violation(
          'NO_PLAY_TO_CHALLENGE',
          `${seatName(s, e.seat)} has no play of the opponent to challenge: a play can be challenged only before the next turn starts.`,
          { seat: e.seat },
          cite('seed-001', '§8'),
        );
      }
      const words = e.words.map((w) => `${w.word}${w.valid === false ? '*' : ''}`).join(', ');
      return ok({
        ...s,
        pending: e.valid ? { ...s.pending, challenged: true } : s.pending,
        history: record(s, { seat: e.seat, kind: 'challenge', move: `challenge ${words}`, score: 0 }, s.scores),
      });
    }

    case 'phony-withdrawn': {
      const p = s.pending;
      if (!p || p.seat !== e.seat) {
        return violation('NO_PLAY_TO_WITHDRAW', `${seatName(s, e.seat)} has no play that can still be withdrawn.`, { seat: e.seat });
      }
      if (p.score !== e.score)
        return violation('WITHDRAWN_SCORE_MISMATCH', `The withdrawn play ${p.move} scored ${p.score}, not ${e.score}.`, {
          seat: e.seat,
          expected: p.score,
          actual: e.score,
        });
      const rack = s.racks[e.seat];
      const scores = setAt(s.scores, e.seat, s.scores[e.seat] - p.score);
      const again = CHALLENGE_EFFECTS[s.rules.challenge.mode].withdrawnPlayerPlaysAgain;
      return ok({
        ...s,
        board: withoutTiles(s.board, p.placements),
        racks: setAt(s.racks, e.seat, { ...rack, tiles: [...rack.tiles, ...p.placements.map((t) => (t.blank ? BLANK : t.letter))] }),
        scores,
        turn: again ? e.seat : other(e.seat),
        scorelessTurns: again ? p.scorelessBefore : nextScoreless(s.rules, p.scorelessBefore, 'challenged-off'),
        consecutiveExchanges: again ? p.exchangesBefore : 0,
        pending: null,
        status: s.status === 'waiting-final' ? 'playing' : s.status,
        history: record(s, { seat: e.seat, kind: 'phony-withdrawn', move: `-- ${p.move}`, score: -p.score }, scores),
      });
    }

    case 'turn-lost': {
      const on = mustBeOnTurn(s, e.seat, 'a lost turn');
      if (!on.ok) return on;
      return ok({
        ...s,
        turn: other(e.seat),
        scorelessTurns: s.status === 'waiting-final' ? s.scorelessTurns : nextScoreless(s.rules, s.scorelessTurns, 'lost-challenge'),
        consecutiveExchanges: 0,
        pending: null,
        history: record(s, { seat: e.seat, kind: 'turn-lost', move: 'lost turn (challenge)', score: 0 }, s.scores),
      });
    }

    case 'challenge-points': {
      if (s.status === 'ended') return violation('GAME_OVER', 'The game is over: no challenge points after its end.', { seat: e.seat });
      const scores = setAt(s.scores, e.seat, s.scores[e.seat] + e.points);
      return ok({
        ...s,
        scores,
        history: record(s, { seat: e.seat, kind: 'challenge-points', move: '(challenge)', score: e.points }, scores),
      });
    }

    case 'blank-substituted': {
      const on = mustBeOnTurn(s, e.seat, 'a blank substitution');
      if (!on.ok) return on;
      const cite2 = cite('seed-002', 'Blank Substitution', 'Seed');
      const t = tileAt(s.board, e.row, e.col);
      const sq = formatSquare({ row: e.row, col: e.col });
      if (!t || !t.blank || t.letter !== e.letter) {
        return violation('NOT_A_BLANK', `${sq} does not hold a blank played as ${e.letter}.`, { square: sq, letter: e.letter }, cite2);
      }
      const rack = s.racks[e.seat];
      const rest = without(rack.tiles, [e.letter]);
      if (rest === null)
        return violation(
          'TILES_NOT_IN_RACK',
          `${seatName(s, e.seat)}'s rack ${joinTiles(rack.tiles)} has no ${e.letter} to give for the blank on ${sq}.`,
          { square: sq, letter: e.letter },
          cite2,
        );
      const n = s.board.layout.rows.length;
      const cells = s.board.cells.slice();
      cells[e.row * n + e.col] = { letter: e.letter, blank: false };
      return ok({
        ...s,
        board: { ...s.board, cells },
        racks: setAt(s.racks, e.seat, { ...rack, tiles: [...rest, BLANK] }),
        substitutedBlanks: s.substitutedBlanks + 1,
        pending: null,
      });
    }

    case 'free-trade': {
      const on = mustBeOnTurn(s, e.seat, 'a free trade');
      if (!on.ok) return on;
      if (s.freeTradeThisTurn)
        return violation(
          'FREE_TRADE_DONE',
          `${seatName(s, e.seat)} has already traded this turn.`,
          { seat: e.seat },
          cite('seed-002', 'Free Trades', 'Seed'),
        );
      return ok({ ...s, freeTradeThisTurn: true, pending: null });
    }

    case 'time-penalty': {
      const scores = setAt(s.scores, e.seat, s.scores[e.seat] - e.points);
      return ok({
        ...s,
        scores,
        result: rescore(s, scores),
        history: record(s, { seat: e.seat, kind: 'time-penalty', move: '(time)', score: -e.points }, scores),
      });
    }

    case 'resigned':
    case 'timed-out':
    case 'forfeited':
      if (s.status === 'ended') return violation('GAME_OVER', `The game is over: ${e.type} comes after its end.`, { seat: e.seat });
      return ok(s);

    case 'game-ended': {
      if (s.status === 'ended') return violation('GAME_OVER', 'The game has already ended.');
      if (e.seed !== null) {
        if (s.bagKind !== 'seeded' || commitment(e.seed) !== s.commitment) {
          return violation(
            'SEED_COMMITMENT_MISMATCH',
            'The revealed bag seed does not hash to the commitment made when the game was created.',
            { commitment: s.commitment },
          );
        }
      }
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
            tiles: a.tiles,
          },
        ];
      }
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
    }

    case 'pause-requested':
    case 'pause-accepted':
    case 'pause-declined':
    case 'resumed': {
      const checked = checkPauseEvent(s, e);
      return checked.ok ? ok(s) : checked;
    }

    case 'aborted':
      if (s.status === 'ended') return violation('GAME_OVER', 'The game is over: it can no longer be aborted.', { seat: e.seat });
      if (s.history.length > 0) {
        return violation(
          'ABORT_TOO_LATE',
          `A game can be aborted only before its first turn; ${s.history.length} turn(s) have been taken. Resign instead.`,
          { seat: e.seat, turns: s.history.length },
        );
      }
      return ok(s);

    case 'ruling-applied': {
      let scores: [number, number] = [s.scores[0], s.scores[1]];
      let history = s.history;
      for (const c of e.scoreChanges) {
        scores = setAt(scores, c.seat, scores[c.seat] + c.points);
        history = [...history, { seat: c.seat, kind: 'ruling', move: e.ruling, score: c.points, cumulative: scores[c.seat] }];
      }
      return ok({ ...s, scores, history, result: rescore(s, scores) });
    }
  }
}

/** Error of a fold, with the index of the event that broke it. */
export interface ReplayError extends RuleError {
  readonly index: number;
}

/** Folds a whole log into its state (the store's read path). */
export function replay(events: readonly GameEvent[]): Result<GameState, ReplayError> {
  let state: GameState | null = null;
  for (let i = 0; i < events.length; i++) {
    const r = apply(state, events[i]!);
    if (!r.ok) return err({ ...r.error, index: i });
    state = r.value;
  }
  if (!state) return err({ ...ruleError('GAME_NOT_CREATED', 'An empty log holds no game.'), index: 0 });
  return ok(state);
}
