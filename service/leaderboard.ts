import { ruleError, type RuleError } from '../engine/errors.js';
import { CATEGORIES, type Category } from '../engine/rating/categories.js';
import { err, ok, type Result } from '../engine/result.js';
import { leaderboardRows, type LeaderboardKey, type LeaderboardRow } from '../store/rating-reads.js';
import type { ServiceDeps } from './context.js';
import { cursorCodec, type Page } from './paging.js';

/**
 * The leaderboard of a rating category (issue 33, item 4; docs/players.md): established players ranked
 * best first, provisional ones in a list of their own (as lichess keeps provisional players off its
 * leaderboards: their rating says little yet), hidden and deleted players never listed. Keyset pages
 * over the index `(category, provisional, rating DESC, player_id)`: a page costs the same at rank 20 as
 * at rank 90,000, and a rating that changes between two pages moves a player, never a page boundary.
 */

export const DEFAULT_LEADERBOARD_PAGE = 50;
export const MAX_LEADERBOARD_PAGE = 100;

export type { LeaderboardRow };

/** One listed player with their place: 1 for the first of the list, counted across pages. */
export interface LeaderboardEntry extends LeaderboardRow {
  readonly rank: number;
}

export type LeaderboardPage = Omit<Page<LeaderboardEntry>, 'totalCount'> & { readonly category: string; readonly provisional: boolean };

/**
 * The category `id`, or UNKNOWN_CATEGORY naming `field` and every known id: a typo gets the list, not
 * an empty leaderboard.
 */
export const categoryById = (id: string, field = 'category'): Result<Category, RuleError> => {
  const found = CATEGORIES.find((c) => c.id === id);
  if (found) return ok(found);
  const known = CATEGORIES.map((c) => c.id);
  return err(
    ruleError('UNKNOWN_CATEGORY', `${field}: no rating category "${id}"; the categories are ${known.join(', ')}.`, { field, known }),
  );
};

const { encode, decode } = cursorCodec('leaderboard');

// The cursor holds the list it belongs to, the last row's keys and its rank: the next page starts its
// walk there and numbers on from it, without counting the rows before.
const cursorOf = (category: string, provisional: boolean, e: LeaderboardEntry): string =>
  encode(JSON.stringify([category, provisional, e.rating, e.playerId, e.rank]));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const parseCursor = (cursor: string, category: string, provisional: boolean): (LeaderboardKey & { rank: number }) | null => {
  const text = decode(cursor);
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    if (!Array.isArray(v) || v.length !== 5) return null;
    const [c, p, rating, playerId, rank] = v as unknown[];
    if (c !== category || p !== provisional) return null;
    if (typeof rating !== 'number' || !Number.isFinite(rating) || typeof playerId !== 'string' || !UUID.test(playerId)) return null;
    if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 1) return null;
    return { rating, playerId, rank };
  } catch {
    return null;
  }
};

export interface LeaderboardQuery {
  readonly category: string;
  /** The provisional players' list instead of the established one. */
  readonly provisional?: boolean | null;
  readonly first?: number | null;
  readonly after?: string | null;
}

/** A page of a category's leaderboard. Errors: UNKNOWN_CATEGORY, PAGE_SIZE_INVALID (`first`), CURSOR_INVALID (`after`). */
export async function leaderboard(deps: Pick<ServiceDeps, 'db'>, q: LeaderboardQuery): Promise<Result<LeaderboardPage, RuleError>> {
  const category = categoryById(q.category);
  if (!category.ok) return category;
  const provisional = q.provisional ?? false;
  const first = q.first ?? DEFAULT_LEADERBOARD_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_LEADERBOARD_PAGE)
    return err(ruleError('PAGE_SIZE_INVALID', `first must be 1–${MAX_LEADERBOARD_PAGE}, not ${first}.`, { field: 'first' }));
  let after: (LeaderboardKey & { rank: number }) | null = null;
  if (q.after) {
    after = parseCursor(q.after, category.value.id, provisional);
    if (after === null)
      return err(
        ruleError(
          'CURSOR_INVALID',
          `"${q.after}" is not a cursor of the ${provisional ? 'provisional' : 'established'} ${q.category} list.`,
          {
            field: 'after',
          },
        ),
      );
  }
  // One row more than asked says whether another page follows.
  const rows = await leaderboardRows(deps.db, category.value.id, provisional, after, first + 1);
  const base = after?.rank ?? 0;
  const entries = rows.slice(0, first).map((r, i): LeaderboardEntry => ({ ...r, rank: base + i + 1 }));
  return ok({
    category: category.value.id,
    provisional,
    edges: entries.map((e) => ({ cursor: cursorOf(category.value.id, provisional, e), node: e })),
    hasNextPage: rows.length > first,
    hasPreviousPage: after !== null,
  });
}
