import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { TournamentCommand } from '../engine/tournament/commands.js';
import { entrantAccount } from '../service/tournament-entrants.js';
import { createTournament, importTshDivision, runTournamentCommand, type TournamentView } from '../service/tournaments.js';
import { builder } from './builder.js';
import { requirePlayer, type Context } from './context.js';
import { ForfeitReasonEnum, PairingMethodEnum, ResultKindEnum } from './enums.js';
import { GAME_ERRORS, resultUnion, ValidationError } from './errors.js';
import { deps } from './game.js';
import {
  CreateTournamentInput,
  DivisionInputType,
  divisionInputOf,
  newTournamentOf,
  PairingInput,
  SlipFindingsInput,
} from './tournament-inputs.js';
import { DivisionType, divisionParent, DIVISION_NAME, roundParent, TOURNAMENT_ID, TournamentType, value } from './tournaments.js';
import { RoundType } from './tournament-types.js';

/**
 * The tournament mutations (issue 30, items 9–10). Each runs one command through the tournament service
 * (`runTournamentCommand`: the engine decides, the store appends, one transaction) and answers what it
 * changed: the tournament, the division, or the round. `expectedVersion` (REST: If-Match) refuses a
 * command decided on an older version (StaleVersionError); a retry with the same `idempotencyKey`
 * answers the first answer again. Every one needs a signed-in player (games:play for an API key); who may
 * do what in the tournament (directors pair, players sign their own slips) is the service's and the
 * engine's answer: NOT_DIRECTOR, NOT_ALLOWED, SLIP_SIGNER_NOT_IN_GAME …
 */

export type T = Parameters<Parameters<typeof builder.mutationFields>[0]>[0];

export const ERRORS = { types: GAME_ERRORS, directResult: true } as const;
export const PLAY = { scope: 'games:play' } as const;

const tournamentArgs = (t: T) => ({
  tournamentId: t.arg.id({ required: true, description: TOURNAMENT_ID }),
  division: t.arg.string({ required: true, description: DIVISION_NAME }),
  expectedVersion: t.arg.int({
    required: false,
    description: 'The tournament version you decided on (Tournament.version); if it moved on, STALE_VERSION. Default: the version now.',
    validate: z.number().int().min(0).nullish(),
  }),
  idempotencyKey: t.arg.string({
    required: false,
    description: 'A fresh random string per command; a retry with the same one answers the first answer again, never a second command.',
    validate: z.string().min(1).max(200).nullish(),
  }),
});

const roundArgs = (t: T) => ({ ...tournamentArgs(t), round: t.arg.int({ required: true, description: 'The round, 1-based.' }) });

export const gameArgs = (t: T) => ({
  ...roundArgs(t),
  player: t.arg.int({ required: true, description: 'One player of the game (entrant number).' }),
  opponent: t.arg.int({ required: true, description: 'The other player of the game (entrant number).' }),
});

interface Common {
  readonly tournamentId: string | number;
  readonly division: string;
  readonly expectedVersion?: number | null;
  readonly idempotencyKey?: string | null;
}

/** Runs `command` as the caller; the tournament afterwards. */
const run = async (ctx: Context, args: Common, command: TournamentCommand): Promise<TournamentView> =>
  value(
    await runTournamentCommand(deps(ctx), requirePlayer(ctx).player.id, String(args.tournamentId), command, {
      expectedVersion: args.expectedVersion ?? null,
      idempotencyKey: args.idempotencyKey ?? null,
    }),
  );

export const inRound = async (ctx: Context, args: Common & { readonly round: number }, command: TournamentCommand) =>
  roundParent(divisionParent(await run(ctx, args, command), args.division), args.round);

const inDivision = async (ctx: Context, args: Common, command: TournamentCommand) =>
  divisionParent(await run(ctx, args, command), args.division);

export const pair = (args: { readonly player: number; readonly opponent: number }): readonly [number, number] => [
  args.player,
  args.opponent,
];

/** Both scores or neither (a forfeit's are the rule set's). */
const scoresOf = (score: number | null | undefined, opponentScore: number | null | undefined): readonly [number, number] | null => {
  if (score == null && opponentScore == null) return null;
  if (score == null || opponentScore == null)
    throw new ValidationError([
      { field: score == null ? 'score' : 'opponentScore', message: 'Give both scores, or neither for a forfeit.' },
    ]);
  return [score, opponentScore];
};

export const SCORE = (t: T, description: string, required: boolean) =>
  t.arg.int({
    required,
    description,
    validate: required ? z.number().int().min(-1000).max(5000) : z.number().int().min(-1000).max(5000).nullish(),
  });

builder.mutationFields((t) => ({
  createTournament: t.field({
    type: TournamentType,
    description: 'Creates a tournament of an event you direct, with its divisions (NOT_DIRECTOR otherwise).',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('CreateTournamentResult', 'Tournament') },
    args: {
      input: t.arg({ type: CreateTournamentInput, required: true, description: 'The tournament and its divisions.' }),
      idempotencyKey: tournamentArgs(t).idempotencyKey,
    },
    resolve: async (_root, args, ctx) =>
      value(
        await createTournament(deps(ctx), requirePlayer(ctx).player.id, newTournamentOf(args.input), args.idempotencyKey ?? null),
        'input.',
      ),
  }),
  importTshDivision: t.field({
    type: TournamentType,
    description:
      'Adds a division from a TSH .t file: its players, pairings and results (TSH_PARSE_ERROR names the line and the field). Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('ImportTshDivisionResult', 'Tournament') },
    args: {
      tournamentId: t.arg.id({ required: true, description: TOURNAMENT_ID }),
      division: t.arg({ type: DivisionInputType, required: true, description: 'The new division’s settings (its name, rounds …).' }),
      text: t.arg.string({ required: true, description: 'The .t file’s text.', validate: z.string().min(1).max(2_000_000) }),
    },
    resolve: async (_root, args, ctx) =>
      value(
        await importTshDivision(
          deps(ctx),
          requirePlayer(ctx).player.id,
          String(args.tournamentId),
          divisionInputOf(args.division, 'division'),
          args.text,
        ),
        'division.',
      ),
  }),
}));

builder.mutationFields((t) => ({
  addTournamentPlayer: t.field({
    type: DivisionType,
    description:
      'Adds a player to a division: an account (handle) or a name only, with a seed rating and an optional class. Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('AddTournamentPlayerResult', 'Division') },
    args: {
      ...tournamentArgs(t),
      handle: t.arg.string({
        required: false,
        description: 'The player’s handle, for an account (the name defaults to its display name).',
      }),
      name: t.arg.string({
        required: false,
        description: 'The name shown, e.g. "Smith, Ann"; required without a handle.',
        validate: z.string().trim().min(1).max(100).nullish(),
      }),
      rating: t.arg.int({
        required: false,
        description: 'Seed rating, 0–4000 (default 0).',
        validate: z.number().int().min(0).max(4000).nullish(),
      }),
      class: t.arg.string({ required: false, description: 'Rating class, e.g. "B".', validate: z.string().trim().min(1).max(8).nullish() }),
    },
    resolve: async (_root, args, ctx) => {
      const account = args.handle ? value(await entrantAccount(deps(ctx), args.handle)) : null;
      const name = args.name?.trim() || account?.displayName;
      if (!name) throw new ValidationError([{ field: 'name', message: 'Give a handle or a name.' }]);
      return inDivision(ctx, args, {
        type: 'add-player',
        division: args.division,
        name,
        playerId: account?.id ?? null,
        rating: args.rating ?? 0,
        class: args.class?.trim() || null,
      });
    },
  }),
  withdrawTournamentPlayer: t.field({
    type: DivisionType,
    description: 'Withdraws a player from a round on (default: the first round not started); their games before stay. Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('WithdrawTournamentPlayerResult', 'Division') },
    args: {
      ...tournamentArgs(t),
      player: t.arg.int({ required: true, description: 'The entrant number.' }),
      fromRound: t.arg.int({ required: false, description: 'The first round they no longer play.' }),
      reason: t.arg.string({ required: false, description: 'Why, for the record.', validate: z.string().max(500).nullish() }),
    },
    resolve: (_root, args, ctx) =>
      inDivision(ctx, args, {
        type: 'withdraw-player',
        division: args.division,
        player: args.player,
        fromRound: args.fromRound ?? null,
        reason: args.reason ?? '',
      }),
  }),
}));

builder.mutationFields((t) => ({
  prePairCouple: t.field({
    type: RoundType,
    description: 'Fixes a couple before the round is paired: the method pairs the rest. Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('PrePairCoupleResult', 'Round') },
    args: gameArgs(t),
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, { type: 'pre-pair', division: args.division, round: args.round, players: pair(args) }),
  }),
  pairRound: t.field({
    type: RoundType,
    description:
      'Pairs a round by its method (or `method`), and re-pairs it until it starts; every pairing is kept with its author. Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('PairRoundResult', 'Round') },
    args: {
      ...roundArgs(t),
      method: t.arg({ type: PairingMethodEnum, required: false, description: 'Overrides the round’s planned method.' }),
      seed: t.arg.string({
        required: false,
        description: 'The seed of the draws (default: a fresh random one, recorded).',
        validate: z.string().min(1).max(100).nullish(),
      }),
    },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, {
        type: 'pair-round',
        division: args.division,
        round: args.round,
        method: args.method ?? null,
        seed: args.seed ?? randomUUID(),
      }),
  }),
}));

builder.mutationFields((t) => ({
  overridePairing: t.field({
    type: RoundType,
    description:
      'Replaces a round’s pairing with the director’s: every game, first player first, and the bye. Kept in the history with the reason.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('OverridePairingResult', 'Round') },
    args: {
      ...roundArgs(t),
      games: t.arg({ type: [PairingInput], required: true, description: 'Every game of the round.' }),
      bye: t.arg.int({ required: false, description: 'The player with the bye, in an odd round.' }),
      reason: t.arg.string({ required: true, description: 'Why, for the record.', validate: z.string().trim().min(1).max(500) }),
    },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, {
        type: 'override-pairing',
        division: args.division,
        round: args.round,
        games: args.games.map((g) => [g.first, g.second] as const),
        bye: args.bye ?? null,
        reason: args.reason,
      }),
  }),
  startRound: t.field({
    type: RoundType,
    description: 'Starts a paired round: its pairing is then fixed. Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('StartRoundResult', 'Round') },
    args: roundArgs(t),
    resolve: (_root, args, ctx) => inRound(ctx, args, { type: 'start-round', division: args.division, round: args.round }),
  }),
  endRound: t.field({
    type: RoundType,
    description: 'Ends a round (ROUND_HAS_OPEN_GAMES while a game has no result). Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('EndRoundResult', 'Round') },
    args: roundArgs(t),
    resolve: (_root, args, ctx) => inRound(ctx, args, { type: 'end-round', division: args.division, round: args.round }),
  }),
}));

builder.mutationFields((t) => ({
  startLateClock: t.field({
    type: RoundType,
    description: 'Starts a late player’s clock: no earlier than 5 minutes after the announced start (seed-001 §1). Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('StartLateClockResult', 'Round') },
    args: { ...roundArgs(t), player: t.arg.int({ required: true, description: 'The late player (entrant number).' }) },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, { type: 'start-late-clock', division: args.division, round: args.round, player: args.player }),
  }),
  forfeitLateArrival: t.field({
    type: RoundType,
    description:
      'Forfeits a late player’s game: at 25 minutes after the announced start, or when their clock would read −0:01 (seed-001 §1). Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('ForfeitLateArrivalResult', 'Round') },
    args: { ...roundArgs(t), player: t.arg.int({ required: true, description: 'The late player (entrant number).' }) },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, { type: 'forfeit-late', division: args.division, round: args.round, player: args.player }),
  }),
}));

builder.mutationFields((t) => ({
  recordResult: t.field({
    type: RoundType,
    description: 'Records a game’s result: its tally slip (seed-001 §3). A director, the game’s scorekeeper or one of its players.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('RecordResultResult', 'Round') },
    args: {
      ...gameArgs(t),
      score: SCORE(t, 'The player’s score (both or neither: a forfeit’s default to the rule set’s forfeit spread).', false),
      opponentScore: SCORE(t, 'The opponent’s score.', false),
      kind: t.arg({ type: ResultKindEnum, required: false, description: 'Played (default) or forfeit.' }),
      forfeiter: t.arg.int({ required: false, description: 'A forfeit: who forfeited (player or opponent).' }),
      forfeitReason: t.arg({ type: ForfeitReasonEnum, required: false, description: 'A forfeit: why (default DIRECTOR).' }),
      gameId: t.arg.id({ required: false, description: 'The Arbiter game it was played as (a recorded game), if any.' }),
    },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, {
        type: 'record-result',
        division: args.division,
        round: args.round,
        players: pair(args),
        scores: scoresOf(args.score, args.opponentScore),
        kind: args.kind ?? 'played',
        forfeiter: args.forfeiter ?? null,
        forfeitReason: args.forfeitReason ?? null,
        gameId: args.gameId == null ? null : String(args.gameId),
        final: false,
      }),
  }),
}));

builder.mutationFields((t) => ({
  correctSlip: t.field({
    type: RoundType,
    description:
      'Corrects a slip’s scores before it is submitted (SLIP_SUBMITTED after: changeSlip). Either player, the scorekeeper or a director.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('CorrectSlipResult', 'Round') },
    args: { ...gameArgs(t), score: SCORE(t, 'The player’s score.', true), opponentScore: SCORE(t, 'The opponent’s score.', true) },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, {
        type: 'correct-slip',
        division: args.division,
        round: args.round,
        players: pair(args),
        scores: [args.score, args.opponentScore],
      }),
  }),
  signSlip: t.field({
    type: RoundType,
    description:
      'Signs a slip: a player of the game for themselves (SLIP_SIGNER_NOT_IN_GAME for anyone else), or its scorekeeper for both.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('SignSlipResult', 'Round') },
    args: gameArgs(t),
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, { type: 'sign-slip', division: args.division, round: args.round, players: pair(args) }),
  }),
}));

builder.mutationFields((t) => ({
  submitSlip: t.field({
    type: RoundType,
    description: 'Submits a signed slip: its scores are then final but for a director’s ruling. A director or the scorekeeper.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('SubmitSlipResult', 'Round') },
    args: gameArgs(t),
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, { type: 'submit-slip', division: args.division, round: args.round, players: pair(args) }),
  }),
  changeSlip: t.field({
    type: RoundType,
    description:
      'Changes a submitted slip by a director’s tally-slip-change ruling (seed-001 §3): kept with who, when and why. Directors only.',
    authScopes: PLAY,
    errors: { ...ERRORS, union: resultUnion('ChangeSlipResult', 'Round') },
    args: {
      ...gameArgs(t),
      score: SCORE(t, 'The player’s score.', true),
      opponentScore: SCORE(t, 'The opponent’s score.', true),
      reason: t.arg.string({
        required: true,
        description: 'What the director found, for the record.',
        validate: z.string().trim().min(1).max(500),
      }),
      disputeId: t.arg.id({ required: false, description: 'The tally-slip-change dispute filed, if one was.' }),
      findings: t.arg({
        type: SlipFindingsInput,
        required: false,
        description: 'What the director found (the dispute’s facts); defaults in SlipFindingsInput.',
      }),
    },
    resolve: (_root, args, ctx) =>
      inRound(ctx, args, {
        type: 'change-slip',
        division: args.division,
        round: args.round,
        players: pair(args),
        scores: [args.score, args.opponentScore],
        ruling: {
          kind: 'tally-slip-change',
          reason: args.reason.trim(),
          disputeId: args.disputeId == null ? null : String(args.disputeId),
          findings: {
            ...(args.findings?.slipMatchesAgreedScore == null ? {} : { slipMatchesAgreedScore: args.findings.slipMatchesAgreedScore }),
            ...(args.findings?.substantiatedByScoreSheets == null
              ? {}
              : { substantiatedByScoreSheets: args.findings.substantiatedByScoreSheets }),
            ...(args.findings?.bothAgree == null ? {} : { bothAgree: args.findings.bothAgree }),
            ...(args.findings?.unethicalConductProven == null ? {} : { unethicalConductProven: args.findings.unethicalConductProven }),
          },
        },
      }),
  }),
}));
