import type { RuleSet } from '../rules/ruleset.js';
import type { Overdraw, Underdraw } from './dispute.js';
import { citeParams, notApplicable, onlineNotApplicable, plural, ruling, type Effect, type Ruling } from './ruling.js';

/**
 * The overdraw procedure for X tiles too many (WESPA 3.9.5; NSA ref. B5.1): if no new tile touched the
 * rack only the `drawn` new tiles are in play and the opponent turns up X + extra of them (all of them when
 * that is fewer, as when the player held one short of a full rack); otherwise the whole rack is mixed and
 * X + extra are turned up. The opponent returns X of the face-up tiles to the bag.
 */
export const overdrawEffects = (rs: RuleSet, overdrawn: number, drawn: number, touchedRack: boolean): { effects: Effect[]; summary: string } => {
  const wanted = overdrawn + rs.drawing.overdrawExtraTiles;
  const shown = touchedRack ? wanted : Math.min(wanted, drawn);
  const pool = touchedRack ? "all the player's tiles, mixed face down" : 'the newly drawn tiles, face down';
  return {
    effects: [
      { type: 'tiles-shown', to: 'both', tiles: `${shown} of ${pool}, turned up by the opponent`, count: shown },
      { type: 'opponent-chooses', chooser: 'opponent', from: `the ${shown} face-up tiles`, count: overdrawn, purpose: 'return-to-bag', withinSeconds: null },
      { type: 'tiles-returned-to-bag', tiles: 'the tiles the opponent chose', count: overdrawn },
    ],
    summary: `the opponent turns up ${shown} tiles from ${pool}, returns ${overdrawn} of them to the bag, and the player keeps the rest.`,
  };
};

/** Too many tiles drawn: `drawing.overdraw` (WESPA 3.9.5; NSA ref. B5.1). */
export const adjudicateOverdraw = (d: Overdraw, rs: RuleSet): Ruling => {
  const online = onlineNotApplicable(rs, 'an overdraw');
  if (online) return online;
  if (rs.drawing.overdraw === 'none') return notApplicable(`${rs.name} has no overdraw procedure.`, citeParams(rs, 'drawing.overdraw'));
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
  const online = onlineNotApplicable(rs, 'an underdraw');
  if (online) return online;
  const cites = citeParams(rs, 'drawing.underdraw');
  if (rs.drawing.underdraw === 'none') return notApplicable(`${rs.name} has no rule for a late-game underdraw.`, cites);
  return d.discovered === 'before-next-turn-completed'
    ? ruling(
        'OPPONENT_GIVES_TILES',
        [{ type: 'opponent-chooses', chooser: 'opponent', from: "the opponent's own rack", count: d.missing, purpose: 'give-to-player', withinSeconds: null }],
        cites,
        `The underdraw was found before the player finished their next turn, so the opponent gives the player ${plural(d.missing, 'tile')} of the opponent's choosing from the opponent's own rack.`,
      )
    : ruling('NO_CORRECTION', [], cites, 'The underdraw was found only after the player finished their next turn, so there is no correction and no penalty.');
};
