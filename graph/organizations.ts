import * as z from 'zod';
import {
  createOrganization,
  gameOrganization,
  MAX_ORGANIZATION_NAME_LENGTH,
  organizations,
  type OrganizationRow,
} from '../service/organizations.js';
import { builder } from './builder.js';
import { requirePlayer } from './context.js';
import { OrganizationKindEnum } from './enums.js';
import { GAME_ERRORS, resultUnion } from './errors.js';
import { deps, GameType, value } from './game.js';

/**
 * Clubs and events (issue 14, item 4): `organizations` (public), `createOrganization` (an admin), and the
 * organization a game is played under (`Game.organization`). Grants are `grantDirector(organization:)`
 * (graph/directors.ts). docs/adjudication.md.
 */

export const OrganizationType = builder.objectRef<OrganizationRow>('Organization').implement({
  description:
    'A club or an event. An admin makes it and grants its director role (grantDirector with organization); its directors rule on the disputes of the games played under it.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'The organization’s id: name it in createGame / createRecordedGame (organization) and grantDirector.',
    }),
    kind: t.field({ type: OrganizationKindEnum, description: 'A club or an event.', resolve: (o) => o.kind }),
    name: t.exposeString('name', { description: 'Its name (unique among clubs, and among events).' }),
    directors: t.stringList({ description: 'The handles of its directors, in handle order.', resolve: (o) => [...o.directors] }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When an admin made it.' }),
  }),
});

builder.queryField('organizations', (t) =>
  t.field({
    type: [OrganizationType],
    description: 'Every club and event with its directors (public: the names are no secret), clubs first, by name.',
    resolve: (_root, _args, ctx) => organizations(deps(ctx)),
  }),
);

const CreateOrganizationInput = builder.inputType('CreateOrganizationInput', {
  description: 'A new club or event.',
  fields: (t) => ({
    kind: t.field({ type: OrganizationKindEnum, description: 'A club or an event.' }),
    name: t.string({
      description: `Its name, 1–${MAX_ORGANIZATION_NAME_LENGTH} characters, unique among its kind.`,
      validate: z.string().trim().min(1).max(MAX_ORGANIZATION_NAME_LENGTH),
    }),
  }),
});

builder.mutationField('createOrganization', (t) =>
  t.field({
    type: OrganizationType,
    description: 'Makes a club or an event (admins only: NOT_ADMIN otherwise; ORGANIZATION_EXISTS for a name its kind has already).',
    authScopes: { loggedIn: true },
    errors: { types: GAME_ERRORS, directResult: true, union: resultUnion('CreateOrganizationResult', 'Organization') },
    args: { input: t.arg({ type: CreateOrganizationInput, required: true, description: 'Its kind and name.' }) },
    resolve: async (_root, { input }, ctx) => value(await createOrganization(deps(ctx), requirePlayer(ctx).player.id, input)),
  }),
);

builder.objectField(GameType, 'organization', (t) =>
  t.field({
    type: OrganizationType,
    nullable: true,
    description:
      'The club or event the game is played under (named when it was created): its directors may rule on the game’s disputes. null when none.',
    resolve: (g, _args, ctx) => gameOrganization(deps(ctx), g.organizationId),
  }),
);
