import { ValidationError } from './errors.js';

/**
 * Relay connections over the services' forward-only pages (myGames, myMatches): the services page by
 * `first` and an opaque `after` cursor, so `last`/`before` are refused rather than ignored.
 */

export interface ForwardPage<T> {
  readonly edges: readonly { readonly cursor: string; readonly node: T }[];
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
}

/** Throws a ValidationError (field `last`) when a backward page is asked of `field`. */
export const requireForward = (field: string, args: { readonly last?: number | null; readonly before?: string | null }): void => {
  if (args.last != null || args.before != null)
    throw new ValidationError([{ field: 'last', message: `${field} pages forward only: use first and after.` }]);
};

/** A service page as the connection Pothos resolves: the edges and their page info. */
export const connectionOf = <T>(page: ForwardPage<T>) => ({
  edges: page.edges.map((e) => ({ cursor: e.cursor, node: e.node })),
  pageInfo: {
    hasNextPage: page.hasNextPage,
    hasPreviousPage: page.hasPreviousPage,
    startCursor: page.edges[0]?.cursor ?? null,
    endCursor: page.edges[page.edges.length - 1]?.cursor ?? null,
  },
});
