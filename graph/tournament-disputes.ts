import * as z from 'zod';
import { builder } from './builder.js';
import { resultUnion } from './errors.js';
import { ERRORS, gameArgs, inRound, pair, PLAY, SCORE } from './tournament-mutations.js';
import { RoundType } from './tournament-types.js';

/**
 * A player's tally-slip-change dispute on a submitted slip (seed-001 §3), filed against the tournament's
 * log: `fileSlipDispute` (a player of the game), then the director's `changeSlip` naming it (`disputeId`:
 * its number) or `dismissSlipDispute`. docs/tournaments.md.
 */

const REASON = z.string().trim().min(1).max(500);

builder.mutationFields((t) => ({
  fileSlipDispute: t.field({
    type: RoundType,
    description:
      'A player of the game disputes its submitted slip (seed-001 §3: it does not show the agreed score): the scores asked for and why. One open dispute per slip (DISPUTE_OPEN); a slip not yet submitted is corrected instead (SLIP_NOT_SUBMITTED).',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('FileSlipDisputeResult', 'Round') },
    args: {
      ...gameArgs(t),
      score: SCORE(t, 'The score the slip should show for `player`.', true),
      opponentScore: SCORE(t, 'The score the slip should show for `opponent`.', true),
      reason: t.arg.string({ required: true, description: 'Why: what the score sheets show.', validate: REASON }),
    },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, {
        type: 'file-slip-dispute',
        division: args.division,
        round: args.round,
        players: pair(args),
        scores: [args.score, args.opponentScore],
        reason: args.reason,
      }),
  }),
  dismissSlipDispute: t.field({
    type: RoundType,
    description: 'The director dismisses an open slip dispute: the slip stands, with the reason on the record. Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('DismissSlipDisputeResult', 'Round') },
    args: {
      ...gameArgs(t),
      number: t.arg.int({ required: true, description: 'The dispute’s number (SlipDispute.number).' }),
      reason: t.arg.string({ required: true, description: 'Why the slip stands.', validate: REASON }),
    },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, {
        type: 'dismiss-slip-dispute',
        division: args.division,
        round: args.round,
        players: pair(args),
        number: args.number,
        reason: args.reason,
      }),
  }),
}));
