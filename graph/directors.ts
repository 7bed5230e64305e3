import * as z from 'zod';
import { appealDispute, ruleOnDispute, setDirector } from '../service/directors.js';
import { gameDisputes } from '../service/disputes.js';
import { getGame } from '../service/game-reads.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../service/turns.js';
import type { RoleGrant } from '../service/directors.js';
import { builder } from './builder.js';
import { requirePlayer, requireScope } from './context.js';
import { PlayerRoleEnum } from './enums.js';
import { GAME_ERRORS, resultUnion } from './errors.js';
import { deps, value } from './game.js';
import { FiledDisputeType } from './game-disputes.js';
import { OrganizationType } from './organizations.js';
import type { Context } from './context.js';
import type { DisputeReceipt } from '../service/disputes.js';

/**
 * Directors (issue 14, item 4): `ruleOnDispute` (a director, API scope disputes:rule), `appealDispute`
 * (a seated player, once per dispute), and `grantDirector` / `revokeDirector` (an admin). docs/adjudication.md.
 */

const CitationInput = builder.inputType('DirectorCitationInput', {
  description: 'The rule a director relies on.',
  fields: (t) => ({
    source: t.string({ description: 'The rule document: seed-000 … seed-003, wespa-3.0, naspa, woogles, gcg or override.' }),
    rule: t.string({ description: 'The rule or section in it, e.g. `3.10.15(b)`.', validate: z.string().trim().min(1).max(100) }),
  }),
});

const DirectorRulingInput = builder.inputType('DirectorRulingInput', {
  description: 'What a director rules: a remedy the rules allow, the reasons, and the rule relied on.',
  fields: (t) => ({
    remedy: t.string({
      description:
        'A ruling code among the remedies the rules allow for this dispute (REMEDY_NOT_ALLOWED lists them in details.allowed); NO_PENALTY dismisses it.',
    }),
    note: t.string({
      description: 'The director’s reasons, for the record (at most 1000 characters).',
      validate: z.string().trim().min(1).max(1000),
    }),
    citation: t.field({ type: CitationInput, required: false, description: 'The rule relied on, cited first in the ruling.' }),
  }),
});

const RuleOnDisputeInput = builder.inputType('RuleOnDisputeInput', {
  description: 'A director’s ruling on an open or appealed dispute: the remedy chosen among those the rules allow, a note and a citation.',
  fields: (t) => ({
    gameId: t.id({ description: 'The game’s id.' }),
    dispute: t.int({ description: 'The dispute’s number in the game (GameDispute.number).', validate: z.number().int().min(1) }),
    expectedVersion: t.int({
      description: 'The game version you decided on; anything appended since gives STALE_VERSION.',
      validate: z.number().int().min(0),
    }),
    idempotencyKey: t.string({
      description: 'A fresh random string per new request; the same one on a retry.',
      validate: z.string().trim().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH),
    }),
    ruling: t.field({ type: DirectorRulingInput, description: 'The remedy, the note and the citation.' }),
  }),
});

const AppealInput = builder.inputType('AppealInput', {
  description: 'The grounds of an appeal.',
  fields: (t) => ({
    note: t.string({ required: false, description: 'Why, for the director (at most 500 characters).', validate: z.string().max(500) }),
  }),
});

const AppealDisputeInput = builder.inputType('AppealDisputeInput', {
  description: 'An appeal of a dispute’s automatic ruling by a seated player (once per dispute).',
  fields: (t) => ({
    gameId: t.id({ description: 'The game’s id.' }),
    dispute: t.int({ description: 'The dispute’s number in the game.', validate: z.number().int().min(1) }),
    expectedVersion: t.int({ description: 'The game version you decided on.', validate: z.number().int().min(0) }),
    idempotencyKey: t.string({
      description: 'A fresh random string per new request; the same one on a retry.',
      validate: z.string().trim().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH),
    }),
    appeal: t.field({ type: AppealInput, required: false, description: 'Why, for the director.' }),
  }),
});

/** The dispute and game after a director's or appellant's event, as the caller sees them. */
const disputeAfter = async (ctx: Context, me: string, receipt: DisputeReceipt) => {
  const d = deps(ctx);
  const game = value(await getGame(d, me, receipt.gameId, { atVersion: receipt.version }));
  const disputes = value(await gameDisputes(d, receipt.gameId, game.mySeat, receipt.version));
  return { dispute: disputes.find((x) => x.number === receipt.dispute)!, game };
};

builder.mutationField('ruleOnDispute', (t) =>
  t.field({
    type: FiledDisputeType,
    description:
      'Rules on an open or appealed dispute as a director (the director role and the API scope disputes:rule): appends ruling-applied attributed to you, replacing an appealed automatic ruling, in the same transaction as a turn.',
    authScopes: { scope: 'disputes:rule' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('RuleOnDisputeResult', 'FiledDispute') },
    args: { input: t.arg({ type: RuleOnDisputeInput, required: true, description: 'The ruling.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requireScope(ctx, 'disputes:rule').player.id;
      const receipt = value(
        await ruleOnDispute(deps(ctx), me, {
          gameId: String(input.gameId),
          dispute: input.dispute,
          expectedVersion: input.expectedVersion,
          idempotencyKey: input.idempotencyKey,
          remedy: input.ruling.remedy,
          note: input.ruling.note,
          ...(input.ruling.citation ? { citation: { source: input.ruling.citation.source, rule: input.ruling.citation.rule } } : {}),
        }),
      );
      return disputeAfter(ctx, me, receipt);
    },
  }),
);

builder.mutationField('appealDispute', (t) =>
  t.field({
    type: FiledDisputeType,
    description: 'Appeals a dispute’s automatic ruling as a seated player, once per dispute: it stays APPEALED until a director rules.',
    authScopes: { scope: 'games:play' },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('AppealDisputeResult', 'FiledDispute') },
    args: { input: t.arg({ type: AppealDisputeInput, required: true, description: 'The appeal.' }) },
    resolve: async (_root, { input }, ctx) => {
      const me = requireScope(ctx, 'games:play').player.id;
      const receipt = value(
        await appealDispute(deps(ctx), me, {
          gameId: String(input.gameId),
          dispute: input.dispute,
          expectedVersion: input.expectedVersion,
          idempotencyKey: input.idempotencyKey,
          ...(input.appeal?.note ? { note: input.appeal.note } : {}),
        }),
      );
      return disputeAfter(ctx, me, receipt);
    },
  }),
);

const RoleGrantType = builder.objectRef<RoleGrant>('RoleGrant').implement({
  description: 'A player’s role after an admin changed it: globally, or in one club or event.',
  fields: (t) => ({
    handle: t.exposeString('handle', { description: 'The player’s handle.' }),
    role: t.field({
      type: PlayerRoleEnum,
      description: 'Their role now: globally, or in `organization` when the grant named one (DIRECTOR or PLAYER there).',
      resolve: (g) => g.role,
    }),
    organization: t.field({
      type: OrganizationType,
      nullable: true,
      description: 'The club or event the grant was for; null for the global role.',
      resolve: (g) => g.organization,
    }),
  }),
});

const roleMutation = (name: 'grantDirector' | 'revokeDirector', grant: boolean, description: string) =>
  builder.mutationField(name, (t) =>
    t.field({
      type: RoleGrantType,
      description,
      authScopes: { loggedIn: true },
      errors: {
        types: GAME_ERRORS,
        directResult: true,
        union: resultUnion(`${name[0]!.toUpperCase()}${name.slice(1)}Result`, 'RoleGrant'),
      },
      args: {
        handle: t.arg.string({ required: true, description: 'The player’s handle.' }),
        organization: t.arg.id({
          required: false,
          description:
            'A club or event (Organization.id): the role in it only, so the player rules on its games only. Leave out for the global role.',
        }),
      },
      resolve: async (_root, { handle, organization }, ctx) =>
        value(
          await setDirector(
            deps(ctx),
            requirePlayer(ctx).player.id,
            handle,
            grant,
            organization === null || organization === undefined ? null : String(organization),
          ),
        ),
    }),
  );

roleMutation(
  'grantDirector',
  true,
  'Makes a player a director (admins only): globally, they may then rule on the disputes of any game; with organization, on the games of that club or event only (docs/security.md).',
);
roleMutation('revokeDirector', false, 'Takes the director role back from a player (admins only): globally, or in the organization named.');
