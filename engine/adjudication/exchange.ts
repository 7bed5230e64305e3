import type { IllegalExchangeProcedure, RuleSet } from '../rules/ruleset.js';
import type {
  ExchangeCountMismatch,
  ExchangeEarlyReturn,
  ExchangeTilesNotBagged,
  ExchangeUnspecified,
  IllegalExchange,
  IllegalExchangeStage,
} from './dispute.js';
import { citeParams, noRule, onlineNoRule, plural, ruling, type Ruling } from './ruling.js';

/** An illegal exchange noticed before the opponent's turn: the stage decides the remedy. */
type CaughtInTime = IllegalExchange & { readonly stage: Exclude<IllegalExchangeStage, 'after-opponent-turn'> };

/**
 * seed-000 "Penalties", by how far the exchange got: a pass; the new tiles shown and returned;
 * the opponent chooses from the new tiles, the bag and two kept tiles within the time; the opponent
 * sees the exchanged tiles plus two and chooses which the player keeps.
 */
const seed000Remedy = (d: CaughtInTime, rs: RuleSet): Ruling => {
  const cites = citeParams(rs, 'exchange.illegalExchangeProcedure');
  const seconds = rs.exchange.opponentChoiceSeconds;
  const count = Math.min(d.exchangedCount + 2, d.rackSize);
  switch (d.stage) {
    case 'announced':
      return ruling(
        'TURN_IS_PASS',
        [{ type: 'turn-becomes-pass', party: 'player' }],
        cites,
        'The exchange was stopped before any tile changed hands, so the turn is a pass.',
      );
    case 'drawn-not-racked':
      return ruling(
        'TILES_SHOWN_AND_RETURNED',
        [
          { type: 'tiles-shown', to: 'both', tiles: 'the newly drawn tiles', count: d.exchangedCount },
          { type: 'tiles-returned-to-bag', tiles: 'the newly drawn tiles', count: d.exchangedCount },
          { type: 'turn-becomes-pass', party: 'player' },
        ],
        cites,
        'Everyone sees the new tiles, they go back into the bag, and the turn is a pass.',
      );
    case 'old-returned-new-not-racked':
      return ruling(
        'OPPONENT_CHOOSES_TILES',
        [
          {
            type: 'opponent-chooses',
            chooser: 'opponent',
            from: 'the new tiles, all tiles in the bag and any two tiles the player kept',
            count,
            purpose: 'give-to-player',
            withinSeconds: seconds,
          },
          { type: 'tiles-returned-to-bag', tiles: 'the tiles the opponent does not choose', count: null },
        ],
        citeParams(rs, 'exchange.illegalExchangeProcedure', 'exchange.opponentChoiceSeconds'),
        `The opponent looks at the new tiles, all tiles in the bag and any two tiles the player kept, and within ${seconds} seconds chooses the ${count} tiles to give the player; the rest go back into the bag.`,
      );
    case 'racking-started':
      return ruling(
        'OPPONENT_CHOOSES_TILES',
        [
          { type: 'tiles-shown', to: 'opponent', tiles: `${count} tiles from the player's rack`, count },
          {
            type: 'opponent-chooses',
            chooser: 'opponent',
            from: `those ${count} tiles and the tiles in the bag`,
            count,
            purpose: 'keep-on-player-rack',
            withinSeconds: null,
          },
        ],
        cites,
        `The opponent looks at ${count} tiles from the player's rack (the ${plural(d.exchangedCount, 'tile')} exchanged plus two, up to ${d.rackSize}) and, from those ${count} and the tiles in the bag, chooses which ${count} the player keeps.`,
      );
  }
};

/**
 * WESPA 3.10.15(i)(ii)–(v), by how far the exchange got: while no new tile is on the rack and no
 * old one in the bag, undo it and pass; otherwise the opponent fills or chooses the player's rack.
 */
const wespaRemedy = (d: CaughtInTime, rs: RuleSet): Ruling => {
  const seconds = rs.exchange.opponentChoiceSeconds;
  const timed = citeParams(rs, 'exchange.illegalExchangeProcedure', 'exchange.opponentChoiceSeconds');
  switch (d.stage) {
    case 'announced':
    case 'drawn-not-racked':
      return ruling(
        'TURN_IS_PASS',
        [
          ...(d.stage === 'drawn-not-racked'
            ? ([
                { type: 'tiles-shown', to: 'both', tiles: 'the newly drawn tiles', count: d.exchangedCount },
                { type: 'tiles-returned-to-bag', tiles: 'the newly drawn tiles', count: d.exchangedCount },
              ] as const)
            : []),
          { type: 'tiles-returned-to-rack', party: 'player', tiles: 'the tiles set aside to exchange' },
          { type: 'turn-becomes-pass', party: 'player' },
        ],
        citeParams(rs, 'exchange.illegalExchangeProcedure'),
        'No new tile has reached the rack and no old tile is in the bag, so the new tiles (if any) are shown and returned, the old tiles go back on the rack, and the turn is a pass.',
      );
    case 'old-returned-new-not-racked':
      return ruling(
        'OPPONENT_CHOOSES_TILES',
        [
          { type: 'tiles-returned-to-rack', party: 'player', tiles: 'the old tiles still on the table' },
          { type: 'tiles-shown', to: 'opponent', tiles: 'all the new tiles and all the tiles in the bag', count: null },
          {
            type: 'opponent-chooses',
            chooser: 'opponent',
            from: 'the new tiles and the tiles in the bag',
            count: null,
            purpose: 'give-to-player',
            withinSeconds: seconds,
          },
          { type: 'turn-becomes-pass', party: 'player' },
        ],
        timed,
        `Old tiles are already in the bag, so the opponent sees the new tiles and the whole bag and within ${seconds} seconds fills the player's rack with tiles of the opponent's choosing; the turn is a pass.`,
      );
    case 'racking-started': {
      const from = d.oldTilesInBag ? "the player's rack, the bag and the set-aside tiles" : "the player's rack and the set-aside tiles";
      return ruling(
        'OPPONENT_CHOOSES_TILES',
        [
          { type: 'tiles-shown', to: 'opponent', tiles: from, count: null },
          {
            type: 'opponent-chooses',
            chooser: 'opponent',
            from,
            count: d.rackSize,
            purpose: 'keep-on-player-rack',
            withinSeconds: seconds,
          },
          { type: 'turn-becomes-pass', party: 'player' },
        ],
        timed,
        `A new tile has reached the rack, so the opponent sees ${from} and within ${seconds} seconds chooses the ${d.rackSize} tiles the player keeps; the turn is a pass.`,
      );
    }
  }
};

/** The remedy of each procedure that has one (`exchange.illegalExchangeProcedure`). */
const ILLEGAL_EXCHANGE_REMEDIES: Readonly<Record<Exclude<IllegalExchangeProcedure, 'none'>, (d: CaughtInTime, rs: RuleSet) => Ruling>> = {
  'seed-000': seed000Remedy,
  'wespa-3.10.15': wespaRemedy,
};

const isCaughtInTime = (d: IllegalExchange): d is CaughtInTime => d.stage !== 'after-opponent-turn';

/**
 * Exchange with too few tiles in the bag. The stage procedure is `exchange.illegalExchangeProcedure`:
 * seed-000 "Penalties" (pass; show and return; opponent chooses from new + bag + two kept within 60 s;
 * opponent sees exchanged + 2 and chooses; −30) or WESPA 3.10.15(i) (pass; opponent fills the rack;
 * opponent chooses 7; −30).
 */
export const adjudicateIllegalExchange = (d: IllegalExchange, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'an exchange with too few tiles in the bag');
  if (online) return online;
  const ex = rs.exchange;
  const legal = d.bagCount >= ex.minBag && (!ex.maxIsBagCount || d.exchangedCount <= d.bagCount);
  if (legal) {
    return ruling(
      'NO_PENALTY',
      [],
      citeParams(rs, 'exchange.minBag', 'exchange.maxIsBagCount'),
      `Under ${rs.name} an exchange needs ${ex.minBag === 0 ? 'no minimum in the bag' : `${ex.minBag} tiles in the bag`}${ex.maxIsBagCount ? ' and at most as many tiles as the bag holds' : ''}, so exchanging ${d.exchangedCount} with ${d.bagCount} in the bag was legal.`,
    );
  }
  const procedure = ex.illegalExchangeProcedure;
  if (procedure === 'none') {
    return ruling(
      'NO_REMEDY_STATED',
      [],
      citeParams(rs, 'exchange.minBag', 'exchange.maxIsBagCount', 'exchange.illegalExchangeProcedure'),
      `${rs.name} forbids exchanging ${d.exchangedCount} with ${d.bagCount} in the bag but gives no remedy for an exchange that has been made.`,
    );
  }
  if (!isCaughtInTime(d)) {
    return ruling(
      'SCORE_PENALTY',
      [{ type: 'score-delta', party: 'player', points: -ex.lateDiscoveryPenalty }],
      citeParams(rs, 'exchange.illegalExchangeProcedure', 'exchange.lateDiscoveryPenalty'),
      `The illegal exchange was noticed only after the opponent's turn, so the exchange stands and the exchanger loses ${ex.lateDiscoveryPenalty} points.`,
    );
  }
  return ILLEGAL_EXCHANGE_REMEDIES[procedure](d, rs);
};

/** Announced count differs from the tiles face down: `exchange.countMismatch` (seed-000 "Disputes"; WESPA 3.10.15(e); seed-003 rule 11). */
export const adjudicateExchangeCountMismatch = (d: ExchangeCountMismatch, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'a miscounted exchange');
  if (online) return online;
  if (rs.exchange.countMismatch === 'none') {
    return noRule(
      `${rs.name} has no rule for an announced exchange count that differs from the tiles placed face down.`,
      citeParams(rs, 'exchange.countMismatch'),
    );
  }
  if (d.placedFaceDown === 0 && d.announced === d.rackSize && rs.exchange.allTilesMayStayOnRack) {
    return ruling(
      'ALL_TILES_EXCHANGED',
      [{ type: 'tiles-exchanged', party: 'player', count: d.rackSize }],
      citeParams(rs, 'exchange.allTilesMayStayOnRack'),
      `A player exchanging all ${d.rackSize} tiles may leave them on the rack, so all ${d.rackSize} are exchanged.`,
    );
  }
  if (d.placedFaceDown === 0 && !rs.exchange.allowEmpty) {
    return ruling(
      'TURN_IS_PASS',
      [{ type: 'turn-becomes-pass', party: 'player' }],
      citeParams(rs, 'exchange.countMismatch', 'exchange.allowEmpty'),
      `The number of tiles placed face down is what is exchanged, and no tile was placed, so nothing is exchanged and the turn is a pass.`,
    );
  }
  return ruling(
    'FACE_DOWN_COUNT_EXCHANGED',
    [{ type: 'tiles-exchanged', party: 'player', count: d.placedFaceDown }],
    citeParams(rs, 'exchange.countMismatch'),
    `The number of tiles placed face down is what is exchanged: the player announced ${d.announced} but placed ${d.placedFaceDown}, so only those ${d.placedFaceDown} are exchanged.`,
  );
};

/** Exchange announced with no count and no tiles: `exchange.unspecifiedExchange` (seed-000 "Penalties"; WESPA 3.10.15(b); seed-003 rule 11). */
export const adjudicateExchangeUnspecified = (_d: ExchangeUnspecified, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'an exchange with no count and no tiles');
  if (online) return online;
  const cites = citeParams(rs, 'exchange.unspecifiedExchange');
  switch (rs.exchange.unspecifiedExchange) {
    case 'none':
      return noRule(`${rs.name} has no rule for an exchange announced with no count and no tiles face down.`, cites);
    case 'turn-lost':
      return ruling(
        'TURN_LOST',
        [{ type: 'turn-becomes-pass', party: 'player' }],
        cites,
        'The player announced an exchange but gave no count and placed no tiles, so the player loses the turn and may not exchange.',
      );
    case 'pass':
      return ruling(
        'TURN_IS_PASS',
        [{ type: 'turn-becomes-pass', party: 'player' }],
        cites,
        'An exchange announced with no count and no tiles face down when the clock was pressed counts as a pass.',
      );
    case 'zero-tile-exchange':
      return ruling(
        'ZERO_TILE_EXCHANGE',
        [{ type: 'tiles-exchanged', party: 'player', count: 0 }],
        citeParams(rs, 'exchange.unspecifiedExchange', 'exchange.allowEmpty'),
        'Exchanging none of the tiles is a legal turn here, so the turn stands as an exchange of zero tiles (it counts toward the exchanges that end the game).',
      );
  }
};

/** Old tiles bagged before drawing: `exchange.earlyReturn` (seed-000 "Disputes"; WESPA 3.10.15(c)). */
export const adjudicateExchangeEarlyReturn = (d: ExchangeEarlyReturn, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'returning exchanged tiles early');
  if (online) return online;
  const cites = citeParams(rs, 'exchange.earlyReturn');
  switch (rs.exchange.earlyReturn) {
    case 'none':
      return noRule(`${rs.name} has no rule for putting the old tiles in the bag before drawing the new ones.`, cites);
    case 'no-penalty':
      return ruling('NO_PENALTY', [], cites, 'Putting the old tiles into the bag before drawing the new ones carries no penalty.');
    case 'no-penalty-no-redraw':
      return ruling(
        'NO_PENALTY',
        [],
        cites,
        d.drewSameTiles
          ? 'Returning the old tiles first is not penalised, but the player does not get to draw again for having drawn some of the same tiles back.'
          : 'Putting the old tiles into the bag before drawing the new ones is not penalised.',
      );
  }
};

/** Face-down exchange tiles never bagged: `exchange.unbaggedTiles` (WESPA 3.10.15(d)). */
export const adjudicateExchangeTilesNotBagged = (d: ExchangeTilesNotBagged, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'exchanged tiles left out of the bag');
  if (online) return online;
  const cites = citeParams(rs, 'exchange.unbaggedTiles');
  if (rs.exchange.unbaggedTiles === 'none') return noRule(`${rs.name} has no rule for exchanged tiles left out of the bag.`, cites);
  const tiles = `the ${plural(d.tiles, 'tile')} set aside to exchange`;
  return d.drawnSince
    ? ruling(
        'TILES_SHOWN_AND_RETURNED',
        [
          { type: 'tiles-shown', to: 'both', tiles, count: d.tiles },
          { type: 'tiles-returned-to-bag', tiles, count: d.tiles },
        ],
        cites,
        `A player has drawn since the exchange, so both players see ${tiles} and then they go into the bag.`,
      )
    : ruling(
        'NO_PENALTY',
        [{ type: 'tiles-returned-to-bag', tiles, count: d.tiles }],
        cites,
        `Nobody has drawn since the exchange, so ${tiles} simply go into the bag to complete it; the rule asks for them to be shown only once someone has drawn.`,
      );
};
