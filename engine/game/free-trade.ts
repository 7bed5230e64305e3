import { cite, ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import { BLANK, joinTiles, type Distribution } from '../tiles.js';
import { without } from './multiset.js';

/**
 * seed-002 Free Trades. A player may trade tiles free of charge to eliminate from the rack all of:
 * two pair, three of the same letter, fewer than two vowels, fewer than two consonants. The blank is
 * ignored; Y counts as a vowel or a consonant, to the player's advantage.
 *
 * How the seed's examples are read (both are tests):
 * - A traded tile takes care of every condition it is part of: removing it breaks its pair or
 *   triple, and the replacement may not restore a condition, so trading a vowel on a rack short of
 *   consonants brings a consonant. Each further announced trade needs a condition that earlier
 *   trades have not already taken care of — which is why AAAITUY may trade U then A, but not two
 *   A's ("removing one leaves no tradable condition").
 * - A received tile may be rejected when the rack it lands on — without the tiles still announced
 *   for trading — has one of the conditions under some reading of Y (the player's advantage).
 */
export const RACK_CONDITIONS = ['two-pair', 'three-of-a-kind', 'few-vowels', 'few-consonants'] as const;
export type RackCondition = (typeof RACK_CONDITIONS)[number];

export const Y_READINGS = ['vowel', 'consonant'] as const;
export type YReading = (typeof Y_READINGS)[number];

const SEED = cite('seed-002', 'Free Trades', 'Seed');

const isVowel = (dist: Distribution, tile: string, y: YReading): boolean =>
  tile === 'Y' ? y === 'vowel' : (dist.letters.find((k) => k.letter === tile)?.vowel ?? false);

const counts = (rack: readonly string[]): Map<string, number> => {
  const m = new Map<string, number>();
  for (const t of rack) if (t !== BLANK) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
};

/** The conditions a rack has under one reading of Y (blanks ignored). */
export const rackConditions = (dist: Distribution, rack: readonly string[], y: YReading): RackCondition[] => {
  const c = counts(rack);
  const out: RackCondition[] = [];
  let pairs = 0;
  let triple = false;
  for (const n of c.values()) {
    if (n >= 2) pairs++;
    if (n >= 3) triple = true;
  }
  if (pairs >= 2) out.push('two-pair');
  if (triple) out.push('three-of-a-kind');
  const tiles = rack.filter((t) => t !== BLANK);
  const vowels = tiles.filter((t) => isVowel(dist, t, y)).length;
  if (vowels < 2) out.push('few-vowels');
  if (tiles.length - vowels < 2) out.push('few-consonants');
  return out;
};

/** Whether the rack has any condition under some reading of Y (the player's advantage). */
export const hasCondition = (dist: Distribution, rack: readonly string[]): boolean =>
  Y_READINGS.some((y) => rackConditions(dist, rack, y).length > 0);

/** The conditions on `rack` that trading `tile` takes care of, under reading `y`. */
export const conditionsCured = (dist: Distribution, rack: readonly string[], tile: string, y: YReading): RackCondition[] => {
  if (tile === BLANK) return [];
  const present = rackConditions(dist, rack, y);
  const n = counts(rack).get(tile) ?? 0;
  const vowel = isVowel(dist, tile, y);
  return present.filter((c) => (c === 'two-pair' ? n >= 2 : c === 'three-of-a-kind' ? n >= 3 : c === 'few-vowels' ? !vowel : vowel));
};

export interface FreeTradeOption {
  readonly tile: string;
  readonly yAs: YReading;
  readonly conditions: readonly RackCondition[];
}

/**
 * Which tiles may be traded first, and for which conditions (seed-002 Free Trades), one entry per
 * distinct tile and reading of Y that makes it tradable. Empty when the rule does not apply.
 */
export const freeTradeOptions = (dist: Distribution, rack: readonly string[]): FreeTradeOption[] => {
  const out: FreeTradeOption[] = [];
  const readings: readonly YReading[] = rack.includes('Y') ? Y_READINGS : ['vowel'];
  for (const y of readings) {
    for (const tile of new Set(rack)) {
      const conditions = conditionsCured(dist, rack, tile, y);
      if (conditions.length > 0) out.push({ tile, yAs: y, conditions });
    }
  }
  return out;
};

export interface TradePlan {
  readonly tiles: readonly string[];
  readonly yAs: YReading;
  readonly steps: readonly { readonly tile: string; readonly conditions: readonly RackCondition[] }[];
}

const planUnder = (dist: Distribution, rack: readonly string[], tiles: readonly string[], y: YReading): TradePlan | null => {
  const cured = new Set<RackCondition>();
  let current: readonly string[] = rack;
  const steps: { tile: string; conditions: RackCondition[] }[] = [];
  for (const tile of tiles) {
    const conditions = conditionsCured(dist, current, tile, y).filter((c) => !cured.has(c));
    if (conditions.length === 0) return null;
    for (const c of conditionsCured(dist, current, tile, y)) cured.add(c);
    steps.push({ tile, conditions });
    current = without(current, [tile])!;
  }
  return { tiles, yAs: y, steps };
};

/**
 * Checks an announced, ordered list of trades (seed-002: "before trading the player selects these
 * tiles and announces the order"): every tile is on the rack and each trade takes care of a
 * condition that the earlier ones left. Y is read whichever way makes the plan valid.
 */
export const checkTradePlan = (dist: Distribution, rack: readonly string[], tiles: readonly string[]): Result<TradePlan, RuleError> => {
  if (tiles.length === 0) {
    return err(ruleError('EMPTY_FREE_TRADE', 'A free trade names at least one tile to trade.', { rack: joinTiles(rack) }, SEED));
  }
  if (without(rack, tiles) === null) {
    return err(
      ruleError(
        'TILES_NOT_IN_RACK',
        `The rack ${joinTiles(rack)} does not hold the tiles ${joinTiles(tiles)} announced for a free trade.`,
        {
          rack: joinTiles(rack),
          tiles: joinTiles(tiles),
        },
        SEED,
      ),
    );
  }
  for (const y of rack.includes('Y') ? Y_READINGS : (['vowel'] as const)) {
    const plan = planUnder(dist, rack, tiles, y);
    if (plan) return ok(plan);
  }
  return err(
    ruleError(
      'FREE_TRADE_NOT_ALLOWED',
      `Trading ${joinTiles(tiles)} in that order from ${joinTiles(rack)} is not a free trade: each traded tile must take care of two pair, three of a letter, fewer than two vowels or fewer than two consonants that earlier trades have not.`,
      { rack: joinTiles(rack), tiles: joinTiles(tiles) },
      SEED,
    ),
  );
};

/**
 * Whether a tile received in a free trade may be rejected: the rack it lands on (the tiles still to
 * be traded left out) has one of the four conditions under some reading of Y (seed-002).
 */
export const mayReject = (dist: Distribution, rackWithNewTile: readonly string[], stillToTrade: readonly string[]): boolean =>
  hasCondition(dist, without(rackWithNewTile, stillToTrade) ?? rackWithNewTile);
