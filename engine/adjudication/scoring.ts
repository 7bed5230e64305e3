import type { RuleSet } from '../rules/ruleset.js';
import type { RecountRequest, ScoringError, SlipState, TallySlipChange } from './dispute.js';
import { citeParams, noRule, onlineNoRule, ruling, type Ruling } from './ruling.js';

/** Whether scores may still be corrected at this point (`tournament.scoringCorrection`: seed-001 §3 until submitted; WESPA 3.5(d) until signed). */
export const correctable = (rs: RuleSet, slip: SlipState): boolean =>
  rs.tournament.scoringCorrection === 'until-slip-submitted' ? slip !== 'submitted' : slip === 'not-signed';

const deadline = (rs: RuleSet): string => (rs.tournament.scoringCorrection === 'until-slip-submitted' ? 'submitted' : 'signed');

/** A wrongly scored turn (seed-001 §3; WESPA 3.5(d), 5.4.1). */
export const adjudicateScoringError = (d: ScoringError, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'a scoring error');
  if (online) return online;
  const cites = citeParams(rs, 'tournament.scoringCorrection');
  if (rs.tournament.scoringCorrection === 'none') return noRule(`${rs.name} has no rule on correcting scores.`, cites);
  if (correctable(rs, d.slip)) {
    const delta = d.correct - d.announced;
    return ruling(
      'SCORE_CORRECTED',
      [{ type: 'score-delta', party: 'player', points: delta }],
      cites,
      `Scoring errors may be corrected until the result slip is ${deadline(rs)}, so the turn scored ${d.announced} is corrected to ${d.correct} (${delta > 0 ? '+' : ''}${delta}).`,
    );
  }
  return ruling(
    'RESULT_STANDS',
    [{ type: 'result-slip', action: 'stands' }],
    citeParams(rs, 'tournament.scoringCorrection', 'tournament.resultSlip'),
    `The result slip has been ${deadline(rs)}, and a miscounted turn is not an error that may be corrected afterwards, so the result stands.`,
  );
};

/** A change to the result slip: `tournament.resultSlip` (seed-001 §3: only a slip that differs from the agreed score; WESPA 5.4.1: only reversed scores). */
export const adjudicateTallySlipChange = (d: TallySlipChange, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'a tally-slip dispute');
  if (online) return online;
  const rule = rs.tournament.resultSlip;
  const cites = citeParams(rs, 'tournament.resultSlip');
  if (rule === 'none') return noRule(`${rs.name} has no result-slip rule.`, cites);
  if (correctable(rs, d.slip)) {
    return ruling(
      'CORRECTION_ALLOWED',
      [{ type: 'result-slip', action: 'correct' }],
      citeParams(rs, 'tournament.scoringCorrection', 'tournament.resultSlip'),
      `The slip has not yet been ${deadline(rs)}, so any recount or discrepancy is resolved now and the slip corrected.`,
    );
  }
  if (rule === 'agreed-score-only') {
    if (d.unethicalConductProven) {
      return ruling(
        'DIRECTOR_DISCRETION',
        [{ type: 'result-slip', action: 'director-decides' }],
        cites,
        'Unethical behaviour proven or admitted after the fact is an extenuating circumstance: the director decides at their discretion.',
      );
    }
    if (!d.slipMatchesAgreedScore && d.substantiatedByScoreSheets) {
      return ruling(
        'SLIP_CORRECTED',
        [{ type: 'result-slip', action: 'correct' }],
        cites,
        'The signed slip does not show the score the players agreed, as their score sheets show, so the slip is corrected to the agreed score.',
      );
    }
    return ruling(
      'RESULT_STANDS',
      [{ type: 'result-slip', action: 'stands' }],
      cites,
      d.slipMatchesAgreedScore
        ? 'Once the slip is signed and submitted only a slip that differs from the agreed score may change; this one shows the agreed score, so the result stands.'
        : 'The slip may change only if the score sheets or score cards show it differs from the agreed score, and they do not, so the result stands.',
      'FORBIDDEN',
    );
  }
  // WESPA 5.4.1.
  if (d.slip === 'signed' && d.bothAgree) {
    return ruling(
      'SLIP_CORRECTED',
      [{ type: 'result-slip', action: 'correct' }],
      cites,
      'A signed slip is final, but both players agree to the correction before it is handed in, so it is corrected.',
    );
  }
  if (d.slip === 'submitted' && d.scoresReversed) {
    return ruling(
      'SLIP_CORRECTED',
      [{ type: 'result-slip', action: 'correct' }],
      cites,
      "The winner's and loser's scores were reversed, the one error that may be corrected on petition after the slip is handed in.",
    );
  }
  return ruling(
    'RESULT_STANDS',
    [{ type: 'result-slip', action: 'stands' }],
    cites,
    d.slip === 'signed'
      ? 'A signed slip is final unless both players agree to a correction before it is handed in, so the result stands.'
      : 'A submitted slip is final except for reversed scores, so the result stands.',
    'FORBIDDEN',
  );
};

/** A recount: `tournament.recountMaxMargin`, before the slip is final (seed-001 §3; WESPA 5.5). */
export const adjudicateRecountRequest = (d: RecountRequest, rs: RuleSet): Ruling => {
  const online = onlineNoRule(rs, 'a recount');
  if (online) return online;
  const cites = citeParams(rs, 'tournament.recountMaxMargin', 'tournament.scoringCorrection');
  if (rs.tournament.scoringCorrection === 'none') return noRule(`${rs.name} has no recount rule.`, cites);
  if (!correctable(rs, d.slip)) {
    return ruling(
      'RECOUNT_REFUSED',
      [{ type: 'recount', allowed: false }],
      cites,
      `A recount must be done before the result slip is ${deadline(rs)}, and it has been.`,
    );
  }
  const max = rs.tournament.recountMaxMargin;
  if (max !== null && d.margin > max) {
    return ruling(
      'RECOUNT_REFUSED',
      [{ type: 'recount', allowed: false }],
      cites,
      `A recount may be asked for only when the margin is ${max} points or less; this game's margin is ${d.margin}.`,
    );
  }
  return ruling(
    'RECOUNT_ALLOWED',
    [{ type: 'recount', allowed: true }],
    cites,
    max !== null
      ? `The margin of ${d.margin} is within ${max} points, so the whole game is recounted with the clock neutralised.`
      : 'The slip is not yet final, so the recount is done and any discrepancy resolved before the result is submitted.',
  );
};
