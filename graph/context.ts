import type { Db } from '../store/db.js';
import type { LexiconRegistry } from '../service/lexicons.js';
import { authenticate, type JwtConfig, type PlayerPrincipal, type Principal } from './auth.js';
import { UnauthenticatedError } from './error-classes.js';

/** What every resolver gets: the shared services of the app, and who is calling. */
export interface Context {
  readonly db: Db;
  readonly lexicons: LexiconRegistry;
  /** The clock; tests pass a fixed one. Resolvers never call `new Date()` themselves. */
  readonly now: () => Date;
  readonly jwt: JwtConfig;
  readonly principal: Principal;
}

/** The context of a field that requires `loggedIn` (scope-auth `AuthContexts`). */
export interface PlayerContext extends Context {
  readonly principal: PlayerPrincipal;
}

/** What the app holds once per process and hands to every request's context. */
export interface AppServices {
  readonly db: Db;
  readonly lexicons: LexiconRegistry;
  readonly now: () => Date;
  readonly jwt: JwtConfig;
}

/** Builds a request's context: the services plus the principal from its `Authorization` header. */
export const createContext = async (services: AppServices, request: Request): Promise<Context> => ({
  ...services,
  principal: await authenticate(request.headers.get('authorization'), {
    client: services.db.prisma,
    jwt: services.jwt,
    now: services.now(),
  }),
});

/**
 * The calling player, or UNAUTHENTICATED (carrying why a presented credential failed). For
 * resolvers; fields should also declare `authScopes: { loggedIn: true }` so the schema says so.
 */
export const requirePlayer = (ctx: Context): PlayerPrincipal => {
  if (ctx.principal.kind === 'player') return ctx.principal;
  throw new UnauthenticatedError(ctx.principal.problem ?? undefined);
};
