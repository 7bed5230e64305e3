import { formatSquare, tileAt, withTiles } from '../../board.js';
import { cite } from '../../errors.js';
import { ok, type Result } from '../../result.js';
import { BLANK, joinTiles } from '../../tiles.js';
import { nextScoreless } from '../end.js';
import { other } from '../events.js';
import { missingFrom, withAdded, without } from '../multiset.js';
import { bagCount, type GameState, type RackState } from '../state.js';
import { mustBeOnTurn, record, seatName, setAt, violation, type EventHandler, type EventOf } from './common.js';

/**
 * Fold handlers for the moves a player makes on their turn: play, exchange, pass, and the seed-002
 * house moves (blank substitution, free trade) that come before a play.
 */

const GAME_ENDING = 'The last tile has been played: only a final pass or a challenge may follow.';

/**
 * The mover's rack after the play, or why the play cannot be folded: the squares are free, the tiles
 * are on the rack (seed-003 rule 4), substituted blanks are replayed (seed-002 Blank Substitution).
 */
const rackAfterPlay = (s: GameState, e: EventOf<'play'>): Result<RackState> => {
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
  return ok({ tiles: rest, hidden: rack.hidden });
};

/**
 * A play: tiles onto the board, its score added, the turn passes, and the play stays pending until
 * the opponent's next turn starts so it can be challenged (seed-001 §8). A play that empties the rack
 * with the bag empty waits for a final pass or challenge (seed-003 rule 12a, seed-001 §9).
 */
export const foldPlay: EventHandler<'play'> = (s, e) => {
  const on = mustBeOnTurn(s, e.seat, 'a play');
  if (!on.ok) return on;
  if (s.status !== 'playing') return violation('GAME_ENDING', GAME_ENDING, { seat: e.seat }, cite('seed-001', '§9'));
  const newRack = rackAfterPlay(s, e);
  if (!newRack.ok) return newRack;
  const scores = setAt(s.scores, e.seat, s.scores[e.seat] + e.score);
  const wentOut = newRack.value.tiles.length + newRack.value.hidden === 0 && bagCount(s) === 0;
  return ok({
    ...s,
    board: withTiles(s.board, e.placements),
    racks: setAt(s.racks, e.seat, newRack.value),
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
};

/**
 * Where an exchange's tiles go: face down on the table when the log knows them (seed-001 §6: they
 * return to the bag after the draw), or, when only their count is known, the whole rack goes unseen.
 */
const exchangedTiles = (s: GameState, e: EventOf<'exchange'>): Result<Pick<GameState, 'racks' | 'bag' | 'aside'>> => {
  const rack = s.racks[e.seat];
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
    return ok({
      racks: setAt(s.racks, e.seat, { ...rack, tiles: rest }),
      bag: s.bag,
      aside: e.tiles.length ? { seat: e.seat, tiles: e.tiles } : null,
    });
  }
  // Only the count is known (`-3`): which tiles stayed is unknown, so the whole rack becomes unseen.
  if (e.count > rack.tiles.length + rack.hidden)
    return violation(
      'TILES_NOT_IN_RACK',
      `${seatName(s, e.seat)} cannot exchange ${e.count} tiles from a rack of ${rack.tiles.length + rack.hidden}.`,
      {
        seat: e.seat,
        count: e.count,
      },
    );
  return ok({
    racks: setAt(s.racks, e.seat, { tiles: [], hidden: rack.tiles.length + rack.hidden }),
    bag: withAdded(s.distribution, s.bag, rack.tiles),
    aside: s.aside,
  });
};

/** An exchange (seed-003 rule 11): a scoreless turn that counts toward the exchange limit (rule 12b). */
export const foldExchange: EventHandler<'exchange'> = (s, e) => {
  const on = mustBeOnTurn(s, e.seat, 'an exchange');
  if (!on.ok) return on;
  if (s.status !== 'playing') return violation('GAME_ENDING', GAME_ENDING, { seat: e.seat });
  const moved = exchangedTiles(s, e);
  if (!moved.ok) return moved;
  return ok({
    ...s,
    ...moved.value,
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
      s.scores,
    ),
  });
};

/**
 * A pass: the turn passes and the pending play can no longer be challenged. The final pass after an
 * out play (seed-001 §9) does not count as a scoreless turn: it ends the game instead.
 */
export const foldPass: EventHandler<'pass'> = (s, e) => {
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
};

/** seed-002 Blank Substitution: the mover gives the letter a blank stands for and takes the blank. */
export const foldBlankSubstituted: EventHandler<'blank-substituted'> = (s, e) => {
  const on = mustBeOnTurn(s, e.seat, 'a blank substitution');
  if (!on.ok) return on;
  const rule = cite('seed-002', 'Blank Substitution', 'Seed');
  const t = tileAt(s.board, e.row, e.col);
  const sq = formatSquare({ row: e.row, col: e.col });
  if (!t || !t.blank || t.letter !== e.letter) {
    return violation('NOT_A_BLANK', `${sq} does not hold a blank played as ${e.letter}.`, { square: sq, letter: e.letter }, rule);
  }
  const rack = s.racks[e.seat];
  const rest = without(rack.tiles, [e.letter]);
  if (rest === null)
    return violation(
      'TILES_NOT_IN_RACK',
      `${seatName(s, e.seat)}'s rack ${joinTiles(rack.tiles)} has no ${e.letter} to give for the blank on ${sq}.`,
      { square: sq, letter: e.letter },
      rule,
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
};

/** seed-002 Free Trades: one announcement per turn; the tiles move in the events that follow it. */
export const foldFreeTrade: EventHandler<'free-trade'> = (s, e) => {
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
};
