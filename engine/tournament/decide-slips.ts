import { adjudicate } from '../adjudication/adjudicate.js';
import type { TallySlipChange } from '../adjudication/dispute.js';
import { cite, type RuleError } from '../errors.js';
import { ok, type Result } from '../result.js';
import { divisionNamed, fail, roundOf, SEED_001_S3, type Decided, type DecideContext, type TournamentCommandOf } from './commands.js';
import type { PairedGame } from './pairing/types.js';
import { gameBetween, type DivisionState, type RoundState, type Slip, type TournamentState } from './state.js';

/**
 * Results and tally slips (issue 30, item 5; seed-001 §3). A result becomes a slip with both scores;
 * the players (or the game's scorekeeper) sign it; a director or the scorekeeper submits it. Until then
 * either player may correct it (under WESPA 3.5(d) only until it is signed); once submitted, its scores
 * change only by a director's `tally-slip-change` ruling, kept with who, when and why.
 */

/** A forfeit's scores in the order of `players`: the forfeiter 0, the opponent `tournament.forfeitSpread`. */
export const forfeitScores = (division: DivisionState, players: readonly [number, number], forfeiter: number): [number, number] => {
  const margin = division.spec.rules.tournament.forfeitSpread;
  return forfeiter === players[0] ? [0, margin] : [margin, 0];
};

export const MIN_SCORE = -1000;
export const MAX_SCORE = 5000;

interface Located {
  readonly division: DivisionState;
  readonly round: RoundState;
  readonly game: PairedGame;
}

export const locate = (
  state: TournamentState,
  c: { division: string; round: number; players: readonly [number, number] },
): Result<Located, RuleError> => {
  const d = divisionNamed(state, c.division);
  if (!d.ok) return d;
  const r = roundOf(d.value, c.round);
  if (!r.ok) return r;
  if (r.value.status === 'unpaired') return fail('ROUND_NOT_PAIRED', `Round ${c.round} is not paired yet.`, { field: 'round' });
  const game = gameBetween(r.value, c.players[0], c.players[1]);
  if (!game)
    return fail(
      'GAME_NOT_IN_ROUND',
      `Players ${c.players[0]} and ${c.players[1]} do not play each other in round ${c.round} of division ${c.division}.`,
      {
        field: 'players',
        players: [...c.players],
      },
    );
  return ok({ division: d.value, round: r.value, game });
};

export const checkScores = (scores: readonly [number, number], division: DivisionState): Result<null, RuleError> => {
  for (const [i, s] of scores.entries())
    if (!Number.isInteger(s) || s < MIN_SCORE || s > MAX_SCORE)
      return fail('BAD_INPUT', `scores[${i}] must be a whole number ${MIN_SCORE}–${MAX_SCORE}, not ${s}.`, { field: `scores[${i}]` });
  if (scores[0] === scores[1] && !division.spec.rules.tournament.tiesAllowed)
    return fail(
      'TIE_NOT_ALLOWED',
      `A tie (${scores[0]}–${scores[1]}) does not stand under this division’s rules.`,
      { field: 'scores' },
      citeParam(division),
    );
  return ok(null);
};

const citeParam = (division: DivisionState) =>
  division.spec.rules.sources['tournament.tiesAllowed']?.[0] ?? cite('override', 'tournament.tiesAllowed');

/** A player acting must play in the game (a stranger may not record, correct or sign it). */
export const mayTouch = (ctx: DecideContext, game: PairedGame): Result<null, RuleError> =>
  ctx.actor.role !== 'player' || ctx.actor.entrant === game.first || ctx.actor.entrant === game.second
    ? ok(null)
    : fail(
        'SLIP_SIGNER_NOT_IN_GAME',
        `Only the players of ${game.first} v ${game.second} (or its scorekeeper or a director) may act on its slip.`,
        {
          field: 'players',
        },
      );

const slipOf = (l: Located): Slip | undefined => l.round.slips[l.game.first];

/** Scores given in the order of `players`, put in the game's order (first player first). */
const asFirstSecond = (
  game: PairedGame,
  players: readonly [number, number],
  scores: readonly [number, number],
): readonly [number, number] => (players[0] === game.first ? scores : [scores[1], scores[0]]);

export const decideRecordResult = (state: TournamentState, c: TournamentCommandOf<'record-result'>, ctx: DecideContext): Decided => {
  const l = locate(state, c);
  if (!l.ok) return l;
  const may = mayTouch(ctx, l.value.game);
  if (!may.ok) return may;
  if (slipOf(l.value))
    return fail('RESULT_EXISTS', `Round ${c.round}: ${c.players[0]} v ${c.players[1]} has a result already; correct its slip instead.`, {
      field: 'players',
    });
  const { game, division } = l.value;
  let scores = c.scores;
  if (c.kind === 'forfeit') {
    if (c.forfeiter !== game.first && c.forfeiter !== game.second)
      return fail('BAD_INPUT', `forfeiter must be ${game.first} or ${game.second}.`, { field: 'forfeiter' });
    scores ??= forfeitScores(division, c.players, c.forfeiter);
  }
  if (!scores) return fail('BAD_INPUT', 'A played game’s result needs both scores.', { field: 'scores' });
  const checked = checkScores(scores, division);
  if (!checked.ok) return checked;
  return ok([
    {
      type: 'result-recorded',
      at: ctx.now,
      by: ctx.actor,
      division: c.division,
      round: c.round,
      players: [game.first, game.second],
      scores: asFirstSecond(game, c.players, scores),
      kind: c.kind,
      forfeiter: c.kind === 'forfeit' ? c.forfeiter : null,
      forfeitReason: c.kind === 'forfeit' ? (c.forfeitReason ?? 'director') : null,
      gameId: c.gameId,
      final: c.final,
    },
  ]);
};

export const existingSlip = (l: Located, round: number): Result<Slip, RuleError> => {
  const s = slipOf(l);
  return s ? ok(s) : fail('RESULT_MISSING', `Round ${round}: ${l.game.first} v ${l.game.second} has no result yet.`, { field: 'players' });
};

/**
 * The slip a command names, with the checks every slip command shares: the game is in the round, it has a
 * slip, and (with `players` true) an actor who is a player plays in that game.
 */
export const namedSlip = (
  state: TournamentState,
  c: { division: string; round: number; players: readonly [number, number] },
  ctx: DecideContext,
  players: boolean,
): Result<Located & { readonly slip: Slip }, RuleError> => {
  const l = locate(state, c);
  if (!l.ok) return l;
  if (players) {
    const may = mayTouch(ctx, l.value.game);
    if (!may.ok) return may;
  }
  const slip = existingSlip(l.value, c.round);
  return slip.ok ? ok({ ...l.value, slip: slip.value }) : slip;
};

export const decideCorrectSlip = (state: TournamentState, c: TournamentCommandOf<'correct-slip'>, ctx: DecideContext): Decided => {
  const l = namedSlip(state, c, ctx, true);
  if (!l.ok) return l;
  const { slip } = l.value;
  if (slip.status === 'submitted')
    return fail(
      'SLIP_SUBMITTED',
      'This slip is submitted: its scores change only by a director’s tally-slip-change ruling (seed-001 §3).',
      { field: 'players' },
      SEED_001_S3,
    );
  const rule = l.value.division.spec.rules.tournament.scoringCorrection;
  if (rule === 'until-slip-signed' && slip.status === 'signed')
    return fail(
      'SLIP_SIGNED',
      'Under this rule set a signed slip is final (WESPA 3.5(d)).',
      { field: 'players' },
      cite('wespa-3.0', '3.5(d)', 'V'),
    );
  const checked = checkScores(c.scores, l.value.division);
  if (!checked.ok) return checked;
  return ok([
    { type: 'slip-corrected', at: ctx.now, by: ctx.actor, division: c.division, round: c.round, players: c.players, scores: c.scores },
  ]);
};

export const decideSignSlip = (state: TournamentState, c: TournamentCommandOf<'sign-slip'>, ctx: DecideContext): Decided => {
  const l = namedSlip(state, c, ctx, true);
  if (!l.ok) return l;
  const { slip } = l.value;
  if (slip.status === 'submitted') return fail('SLIP_SUBMITTED', 'This slip is submitted already.', { field: 'players' }, SEED_001_S3);
  const signer = ctx.actor.role === 'player' ? (ctx.actor.entrant ?? null) : null;
  if (slip.signedForBoth || (signer !== null && slip.signers.includes(signer)))
    return fail('SLIP_ALREADY_SIGNED', 'You have signed this slip already.', { field: 'players' });
  return ok([{ type: 'slip-signed', at: ctx.now, by: ctx.actor, division: c.division, round: c.round, players: c.players, signer }]);
};

export const decideSubmitSlip = (state: TournamentState, c: TournamentCommandOf<'submit-slip'>, ctx: DecideContext): Decided => {
  const l = namedSlip(state, c, ctx, false);
  if (!l.ok) return l;
  const { slip } = l.value;
  if (slip.status === 'submitted') return fail('SLIP_SUBMITTED', 'This slip is submitted already.', { field: 'players' }, SEED_001_S3);
  const signedByBoth = slip.signedForBoth || (slip.signers.includes(l.value.game.first) && slip.signers.includes(l.value.game.second));
  // A director may hand in an unsigned slip (a player left the hall); a scorekeeper hands in a signed one.
  if (!signedByBoth && ctx.actor.role !== 'director')
    return fail(
      'SLIP_NOT_SIGNED',
      'Both players sign the slip before it is submitted (seed-001 §3).',
      { field: 'players', signers: [...slip.signers] },
      SEED_001_S3,
    );
  return ok([{ type: 'slip-submitted', at: ctx.now, by: ctx.actor, division: c.division, round: c.round, players: c.players }]);
};

export const decideChangeSlip = (state: TournamentState, c: TournamentCommandOf<'change-slip'>, ctx: DecideContext): Decided => {
  const l = namedSlip(state, c, ctx, false);
  if (!l.ok) return l;
  const { slip } = l.value;
  if (slip.status !== 'submitted')
    return fail(
      'SLIP_NOT_SUBMITTED',
      'This slip is not submitted yet: the players correct it themselves (correctSlip).',
      { field: 'players' },
      SEED_001_S3,
    );
  if (c.ruling.reason.trim() === '') return fail('BAD_INPUT', 'A tally-slip-change ruling says why (reason).', { field: 'reason' });
  const named = c.ruling.disputeId;
  if (named !== null && !slip.disputes.some((d) => String(d.number) === named && d.status === 'open'))
    return fail('DISPUTE_NOT_FOUND', `This slip has no open dispute ${named}.`, { field: 'disputeId' });
  const checked = checkScores(c.scores, l.value.division);
  if (!checked.ok) return checked;
  const next = asFirstSecond(l.value.game, c.players, c.scores);
  const f = c.ruling.findings ?? {};
  const dispute: TallySlipChange = {
    kind: 'tally-slip-change',
    slip: 'submitted',
    slipMatchesAgreedScore: f.slipMatchesAgreedScore ?? false,
    scoresReversed: next[0] === slip.scores[1] && next[1] === slip.scores[0],
    substantiatedByScoreSheets: f.substantiatedByScoreSheets ?? true,
    bothAgree: f.bothAgree ?? false,
    unethicalConductProven: f.unethicalConductProven ?? false,
  };
  // The change is the tally-slip-change dispute kind, ruled by the one implementation of seed-001 §3 / WESPA 5.4.1.
  const ruled = adjudicate(dispute, l.value.division.spec.rules);
  if (!ruled.ok) return ruled;
  const allowed = ruled.value.effects.some((e) => e.type === 'result-slip' && (e.action === 'correct' || e.action === 'director-decides'));
  if (!allowed)
    return fail(
      'SLIP_CHANGE_NOT_ALLOWED',
      ruled.value.explanation,
      { field: 'scores', ruling: ruled.value.ruling },
      ruled.value.citations[0],
    );
  const ruling = { ...c.ruling, reason: c.ruling.reason.trim(), code: ruled.value.ruling, citations: ruled.value.citations };
  return ok([
    {
      type: 'slip-changed',
      at: ctx.now,
      by: ctx.actor,
      division: c.division,
      round: c.round,
      players: c.players,
      scores: c.scores,
      ruling,
    },
  ]);
};

export const decideLeagueGame = (state: TournamentState, c: TournamentCommandOf<'record-league-game'>, ctx: DecideContext): Decided => {
  const l = locate(state, c);
  if (!l.ok) return l;
  return ok([
    {
      type: 'league-game-created',
      at: ctx.now,
      by: ctx.actor,
      division: c.division,
      round: c.round,
      players: [l.value.game.first, l.value.game.second],
      gameId: c.gameId,
    },
  ]);
};
