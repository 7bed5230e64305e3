import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import type { RuleSet } from '../rules/ruleset.js';
import { DISTRIBUTIONS } from '../tiles.js';
import { adjudicateBlankDesignation } from './blank.js';
import {
  adjudicateChallengeOutcome,
  adjudicateMistypedChallenge,
  adjudicatePlacementChallenge,
  adjudicateReturnFromChallenge,
  adjudicateWrongAdjudication,
} from './challenge.js';
import {
  adjudicateChallengeAfterDraw,
  adjudicateCourtesyDraw,
  adjudicateFastBagging,
  adjudicateLongHold,
  adjudicateOutPlayHold,
} from './challenge-window.js';
import type { Dispute, DisputeKind, DisputeOf } from './dispute.js';
import {
  adjudicateMissingTile,
  adjudicateOutOfOrderDraw,
  adjudicateOverdraw,
  adjudicateSpilledTiles,
  adjudicateTilesFound,
  adjudicateUnderdraw,
} from './drawing.js';
import {
  adjudicateForfeitOrder,
  adjudicateGoingOut,
  adjudicateMatchResult,
  adjudicateResignation,
  adjudicateScorelessTurns,
  adjudicateTiedGame,
} from './end.js';
import {
  adjudicateExchangeCountMismatch,
  adjudicateExchangeEarlyReturn,
  adjudicateExchangeTilesNotBagged,
  adjudicateExchangeUnspecified,
  adjudicateIllegalExchange,
} from './exchange.js';
import { adjudicateBlankSubstitution, adjudicateFreeTrade } from './house.js';
import { adjudicateAbortRequest, adjudicateIdleOpponent } from './online.js';
import type { Ruling } from './ruling.js';
import { adjudicateRecountRequest, adjudicateScoringError, adjudicateTallySlipChange } from './scoring.js';
import { adjudicateLateArrival, adjudicateOvertime } from './timing.js';

type Handler<K extends DisputeKind> = (d: DisputeOf<K>, rs: RuleSet) => Ruling;

/** One handler per dispute kind; the mapped type makes a missing kind a compile error. */
const HANDLERS: { readonly [K in DisputeKind]: Handler<K> } = {
  'illegal-exchange': adjudicateIllegalExchange,
  'exchange-count-mismatch': adjudicateExchangeCountMismatch,
  'exchange-unspecified': adjudicateExchangeUnspecified,
  'exchange-early-return': adjudicateExchangeEarlyReturn,
  'late-arrival': adjudicateLateArrival,
  overtime: adjudicateOvertime,
  'challenge-outcome': adjudicateChallengeOutcome,
  'return-from-challenge': adjudicateReturnFromChallenge,
  'fast-bagging': adjudicateFastBagging,
  'out-play-hold': adjudicateOutPlayHold,
  overdraw: adjudicateOverdraw,
  underdraw: adjudicateUnderdraw,
  'scoring-error': adjudicateScoringError,
  'tally-slip-change': adjudicateTallySlipChange,
  'recount-request': adjudicateRecountRequest,
  'scoreless-turns': adjudicateScorelessTurns,
  'going-out': adjudicateGoingOut,
  resignation: adjudicateResignation,
  'forfeit-order': adjudicateForfeitOrder,
  'tied-game': adjudicateTiedGame,
  'match-result': adjudicateMatchResult,
  'exchange-tiles-not-bagged': adjudicateExchangeTilesNotBagged,
  'challenge-after-draw': adjudicateChallengeAfterDraw,
  'wrong-adjudication': adjudicateWrongAdjudication,
  'mistyped-challenge': adjudicateMistypedChallenge,
  'placement-challenge': adjudicatePlacementChallenge,
  'long-hold': adjudicateLongHold,
  'courtesy-draw': adjudicateCourtesyDraw,
  'out-of-order-draw': adjudicateOutOfOrderDraw,
  'spilled-tiles': adjudicateSpilledTiles,
  'tiles-found': adjudicateTilesFound,
  'missing-tile': adjudicateMissingTile,
  'blank-designation': adjudicateBlankDesignation,
  'abort-request': adjudicateAbortRequest,
  'idle-opponent': adjudicateIdleOpponent,
  'blank-substitution': adjudicateBlankSubstitution,
  'free-trade': adjudicateFreeTrade,
};

const invalid = (d: Dispute, field: string, value: unknown, message: string): RuleError =>
  ruleError('INVALID_DISPUTE', `Dispute ${d.kind}: ${field} ${message}.`, { kind: d.kind, field, value });

/** The tiles a dispute names, by field, to be checked against the rule set's distribution. */
const namedTiles = (d: Dispute): readonly (readonly [string, readonly string[]])[] =>
  d.kind === 'free-trade'
    ? [
        ['rack', d.rack],
        ['trades', d.trades],
      ]
    : d.kind === 'blank-substitution'
      ? [
          ['blankLetter', [d.blankLetter]],
          ['tileGiven', [d.tileGiven]],
        ]
      : [];

/** Facts that are impossible only under a particular rule set (the rest are checked by `parseDispute`). */
const checkAgainstRules = (d: Dispute, rs: RuleSet): RuleError | undefined => {
  const letters = new Set(DISTRIBUTIONS[rs.board.distribution]?.letters.map((k) => k.letter));
  for (const [field, tiles] of namedTiles(d)) {
    const unknown = tiles.find((t) => t !== '?' && !letters.has(t));
    if (unknown !== undefined)
      return invalid(
        d,
        field,
        unknown,
        `names ${unknown}, which is not a tile of the ${rs.board.distribution} distribution used by ${rs.name}`,
      );
  }
  if (d.kind === 'free-trade' && d.rack.length > rs.board.rackSize) {
    return invalid(d, 'rack', d.rack.length, `holds ${d.rack.length} tiles, more than a rack under ${rs.name} (${rs.board.rackSize})`);
  }
  if (d.kind === 'match-result' && rs.match.games !== null && d.games.length !== rs.match.games) {
    return ruleError(
      'INVALID_DISPUTE',
      `Dispute match-result: games lists ${d.games.length} games, but a match under ${rs.name} has ${rs.match.games}.`,
      {
        kind: d.kind,
        field: 'games',
        value: d.games.length,
      },
    );
  }
  return undefined;
};

/**
 * Answers a dispute under a rule set: `{ruling, effects, citations, explanation}`. Which rule applies comes
 * from the rule set's parameters (never its id); where it has no such rule the ruling is `NOT_APPLICABLE`
 * with the reason. Pure: the same dispute and rule set always give the same ruling.
 */
export const adjudicate = (dispute: Dispute, ruleSet: RuleSet): Result<Ruling, RuleError> => {
  const bad = checkAgainstRules(dispute, ruleSet);
  if (bad) return err(bad);
  const handler = HANDLERS[dispute.kind] as Handler<DisputeKind>;
  return ok(handler(dispute as DisputeOf<DisputeKind>, ruleSet));
};
