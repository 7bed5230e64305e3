import { cite } from '../../errors.js';
import { ok, type Result } from '../../result.js';
import { joinTiles } from '../../tiles.js';
import type { Seat } from '../events.js';
import { checkTradePlan, mayReject } from '../free-trade.js';
import { without } from '../multiset.js';
import { bagCount, type GameState } from '../state.js';
import { Batch, fail, finish } from './batch.js';
import type { CommandHandler } from './command.js';
import { drawEvent } from './follow-up.js';
import { playing } from './turn.js';

/** Command handlers that swap rack tiles with the bag: the exchange (a turn) and the seed-002 free trade (not a turn). */

/**
 * Why an exchange of `tiles` is refused, or null: the bag must hold `exchange.minBag` tiles
 * (seed-000 When Can You Swap?), an empty exchange needs `exchange.allowEmpty` (seed-001 §6), and
 * the tiles must be on the rack and no more than the bag holds (seed-003 rule 11).
 */
const exchangeRefusal = (state: GameState, seat: Seat, tiles: readonly string[]): Result<never> | null => {
  const rules = state.rules;
  const n = tiles.length;
  const inBag = bagCount(state);
  if (inBag < rules.exchange.minBag) {
    return fail(
      'EXCHANGE_BAG_TOO_SMALL',
      `The bag holds ${inBag} tiles; exchanging needs at least ${rules.exchange.minBag}.`,
      { bag: inBag, minBag: rules.exchange.minBag },
      cite('seed-000', 'When Can You Swap?'),
    );
  }
  if (n === 0 && !rules.exchange.allowEmpty)
    return fail('EMPTY_EXCHANGE', 'An exchange names at least one tile (use pass to exchange nothing).', {}, cite('seed-001', '§6'));
  if (n > inBag) {
    return fail(
      'EXCHANGE_TOO_MANY',
      `Only ${inBag} tiles are in the bag; you may not exchange ${n}.`,
      { bag: inBag, count: n },
      cite('seed-003', 'rule 11'),
    );
  }
  if (without(state.racks[seat].tiles, tiles) === null) {
    return fail(
      'TILES_NOT_IN_RACK',
      `The rack ${joinTiles(state.racks[seat].tiles)} does not hold ${joinTiles(tiles)} to exchange.`,
      { tiles },
      cite('seed-003', 'rule 11'),
    );
  }
  return null;
};

/** An exchange: the named tiles for as many from the bag, in the order of seed-001 §6. */
export const decideExchange: CommandHandler<'exchange'> = (state, { seat, tiles }, ctx) => {
  const on = playing(state, seat);
  if (!on.ok) return on;
  const refused = exchangeRefusal(state, seat, tiles);
  if (refused) return refused;
  const n = tiles.length;
  const b = new Batch(state, ctx.now);
  // seed-001 §6: tiles face down, draw the new ones, then the old ones go back into the bag.
  const r = b.push({ type: 'exchange', seat, tiles, count: n });
  if (!r.ok) return r;
  if (n > 0) {
    const d = drawEvent(b.state, seat, n, ctx.seed);
    if (d) {
      const r2 = b.push(d);
      if (!r2.ok) return r2;
    }
    const r3 = b.push({ type: 'tiles-returned', seat, tiles, from: 'aside' });
    if (!r3.ok) return r3;
  }
  return finish(b, ctx.seed);
};

/**
 * Trades one tile (seed-002 Free Trades): set it aside and draw; a drawn tile that would restore a
 * condition the trade is for (`still`, the tiles yet to trade) is set aside too and another drawn.
 * When a tile is kept the original and the rejects go back to the bag; when the bag runs out, every
 * tile tried was rejected and the player keeps the original.
 */
const tradeTile = (b: Batch, seat: Seat, tile: string, still: readonly string[], seed: string): Result<GameState> => {
  let r = b.push({ type: 'tiles-set-aside', seat, tiles: [tile] });
  if (!r.ok) return r;
  const rejected: string[] = [];
  while (bagCount(b.state) > 0) {
    const d = drawEvent(b.state, seat, 1, seed)!;
    r = b.push(d);
    if (!r.ok) return r;
    const drawn = (d as { tiles: readonly string[] }).tiles[0]!;
    if (!mayReject(b.state.distribution, b.state.racks[seat].tiles, still)) {
      return b.push({ type: 'tiles-returned', seat, tiles: [tile, ...rejected], from: 'aside' });
    }
    rejected.push(drawn);
    r = b.push({ type: 'tiles-set-aside', seat, tiles: [drawn] });
    if (!r.ok) return r;
  }
  r = b.push({ type: 'tiles-taken-back', seat, tiles: [tile] });
  if (r.ok && rejected.length) r = b.push({ type: 'tiles-returned', seat, tiles: rejected, from: 'aside' });
  return r;
};

/** seed-002 Free Trades (a house rule): announce the trade, then trade each tile in the announced order. */
export const decideFreeTrade: CommandHandler<'free-trade'> = (state, { seat, tiles }, ctx) => {
  const c = cite('seed-002', 'Free Trades', 'Seed');
  const rules = state.rules;
  if (!rules.house.freeTrades) return fail('HOUSE_RULE_OFF', `${rules.name} does not allow free trades.`, { rule: 'house.freeTrades' }, c);
  const on = playing(state, seat);
  if (!on.ok) return on;
  if (state.bagKind !== 'seeded' || ctx.seed === null)
    return fail('SEED_REQUIRED', "A free trade draws from the bag and needs the game's seed.", {}, c);
  if (state.freeTradeThisTurn) return fail('FREE_TRADE_DONE', `${state.players[seat].name} has already traded this turn.`, { seat }, c);
  const plan = checkTradePlan(state.distribution, state.racks[seat].tiles, tiles);
  if (!plan.ok) return plan;
  const b = new Batch(state, ctx.now);
  const announced = b.push({ type: 'free-trade', seat, tiles, yAs: state.racks[seat].tiles.includes('Y') ? plan.value.yAs : null });
  if (!announced.ok) return announced;
  for (let i = 0; i < tiles.length; i++) {
    const r = tradeTile(b, seat, tiles[i]!, tiles.slice(i + 1), ctx.seed);
    if (!r.ok) return r;
  }
  return ok(b.events);
};
