import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from '../../graph/graphql.js';
import { currentScope } from './scope.js';
import { metrics } from './metrics.js';
import type { MetricName } from './metric-names.js';
import { withSpan } from './tracing.js';

/**
 * Root fields (Query, Mutation) seen as they resolve: a `graphql.resolve` span each, the request's
 * game id and outcome code for its log line, and the metrics of the fields that have them. The
 * schema's root resolvers are wrapped in place, once; outside a request scope a wrapper only calls
 * through. An error union's value is the error itself (Pothos' errors plugin returns it), so the
 * outcome is its code whatever the client selected.
 */

/** Root fields counted, with the counter and latency histogram their outcome feeds. */
export const FIELD_METRICS: Readonly<Record<string, { readonly count: MetricName; readonly latency?: MetricName }>> = {
  submitTurn: { count: 'turns_submitted_total', latency: 'turn_latency_ms' },
  adjudicate: { count: 'disputes_ruled_total' },
  // Disputes on a stored game (issue 14): filed by a seat or a director, appealed, ruled by a director.
  fileDispute: { count: 'disputes_filed_total' },
  appealDispute: { count: 'disputes_filed_total' },
  ruleOnDispute: { count: 'disputes_ruled_total' },
};

const codeOf = (e: unknown): string => {
  if (typeof e !== 'object' || e === null) return 'INTERNAL_SERVER_ERROR';
  const o = e as { code?: unknown; extensions?: { code?: unknown } };
  if (typeof o.code === 'string') return o.code;
  return typeof o.extensions?.code === 'string' ? o.extensions.code : 'INTERNAL_SERVER_ERROR';
};

/**
 * OK, or the code of the typed error a field answered. Pothos hands the error back behind a proxy,
 * which `instanceof Error` does not always see through, so an error is known by its shape: a string
 * code and message, which no success type of the schema has together.
 */
export const outcomeOf = (value: unknown): string => {
  if (typeof value !== 'object' || value === null) return 'OK';
  const o = value as { code?: unknown; message?: unknown };
  return value instanceof Error || (typeof o.code === 'string' && typeof o.message === 'string') ? codeOf(value) : 'OK';
};

const gameIdOf = (field: string, args: Record<string, unknown>): string | undefined => {
  const input = args['input'] as Record<string, unknown> | undefined;
  const id = args['gameId'] ?? input?.['gameId'] ?? (/^game/.test(field) ? args['id'] : undefined);
  return typeof id === 'string' ? id : undefined;
};

const record = (field: string, outcome: string, ms: number): void => {
  const scope = currentScope();
  if (scope && outcome !== 'OK') scope.outcome ??= outcome;
  if (outcome === 'RATE_LIMITED') metrics().inc('rate_limit_refusals_total', { field });
  const m = FIELD_METRICS[field];
  if (!m) return;
  metrics().inc(m.count, { outcome });
  if (m.latency) metrics().observe(m.latency, ms);
};

const wrap = (type: string, field: string, resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> =>
  function observed(source, args: Record<string, unknown>, context, info) {
    const scope = currentScope();
    if (scope) scope.gameId ??= gameIdOf(field, args);
    const started = performance.now();
    return withSpan('graphql.resolve', { 'graphql.field.path': `${type}.${field}` }, async () => {
      try {
        const value: unknown = await resolve(source, args, context, info);
        record(field, outcomeOf(value), performance.now() - started);
        return value;
      } catch (e) {
        record(field, codeOf(e), performance.now() - started);
        throw e;
      }
    });
  };

const WRAPPED = Symbol('arbiter.observed');

/** Wraps the root resolvers of `schema` (idempotent: a second call changes nothing). */
export const observeRootFields = (schema: GraphQLSchema): void => {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root || !isObjectType(root)) continue;
    for (const field of Object.values(root.getFields())) {
      const f = field as typeof field & { [WRAPPED]?: true };
      if (f[WRAPPED] || !f.resolve) continue;
      f.resolve = wrap(root.name, f.name, f.resolve);
      f[WRAPPED] = true;
    }
  }
};
