import { ruleError, type RuleError } from '../errors.js';
import { err, ok, type Result } from '../result.js';
import type { RuleSet } from '../rules/ruleset.js';
import { adjudicateChallengeOutcome, adjudicateFastBagging, adjudicateOutPlayHold, adjudicateReturnFromChallenge } from './challenge.js';
import type { Dispute, DisputeKind, DisputeOf } from './dispute.js';
import { adjudicateOverdraw, adjudicateUnderdraw } from './drawing.js';
import { adjudicateForfeitOrder, adjudicateGoingOut, adjudicateMatchResult, adjudicateResignation, adjudicateScorelessTurns, adjudicateTiedGame } from './end.js';
import { adjudicateExchangeCountMismatch, adjudicateExchangeEarlyReturn, adjudicateExchangeUnspecified, adjudicateIllegalExchange } from './exchange.js';
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
};

/** Facts that are impossible only under a particular rule set (the rest are checked by `parseDispute`). */
const checkAgainstRules = (d: Dispute, rs: RuleSet): RuleError | undefined => {
  if (d.kind === 'match-result' && rs.match.games !== null && d.games.length !== rs.match.games) {
    return ruleError('INVALID_DISPUTE', `Dispute match-result: games lists ${d.games.length} games, but a match under ${rs.name} has ${rs.match.games}.`, {
      kind: d.kind,
      field: 'games',
      value: d.games.length,
    });
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
