import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import ValidationPlugin from '@pothos/plugin-validation';
import { Kind, type ValueNode } from './graphql.js';
import type PrismaTypes from '../generated/pothos-prisma-types.js';
import { getDatamodel } from '../generated/pothos-prisma-types.js';
import type { ApiScope } from '../service/accounts.js';
import { forbiddenFor, type Context, type PlayerContext } from './context.js';
import { ArbiterError, UnauthenticatedError, ValidationError } from './error-classes.js';

/**
 * The one schema builder. Plugin order matters, outermost first (Pothos wraps resolvers in reverse):
 *
 * 1. errors — outermost, so that it also catches what scope-auth throws: an auth failure becomes the
 *    typed UnauthenticatedError / ForbiddenError member of the field's `…Result` union. (The Pothos
 *    docs list scope-auth first; that order leaves auth failures untyped. The errors plugin only
 *    catches our own `ArbiterError` classes, so nothing runs ahead of the auth check but a try/catch.)
 * 2. scope-auth — before every plugin that loads data (prisma).
 * 3. prisma (after errors, as the errors plugin requires), 4. relay, 5. validation.
 */
export interface Scopes {
  /** A player is calling (JWT or API key). */
  loggedIn: boolean;
  /** The caller holds this API scope (a JWT holds them all). */
  scope: ApiScope;
  /** The caller is this player (acting for their own seat only). */
  self: string;
  /**
   * The caller signed in with the password (a session's token): account actions (password, sessions) refuse
   * API keys and apps' OAuth tokens, whatever their scopes (graph/sessions.ts).
   */
  passwordSession: boolean;
}

export interface Types {
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: Scopes;
  AuthContexts: { loggedIn: PlayerContext; scope: PlayerContext; self: PlayerContext; passwordSession: PlayerContext };
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: true;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    DateTime: { Input: Date; Output: Date };
  };
}

/** A sentence naming what an auth failure lacked, e.g. `the API scope keys:manage`. */
const describeFailure = (failure: AuthFailure): string => {
  switch (failure.kind) {
    case AuthScopeFailureType.AuthScope:
      if (failure.scope === 'scope') return `the API scope ${String(failure.parameter)}`;
      if (failure.scope === 'self') return 'to be the player concerned (you can act only for your own seat)';
      if (failure.scope === 'passwordSession')
        return 'a token from signing in with the password (login): API keys and apps cannot manage the account';
      return failure.scope;
    case AuthScopeFailureType.AnyAuthScopes:
      return failure.failures.map(describeFailure).join(' or ');
    case AuthScopeFailureType.AllAuthScopes:
      return failure.failures.map(describeFailure).join(' and ');
    default:
      return 'a permission it does not have';
  }
};

export const builder = new SchemaBuilder<Types>({
  plugins: [ErrorsPlugin, ScopeAuthPlugin, PrismaPlugin, RelayPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  defaultInputFieldRequiredness: true,
  errors: {
    // Only our own errors are caught into unions; any other throw is unexpected and masked by Yoga.
    defaultTypes: [ArbiterError],
    // Validation runs before auth, so an anonymous caller may learn that an input is malformed
    // (never anything stored); in exchange, validation failures are typed results.
    unsafelyHandleInputErrors: true,
  },
  scopeAuth: {
    authScopes: (ctx) => ({
      loggedIn: ctx.principal.kind === 'player',
      scope: (scope) => ctx.principal.kind === 'player' && ctx.principal.scopes.includes(scope),
      self: (playerId) => ctx.principal.kind === 'player' && ctx.principal.player.id === playerId,
      passwordSession: ctx.principal.kind === 'player' && ctx.principal.via === 'jwt' && ctx.principal.sessionId !== null,
    }),
    unauthorizedError: (_parent, ctx, _info, result) =>
      ctx.principal.kind === 'anonymous'
        ? new UnauthenticatedError(ctx.principal.problem ?? undefined)
        : forbiddenFor(ctx.principal, describeFailure(result.failure)),
  },
  prisma: {
    client: (ctx) => ctx.db.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env['NODE_ENV'] === 'production' ? null : 'warn',
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // A global id is the object's database id: a random uuid, unique across every Node type (graph/nodes.ts).
    encodeGlobalID: (_typename, id) => String(id),
    idFieldOptions: {
      description:
        'The global id: a uuid unique across every Node type, refetched with node(id:). The same id names the object everywhere: arguments, REST paths, webhook payloads.',
    },
    nodeTypeOptions: { description: 'An object with a global id that node(id:) refetches: Game, Match, Player, WebhookSubscription.' },
    // node and nodes are graph/nodes.ts's: they find an id's type before the plugin loads it.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    pageInfoTypeOptions: { description: 'Where a page of a connection stands (Relay cursor pagination).' },
    hasNextPageFieldOptions: { description: 'More items follow: ask again with after: endCursor.' },
    hasPreviousPageFieldOptions: { description: 'Items come before this page (true when after was given).' },
    startCursorFieldOptions: { description: 'The cursor of the first edge; null for an empty page.' },
    endCursorFieldOptions: { description: 'The cursor of the last edge: pass it as after for the next page; null for an empty page.' },
    pageInfoFieldOptions: { description: 'Where this page stands, and the cursor for the next one.' },
    edgesFieldOptions: { description: 'The items of this page, each with its cursor.' },
    cursorFieldOptions: { description: 'Opaque position of this edge: pass it as after to read on from here.' },
    nodeFieldOptions: { description: 'The item.' },
    firstArgOptions: { description: 'Page size: how many items to return from the start (or after the cursor).' },
    afterArgOptions: { description: 'Read on after this cursor (an endCursor or an edge cursor).' },
    lastArgOptions: { description: 'Not supported (pages go forward only): VALIDATION when given.' },
    beforeArgOptions: { description: 'Not supported (pages go forward only): VALIDATION when given.' },
    defaultConnectionTypeOptions: { description: 'A page of items (Relay connection).' },
    defaultEdgeTypeOptions: { description: 'One item of a page, with its cursor.' },
  },
  validation: {
    validationError: (failure) =>
      new ValidationError(
        failure.issues.map((issue) => ({
          field: issue.path?.map((p) => String(typeof p === 'object' ? p.key : p)).join('.') || '(input)',
          message: issue.message,
        })),
      ),
  },
});

builder.queryType({
  description: 'Every read: rule sets and lexicons, stateless rule checks, the caller, games, matches, webhooks, and any Node by its id.',
});
builder.mutationType({ description: 'Every write: accounts and API keys, games and their turns, matches, webhook subscriptions.' });

const literalValue = (node: ValueNode): unknown => {
  switch (node.kind) {
    case Kind.NULL:
      return null;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
    case Kind.BOOLEAN:
      return node.value;
    case Kind.LIST:
      return node.values.map(literalValue);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value)]));
    case Kind.VARIABLE:
      throw new ValidationError([
        { field: node.name.value, message: 'A JSON literal cannot contain variables; pass the whole value as one variable.' },
      ]);
  }
};

builder.scalarType('JSON', {
  description: 'Any JSON value (objects, lists, strings, numbers, booleans, null).',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: literalValue,
});

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO 8601 string in UTC (2026-11-21T05:00:00.000Z).',
  serialize: (v) => (v instanceof Date ? v : new Date(String(v))).toISOString(),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (Number.isNaN(d.getTime()))
      throw new ValidationError([{ field: '(DateTime)', message: `"${String(v)}" is not an ISO 8601 date-time.` }]);
    return d;
  },
});
