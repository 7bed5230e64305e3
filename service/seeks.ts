import { randomInt, randomUUID } from 'node:crypto';
import type { RuleError } from '../engine/errors.js';
import type { Seat } from '../engine/game/events.js';
import { ok, type Result } from '../engine/result.js';
import {
  ratingRowOf,
  claimSeek,
  expireSeeks,
  findSeek,
  insertSeek,
  openSeeks,
  setSeekGame,
  withdrawSeekRow,
  type ListedSeek,
  type SeekFilter,
  type SeekRow,
} from '../store/lobby.js';
import type { GameSecrets } from '../store/games.js';
import { findPlayerByHandle, findPlayerById } from '../store/players.js';
import type { ServiceDeps, Tx } from './context.js';
import { prepareGame } from './game-create.js';
import { announce } from './lobby-events.js';
import { checkClockMinutes, prepareRecordedGame } from './recorded-games.js';
import { announceSeekOpened, announceSeeksClosed } from './seek-events.js';
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
  offerState,
} from './lobby-common.js';
import { cursorCodec } from './paging.js';

/**
 * Seeks (issue 33, docs/lobby.md): an open offer of a game that any other player may accept — a correspondence
 * game played here, or an over-the-board game at a table, recorded here (service/recorded-games.ts).
 * Accepting is one transaction: a conditional UPDATE closes the seek only while it is open and unexpired,
 * then the game (checked and decided beforehand by prepareGame) is written; of any number of players
 * accepting at once exactly one gets the game, the others SEEK_TAKEN, and no game is half-made.
 */

export interface NewSeekInput {
  readonly ruleSet?: string | null;
  readonly overrides?: unknown;
  readonly lexicon?: string | null;
  /** How the game is played: `correspondence` (default; `recorded` when only clockMinutes is given) or `recorded`. */
  readonly pace?: string | null;
  /** Correspondence: days per move, 1–14 (default 3). */
  readonly daysPerMove?: number | null;
  /** Recorded: minutes on each player's clock at the table, 1–1440 (absent: no clock), as createRecordedGame takes it. */
  readonly clockMinutes?: number | null;
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

const stateOf = (seek: SeekRow, now: Date): SeekState => offerState<SeekState>(seek, now);

const viewOf = (listed: ListedSeek, now: Date): SeekView => ({ ...listed, state: stateOf(listed.seek, now) });

/** A rating bound, when given: a whole number in [0, 4000]. */
const boundOf = (field: string, v: number | null | undefined): Result<number | null, RuleError> =>
  v === null || v === undefined ? ok(null) : wholeIn(field, v, RATING_FLOOR, RATING_CEILING, 'rating points');

type SeekPace =
  | { readonly pace: 'correspondence'; readonly daysPerMove: number; readonly clockMinutes: null }
  | { readonly pace: 'recorded'; readonly daysPerMove: null; readonly clockMinutes: number | null };

/** The seek's pace and its one setting; BAD_INPUT naming the field that does not belong to the pace. */
const paceOf = (input: NewSeekInput): Result<SeekPace, RuleError> => {
  const hasDays = input.daysPerMove !== null && input.daysPerMove !== undefined;
  const hasClock = input.clockMinutes !== null && input.clockMinutes !== undefined;
  const pace = input.pace ?? (hasClock && !hasDays ? 'recorded' : 'correspondence');
  if (pace !== 'correspondence' && pace !== 'recorded')
    return lobbyFail('BAD_INPUT', `pace must be correspondence or recorded, not "${pace}".`, { field: 'pace' });
  if (pace === 'correspondence') {
    if (hasClock)
      return lobbyFail(
        'BAD_INPUT',
        'clockMinutes is the clock of a game recorded at a table (pace recorded); a correspondence seek takes daysPerMove — give one, not both.',
        { field: 'clockMinutes' },
      );
    const days = wholeIn('daysPerMove', input.daysPerMove ?? DEFAULT_DAYS_PER_MOVE, MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE, 'days');
    return days.ok ? ok({ pace, daysPerMove: days.value, clockMinutes: null }) : days;
  }
  if (hasDays)
    return lobbyFail('BAD_INPUT', 'daysPerMove is for a correspondence seek; a recorded game at a table takes clockMinutes.', {
      field: 'daysPerMove',
    });
  const clock = checkClockMinutes(input.clockMinutes);
  return clock.ok ? ok({ pace, daysPerMove: null, clockMinutes: clock.value }) : clock;
};

/**
 * Creates a seek by `authorId` and announces it on the seek stream, in one transaction. Errors (nothing
 * written): BAD_INPUT naming the field, TIME_CONTROL_INVALID (clockMinutes), the rule set's, the lexicon's.
 */
export async function createSeek(deps: ServiceDeps, authorId: string, input: NewSeekInput): Promise<Result<SeekView, RuleError>> {
  const me = await livePlayer(deps, authorId);
  if (!me.ok) return me;
  const pace = paceOf(input);
  if (!pace.ok) return pace;
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
  const timeControl = pace.value.pace === 'correspondence' ? correspondenceOf(pace.value.daysPerMove) : null;
  const settings = await offerSettings(deps, { ...input, timeControl, pace: pace.value.pace });
  if (!settings.ok) return settings;
  // Read before the transaction (a read through deps.db.prisma inside one would wait forever on PGlite).
  const rating = me.value.profileHidden ? null : await currentRatingRow(deps, authorId, settings.value.category);
  const now = deps.now();
  const view = await deps.db.transaction(async (tx) => {
    const seek = await insertSeek(tx, {
      id: randomUUID(),
      authorId,
      ruleSetId: settings.value.ruleSetId,
      ruleOverrides: settings.value.ruleOverrides,
      lexiconName: settings.value.lexiconName,
      ...pace.value,
      rated: settings.value.rated,
      category: settings.value.category,
      ratingMin: min.value,
      ratingMax: max.value,
      expiresAt: new Date(now.getTime() + expiry.value * DAY_MS),
      createdAt: now,
    });
    const v = viewOf({ seek, authorHandle: me.value.handle, authorName: me.value.displayName, authorRating: rating }, now);
    await announceSeekOpened(tx, v);
    return v;
  });
  return ok(view);
}

/**
 * Closes every seek whose expiry has passed and announces each (seek-closed, reason `expired`) once, in one
 * transaction. Run by the lobby's sweep (service/lobby-sweep.ts); an expired seek reads as EXPIRED before it.
 */
export async function expireOpenSeeks(deps: ServiceDeps): Promise<number> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const closed = await expireSeeks(tx, now);
    await announceSeeksClosed(
      tx,
      closed.map((c) => ({ seekId: c.id, reason: 'expired' as const })),
    );
    return closed.length;
  });
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
  const withdrawn = await deps.db.transaction(async (tx) => {
    if (!(await withdrawSeekRow(tx, seek.id, playerId, deps.now()))) return false;
    await announceSeeksClosed(tx, [{ seekId: seek.id, reason: 'withdrawn' }]);
    return true;
  });
  if (!withdrawn) return closedSeek(deps, seek.id);
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
  const prepared =
    seek.pace === 'recorded'
      ? await recordedGameOf(deps, seek, me.value.handle, authorSeat)
      : await playedGameOf(deps, seek, me.value.handle, authorSeat);
  if (!prepared.ok) return prepared;
  const game = prepared.value;
  const now = deps.now();
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await claimSeek(tx, seek.id, playerId, now))) throw new SeekLost();
      await game.write(tx);
      await setSeekGame(tx, seek.id, game.id);
      const data = { seekId: seek.id, gameId: game.id, from: me.value.handle };
      await announce(tx, [{ to: seek.authorId, kind: 'seek-accepted', data }]);
      await announceSeeksClosed(tx, [{ seekId: seek.id, reason: 'accepted', gameId: game.id }]);
    });
  } catch (e) {
    if (e instanceof SeekLost) return closedSeek(deps, seek.id);
    throw e;
  }
  return getGame(deps, playerId, game.id, game.secrets ? { hold: game.secrets } : {});
}

/** The game an accepted seek starts, checked and decided, not yet written. */
interface SeekGame {
  readonly id: string;
  readonly write: (tx: Tx) => Promise<void>;
  /** A played game's bag seed, held by this process (service/game-create.ts); none for a recorded game. */
  readonly secrets?: GameSecrets;
}

/** A correspondence seek's game, played here: the author at `authorSeat`, the acceptor opposite. */
const playedGameOf = async (deps: ServiceDeps, seek: SeekRow, acceptor: string, authorSeat: Seat): Promise<Result<SeekGame, RuleError>> =>
  prepareGame(deps, seek.authorId, {
    ruleSet: seek.ruleSetId,
    overrides: seek.ruleOverrides,
    lexicon: seek.lexiconName,
    timeControl: correspondenceOf(seek.daysPerMove ?? DEFAULT_DAYS_PER_MOVE),
    opponent: acceptor,
    rated: seek.rated,
    seat: authorSeat,
  });

/**
 * A recorded seek's game: played at a table with the seek's clock and entered here by its author, the
 * scorekeeper (the one who offered the game keeps its score; docs/lobby.md), both players seated by handle.
 */
const recordedGameOf = async (
  deps: ServiceDeps,
  seek: SeekRow,
  acceptor: string,
  authorSeat: Seat,
): Promise<Result<SeekGame, RuleError>> => {
  const author = await findPlayerById(deps.db.prisma, seek.authorId);
  if (!author || author.deletedAt) return lobbyFail('SEEK_NOT_FOUND', `No seek has the id "${seek.id}".`, { field: 'id', seekId: seek.id });
  const players = authorSeat === 0 ? [{ handle: author.handle }, { handle: acceptor }] : [{ handle: acceptor }, { handle: author.handle }];
  return prepareRecordedGame(deps, seek.authorId, {
    ruleSet: seek.ruleSetId,
    overrides: seek.ruleOverrides,
    lexicon: seek.lexiconName,
    players,
    clockMinutes: seek.clockMinutes,
    rated: seek.rated,
  });
};
