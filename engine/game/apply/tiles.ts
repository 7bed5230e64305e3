import { cite } from '../../errors.js';
import { ok } from '../../result.js';
import { joinTiles } from '../../tiles.js';
import { other, type Seat } from '../events.js';
import { missingFrom, withAdded, without } from '../multiset.js';
import { bagCount, type GameState } from '../state.js';
import { seatName, setAt, violation, type EventHandler } from './common.js';

/**
 * Fold handlers for tiles moving between the bag, the racks and the table (draws, revealed racks,
 * tiles face down during an exchange or a free trade). None of them passes the turn.
 */

/** Tiles drawn from the bag onto a rack, never past the rack size (seed-003 rule 4). */
export const foldTilesDrawn: EventHandler<'tiles-drawn'> = (s, e) => {
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
  // Tiles drawn after a play go back to the bag if the play is challenged off (seed-001 §2).
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
};

/** An imported record shows a rack: it replaces what the log knew of that rack. */
export const foldRackRevealed: EventHandler<'rack-revealed'> = (s, e) => {
  if (s.bagKind !== 'imported')
    return violation('NOT_IMPORTED', 'Racks are revealed only in imported games; a seeded game knows every draw.');
  const dist = s.distribution;
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
};

/** Tiles put face down on the table (an exchange, a free trade, seed-002); one player's at a time. */
export const foldTilesSetAside: EventHandler<'tiles-set-aside'> = (s, e) => {
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
};

const notAside = (s: GameState, seat: Seat, tiles: readonly string[]) =>
  violation(
    'TILES_NOT_ASIDE',
    `${joinTiles(tiles)} ${tiles.length === 1 ? 'is' : 'are'} not face down on the table for ${seatName(s, seat)}.`,
    { seat, tiles },
  );

/** Tiles set aside go back to their owner's rack (a free trade that keeps the original tile). */
export const foldTilesTakenBack: EventHandler<'tiles-taken-back'> = (s, e) => {
  const rest = s.aside && s.aside.seat === e.seat ? without(s.aside.tiles, e.tiles) : null;
  if (rest === null) return notAside(s, e.seat, e.tiles);
  const rack = s.racks[e.seat];
  return ok({
    ...s,
    aside: rest.length ? { seat: e.seat, tiles: rest } : null,
    racks: setAt(s.racks, e.seat, { ...rack, tiles: [...rack.tiles, ...e.tiles] }),
  });
};

/** Tiles go back into the bag, from the table (after an exchange's draw, seed-001 §6) or from a rack. */
export const foldTilesReturned: EventHandler<'tiles-returned'> = (s, e) => {
  const hidden = e.hidden ?? 0;
  const rack = s.racks[e.seat];
  if (e.from === 'aside') {
    const rest = s.aside && s.aside.seat === e.seat ? without(s.aside.tiles, e.tiles) : null;
    if (rest === null || hidden > 0) return notAside(s, e.seat, e.tiles);
    return ok({ ...s, aside: rest.length ? { seat: e.seat, tiles: rest } : null, bag: withAdded(s.distribution, s.bag, e.tiles) });
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
    bag: withAdded(s.distribution, s.bag, e.tiles),
  });
};
