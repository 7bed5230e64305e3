import { checkTradePlan, freeTradeOptions } from '../game/free-trade.js';
import type { RuleSet } from '../rules/ruleset.js';
import { DISTRIBUTIONS, joinTiles, type Distribution } from '../tiles.js';
import type { BlankSubstitution, FreeTrade } from './dispute.js';
import { citeParams, ruling, type Effect, type Ruling } from './ruling.js';

const distributionOf = (rs: RuleSet): Distribution => {
  const dist = DISTRIBUTIONS[rs.board.distribution];
  if (!dist) throw new Error(`rule set ${rs.id} names unknown distribution ${rs.board.distribution}`);
  return dist;
};

/** Swapping a rack tile for a blank on the board: `house.blankSubstitution` (seed-002 Blank Substitution; WESPA Appendix 1, 3.6.1 forbid it). */
export const adjudicateBlankSubstitution = (d: BlankSubstitution, rs: RuleSet): Ruling => {
  const cites = citeParams(rs, 'house.blankSubstitution');
  const refuse = (why: string): Ruling => ruling('SUBSTITUTION_REFUSED', [], cites, why);
  if (!rs.house.blankSubstitution)
    return refuse(
      'A tile on the board may not be moved or taken back except when a challenge takes the play off, so a blank cannot be swapped for a rack tile.',
    );
  if (d.tileGiven !== d.blankLetter)
    return refuse(`The blank stands for ${d.blankLetter}; only a ${d.blankLetter} may be given for it, not a ${d.tileGiven}.`);
  if (!d.atStartOfTurn) return refuse('A blank may be substituted only at the beginning of the turn.');
  if (!d.blankReplayed)
    return refuse('A substituted blank must be played again in the same turn, and it was not, so the substitution is undone.');
  return ruling(
    'SUBSTITUTION_ALLOWED',
    [{ type: 'blank-substituted', party: 'player', letter: d.blankLetter }],
    cites,
    `The player gives the ${d.blankLetter} the blank stood for, takes the blank at the start of the turn and plays it again in the same turn, which the house rules allow.`,
  );
};

/**
 * A free trade of a bad rack: `house.freeTrades` (seed-002 Free Trades; WESPA 3.2.2: an exchange is the
 * turn). The conditions and the order of trades are `engine/game/free-trade.ts`, shared with the game.
 */
export const adjudicateFreeTrade = (d: FreeTrade, rs: RuleSet): Ruling => {
  const cites = citeParams(rs, 'house.freeTrades');
  if (!rs.house.freeTrades) {
    return ruling(
      'FREE_TRADE_REFUSED',
      [],
      cites,
      'There are no free trades under these rules: changing tiles is an exchange, which uses the turn and scores zero.',
    );
  }
  const dist = distributionOf(rs);
  const rack = joinTiles(d.rack);
  const hasY = d.rack.includes('Y');
  if (d.trades.length === 0) {
    const options = freeTradeOptions(dist, d.rack);
    if (options.length === 0) {
      return ruling(
        'FREE_TRADE_REFUSED',
        [],
        cites,
        `${rack} has no two pair, no three of a letter, and at least two vowels and two consonants (blank ignored, Y read either way), so it may not be traded free.`,
      );
    }
    const effects: Effect[] = options.map((o) => ({
      type: 'free-trade-option',
      tile: o.tile,
      yAs: hasY ? o.yAs : null,
      conditions: o.conditions,
    }));
    const tiles = [...new Set(options.map((o) => o.tile))].join(', ');
    return ruling(
      'FREE_TRADE_ALLOWED',
      effects,
      cites,
      `${rack} qualifies for a free trade: the tiles that may be traded first are ${tiles}, each for the conditions listed; a drawn tile that restores a condition may be redrawn.`,
    );
  }
  const plan = checkTradePlan(dist, d.rack, d.trades);
  if (!plan.ok) return ruling('FREE_TRADE_REFUSED', [], cites, plan.error.message);
  const effects: Effect[] = plan.value.steps.map((s) => ({
    type: 'free-trade-option',
    tile: s.tile,
    yAs: hasY ? plan.value.yAs : null,
    conditions: s.conditions,
  }));
  return ruling(
    'FREE_TRADE_ALLOWED',
    effects,
    cites,
    `Trading ${joinTiles(d.trades)} from ${rack} in that order is a free trade${hasY ? ` (Y read as a ${plan.value.yAs})` : ''}: each trade cures a condition the earlier ones left, and a drawn tile that restores a condition may be redrawn.`,
  );
};
