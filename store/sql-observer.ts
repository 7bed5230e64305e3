import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';

/**
 * Sees every SQL statement Prisma sends through a driver adapter (functions/observability counts them
 * per request and wraps each in a trace span). The store knows nothing of logs or traces: it only calls
 * `statement` around each query, which must run `run` exactly once and return its result.
 */
export interface SqlObserver {
  statement<T>(sql: string, run: () => Promise<T>): Promise<T>;
}

const QUERY_METHODS = new Set(['queryRaw', 'executeRaw']);

/** `target` with its queryRaw / executeRaw seen by `observer`, and `wrapResult` applied to what `wrapped` methods return. */
const wrapQueryable = <T extends object>(target: T, observer: SqlObserver, wrapped: Record<string, (value: never) => unknown> = {}): T =>
  new Proxy(target, {
    get(obj, key, receiver) {
      const value: unknown = Reflect.get(obj, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      const fn = value as (...args: unknown[]) => Promise<unknown>;
      if (QUERY_METHODS.has(key)) return (query: SqlQuery) => observer.statement(query.sql, () => fn.call(obj, query));
      const after = wrapped[key];
      if (after) return async (...args: unknown[]) => after((await fn.apply(obj, args)) as never);
      return fn.bind(obj);
    },
  });

/** The adapter factory with every statement of its connections and their transactions seen by `observer`. */
export const observeAdapter = <F extends SqlDriverAdapterFactory>(factory: F, observer: SqlObserver | undefined): F => {
  if (!observer) return factory;
  const transaction = (tx: Transaction) => wrapQueryable(tx, observer);
  const adapter = (a: SqlDriverAdapter) => wrapQueryable(a, observer, { startTransaction: transaction });
  return wrapQueryable(factory, observer, { connect: adapter, connectToShadowDb: adapter });
};
