import type { RuleSet } from '../rules/ruleset.js';
import { DISTRIBUTIONS, totalTiles } from '../tiles.js';
import type { MissingTile, OutOfOrderDraw, Overdraw, Party, SpilledTiles, TilesFound, Underdraw } from './dispute.js';
import { citeParams, mergeCitations, noRule, onlineNoRule, plural, ruling, type Effect, type Ruling } from './ruling.js';
import { correctable } from './scoring.js';

/**
 * The overdraw procedure for X tiles too many (WESPA 3.9.5; NSA ref. B5.1): if no new tile touched the
 * rack only the `drawn` new tiles are in play and the opponent turns up X + extra of them (all of them when
 * that is fewer, as when the player held one short of a full rack); otherwise the whole rack is mixed and
 * X + extra are turned up. The opponent returns X of the face-up tiles to the bag.
 */
export const overdrawEffects = (
  rs: RuleSet,
  overdrawn: number,
  drawn: number,
  touchedRack: boolean,
): { effects: Effect[]; summary: string } => {
  const wanted = overdrawn + rs.drawing.overdrawExtraTiles;
  const shown = touchedRack ? wanted : Math.min(wanted, drawn);
  const pool = touchedRack ? "all the player's tiles, mixed face down" : 'the newly drawn tiles, face down';
  return {
    effects: [
      { type: 'tiles-shown', to: 'both', tiles: `${shown} of ${pool}, turned up by the opponent`, count: shown },
      {
        type: 'opponent-chooses',
        chooser: 'opponent',
        from: `the ${shown} face-up tiles`,
        count: overdrawn,
        purpose: 'return-to-bag',
        withinSeconds: null,
      },
      { type: 'tiles-returned-to-bag', tiles: 'the tiles the opponent chose', count: overdrawn },
    ],
    summary: `the opponent turns up ${shown} tiles from ${pool}, returns ${overdrawn} of them to the bag, and the player keeps the rest.`,
  };
};

/** Too many tiles drawn: `drawing.overdraw` (WESPA 3.9.5; NSA ref. B5.1). */
export const adjudicateOverdraw = (d: Overdraw, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'an overdraw');
  if (online) return online;
  if (rs.drawing.overdraw === 'none') return noRule(`${rs.name} has no overdraw procedure.`, citeParams(rs, 'drawing.overdraw'));
  const x = d.tilesOnRack + d.drawn - d.rackSize;
  const od = overdrawEffects(rs, x, d.drawn, d.touchedRack);
  return ruling(
    'OVERDRAW_PROCEDURE',
    od.effects,
    citeParams(rs, 'drawing.overdraw', 'drawing.overdrawExtraTiles'),
    `The player has ${plural(x, 'tile')} too many, so ${od.summary}`,
  );
};

/** Too few tiles drawn late in the game: `drawing.underdraw` (WESPA 3.9.8). */
export const adjudicateUnderdraw = (d: Underdraw, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'an underdraw');
  if (online) return online;
  const cites = citeParams(rs, 'drawing.underdraw');
  if (rs.drawing.underdraw === 'none') return noRule(`${rs.name} has no rule for a late-game underdraw.`, cites);
  return d.discovered === 'before-next-turn-completed'
    ? ruling(
        'OPPONENT_GIVES_TILES',
        [
          {
            type: 'opponent-chooses',
            chooser: 'opponent',
            from: "the opponent's own rack",
            count: d.missing,
            purpose: 'give-to-player',
            withinSeconds: null,
          },
        ],
        cites,
        `The underdraw was found before the player finished their next turn, so the opponent gives the player ${plural(d.missing, 'tile')} of the opponent's choosing from the opponent's own rack.`,
      )
    : ruling(
        'NO_CORRECTION',
        [],
        cites,
        'The underdraw was found only after the player finished their next turn, so there is no correction and no penalty.',
      );
};

/** Drawing out of order: `drawing.outOfOrder` (WESPA 3.9.9). */
export const adjudicateOutOfOrderDraw = (d: OutOfOrderDraw, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'drawing out of order');
  if (online) return online;
  const cites = citeParams(rs, 'drawing.outOfOrder');
  if (rs.drawing.outOfOrder === 'none') return noRule(`${rs.name} has no rule for drawing out of order.`, cites);
  const tiles = `the ${plural(d.drawnTiles, 'tile')} drawn out of order`;
  if (d.opponentLeftShort) {
    // WESPA 3.9.9: every tile drawn out of order counts as overdrawn.
    const od = overdrawEffects(rs, d.drawnTiles, d.drawnTiles, d.touchedRack);
    return ruling(
      'OVERDRAW_PROCEDURE',
      [...od.effects, { type: 'tiles-drawn', party: 'opponent', count: null }, { type: 'tiles-drawn', party: 'player', count: null }],
      citeParams(rs, 'drawing.outOfOrder', 'drawing.overdraw', 'drawing.overdrawExtraTiles'),
      `Drawing out of order left the opponent short, so ${tiles} count as overdrawn: ${od.summary} The opponent then completes their draw and the player gets what is left in the bag.`,
    );
  }
  return d.touchedRack
    ? ruling('NO_PENALTY', [], cites, `The opponent is not left short and ${tiles} have touched the rack, so there is no penalty.`)
    : ruling(
        'TILES_SHOWN_AND_RETURNED',
        [
          { type: 'tiles-shown', to: 'both', tiles, count: d.drawnTiles },
          { type: 'tiles-returned-to-bag', tiles, count: d.drawnTiles },
        ],
        cites,
        `The opponent is not left short and ${tiles} have not touched the rack, so they are shown and returned, and the draw follows the correct order.`,
      );
};

/**
 * Tiles exposed with few left in the bag (fewer than `drawing.exposedTilesLateGameBelow`): `drawing.exposedTilesLateGame`.
 * WESPA 4.4: the rack goes face down and is shuffled, the opponent turns up 2, gives the player any 2 of the face-up
 * tiles and the rest go into the bag. NASPA refers the case to IV.B.8, whose text was not read: no rule.
 */
const exposedLateGame = (d: SpilledTiles, rs: RuleSet): Ruling => {
  const cites = citeParams(rs, 'drawing.exposedTilesLateGame', 'drawing.exposedTilesLateGameBelow');
  const below = rs.drawing.exposedTilesLateGameBelow;
  if (rs.drawing.exposedTilesLateGame === 'none')
    return noRule(`${rs.name} has no known rule for tiles exposed with fewer than ${below} in the bag (${d.bagCount} here).`, cites);
  const n = d.exposed;
  return ruling(
    'OPPONENT_CHOOSES_TILES',
    [
      {
        type: 'tiles-shown',
        to: 'both',
        tiles: `the ${plural(n, 'exposed tile')} and 2 tiles the opponent turns up from the player's rack, shuffled face down`,
        count: n + 2,
      },
      {
        type: 'opponent-chooses',
        chooser: 'opponent',
        from: 'those face-up tiles',
        count: 2,
        purpose: 'give-to-player',
        withinSeconds: null,
      },
      { type: 'tiles-returned-to-bag', tiles: 'the other face-up tiles', count: n },
    ],
    cites,
    `With fewer than ${below} in the bag the player's rack goes face down and is shuffled, the opponent turns up 2 of its tiles, gives the player any 2 of the face-up tiles, and the other ${n} go into the bag.`,
  );
};

/** Tiles spilled or exposed: `drawing.exposedTiles` (WESPA 4.4; NASPA 2015 IV.B.3), late in the game `drawing.exposedTilesLateGame`. */
export const adjudicateSpilledTiles = (d: SpilledTiles, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'spilled or exposed tiles');
  if (online) return online;
  const rule = rs.drawing.exposedTiles;
  const cites = citeParams(rs, 'drawing.exposedTiles');
  if (rule === 'none') return noRule(`${rs.name} has no rule for spilled or exposed tiles.`, cites);
  const exposed = `the ${plural(d.exposed, 'exposed tile')}`;
  if (d.moment === 'during-draw') {
    return ruling(
      'TILES_COUNT_AS_DRAWN',
      [],
      mergeCitations(cites, citeParams(rs, 'drawing.overdraw')),
      `Tiles spilled during the player's own draw are part of that draw; if the player then holds more than a full rack, the overdraw procedure applies to the tiles beyond it.`,
    );
  }
  if (rule === 'wespa-4.4' && d.moment === 'just-after-draw') {
    const od = overdrawEffects(rs, d.exposed, d.exposed, true);
    return ruling(
      'OVERDRAW_PROCEDURE',
      [...od.effects, { type: 'tiles-drawn', party: 'player', count: d.exposed }],
      mergeCitations(cites, citeParams(rs, 'drawing.overdraw', 'drawing.overdrawExtraTiles')),
      `Tiles spilled just after the rack was filled: the opponent may ask for the mixed-rack overdraw procedure, counting ${exposed} as overdrawn (${od.summary.replace(/\.$/, '')}, and the player draws back to a full rack), or decline it.`,
    );
  }
  if (d.bagCount < rs.drawing.exposedTilesLateGameBelow) return exposedLateGame(d, rs);
  const lateCites = mergeCitations(cites, citeParams(rs, 'drawing.exposedTilesLateGameBelow'));
  return rule === 'naspa-loose-tiles'
    ? ruling(
        'TILES_SHOWN_AND_RETURNED',
        [
          { type: 'tiles-shown', to: 'both', tiles: exposed, count: d.exposed },
          { type: 'tiles-returned-to-bag', tiles: exposed, count: d.exposed },
        ],
        lateCites,
        `With more than 7 tiles in the bag, stray tiles are shown and returned; late in the game the director may apply a penalty.`,
      )
    : ruling(
        'NO_PENALTY',
        [],
        lateCites,
        `Tiles spilled away from any draw with ${d.bagCount} in the bag cost nothing, unless the director, on petition, applies at most the mixed-rack overdraw procedure.`,
      );
};

/** A tile not found after a search: `drawing.missingTile` (WESPA 4.6). */
export const adjudicateMissingTile = (d: MissingTile, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'a missing tile');
  if (online) return online;
  const cites = citeParams(rs, 'drawing.missingTile');
  if (rs.drawing.missingTile === 'none') return noRule(`${rs.name} has no rule for a missing tile.`, cites);
  const dist = DISTRIBUTIONS[rs.board.distribution];
  if (!dist) throw new Error(`rule set ${rs.id} names unknown distribution ${rs.board.distribution}`);
  const total = totalTiles(dist) - d.missing;
  return ruling(
    'GAME_CONTINUES',
    [{ type: 'tiles-in-game', total }],
    cites,
    `Once the director has confirmed the search failed, play continues as if the ${plural(d.missing, 'missing tile')} had never been in the bag: the game has ${total} tiles.`,
  );
};

/**
 * Tiles found outside or in the bag after the game seemed over: `end.tilesFoundAfterEnd` (WESPA 4.3, 4.5).
 * Players short of a full rack draw them, whoever should have drawn earliest first; play resumes if both then
 * hold tiles, otherwise the result is recalculated. Moves are never replayed, and a signed slip is final (5.4.1).
 */
export const adjudicateTilesFound = (d: TilesFound, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'stray tiles');
  if (online) return online;
  const cites = citeParams(rs, 'end.tilesFoundAfterEnd');
  if (rs.end.tilesFoundAfterEnd === 'none') return noRule(`${rs.name} has no rule for tiles found after the game ended.`, cites);
  if (!correctable(rs, d.slip)) {
    return ruling(
      'RESULT_STANDS',
      [{ type: 'result-slip', action: 'stands' }],
      mergeCitations(cites, citeParams(rs, 'tournament.resultSlip')),
      'The result slip has been signed, and a signed slip is final, so the result stands.',
    );
  }
  const racks = { ...d.racks };
  let left = d.found;
  const effects: Effect[] =
    d.where === 'outside-bag'
      ? [
          { type: 'tiles-shown', to: 'both', tiles: 'the tiles found outside the bag', count: d.found },
          { type: 'tiles-returned-to-bag', tiles: 'the tiles found outside the bag', count: d.found },
        ]
      : [];
  const other: Party = d.shouldHaveDrawnEarliest === 'player' ? 'opponent' : 'player';
  for (const party of [d.shouldHaveDrawnEarliest, other]) {
    const n = Math.min(left, d.rackSize - racks[party]);
    if (n > 0) {
      effects.push({ type: 'tiles-drawn', party, count: n });
      racks[party] += n;
      left -= n;
    }
  }
  const drawn = `The ${plural(d.found, 'tile')} found go to whoever is short of a full rack, the ${d.shouldHaveDrawnEarliest} (who should have drawn earliest) first`;
  return racks.player > 0 && racks.opponent > 0
    ? ruling(
        'GAME_CONTINUES',
        effects,
        cites,
        `${drawn}; both players now hold tiles, so play resumes. Moves already made are never replayed.`,
      )
    : ruling(
        'RESULT_RECALCULATED',
        [...effects, { type: 'game-ends', reason: 'result recalculated with the racks as they now stand' }],
        cites,
        `${drawn}; only one player holds tiles, so the game is over and the result is recalculated with the racks as they now stand. Moves are never replayed.`,
      );
};
