import type { RuleError } from '../engine/errors.js';
import type { Result } from '../engine/result.js';
import { crosstable } from '../engine/tournament/crosstable.js';
import { ratingLine, ratingSystemOf } from '../engine/tournament/ratings.js';
import { standings } from '../engine/tournament/standings.js';
import type { DivisionState } from '../engine/tournament/state.js';
import { gameOrganization } from '../service/organizations.js';
import {
  exportTshDivision,
  getTournament,
  listTournaments,
  standingsCsv,
  tournamentLog,
  type TournamentLogEntry,
  type TournamentSummary,
  type TournamentView,
} from '../service/tournaments.js';
import { builder } from './builder.js';
import { connectionOf, requireForward } from './connection.js';
import type { Context } from './context.js';
import { DivisionModeEnum, TournamentEventTypeEnum, TournamentViewerRoleEnum } from './enums.js';
import {
  ForbiddenError,
  NotFoundError,
  resultUnion,
  RuleViolation,
  StaleVersionError,
  UnauthenticatedError,
  ValidationError,
} from './errors.js';
import { TimeControlType } from './game-clock.js';
import { deps, value as gameValue, valueOrNull } from './game.js';
import { OrganizationType } from './organizations.js';
import { RuleSetType } from './rules.js';
import { RatingSystemEnum } from './tournament-ratings.js';
import { ActorType, CrosstableRowType, EntrantType, RoundPlanType, RoundType, StandingType, type RoundParent } from './tournament-types.js';

/**
 * Tournaments (issue 30, item 9): `tournament(id)`, `tournaments(organizationId)`, the `Tournament` and
 * `Division` types, and the mapping of the tournament service's errors to typed ones. The parts (rounds,
 * pairings, slips, standings, crosstable) are graph/tournament-types.ts; the mutations
 * graph/tournament-mutations.ts. Who may do what is the service's business (the event's directors pair
 * and rule, players sign their own slips, nobody else writes); reading a public tournament needs no
 * credential at all.
 */

const NOT_FOUND_CODES = new Set(['TOURNAMENT_NOT_FOUND', 'DIVISION_NOT_FOUND', 'ROUND_NOT_FOUND']);

/** The engine's `field` of a BAD_INPUT, as the argument that carries it is named here. */
const ARGUMENT_OF: Readonly<Record<string, string>> = {
  'scores[0]': 'score',
  'scores[1]': 'opponentScore',
  scores: 'score',
  players: 'opponent',
};

/** A version from an error's details (-1 when it names none: the Int field must have a number). */
const versionOf = (v: unknown): number => (Number.isInteger(v) ? (v as number) : -1);

/**
 * The value of a tournament service result. TOURNAMENT_NOT_FOUND, DIVISION_NOT_FOUND and ROUND_NOT_FOUND
 * become a NotFoundError with that code; a stale `expectedVersion` (VERSION_CONFLICT or STALE_VERSION) a
 * StaleVersionError; BAD_INPUT a ValidationError naming the argument (under `prefix`, e.g. `input.`); every
 * other code a RuleViolation with its citation (graph/errors.ts).
 */
export const value = <T>(r: Result<T, RuleError>, prefix = ''): T => {
  if (r.ok) return r.value;
  const e = r.error;
  const details = e.details ? { ...e.details } : undefined;
  if (NOT_FOUND_CODES.has(e.code)) throw new NotFoundError(e.message, details, e.code);
  if (e.code === 'VERSION_CONFLICT' || e.code === 'STALE_VERSION')
    throw new StaleVersionError(e.message, {
      ...details,
      expected: versionOf(details?.['expected']),
      actual: versionOf(details?.['actual']),
    });
  if (e.code === 'BAD_INPUT') {
    const field = String(details?.['field'] ?? '');
    throw new ValidationError([{ field: `${prefix}${ARGUMENT_OF[field] ?? field}`, message: e.message }]);
  }
  return gameValue(r);
};

/**
 * Who reads: the calling player when they may read games (a token, or an API key with games:read), else
 * nobody (null: public tournaments only). Reading never fails for want of a credential.
 */
export const viewerId = (ctx: Context): string | null =>
  ctx.principal.kind === 'player' && ctx.principal.scopes.includes('games:read') ? ctx.principal.player.id : null;

/** A division with the tournament it belongs to. */
export interface DivisionParent {
  readonly view: TournamentView;
  readonly division: DivisionState;
}

export const divisionParent = (view: TournamentView, name: string): DivisionParent => {
  const division = view.state.divisions.find((d) => d.spec.name === name);
  if (!division)
    throw new NotFoundError(`No division "${name}" in this tournament.`, { field: 'division', division: name }, 'DIVISION_NOT_FOUND');
  return { view, division };
};

export const roundParent = (parent: DivisionParent, number: number): RoundParent => {
  const round = parent.division.rounds[number - 1];
  if (!round || !Number.isInteger(number))
    throw new NotFoundError(
      `Division ${parent.division.spec.name} has rounds 1–${parent.division.rounds.length}; there is no round ${number}.`,
      { field: 'round', round: number },
      'ROUND_NOT_FOUND',
    );
  return { division: parent.division, round, tournamentId: parent.view.id, version: parent.view.version };
};

const readTournament = async (ctx: Context, id: string): Promise<TournamentView> =>
  value(await getTournament(deps(ctx), viewerId(ctx), id));

const MyEntrantType = builder.objectRef<TournamentView['myEntrants'][number]>('MyEntrant').implement({
  description: 'A division you play in, and your entrant number there.',
  fields: (t) => ({
    division: t.exposeString('division', { description: 'The division’s name.' }),
    number: t.exposeInt('number', { description: 'Your entrant number in it.' }),
  }),
});

const LogEntryType = builder.objectRef<TournamentLogEntry>('TournamentLogEntry').implement({
  description: 'One event of a tournament’s log (append-only; standings are always computed from it).',
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'The tournament’s version after this event (1 = the first).' }),
    type: t.field({ type: TournamentEventTypeEnum, description: 'What it records.', resolve: (e) => e.type as never }),
    at: t.field({ type: 'DateTime', description: 'When.', resolve: (e) => new Date(e.at) }),
    by: t.exposeString('by', { description: 'Who, by handle or name (or system).' }),
    payload: t.field({ type: 'JSON', description: 'The event’s data as stored.', resolve: (e) => e.payload }),
  }),
});

export const TournamentType = builder.node(builder.objectRef<TournamentView>('Tournament'), {
  description:
    'A tournament of an event: its divisions with their players, rounds, pairings, slips, standings and crosstable, all computed from its append-only log (docs/tournaments.md). A Node.',
  id: { resolve: (v) => v.id },
  loadOne: async (id, ctx) => valueOrNull(await getTournament(deps(ctx), viewerId(ctx), id), value),
  fields: (t) => ({
    name: t.string({ description: 'The tournament’s name.', resolve: (v) => v.state.name }),
    organizationId: t.exposeID('organizationId', { description: 'The event it belongs to (Organization.id).' }),
    public: t.boolean({
      description: 'Pairings and standings are public (the standings page, GET without a credential).',
      resolve: (v) => v.state.public,
    }),
    version: t.exposeInt('version', { description: 'Events in its log: send it as expectedVersion (REST: the ETag, If-Match).' }),
    viewerRole: t.field({ type: TournamentViewerRoleEnum, description: 'How you stand to it.', resolve: (v) => v.viewerRole }),
    myEntrants: t.field({
      type: [MyEntrantType],
      description: 'The divisions you play in, with your number.',
      resolve: (v) => [...v.myEntrants],
    }),
    createdBy: t.field({ type: ActorType, description: 'Who created it.', resolve: (v) => v.state.createdBy }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its log last grew.' }),
  }),
});

export const DivisionType = builder.objectRef<DivisionParent>('Division').implement({
  description:
    'A division: its settings (fixed at creation, as a game’s rule set is), its players, its rounds, and the standings and crosstable computed from the log.',
  fields: (t) => ({
    name: t.string({ description: 'Its name, unique in the tournament, e.g. "A".', resolve: (d) => d.division.spec.name }),
    tournamentId: t.id({ description: 'The tournament’s id.', resolve: (d) => d.view.id }),
    version: t.int({ description: 'The tournament’s version (REST: the ETag).', resolve: (d) => d.view.version }),
    mode: t.field({
      type: DivisionModeEnum,
      description: 'Over the board or a correspondence league.',
      resolve: (d) => d.division.spec.mode,
    }),
    ruleSetId: t.string({ description: 'The rule-set preset it started from, e.g. NSA_2008.', resolve: (d) => d.division.spec.ruleSetId }),
    overrides: t.field({ type: 'JSON', description: 'The overrides applied to the preset.', resolve: (d) => d.division.spec.overrides }),
    lexicon: t.string({ description: 'The lexicon its games are judged by.', resolve: (d) => d.division.spec.lexicon }),
    tileSet: t.string({ description: 'The tile set.', resolve: (d) => d.division.spec.tileSet }),
    layout: t.string({ description: 'The board layout’s name.', resolve: (d) => d.division.spec.layout }),
    roundCount: t.int({ description: 'Rounds in the division.', resolve: (d) => d.division.spec.rounds.length }),
    maxRepeats: t.int({ description: 'How often two players may meet again (0: once only).', resolve: (d) => d.division.spec.maxRepeats }),
    gibsonSpreadPerGame: t.int({
      description: 'Spread a win is worth per game left when deciding who has clinched first (Gibsonization).',
      resolve: (d) => d.division.spec.gibsonSpreadPerGame,
    }),
    ratingSystem: t.field({
      type: RatingSystemEnum,
      description: 'The rating system of its ratings out (Entrant and Standing ratingOut).',
      resolve: (d) => ratingSystemOf(d.division),
    }),
  }),
});

builder.objectFields(DivisionType, (t) => ({
  ruleSet: t.field({
    type: RuleSetType,
    description: 'The resolved rule set (preset and overrides).',
    resolve: (d) => d.division.spec.rules,
  }),
  timeControl: t.field({
    type: TimeControlType,
    nullable: true,
    description: 'A correspondence league’s clock for its games; null over the board.',
    resolve: (d) => (d.division.spec.timeControl ? { tc: d.division.spec.timeControl, clock: null, readings: null } : null),
  }),
  plans: t.field({
    type: [RoundPlanType],
    description: 'Per round: its method and its announced start or deadline.',
    resolve: (d) => d.division.spec.rounds.map((p, i) => ({ ...p, round: i + 1 })),
  }),
  entrants: t.field({
    type: [EntrantType],
    description: 'Its players, by entrant number.',
    resolve: (d) => d.division.entrants.map((entrant) => ({ division: d.division, entrant })),
  }),
  rounds: t.field({
    type: [RoundType],
    description: 'Its rounds, in order.',
    resolve: (d) => d.division.rounds.map((_r, i) => roundParent(d, i + 1)),
  }),
  round: t.field({
    type: RoundType,
    nullable: true,
    description: 'One round; null when there is no such round.',
    args: { number: t.arg.int({ required: true, description: 'The round, 1-based.' }) },
    resolve: (d, args) => (d.division.rounds[args.number - 1] ? roundParent(d, args.number) : null),
  }),
  standings: t.field({
    type: [StandingType],
    description: 'The standings, best first, computed from the log (engine/tournament/standings.ts).',
    args: { throughRound: t.arg.int({ required: false, description: 'Only rounds 1 to this one (default: every round).' }) },
    resolve: (d, args) =>
      standings(d.division, args.throughRound ?? undefined).map((row) => ({
        ...row,
        ratings: ratingLine(d.division, row.entrant.number, args.throughRound ?? undefined),
      })),
  }),
  crosstable: t.field({
    type: [CrosstableRowType],
    description: 'The crosstable: a row per player in standings order, a cell per round.',
    args: { throughRound: t.arg.int({ required: false, description: 'Only rounds 1 to this one (default: every round).' }) },
    resolve: (d, args) => crosstable(d.division, args.throughRound ?? undefined),
  }),
  tshFile: t.string({
    description: 'The division as a TSH .t file (REST: GET …/divisions/{division}.t, text/plain).',
    resolve: async (d, _args, ctx) => value(await exportTshDivision(deps(ctx), viewerId(ctx), d.view.id, d.division.spec.name)),
  }),
  standingsCsv: t.string({
    description: 'The standings as CSV, a header line first (REST: GET …/divisions/{division}/standings.csv, text/csv).',
    resolve: async (d, _args, ctx) => value(await standingsCsv(deps(ctx), viewerId(ctx), d.view.id, d.division.spec.name)),
  }),
}));

builder.objectFields(TournamentType, (t) => ({
  organization: t.field({
    type: OrganizationType,
    nullable: true,
    description: 'The event it belongs to, with its directors.',
    resolve: (v, _args, ctx) => gameOrganization(deps(ctx), v.organizationId),
  }),
  divisions: t.field({
    type: [DivisionType],
    description: 'Its divisions, in the order added.',
    resolve: (v) => v.state.divisions.map((division) => ({ view: v, division })),
  }),
  division: t.field({
    type: DivisionType,
    nullable: true,
    description: 'One division by name; null when there is none.',
    args: { name: t.arg.string({ required: true, description: 'The division’s name, e.g. "A".' }) },
    resolve: (v, args) => {
      const division = v.state.divisions.find((d) => d.spec.name === args.name);
      return division ? { view: v, division } : null;
    },
  }),
  log: t.field({
    type: [LogEntryType],
    description: 'Its events after version `after`, in order.',
    args: { after: t.arg.int({ required: false, description: 'Events after this version only (default 0: all).' }) },
    resolve: async (v, args, ctx) => [...value(await tournamentLog(deps(ctx), viewerId(ctx), v.id, args.after ?? 0))],
  }),
}));

const TournamentSummaryType = builder.objectRef<TournamentSummary>('TournamentSummary').implement({
  description: 'A tournament in a list: read the whole of it with tournament(id:).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The tournament’s id.' }),
    organizationId: t.exposeID('organizationId', { description: 'The event it belongs to.' }),
    name: t.exposeString('name', { description: 'Its name.' }),
    public: t.exposeBoolean('public', { description: 'Its pairings and standings are public.' }),
    version: t.exposeInt('version', { description: 'Events in its log.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

const READ_ERRORS = [UnauthenticatedError, ForbiddenError, NotFoundError, RuleViolation, ValidationError];
export const TOURNAMENT_ID = 'The tournament’s id (Tournament.id).';
export const DIVISION_NAME = 'The division’s name, e.g. "A".';

builder.queryFields((t) => ({
  tournament: t.field({
    type: TournamentType,
    description: 'A tournament: public ones to anyone; a private one to its directors and players only (NOT_FOUND otherwise).',
    errors: { types: READ_ERRORS, directResult: true, union: resultUnion('TournamentResult', 'Tournament') },
    args: { id: t.arg.id({ required: true, description: TOURNAMENT_ID }) },
    resolve: (_root, args, ctx) => readTournament(ctx, String(args.id)),
  }),
  tournamentDivision: t.field({
    type: DivisionType,
    description: 'One division of a tournament, with its standings and crosstable (what the REST division routes read).',
    errors: { types: READ_ERRORS, directResult: true, union: resultUnion('TournamentDivisionResult', 'Division') },
    args: {
      tournamentId: t.arg.id({ required: true, description: TOURNAMENT_ID }),
      division: t.arg.string({ required: true, description: DIVISION_NAME }),
    },
    resolve: async (_root, args, ctx) => divisionParent(await readTournament(ctx, String(args.tournamentId)), args.division),
  }),
  tournamentRound: t.field({
    type: RoundType,
    description: 'One round of a division: its pairings with their slips, byes and pairing history.',
    errors: { types: READ_ERRORS, directResult: true, union: resultUnion('TournamentRoundResult', 'Round') },
    args: {
      tournamentId: t.arg.id({ required: true, description: TOURNAMENT_ID }),
      division: t.arg.string({ required: true, description: DIVISION_NAME }),
      round: t.arg.int({ required: true, description: 'The round, 1-based.' }),
    },
    resolve: async (_root, args, ctx) =>
      roundParent(divisionParent(await readTournament(ctx, String(args.tournamentId)), args.division), args.round),
  }),
  tournaments: t.connection(
    {
      type: TournamentSummaryType,
      description:
        'Tournaments you may see (public ones, and those you direct or play in), newest first; of one event with organizationId. Forward pagination.',
      args: { organizationId: t.arg.id({ required: false, description: 'Only this event’s (Organization.id).' }) },
      resolve: async (_root, args, ctx) => {
        requireForward('tournaments', args);
        const page = value(
          await listTournaments(deps(ctx), viewerId(ctx), {
            organizationId: args.organizationId == null ? null : String(args.organizationId),
            first: args.first ?? null,
            after: args.after ?? null,
          }),
        );
        return connectionOf(page);
      },
    },
    { description: 'A page of tournaments (tournaments).' },
    { description: 'One tournament, with its cursor.' },
  ),
}));
