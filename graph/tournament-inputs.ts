import * as z from 'zod';
import type { DivisionInput, NewTournamentInput } from '../service/tournaments.js';
import { builder } from './builder.js';
import { DivisionModeEnum, PairingMethodEnum, RuleSetPresetEnum } from './enums.js';
import { TimeControlInput, timeControlOf } from './game-inputs.js';
import { TileSetIdEnum } from './tile-sets.js';
import { RatingSystemEnum } from './tournament-ratings.js';

/**
 * The input types of the tournament mutations (graph/tournament-mutations.ts): a new tournament with its
 * divisions, a division's settings (also those of a TSH import), a round's plan, one pair of an
 * override. Ranges the API checks itself are zod rules here; what depends on the tournament (a name taken,
 * a round that does not exist) is the engine's, answered with its code.
 */

export const MAX_TOURNAMENT_NAME = 100;
export const MAX_DIVISION_NAME = 40;
export const MAX_ROUNDS = 100;
export const MAX_DIVISIONS = 20;

export const divisionNameSchema = z.string().trim().min(1).max(MAX_DIVISION_NAME);

const RoundPlanInput = builder.inputType('RoundPlanInput', {
  description: 'One round’s plan: its method, and its announced start (over the board) or deadline (correspondence).',
  fields: (t) => ({
    method: t.field({
      type: PairingMethodEnum,
      required: false,
      description: 'The round’s pairing method (default: the division’s method).',
    }),
    startsAt: t.field({
      type: 'DateTime',
      required: false,
      description: 'The announced start (seed-001 §1: late arrival is judged from it).',
    }),
    deadline: t.field({ type: 'DateTime', required: false, description: 'A correspondence round’s deadline for its games.' }),
  }),
});

export const EntrantInputType = builder.inputType('EntrantInput', {
  description: 'A player of a new division: an account (handle) or a name only, with a seed rating and an optional class.',
  fields: (t) => ({
    handle: t.string({ required: false, description: 'The player’s handle, for an account (the name defaults to its display name).' }),
    name: t.string({
      required: false,
      description: 'The name shown, e.g. "Smith, Ann"; required without a handle.',
      validate: z.string().trim().min(1).max(100).nullish(),
    }),
    rating: t.int({
      required: false,
      description: 'Seed rating, 0–4000 (default 0).',
      validate: z.number().int().min(0).max(4000).nullish(),
    }),
    class: t.string({ required: false, description: 'A rating class, e.g. "B".', validate: z.string().trim().min(1).max(20).nullish() }),
  }),
});

export const DivisionInputType = builder.inputType('DivisionInput', {
  description: 'A division’s settings, fixed once it exists (as a game’s rule set is). Only name and rounds are required.',
  fields: (t) => ({
    name: t.string({
      description: `Its name, unique in the tournament, 1–${MAX_DIVISION_NAME} characters, e.g. "A".`,
      validate: divisionNameSchema,
    }),
    mode: t.field({ type: DivisionModeEnum, required: false, description: 'Over the board (default) or a correspondence league.' }),
    preset: t.field({ type: RuleSetPresetEnum, required: false, description: 'The rule-set preset (default NSA_2008).' }),
    overrides: t.field({
      type: 'JSON',
      required: false,
      description: 'Rule-set overrides, nested like the rule set: {"tournament": {"byeSpread": 100}}.',
    }),
    lexicon: t.string({ required: false, description: 'Lexicon name (default: the server’s default).' }),
    tileSet: t.field({ type: TileSetIdEnum, required: false, description: 'The tile set (default: the rule set’s).' }),
    layout: t.string({ required: false, description: 'A named board layout (default: the rule set’s; see the layouts query).' }),
    rounds: t.int({ description: `Rounds, 1–${MAX_ROUNDS}.`, validate: z.number().int().min(1).max(MAX_ROUNDS) }),
    method: t.field({
      type: PairingMethodEnum,
      required: false,
      description: 'The method of every round without a plan of its own (default SWISS).',
    }),
    roundPlans: t.field({
      type: [RoundPlanInput],
      required: false,
      description: 'Per round, in order (round 1 first); may be shorter than rounds.',
      validate: z.array(z.unknown()).max(MAX_ROUNDS).nullish(),
    }),
    maxRepeats: t.int({
      required: false,
      description: 'How often two players may meet again (default 0: once only).',
      validate: z.number().int().min(0).max(MAX_ROUNDS).nullish(),
    }),
    gibsonSpreadPerGame: t.int({
      required: false,
      description: 'Spread a win is worth per game left when deciding who has clinched first (Gibsonization).',
      validate: z.number().int().min(0).max(1000).nullish(),
    }),
    timeControl: t.field({
      type: TimeControlInput,
      required: false,
      description: 'A correspondence league’s clock (default: 3 days a turn, no bank). Not for over-the-board divisions.',
    }),
    ratingSystem: t.field({
      type: RatingSystemEnum,
      required: false,
      description: 'The rating system of its ratings out, computed after each complete round (default GLICKO2).',
    }),
    players: t.field({
      type: [EntrantInputType],
      required: false,
      description: 'Its players, in entrant order (entrant 1 first); more may be added later with addTournamentPlayer.',
      validate: z.array(z.unknown()).max(1000).nullish(),
    }),
  }),
});

export const CreateTournamentInput = builder.inputType('CreateTournamentInput', {
  description: 'A new tournament of an event you direct, with its divisions.',
  fields: (t) => ({
    organizationId: t.id({
      description: 'The event (an organization of kind EVENT) it belongs to; you must direct it (NOT_DIRECTOR otherwise).',
    }),
    name: t.string({
      description: `Its name, 1–${MAX_TOURNAMENT_NAME} characters.`,
      validate: z.string().trim().min(1).max(MAX_TOURNAMENT_NAME),
    }),
    public: t.boolean({ required: false, description: 'Pairings and standings public, on the standings page too (default true).' }),
    divisions: t.field({
      type: [DivisionInputType],
      description: `Its divisions, 1–${MAX_DIVISIONS}.`,
      validate: z.array(z.unknown()).min(1).max(MAX_DIVISIONS),
    }),
  }),
});

export const PairingInput = builder.inputType('PairingInput', {
  description: 'One game of a round as the director pairs it: who goes first and who second.',
  fields: (t) => ({
    first: t.int({ description: 'The entrant number of the player who goes first.' }),
    second: t.int({ description: 'The entrant number of the player who goes second.' }),
  }),
});

type DivisionShape = (typeof DivisionInputType)['$inferInput'];
type TournamentShape = (typeof CreateTournamentInput)['$inferInput'];

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** A division's settings as the service takes them; `field` names the input for errors (`input.divisions.0`). */
export const divisionInputOf = (d: DivisionShape, field: string): DivisionInput => ({
  name: d.name.trim(),
  mode: d.mode ?? null,
  ruleSet: d.preset ?? null,
  overrides: d.overrides ?? null,
  lexicon: d.lexicon ?? null,
  tileSet: d.tileSet ?? null,
  layout: d.layout ?? null,
  rounds: d.rounds,
  method: d.method ?? null,
  roundPlans: d.roundPlans?.map((p) => ({ method: p.method ?? null, startsAt: iso(p.startsAt), deadline: iso(p.deadline) })) ?? null,
  maxRepeats: d.maxRepeats ?? null,
  gibsonSpreadPerGame: d.gibsonSpreadPerGame ?? null,
  timeControl: timeControlOf(d.timeControl, `${field}.timeControl`),
  ratingSystem: d.ratingSystem ?? null,
  players:
    d.players?.map((p) => ({
      handle: p.handle ?? null,
      name: p.name?.trim() ?? null,
      rating: p.rating ?? null,
      class: p.class?.trim() ?? null,
    })) ?? null,
});

export const newTournamentOf = (input: TournamentShape): NewTournamentInput => ({
  organizationId: String(input.organizationId),
  name: input.name.trim(),
  public: input.public ?? null,
  divisions: input.divisions.map((d, i) => divisionInputOf(d, `input.divisions.${i}`)),
});

export const SlipFindingsInput = builder.inputType('SlipFindingsInput', {
  description:
    'What the director found about a submitted slip: the facts of the tally-slip-change dispute kind that the scores alone do not show. Each left out: a slip that does not show the agreed score, as the score sheets substantiate.',
  fields: (t) => ({
    slipMatchesAgreedScore: t.boolean({
      required: false,
      description: 'The slip shows the score the players agreed (then only unethical conduct opens it).',
    }),
    substantiatedByScoreSheets: t.boolean({
      required: false,
      description: 'The players’ score sheets or score cards show the agreed score.',
    }),
    bothAgree: t.boolean({ required: false, description: 'Both players agree to the correction (WESPA 5.4.1, before hand-in).' }),
    unethicalConductProven: t.boolean({
      required: false,
      description: 'Unethical behaviour was proven or admitted after the fact (seed-001 §3: the director’s discretion).',
    }),
  }),
});
