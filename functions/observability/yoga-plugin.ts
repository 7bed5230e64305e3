import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graph/context.js';
import { Kind, type DocumentNode } from '../../graph/graphql.js';
import { restRouteOf } from '../../rest/plugin.js';
import { currentScope, type CallerKind } from './scope.js';

/**
 * Fills the request's scope (functions/observability/scope.ts) from inside Yoga: the operation name (the
 * GraphQL operation, or the /v1 route template), the caller kind, the outcome code of an error Yoga
 * answered; and echoes the request id as `x-request-id`. Root fields report themselves (root-fields.ts).
 */
const operationNameOf = (document: DocumentNode, given: string | null | undefined): string => {
  if (given) return given;
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    if (def.name) return def.name.value;
    const fields = def.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
    return `${def.operation} ${fields.join(',')}`;
  }
  return 'unknown';
};

/** By the credential: a session token is `player`, an API key `api-key`, an app's OAuth access token `app`. */
const callerOf = (ctx: Partial<Context>): CallerKind => {
  const principal = ctx.principal;
  if (principal?.kind !== 'player') return 'anonymous';
  return principal.via === 'api-key' ? 'api-key' : principal.via === 'oauth' ? 'app' : 'player';
};

const firstErrorCode = (result: unknown): string | undefined => {
  if (typeof result !== 'object' || result === null || !('errors' in result)) return undefined;
  const errors = (result as { errors?: readonly { extensions?: { code?: unknown } }[] }).errors;
  const code = errors?.[0]?.extensions?.code;
  return errors?.length ? (typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR') : undefined;
};

export const useRequestScope = (): Plugin => ({
  onExecute: ({ args }) => {
    const scope = currentScope();
    if (!scope) return;
    scope.operation ??= operationNameOf(args.document, args.operationName);
    scope.caller = callerOf(args.contextValue as Partial<Context>);
    return {
      onExecuteDone: ({ result }) => {
        scope.outcome ??= firstErrorCode(result);
      },
    };
  },
  onResultProcess: ({ result }) => {
    const scope = currentScope();
    if (scope && !Array.isArray(result)) scope.outcome ??= firstErrorCode(result);
  },
  onResponse: ({ request, response }) => {
    const scope = currentScope();
    if (!scope) return;
    const route = restRouteOf(request);
    if (route) scope.operation = route;
    try {
      response.headers.set('x-request-id', scope.requestId);
    } catch {
      // an immutable response (a redirect): the id is still in the log line
    }
  },
});
