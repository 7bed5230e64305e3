import { resolveNodes } from '@pothos/plugin-relay';
import { isUuid, kindsOfIds, type IdKind } from '../service/ids.js';
import { builder } from './builder.js';
import type { Context } from './context.js';
import { ValidationError } from './errors.js';
import type { GraphQLResolveInfo } from './graphql.js';

/**
 * `node(id:)` and `nodes(ids:)` (Relay; docs/api.md, "Ids"). A Node's global id is its database id: a
 * random uuid, unique across games, matches, players and webhook subscriptions (service/ids.ts), so
 * `id` answers what it always did and one id names the object in every argument, REST route and
 * webhook payload. These fields find which type an id belongs to with one lookup, then hand it to the
 * relay plugin, which loads it with the type's own `loadOne`: the same use case, view and
 * authorization as the type's own query (`game(id:)` …).
 */

const NODE_TYPES: Readonly<Record<IdKind, string>> = {
  game: 'Game',
  match: 'Match',
  player: 'Player',
  'webhook-subscription': 'WebhookSubscription',
  tournament: 'Tournament',
};

/** How many ids one nodes(ids:) may ask for: each is a read. */
export const MAX_NODE_IDS = 100;

/** The nodes `ids` name, in order, each as its type's loader answers it; null where an id names nothing. */
const nodesFor = async (ctx: Context, info: GraphQLResolveInfo, ids: readonly (string | number)[], field: string): Promise<unknown[]> => {
  const wanted = ids.map((id, i) => {
    const text = String(id);
    if (!isUuid(text))
      throw new ValidationError([
        {
          field: ids.length === 1 && field === 'id' ? field : `${field}.${i}`,
          message: `"${text}" is not an id of this API: ids are uuids (the id field of a Node).`,
        },
      ]);
    return text.toLowerCase();
  });
  const kinds = await kindsOfIds(ctx.db.prisma, wanted);
  return resolveNodes(
    builder,
    ctx,
    info,
    wanted.map((id) => {
      const kind = kinds.get(id);
      return kind ? { typename: NODE_TYPES[kind], id } : null;
    }),
  );
};

builder.queryFields((t) => ({
  node: t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description:
      'The object with this id, as you may see it: the same view and the same authorization as its own query (game(id:), match(id:) …). null when no object has the id or you may not see it; an UNAUTHENTICATED or FORBIDDEN error where its own query would answer one.',
    args: { id: t.arg.id({ required: true, description: 'The id of a Node (Game, Match, Player, WebhookSubscription or Tournament).' }) },
    resolve: async (_root, args, ctx, info) => (await nodesFor(ctx, info, [args.id], 'id'))[0],
  }),
  nodes: t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description: 'The objects with these ids, in the same order, each as node(id:) answers it (null where it would be null).',
    args: { ids: t.arg.idList({ required: true, description: `Ids of Nodes, at most ${MAX_NODE_IDS}.` }) },
    resolve: (_root, args, ctx, info) => {
      if (args.ids.length > MAX_NODE_IDS)
        throw new ValidationError([{ field: 'ids', message: `At most ${MAX_NODE_IDS} ids per request, not ${args.ids.length}.` }]);
      return nodesFor(ctx, info, args.ids, 'ids');
    },
  }),
}));
