import type { RuleError } from '../engine/errors.js';
import { ruleError } from '../engine/errors.js';
import { err, ok, type Result } from '../engine/result.js';
import type { GameState } from '../engine/game/state.js';
import { findPlayerByHandle, type PlayerRow } from '../store/players.js';
import {
  playersByIds,
  ratingChangesOf,
  ratingChangesOfGames,
  ratingsOfPlayer,
  updateProfileHidden,
  type PlayerRatingRow,
} from '../store/rating-reads.js';
import { gamesOfPlayer, type SeatHolder } from '../store/seats.js';
import type { ServiceDeps } from './context.js';
import { readCurrent } from './game-reads.js';
import { categoryById } from './leaderboard.js';

/**
 * A player's page (issue 33, item 4; docs/players.md): who they are, their rating in each category with
 * its history, their record against each opponent and their recent games. Public (anonymous callers
 * too) unless the player hid it: then only they see it. What it shows of a game is what any spectator
 * may see of it: never a rack, and of a game in play only its players and status.
 */

/** How many recent games the page lists. */
export const RECENT_GAMES = 10;
/**
 * How many of the player's latest finished games the record against each opponent counts. Each is
 * folded from its log (casual games have no rating row to read the result from), so the page's cost is
 * bounded; a longer career counts its latest games, and the page says how many it counted.
 */
export const RECORD_GAMES = 500;

export type ProfileRating = PlayerRatingRow;

/** A player as the page names them: handle and display name (a deleted opponent keeps its pseudonym). */
export interface PlayerName {
  readonly handle: string;
  readonly displayName: string;
}

export interface OpponentRecord {
  readonly opponent: PlayerName;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly games: number;
}

export type RecentResult = 'win' | 'loss' | 'draw' | 'aborted';

export interface RecentGame {
  readonly gameId: string;
  readonly status: 'playing' | 'waiting-final' | 'ended';
  /** Null when the other seat has no account (an imported game's name) or is the same player. */
  readonly opponent: PlayerName | null;
  /** From the player's side; null while the game is on. */
  readonly result: RecentResult | null;
  /** Final scores, the player's first; null while the game is on. */
  readonly scores: readonly [number, number] | null;
  readonly rated: boolean;
  readonly ratingCategory: string | null;
  /** The player's rating after this game and its change; null for a casual game or one not yet rated. */
  readonly ratingAfter: number | null;
  readonly ratingDelta: number | null;
  readonly startedAt: Date;
  readonly updatedAt: Date;
}

export interface PlayerProfile {
  readonly playerId: string;
  readonly handle: string;
  readonly displayName: string;
  readonly memberSince: Date;
  /** Whether the player hid the page: only they are ever shown it true. */
  readonly hidden: boolean;
  readonly ratings: readonly ProfileRating[];
  readonly records: readonly OpponentRecord[];
  /** How many finished games the records count (at most {@link RECORD_GAMES}). */
  readonly recordGames: number;
  readonly recentGames: readonly RecentGame[];
}

export interface RatingPoint {
  readonly gameId: string;
  readonly opponent: PlayerName | null;
  /** 1 win, 0.5 draw, 0 loss. */
  readonly score: number;
  readonly ratingBefore: number;
  readonly rating: number;
  readonly deviation: number;
  readonly ratedAt: Date;
}

const notFound = (handle: string): Result<never, RuleError> =>
  err(ruleError('PLAYER_NOT_FOUND', `No player has the handle "${handle}".`, { field: 'handle', handle }));

/**
 * The player `handle` if `viewerId` may see their page. A hidden page answers exactly as an unknown
 * handle does, so the API does not tell a hidden player from a missing one; a deleted player has no page.
 */
export const visiblePlayer = async (deps: Pick<ServiceDeps, 'db'>, viewerId: string | null, handle: string): Promise<Result<PlayerRow>> => {
  const player = await findPlayerByHandle(deps.db.prisma, handle.toLowerCase());
  if (!player || player.deletedAt !== null) return notFound(handle);
  if (player.profileHidden && player.id !== viewerId) return notFound(handle);
  return ok(player);
};

const nameOf = (p: PlayerRow): PlayerName => ({ handle: p.handle, displayName: p.displayName });

/** The other seat's player, or null (open, a name without an account, or the same player in both seats). */
const opponentOf = (seats: readonly SeatHolder[], playerId: string): PlayerRow | null => {
  const other = seats.find((s) => s.player?.id !== playerId);
  return other?.player ?? null;
};

const resultFor = (state: GameState, seat: number): RecentResult | null => {
  if (state.status !== 'ended' || !state.result) return null;
  if (state.result.reason === 'aborted') return 'aborted';
  if (state.result.winner === null) return 'draw';
  return state.result.winner === seat ? 'win' : 'loss';
};

interface PlayedGame {
  readonly gameId: string;
  readonly seat: number;
  readonly opponent: PlayerRow | null;
  readonly state: GameState | null;
  readonly rated: boolean;
  readonly ratingCategory: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The player's games in play or over (not open ones), latest change first, read and folded in one statement. */
const playedGames = async (deps: Pick<ServiceDeps, 'db'>, playerId: string): Promise<{ live: PlayedGame[]; ended: PlayedGame[] }> => {
  const rows = (await gamesOfPlayer(deps.db.prisma, playerId)).filter((r) => r.seat !== null && r.status !== 'open');
  const seen = new Set<string>();
  const unique = rows.filter((r) => !seen.has(r.gameId) && seen.add(r.gameId));
  unique.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.gameId < b.gameId ? -1 : 1));
  const ended = unique.filter((r) => r.status === 'ended').slice(0, RECORD_GAMES);
  const live = unique.filter((r) => r.status !== 'ended').slice(0, RECENT_GAMES);
  const seatOf = new Map(unique.map((r) => [r.gameId, r.seat!]));
  const read = await readCurrent(
    deps.db,
    [...live, ...ended].map((r) => r.gameId),
  );
  const played = read.map((g): PlayedGame => ({
    gameId: g.game.id,
    seat: seatOf.get(g.game.id) ?? 0,
    opponent: opponentOf(g.seats, playerId),
    state: g.state,
    rated: g.game.rated,
    ratingCategory: g.game.ratingCategory,
    createdAt: g.game.createdAt,
    updatedAt: g.game.updatedAt,
  }));
  const byChange = (a: PlayedGame, b: PlayedGame) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.gameId < b.gameId ? -1 : 1);
  return {
    live: played.filter((g) => g.state?.status !== 'ended').sort(byChange),
    ended: played.filter((g) => g.state?.status === 'ended').sort(byChange),
  };
};

/** Wins, draws and losses against each opponent over finished games, rated and casual alike; aborted games do not count. */
const recordsOf = (ended: readonly PlayedGame[]): OpponentRecord[] => {
  const by = new Map<string, { opponent: PlayerName; wins: number; draws: number; losses: number }>();
  for (const g of ended) {
    const result = g.state ? resultFor(g.state, g.seat) : null;
    if (!g.opponent || result === null || result === 'aborted') continue;
    const r = by.get(g.opponent.id) ?? { opponent: nameOf(g.opponent), wins: 0, draws: 0, losses: 0 };
    if (result === 'win') r.wins++;
    else if (result === 'loss') r.losses++;
    else r.draws++;
    by.set(g.opponent.id, r);
  }
  return [...by.values()]
    .map((r) => ({ ...r, games: r.wins + r.draws + r.losses }))
    .sort((a, b) => b.games - a.games || (a.opponent.handle < b.opponent.handle ? -1 : 1));
};

const recentOf = async (
  deps: Pick<ServiceDeps, 'db'>,
  playerId: string,
  live: PlayedGame[],
  ended: PlayedGame[],
): Promise<RecentGame[]> => {
  const byChange = (a: PlayedGame, b: PlayedGame) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.gameId < b.gameId ? -1 : 1);
  const recent = [...live, ...ended].sort(byChange).slice(0, RECENT_GAMES);
  const changes = await ratingChangesOfGames(
    deps.db.prisma,
    playerId,
    recent.filter((g) => g.rated).map((g) => g.gameId),
  );
  const change = new Map(changes.map((c) => [c.gameId, c]));
  return recent.map((g): RecentGame => {
    const over = g.state?.status === 'ended';
    const c = change.get(g.gameId);
    const scores = g.state && over ? ([g.state.scores[g.seat]!, g.state.scores[1 - g.seat]!] as const) : null;
    return {
      gameId: g.gameId,
      status: g.state?.status ?? 'playing',
      opponent: g.opponent ? nameOf(g.opponent) : null,
      result: over && g.state ? resultFor(g.state, g.seat) : null,
      scores,
      rated: g.rated,
      ratingCategory: g.ratingCategory,
      ratingAfter: c ? c.ratingAfter : null,
      // Rounded to hundredths: a difference of two doubles carries float noise (162.30999999999995).
      ratingDelta: c ? Math.round((c.ratingAfter - c.ratingBefore) * 100) / 100 : null,
      startedAt: g.createdAt,
      updatedAt: g.updatedAt,
    };
  });
};

/** The page of the player `handle` as `viewerId` (null: anonymous) may see it. Errors: PLAYER_NOT_FOUND. */
export async function playerProfile(
  deps: Pick<ServiceDeps, 'db'>,
  viewerId: string | null,
  handle: string,
): Promise<Result<PlayerProfile, RuleError>> {
  const found = await visiblePlayer(deps, viewerId, handle);
  if (!found.ok) return found;
  const p = found.value;
  const [ratings, games] = await Promise.all([ratingsOfPlayer(deps.db.prisma, p.id), playedGames(deps, p.id)]);
  return ok({
    playerId: p.id,
    handle: p.handle,
    displayName: p.displayName,
    memberSince: p.createdAt,
    hidden: p.profileHidden,
    ratings,
    records: recordsOf(games.ended),
    recordGames: games.ended.length,
    recentGames: await recentOf(deps, p.id, games.live, games.ended),
  });
}

/** A player's rating after each rated game of `category`, oldest first (the chart's points). No access check: the caller has made it. */
export const historyOf = async (deps: Pick<ServiceDeps, 'db'>, playerId: string, category: string): Promise<RatingPoint[]> => {
  const changes = await ratingChangesOf(deps.db.prisma, playerId, category);
  const ids = [...new Set(changes.map((c) => c.opponentId).filter((id): id is string => id !== null))];
  const opponents = await playersByIds(deps.db.prisma, ids);
  const byId = new Map(opponents.map((o) => [o.id, nameOf(o)]));
  return changes.map((c) => ({
    gameId: c.gameId,
    opponent: c.opponentId === null ? null : (byId.get(c.opponentId) ?? null),
    score: c.score,
    ratingBefore: c.ratingBefore,
    rating: c.ratingAfter,
    deviation: c.deviationAfter,
    ratedAt: c.ratedAt,
  }));
};

export interface RatingHistory {
  readonly player: PlayerName;
  readonly category: string;
  readonly points: readonly RatingPoint[];
}

/** The rating history of `handle` in `category`, if `viewerId` may see their page. Errors: PLAYER_NOT_FOUND, UNKNOWN_CATEGORY. */
export async function ratingHistory(
  deps: Pick<ServiceDeps, 'db'>,
  viewerId: string | null,
  handle: string,
  category: string,
): Promise<Result<RatingHistory, RuleError>> {
  const c = categoryById(category);
  if (!c.ok) return c;
  const found = await visiblePlayer(deps, viewerId, handle);
  if (!found.ok) return found;
  return ok({ player: nameOf(found.value), category: c.value.id, points: await historyOf(deps, found.value.id, c.value.id) });
}

/** Hides (or shows again) the caller's page and leaderboard entries. Errors: PLAYER_NOT_FOUND (the account is gone). */
export async function setProfileHidden(
  deps: Pick<ServiceDeps, 'db'>,
  playerId: string,
  hidden: boolean,
): Promise<Result<{ readonly hidden: boolean }, RuleError>> {
  if (!(await updateProfileHidden(deps.db.prisma, playerId, hidden)))
    return err(ruleError('PLAYER_NOT_FOUND', 'The calling player no longer exists.', { playerId }));
  return ok({ hidden });
}
