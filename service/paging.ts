/** A relay-style page of a player's games or matches, as the service answers it. */
export interface Page<T> {
  readonly edges: readonly { readonly cursor: string; readonly node: T }[];
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  readonly totalCount: number;
}

/**
 * Opaque cursors for one kind of id: `kind:id` in base64url, so a cursor of one kind (a match)
 * is never taken for another (a game).
 */
export const cursorCodec = (kind: string) => ({
  encode: (id: string): string => Buffer.from(`${kind}:${id}`, 'utf8').toString('base64url'),
  decode: (cursor: string): string | null => {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    return text.startsWith(`${kind}:`) ? text.slice(kind.length + 1) : null;
  },
});
