import { randomInt } from 'node:crypto';
import type { RuleError } from '../engine/errors.js';
import type { Seat } from '../engine/game/events.js';
import { ok, type Result } from '../engine/result.js';
import {
  ratingRowOf,
  claimSeek,
  findSeek,
  insertSeek,
  openSeeks,
  setSeekGame,
  withdrawSeekRow,
  type ListedSeek,
  type SeekFilter,
  type SeekRow,
} from '../store/lobby.js';
import { findPlayerByHandle, findPlayerById } from '../store/players.js';
import type { ServiceDeps } from './context.js';
import { prepareGame } from './game-create.js';
import { announce } from './lobby-events.js';
import { getGame, type GameSnapshot } from './game-reads.js';
import {
  correspondenceOf,
  currentRating,
  DAY_MS,
  DEFAULT_DAYS_PER_MOVE,
  DEFAULT_EXPIRY_DAYS,
  livePlayer,
  lobbyFail,
  MAX_DAYS_PER_MOVE,
  MAX_EXPIRY_DAYS,
  MIN_DAYS_PER_MOVE,
  offerSettings,
  RATING_CEILING,
  RATING_FLOOR,
  wholeIn,
} from './lobby-common.js';
import { cursorCodec } from './paging.js';

/**
 * Seeks (issue 33, docs/lobby.md): an open offer of a correspondence game that any other player may accept.
 * Accepting is one transaction: a conditional UPDATE closes the seek only while it is open and unexpired,
 * then the game (checked and decided beforehand by prepareGame) is written; of any number of players
 * accepting at once exactly one gets the game, the others SEEK_TAKEN, and no game is half-made.
 */

export interface NewSeekInput {
  readonly ruleSet?: string | null;
  readonly overrides?: unknown;
  readonly lexicon?: string | null;
  /** Days per move, 1–14 (default 3). */
  readonly daysPerMove?: number | null;
  readonly rated?: boolean | null;
  /** The acceptor's rating in the seek's category must be at least this (absolute). */
  readonly ratingMin?: number | null;
  /** … and at most this. */
  readonly ratingMax?: number | null;
  /** Days until the seek expires, 1–30 (default 7). */
  readonly expiresInDays?: number | null;
}

export type SeekState = 'open' | 'accepted' | 'withdrawn' | 'expired';

export interface SeekView {
  readonly seek: SeekRow;
  readonly state: SeekState;
  readonly authorHandle: string;
  readonly authorName: string;
  readonly authorRating: ListedSeek['authorRating'];
}

const stateOf = (seek: SeekRow, now: Date): SeekState =>
  seek.status === 'open' && seek.expiresAt.getTime() <= now.getTime() ? 'expired' : (seek.status as SeekState);

const viewOf = (listed: ListedSeek, now: Date): SeekView => ({ ...listed, state: stateOf(listed.seek, now) });

/** A rating bound, when given: a whole number in [0, 4000]. */
const boundOf = (field: string, v: number | null | undefined): Result<number | null, RuleError> =>
  v === null || v === undefined ? ok(null) : wholeIn(field, v, RATING_FLOOR, RATING_CEILING, 'rating points');

/** Creates a seek by `authorId`. Errors (nothing written): BAD_INPUT naming the field, the rule set's, the lexicon's. */
export async function createSeek(deps: ServiceDeps, authorId: string, input: NewSeekInput): Promise<Result<SeekView, RuleError>> {
  const me = await livePlayer(deps, authorId);
  if (!me.ok) return me;
  const days = wholeIn('daysPerMove', input.daysPerMove ?? DEFAULT_DAYS_PER_MOVE, MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE, 'days');
  if (!days.ok) return days;
  const expiry = wholeIn('expiresInDays', input.expiresInDays ?? DEFAULT_EXPIRY_DAYS, 1, MAX_EXPIRY_DAYS, 'days');
  if (!expiry.ok) return expiry;
  const min = boundOf('ratingMin', input.ratingMin);
  if (!min.ok) return min;
  const max = boundOf('ratingMax', input.ratingMax);
  if (!max.ok) return max;
  if (min.value !== null && max.value !== null && min.value > max.value)
    return lobbyFail('BAD_INPUT', `ratingMin (${min.value}) is above ratingMax (${max.value}): the range excludes everyone.`, {
      field: 'ratingMin',
    });
  const settings = await offerSettings(deps, { ...input, timeControl: correspondenceOf(days.value) });
  if (!settings.ok) return settings;
  const now = deps.now();
  const seek = await insertSeek(deps.db.prisma, {
    authorId,
    ruleSetId: settings.value.ruleSetId,
    ruleOverrides: settings.value.ruleOverrides,
    lexiconName: settings.value.lexiconName,
    daysPerMove: days.value,
    rated: settings.value.rated,
    category: settings.value.category,
    ratingMin: min.value,
    ratingMax: max.value,
    expiresAt: new Date(now.getTime() + expiry.value * DAY_MS),
    createdAt: now,
  });
  return getSeek(deps, seek.id);
}

/** A seek by id, in any state (its author's rating as the list shows it). SEEK_NOT_FOUND when none, or its author is deleted. */
export async function getSeek(deps: ServiceDeps, seekId: string): Promise<Result<SeekView, RuleError>> {
  const seek = await findSeek(deps.db.prisma, seekId);
  const author = seek ? await findPlayerById(deps.db.prisma, seek.authorId) : null;
  if (!seek || !author || author.deletedAt) return lobbyFail('SEEK_NOT_FOUND', `No seek has the id "${seekId}".`, { field: 'id', seekId });
  const rating = author.profileHidden ? null : await currentRatingRow(deps, author.id, seek.category);
  return ok(viewOf({ seek, authorHandle: author.handle, authorName: author.displayName, authorRating: rating }, deps.now()));
}

const currentRatingRow = async (deps: ServiceDeps, playerId: string, category: string): Promise<ListedSeek['authorRating']> => {
  const r = await ratingRowOf(deps.db.prisma, playerId, category);
  return r ? { rating: r.rating, deviation: r.deviation, provisional: r.provisional } : null;
};

/** A forward page of seeks: no total, which would count every open seek on each page. */
export interface SeekPage {
  readonly edges: readonly { readonly cursor: string; readonly node: SeekView }[];
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
}

export const DEFAULT_SEEKS_PAGE = 20;
export const MAX_SEEKS_PAGE = 100;
const { encode, decode } = cursorCodec('seek');
const cursorOf = (s: SeekRow): string => encode(`${s.createdAt.toISOString()}|${s.id}`);
const afterOf = (cursor: string): { createdAt: Date; id: string } | null => {
  const [at, id] = (decode(cursor) ?? '').split('|');
  const createdAt = new Date(at ?? '');
  return id && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : null;
};

/** The open, unexpired seeks, newest first: a relay page of `first` after `after`. */
export async function listSeeks(
  deps: ServiceDeps,
  page: { readonly first?: number | null; readonly after?: string | null },
  filter: Omit<SeekFilter, 'authorId'> & { readonly authorHandle?: string | null } = {},
): Promise<Result<SeekPage, RuleError>> {
  const first = wholeIn('first', page.first ?? DEFAULT_SEEKS_PAGE, 1, MAX_SEEKS_PAGE, 'seeks');
  if (!first.ok) return first;
  const after = page.after ? afterOf(page.after) : null;
  if (page.after && !after) return lobbyFail('BAD_INPUT', `"${page.after}" is not a cursor of the seek list.`, { field: 'after' });
  const { authorHandle, ...rest } = filter;
  const author = authorHandle ? await findPlayerByHandle(deps.db.prisma, authorHandle.trim().toLowerCase()) : null;
  if (authorHandle && !author) return ok({ edges: [], hasNextPage: false, hasPreviousPage: false });
  const now = deps.now();
  const rows = await openSeeks(deps.db.prisma, now, first.value + 1, after, { ...rest, authorId: author?.id ?? null });
  const edges = rows.slice(0, first.value).map((r) => ({ cursor: cursorOf(r.seek), node: viewOf(r, now) }));
  return ok({ edges, hasNextPage: rows.length > first.value, hasPreviousPage: after !== null });
}

/** Withdraws the caller's open seek. Errors: SEEK_NOT_FOUND, NOT_SEEK_AUTHOR, SEEK_TAKEN (already accepted), SEEK_WITHDRAWN. */
export async function withdrawSeek(deps: ServiceDeps, playerId: string, seekId: string): Promise<Result<SeekView, RuleError>> {
  const seek = await findSeek(deps.db.prisma, seekId);
  if (!seek) return lobbyFail('SEEK_NOT_FOUND', `No seek has the id "${seekId}".`, { field: 'id', seekId });
  if (seek.authorId !== playerId) return lobbyFail('NOT_SEEK_AUTHOR', 'Only the seek’s author may withdraw it.', { seekId });
  if (!(await withdrawSeekRow(deps.db.prisma, seek.id, playerId, deps.now()))) return closedSeek(deps, seek.id);
  return getSeek(deps, seek.id);
}

/** Why a seek could not be closed now: SEEK_TAKEN, SEEK_WITHDRAWN or SEEK_EXPIRED. */
const closedSeek = async (deps: ServiceDeps, seekId: string): Promise<Result<never, RuleError>> => {
  const seek = await findSeek(deps.db.prisma, seekId);
  const details = { seekId };
  if (seek?.status === 'withdrawn') return lobbyFail('SEEK_WITHDRAWN', 'The author withdrew this seek.', details);
  if (seek?.status === 'accepted') return lobbyFail('SEEK_TAKEN', 'Another player accepted this seek first.', details);
  return lobbyFail('SEEK_EXPIRED', `This seek expired at ${seek?.expiresAt.toISOString() ?? 'an earlier time'}.`, details);
};

class SeekLost extends Error {}

/**
 * Accepts a seek: the game starts at once between its author and the caller, seats drawn at random (seat 0
 * moves first). Errors, with nothing written: SEEK_NOT_FOUND, SEEK_OWN, SEEK_WITHDRAWN, SEEK_EXPIRED,
 * SEEK_TAKEN (another player won the race), RATING_OUT_OF_RANGE, and createGame's.
 */
export async function acceptSeek(deps: ServiceDeps, playerId: string, seekId: string): Promise<Result<GameSnapshot, RuleError>> {
  const me = await livePlayer(deps, playerId);
  if (!me.ok) return me;
  const found = await getSeek(deps, seekId);
  if (!found.ok) return found;
  const { seek } = found.value;
  if (seek.authorId === playerId) return lobbyFail('SEEK_OWN', 'This is your own seek: another player must accept it.', { seekId });
  if (found.value.state !== 'open') return closedSeek(deps, seek.id);
  const rating = await currentRating(deps, playerId, seek.category);
  if ((seek.ratingMin !== null && rating < seek.ratingMin) || (seek.ratingMax !== null && rating > seek.ratingMax)) {
    const range = `${seek.ratingMin ?? 'any'}–${seek.ratingMax ?? 'any'}`;
    return lobbyFail('RATING_OUT_OF_RANGE', `Your ${seek.category} rating ${Math.round(rating)} is outside this seek’s range ${range}.`, {
      seekId,
      rating,
      min: seek.ratingMin,
      max: seek.ratingMax,
    });
  }
  const authorSeat = randomInt(2) as Seat;
  const prepared = await prepareGame(deps, seek.authorId, {
    ruleSet: seek.ruleSetId,
    overrides: seek.ruleOverrides,
    lexicon: seek.lexiconName,
    timeControl: correspondenceOf(seek.daysPerMove),
    opponent: me.value.handle,
    rated: seek.rated,
    seat: authorSeat,
  });
  if (!prepared.ok) return prepared;
  const now = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await claimSeek(tx, seek.id, playerId, now))) throw new SeekLost();
      await prepared.value.write(tx);
      await setSeekGame(tx, seek.id, prepared.value.id);
      const data = { seekId: seek.id, gameId: prepared.value.id, from: me.value.handle };
      await announce(tx, [{ to: seek.authorId, kind: 'seek-accepted', data }]);
    });
  } catch (e) {
    if (e instanceof SeekLost) return closedSeek(deps, seek.id);
    throw e;
  }
  return getGame(deps, playerId, prepared.value.id, { hold: prepared.value.secrets });
}
