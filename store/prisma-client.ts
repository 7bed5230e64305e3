import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * Prisma's client, made on its first use. Its runtime, generated client and query compiler are a third of
 * the code a cold start would otherwise load (docs/deploying.md, "Bundles and cold start"), and the
 * commonest requests never use it: a turn runs on the driver (`Db.statement`), and so does the token's
 * player lookup. So `Db.prisma` is a stand-in with the client's shape: any call through it
 * (`prisma.player.findUnique(…)`, `prisma.$transaction(…)`, a `$queryRaw` template) loads and makes the
 * client (`make`, which imports it), then makes the same call on it; once made, the stand-in hands out
 * the client's own members. Every call returns a promise, as Prisma's do.
 */
export interface LazyPrisma {
  readonly client: PrismaClient;
  /** The client if it was made (after a making under way ends), else null: what closing must disconnect. */
  made(): Promise<PrismaClient | null>;
}

type Member = (...args: unknown[]) => unknown;

export const lazyPrisma = (make: () => Promise<PrismaClient>): LazyPrisma => {
  let real: PrismaClient | undefined;
  let making: Promise<PrismaClient> | undefined;
  const load = (): Promise<PrismaClient> =>
    (making ??= make().then(
      (client) => (real = client),
      (e: unknown) => {
        making = undefined; // a failed import is tried again by the next call
        throw e;
      },
    ));
  const call = async (path: readonly string[], args: unknown[]): Promise<unknown> => {
    let owner = (await load()) as unknown as Record<string, unknown>;
    for (const key of path.slice(0, -1)) owner = owner[key] as Record<string, unknown>;
    return (owner[path[path.length - 1]!] as Member).apply(owner, args);
  };
  // A path such as ['player', 'findUnique'], callable; a function target so that `apply` traps.
  const deferred = (path: readonly string[]): unknown =>
    new Proxy(() => undefined, {
      get: (_target, key) => (typeof key === 'string' && key !== 'then' ? deferred([...path, key]) : undefined),
      apply: (_target, _this, args: unknown[]) => call(path, args),
    });
  const client = new Proxy({} as PrismaClient, {
    get: (_target, key) => {
      if (real) {
        const value = (real as unknown as Record<string | symbol, unknown>)[key];
        return typeof value === 'function' ? (value as Member).bind(real) : value;
      }
      // Not a thenable (`await db.prisma` must not call anything); symbols are not Prisma members.
      if (typeof key !== 'string' || key === 'then') return undefined;
      return deferred([key]);
    },
  });
  return {
    client,
    made: async () =>
      making
        ? making.then(
            (c) => c,
            () => null,
          )
        : null,
  };
};
