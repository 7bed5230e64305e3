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
import type { Context, PlayerContext } from './context.js';
import { ArbiterError, ForbiddenError, UnauthenticatedError, ValidationError } from './error-classes.js';

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
}

export interface Types {
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: Scopes;
  AuthContexts: { loggedIn: PlayerContext; scope: PlayerContext; self: PlayerContext };
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
    }),
    unauthorizedError: (_parent, ctx, _info, result) =>
      ctx.principal.kind === 'anonymous'
        ? new UnauthenticatedError(ctx.principal.problem ?? undefined)
        : new ForbiddenError(
            `This ${ctx.principal.via === 'api-key' ? 'API key' : 'player'} is not allowed here: it needs ${describeFailure(result.failure)}.`,
            {
              needs: describeFailure(result.failure),
            },
          ),
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
    nodeQueryOptions: false,
    nodesQueryOptions: false,
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

builder.queryType({ description: 'Reads: rule sets, lexicons, stateless rule checks, the caller.' });
builder.mutationType({ description: 'Writes: accounts and API keys (games are added by graph/game.ts).' });

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
