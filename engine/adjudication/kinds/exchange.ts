import { ILLEGAL_EXCHANGE_STAGE } from './enums.js';
import { f, gate, MAX_RACK, ONLINE, type DisputeKindSpec } from './spec.js';

/** Exchange disputes (seed-000 "Penalties" and "Disputes"; WESPA 3.10.15; seed-003 rule 11). */

/** The standard tournament exchange minimum (seed-000, WESPA 3.2.1): an "illegal exchange" had fewer in the bag. */
export const STANDARD_MIN_BAG = 7;

export const EXCHANGE_KINDS: readonly DisputeKindSpec[] = [
  {
    kind: 'illegal-exchange',
    description: 'The player exchanged with too few tiles in the bag (or more tiles than the bag holds) and it was noticed at some stage.',
    act: 'the exchange',
    sources: ['seed-000 "When Can You Swap?" and "Penalties"', 'WESPA 3.2.1, 3.10.15(i)', 'seed-003 rule 11'],
    parameters: [
      'play.medium',
      'exchange.minBag',
      'exchange.maxIsBagCount',
      'exchange.illegalExchangeProcedure',
      'exchange.lateDiscoveryPenalty',
      'exchange.opponentChoiceSeconds',
    ],
    gates: [ONLINE],
    facts: [
      f.int(
        'bagCount',
        0,
        STANDARD_MIN_BAG - 1,
        'Tiles in the bag when the exchange was made (fewer than 7).',
        'exchange.minBag, exchange.maxIsBagCount',
        {
          unit: 'tiles',
        },
      ),
      f.oneOf('stage', ILLEGAL_EXCHANGE_STAGE, 'How far the exchange got before it was noticed.', 'exchange.illegalExchangeProcedure'),
      f.int(
        'exchangedCount',
        1,
        MAX_RACK,
        'Tiles exchanged (at most the rack size).',
        'exchange.maxIsBagCount; the opponent’s choice (seed-000)',
        {
          unit: 'tiles',
        },
      ),
      f.rackSize('the number of tiles the opponent chooses (seed-000: exchanged + 2, up to a rack)'),
      f.bool(
        'oldTilesInBag',
        'Whether any old tile had gone into the bag; default false, true at stage old-returned-new-not-racked. At racking-started it separates WESPA 3.10.15(i)(iv) from (v).',
        'exchange.illegalExchangeProcedure (wespa-3.10.15)',
        { optional: true },
      ),
    ],
    example: {
      description: 'Seed-000: seven tiles, exchanged four with 5 in the bag; noticed after racking had started.',
      kind: 'illegal-exchange',
      bagCount: 5,
      stage: 'racking-started',
      exchangedCount: 4,
      rackSize: 7,
    },
  },
  {
    kind: 'exchange-count-mismatch',
    description: 'The player announced one number of tiles to exchange and placed another number face down.',
    act: 'the exchange as announced and placed',
    sources: ['seed-000 "Disputes"', 'WESPA 3.10.15(e)', 'seed-001 §6.2', 'seed-003 rule 11'],
    parameters: ['play.medium', 'exchange.countMismatch', 'exchange.allTilesMayStayOnRack', 'exchange.allowEmpty'],
    gates: [ONLINE, gate('exchange.countMismatch')],
    facts: [
      f.int('announced', 0, MAX_RACK, 'Tiles announced (at most the rack size).', 'exchange.countMismatch', { unit: 'tiles' }),
      f.int(
        'placedFaceDown',
        0,
        MAX_RACK,
        'Tiles placed face down (at most the rack size; not equal to announced).',
        'exchange.countMismatch, exchange.allowEmpty',
        {
          unit: 'tiles',
        },
      ),
      f.rackSize('exchange.allTilesMayStayOnRack (a whole rack left on the rack)'),
    ],
    example: {
      description: 'Seed-000: announced five, placed four face down.',
      kind: 'exchange-count-mismatch',
      announced: 5,
      placedFaceDown: 4,
    },
  },
  {
    kind: 'exchange-unspecified',
    description: 'The player announced an exchange but gave no count and placed no tiles face down.',
    act: 'the exchange announced without a count or tiles',
    sources: ['seed-000 "Penalties"', 'WESPA 3.10.15(b)', 'seed-003 rule 11'],
    parameters: ['play.medium', 'exchange.unspecifiedExchange', 'exchange.allowEmpty'],
    gates: [ONLINE, gate('exchange.unspecifiedExchange')],
    facts: [],
    example: { description: 'Announced an exchange, gave no count and put no tiles face down.', kind: 'exchange-unspecified' },
  },
  {
    kind: 'exchange-early-return',
    description: 'The player put the old tiles into the bag before drawing the new ones.',
    act: 'returning the old tiles before drawing',
    sources: ['seed-000 "Disputes"', 'WESPA 3.10.15(c)'],
    parameters: ['play.medium', 'exchange.earlyReturn'],
    gates: [ONLINE, gate('exchange.earlyReturn')],
    facts: [
      f.bool('drewSameTiles', 'The player drew back some of the tiles just returned.', 'exchange.earlyReturn (no redraw, seed-000)', {
        default: false,
      }),
    ],
    example: {
      description: 'Put the old tiles in the bag first and drew one of them back.',
      kind: 'exchange-early-return',
      drewSameTiles: true,
    },
  },
  {
    kind: 'exchange-tiles-not-bagged',
    description: 'The exchanger left the tiles set aside face down out of the bag.',
    act: 'leaving the exchanged tiles out of the bag',
    sources: ['WESPA 3.10.15(d)'],
    parameters: ['play.medium', 'exchange.unbaggedTiles'],
    gates: [ONLINE, gate('exchange.unbaggedTiles')],
    facts: [
      f.int('tiles', 1, MAX_RACK, 'Tiles set aside and never bagged (at most the rack size).', 'exchange.unbaggedTiles', { unit: 'tiles' }),
      f.bool('drawnSince', 'Either player has drawn since the exchange.', 'exchange.unbaggedTiles (shown first if so)'),
      f.rackSize('the limit on tiles'),
    ],
    example: {
      kind: 'exchange-tiles-not-bagged',
      description: 'S5: the exchanger left 3 tiles face down on the table; the opponent has since drawn',
      tiles: 3,
      drawnSince: true,
    },
  },
];
