import { ok } from '../result.js';
import { fail, SEED_001_S3, type Decided, type DecideContext, type TournamentCommandOf } from './commands.js';
import { checkScores, namedSlip } from './decide-slips.js';
import type { TournamentState } from './state.js';

/**
 * A player's tally-slip-change dispute (issue 30, items 5 and 10; seed-001 §3): once a slip is submitted,
 * a player of the game who says it does not show the agreed score files a dispute against the
 * tournament's log, with the scores they ask for and why. A director decides it: `change-slip` naming the
 * dispute (`disputeId`, its number) upholds it, under the rule set's adjudication; `dismiss-slip-dispute`
 * leaves the slip as it is, with the reason. One open dispute per slip.
 */

export const decideFileSlipDispute = (state: TournamentState, c: TournamentCommandOf<'file-slip-dispute'>, ctx: DecideContext): Decided => {
  const l = namedSlip(state, c, ctx, true);
  if (!l.ok) return l;
  const { slip } = l.value;
  if (slip.status !== 'submitted')
    return fail(
      'SLIP_NOT_SUBMITTED',
      'This slip is not submitted yet: correct it instead (correctSlip).',
      { field: 'players' },
      SEED_001_S3,
    );
  const open = slip.disputes.find((d) => d.status === 'open');
  if (open)
    return fail('DISPUTE_OPEN', `Dispute ${open.number} on this slip awaits the director.`, { field: 'players', dispute: open.number });
  const reason = c.reason.trim();
  if (reason === '' || reason.length > 500)
    return fail('BAD_INPUT', 'A dispute says why, in 1–500 characters (reason).', { field: 'reason' });
  const checked = checkScores(c.scores, l.value.division);
  if (!checked.ok) return checked;
  return ok([
    {
      type: 'slip-dispute-filed',
      at: ctx.now,
      by: ctx.actor,
      division: c.division,
      round: c.round,
      players: c.players,
      number: state.slipDisputes + 1,
      scores: c.scores,
      reason,
    },
  ]);
};

export const decideDismissSlipDispute = (
  state: TournamentState,
  c: TournamentCommandOf<'dismiss-slip-dispute'>,
  ctx: DecideContext,
): Decided => {
  const l = namedSlip(state, c, ctx, false);
  if (!l.ok) return l;
  const { slip } = l.value;
  const dispute = slip.disputes.find((d) => d.number === c.number && d.status === 'open');
  if (!dispute)
    return fail('DISPUTE_NOT_FOUND', `This slip has no open dispute ${c.number}.`, {
      field: 'number',
      open: slip.disputes.filter((d) => d.status === 'open').map((d) => d.number),
    });
  const reason = c.reason.trim();
  if (reason === '' || reason.length > 500)
    return fail('BAD_INPUT', 'A ruling says why, in 1–500 characters (reason).', { field: 'reason' });
  return ok([
    {
      type: 'slip-dispute-dismissed',
      at: ctx.now,
      by: ctx.actor,
      division: c.division,
      round: c.round,
      players: c.players,
      number: c.number,
      reason,
    },
  ]);
};
