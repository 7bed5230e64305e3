import type { EndReason, Seat } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import { categoryOf, type Pace } from '../engine/rating/categories.js';
import { RATING_PARAMS, isProvisional, type Rating } from '../engine/rating/params.js';
import {
  newStanding,
  rateGame,
  ratedScores,
  replayRatings,
  standingKey,
  type GameScore,
  type SeatChange,
  type Standing,
} from '../engine/rating/rated-games.js';
import { err, ok, type Result } from '../engine/result.js';
import { ruleError, type RuleError } from '../engine/errors.js';
import type { GameRow, GuardedLastEvent, LastEvent, OutboxItem } from '../store/games.js';
import type { JsonObject } from '../store/json.js';
import {
  lockRatings,
  playersRatedSince,
  ratedAtOf,
  ratedGamesSince,
  ratingsBefore,
  readRatings,
  writeRatingChanges,
  writeRatings,
  type RatingChangeRow,
  type RatingRow,
  type RatingWrite,
} from '../store/ratings.js';
import { cachedRating, forgetRatings, rememberRatings } from './rating-cache.js';
import type { SeatHolder } from '../store/seats.js';
import type { Db, Tx } from './context.js';

/**
 * Rated games (issue 33, docs/rated-play.md): the check at creation, and the rating update of a game's
 * end as the last event of the transaction that ends it. The rating change is the service event
 * `rating-changed` of the game's log (skipped by the fold, like `game-proposed`); `player_ratings` and
 * `rating_changes` are its projection, written in the same transaction under row locks.
 */

export const RATED_ERROR_CODES = [
  /** A rated game against a robot: robots are not rated (docs/rated-play.md "Robots"). */
  'RATED_ROBOT',
  /** A rated game with rule overrides: only a preset's own rules are rated. */
  'RATED_OVERRIDES',
  /** A rated game on a board given as data. */
  'RATED_LAYOUT',
  /** A rated recorded game with a player who has no account. */
  'RATED_NO_ACCOUNT',
] as const;
export type RatedErrorCode = (typeof RATED_ERROR_CODES)[number];

const fail = (code: RatedErrorCode, message: string, field: string) => err(ruleError(code, message, { field }));

const hasOverrides = (overrides: unknown): boolean =>
  overrides !== null && overrides !== undefined && !(typeof overrides === 'object' && Object.keys(overrides).length === 0);

/**
 * The rating category of a new game asked to be `rated`, or null for a casual one; the refusals name
 * the field. A robot, rule overrides and a board given as data make a game that is not the category's
 * game, so they are casual only (docs/rated-play.md "Rated or casual").
 */
export const ratedCategory = (
  input: {
    readonly rated?: boolean | null;
    readonly ruleSetId: string;
    readonly overrides?: unknown;
    readonly layout?: unknown;
    readonly robot: boolean;
    readonly accountless?: boolean;
  },
  pace: Pace,
): Result<string | null, RuleError> => {
  if (!input.rated) return ok(null);
  if (input.robot)
    return fail(
      'RATED_ROBOT',
      'A game against a robot cannot be rated: robots are not rated (docs/rated-play.md). Leave rated out.',
      'rated',
    );
  if (hasOverrides(input.overrides))
    return fail(
      'RATED_OVERRIDES',
      'A rated game is played under its preset as it is: leave out overrides (and tileSet), or rated.',
      'overrides',
    );
  if (input.layout) return fail('RATED_LAYOUT', 'A rated game is played on its preset’s board: leave out layout, or rated.', 'layout');
  if (input.accountless)
    return fail('RATED_NO_ACCOUNT', 'A rated recorded game needs both players named by handle (an account).', 'players');
  const category = categoryOf(input.ruleSetId, pace);
  return category.ok ? ok(category.value.id) : category;
};

/** One seat's side of `rating-changed`. */
export interface RatingChangedSeat extends JsonObject {
  readonly seat: Seat;
  readonly playerId: string;
  readonly score: GameScore;
  readonly before: Rating & JsonObject;
  readonly idlePeriods: number;
  readonly after: Rating & JsonObject;
  readonly provisional: boolean;
}

/**
 * The service event of a rated game's rating update (not an engine event: the fold skips it). A ruling
 * that changes the result after the fact appends another, which `supersedes` the earlier one (its seq)
 * and keeps its `ratedAt`: the game's place in each player's order of rated games.
 */
export interface RatingChanged extends JsonObject {
  readonly type: 'rating-changed';
  readonly category: string;
  /** The game's end reason and final scores the ratings were computed from. */
  readonly reason: EndReason;
  readonly gameScores: readonly [number, number];
  readonly players: readonly [RatingChangedSeat, RatingChangedSeat];
  /** The parameters used (engine/rating/params.ts), without their sources. */
  readonly params: {
    readonly tau: number;
    readonly initial: Rating & JsonObject;
    readonly ratingPeriodMs: number;
    readonly provisionalRd: number;
  };
  /** When the game was rated (ISO): the order ratings are replayed in. */
  readonly ratedAt: string;
  /** When this event was written (ISO). */
  readonly at: string;
  /** The seq of the `rating-changed` this one replaces; null for the first. */
  readonly supersedes: number | null;
}

export const RATING_EVENT = 'rating-changed';

const paramsOf = (): RatingChanged['params'] => ({
  tau: RATING_PARAMS.tau,
  initial: { ...RATING_PARAMS.initial },
  ratingPeriodMs: RATING_PARAMS.ratingPeriodMs,
  provisionalRd: RATING_PARAMS.provisionalRd,
});

const standingOf = (r: RatingRow): Standing => ({
  rating: { rating: r.rating, rd: r.deviation, vol: r.volatility },
  lastRatedAt: r.lastRatedAt?.getTime() ?? null,
  games: r.games,
});

export const ratingDefaults = () => ({
  rating: RATING_PARAMS.initial.rating,
  deviation: RATING_PARAMS.initial.rd,
  volatility: RATING_PARAMS.initial.vol,
  provisional: isProvisional(RATING_PARAMS.initial),
});

/** The event of a game's rating update. */
export const ratingEvent = (
  category: string,
  state: GameState,
  players: readonly [string, string],
  changes: readonly [SeatChange, SeatChange],
  ratedAt: Date,
  now: Date,
  supersedes: number | null,
): RatingChanged => ({
  type: 'rating-changed',
  category,
  reason: state.result!.reason,
  gameScores: [state.scores[0], state.scores[1]],
  players: [0, 1].map((seat) => {
    const c = changes[seat]!;
    return {
      seat: seat as Seat,
      playerId: players[seat]!,
      score: c.score,
      before: { ...c.before },
      idlePeriods: c.idlePeriods,
      after: { ...c.after },
      provisional: c.provisional,
    };
  }) as unknown as RatingChanged['players'],
  params: paramsOf(),
  ratedAt: ratedAt.toISOString(),
  at: now.toISOString(),
  supersedes,
});

/** What `game-ended` (outbox, webhooks) tells of the rating change: public, as the players' pages are. */
const announced = (e: RatingChanged): JsonObject => ({
  category: e.category,
  players: e.players.map((p) => ({ seat: p.seat, before: p.before.rating, after: p.after.rating, provisional: p.provisional })),
});

const withRating =
  (e: RatingChanged) =>
  (outbox: readonly OutboxItem[]): readonly OutboxItem[] =>
    outbox.map((m) => (m.kind === 'game-ended' ? { ...m, payload: { ...m.payload, rating: announced(e) } } : m));

/**
 * A rated game whose command ended it (or changed its result), as its rating update needs it: made once by
 * {@link ratingStep}, for whichever way the update runs (in the transaction, in the commit statement, as a
 * recompute). The seq of the event is not part of it: the store gives it when the event is appended.
 */
interface EndedRatedGame {
  readonly game: GameRow;
  readonly category: string;
  /** The players of seats 0 and 1. */
  readonly players: readonly [string, string];
  /** The game's result as rating scores, by seat. */
  readonly scores: readonly [GameScore, GameScore];
  /** The game's state after the command. */
  readonly after: GameState;
  readonly now: Date;
}

/** Both players' new rows and changes, and the event, from their rows (by seat) as they stood before the game. */
const rateFrom = (
  { game, category, players, scores, after, now }: EndedRatedGame,
  seq: number,
  rows: readonly [RatingRow, RatingRow],
): { writes: RatingWrite[]; changes: RatingChangeRow[]; event: RatingChanged } => {
  const at = new Date(Math.max(now.getTime(), ...rows.map((r) => (r.lastRatedAt ? r.lastRatedAt.getTime() + 1 : 0))));
  const rated = rateGame([standingOf(rows[0]), standingOf(rows[1])], scores, at.getTime());
  if (!rated.ok) throw new Error(`rating game ${game.id}: ${rated.error.code} ${rated.error.message}`);
  const seats = [0, 1] as const;
  const writes = seats.map((seat) => {
    const { rating, rd, vol } = rated.value[seat].after;
    const provisional = rated.value[seat].provisional;
    const games = rows[seat].games + 1;
    return { playerId: players[seat], category, rating, deviation: rd, volatility: vol, games, provisional, lastRatedAt: at };
  });
  const changes = seats.map((seat) => {
    const c = rated.value[seat];
    const opponentId = players[1 - seat]!;
    return {
      playerId: players[seat],
      category,
      gameId: game.id,
      gameSeq: seq,
      opponentId,
      score: c.score,
      before: c.before,
      after: c.after,
      ratedAt: at,
    };
  });
  return { writes, changes, event: ratingEvent(category, after, players, rated.value, at, now, null) };
};

const lastEventOf = (event: RatingChanged): LastEvent => ({ event: { type: event.type, payload: event }, outbox: withRating(event) });

/**
 * Rates a game that has just ended, in its transaction: locks both players' rows (made with the defaults if
 * missing), grows each deviation for the periods they were idle, rates the game, writes both rows and both
 * changes, and answers the event. The game's rating time is after both players' previous one, so each
 * player's games are rated in a strict order that a replay of the logs follows (engine/rating/rated-games.ts).
 */
const rateEnded = async (tx: Tx, ended: EndedRatedGame, seq: number): Promise<LastEvent> => {
  const { category, players, now } = ended;
  // Whatever this transaction writes, the rows this process remembers are not it until it commits.
  forgetRatings(players, category);
  const locked = await lockRatings(tx, players, category, ratingDefaults(), now);
  const rated = rateFrom(ended, seq, [locked.get(players[0])!, locked.get(players[1])!]);
  await writeRatings(tx, rated.writes, now);
  await writeRatingChanges(tx, rated.changes);
  return lastEventOf(rated.event);
};

/** A player's row before their first rated game in the category, as lockRatings would make it. */
const unrated = (playerId: string, category: string): RatingRow => {
  const d = ratingDefaults();
  return { playerId, category, rating: d.rating, deviation: d.deviation, volatility: d.volatility, games: 0, lastRatedAt: null };
};

/**
 * {@link rateEnded} without a transaction (store/games.ts `guardedLastEvent`): the rows are the ones this
 * process last wrote, else read now in one statement; the commit statement writes the new ones only over
 * those very rows, so a game of either player that ended meanwhile makes it write nothing, and the
 * transaction rates again from the rows as they are then.
 */
const rateEndedGuarded = async (db: Db, ended: EndedRatedGame, seq: number): Promise<GuardedLastEvent> => {
  const { category, players } = ended;
  let was = players.map((p) => cachedRating(p, category));
  if (was.some((r) => r === null)) {
    const read = await readRatings(db, players, category);
    was = players.map((p) => read.get(p) ?? null);
  }
  const rows = [was[0] ?? unrated(players[0], category), was[1] ?? unrated(players[1], category)] as const;
  const rated = rateFrom(ended, seq, rows);
  return {
    ...lastEventOf(rated.event),
    ratings: { rows: rated.writes.map((write, i) => ({ write, was: was[i] ?? null })), changes: rated.changes },
    settled: (written) => (written ? rememberRatings(rated.writes) : forgetRatings(players, category)),
  };
};

/** What a command adds to its decision for ratings: one more event, made in its transaction (or, for an end, its commit statement). */
export interface RatingStep {
  readonly lastEvent: (tx: Tx, seq: number) => Promise<LastEvent>;
  readonly guardedLastEvent?: (db: Db, seq: number) => Promise<GuardedLastEvent>;
}

/** The players of seats 0 and 1, when both are accounts. */
const playersOf = (seats: readonly SeatHolder[]): readonly [string, string] | null => {
  const a = seats.find((s) => s.seat === 0)?.player?.id;
  const b = seats.find((s) => s.seat === 1)?.player?.id;
  return a && b ? [a, b] : null;
};

/**
 * The rating part of a command on a rated game (hook of runGameCommand and the dispute commands): when
 * the command ends the game with an ending that rates, the update of both players; when it changes the
 * result of a game already rated (a ruling, a time penalty after the end), the recompute of the category
 * from that game on (service/rating-recompute.ts). Null otherwise (a casual game, an abort, a game still on).
 */
export const ratingStep = (
  game: GameRow,
  seats: readonly SeatHolder[],
  before: GameState | null,
  after: GameState,
  now: Date,
): RatingStep | null => {
  if (!game.rated || game.ratingCategory === null || after.status !== 'ended' || !after.result) return null;
  const players = playersOf(seats);
  const scores = ratedScores(after.result);
  if (!players || !scores) return null;
  const ended: EndedRatedGame = { game, category: game.ratingCategory, players, scores, after, now };
  if (before?.status !== 'ended') {
    return {
      lastEvent: (tx, seq) => rateEnded(tx, ended, seq),
      guardedLastEvent: (db, seq) => rateEndedGuarded(db, ended, seq),
    };
  }
  const earlier = before.result ? ratedScores(before.result) : null;
  if (earlier && earlier[0] === scores[0]) return null;
  return { lastEvent: (tx, seq) => recomputeRatings(tx, ended, seq) };
};

/**
 * A ruling (or a time penalty) changed the result of a game already rated: the category is replayed from
 * that game's rating time on, with its new scores — every later rated game of every player rated since
 * (a superset of those the change reaches), from each one's rating just before — and `rating_changes` and
 * `player_ratings` are rewritten. The game's log gets a `rating-changed` that supersedes its first one;
 * later games' logs keep the rating as it was when they ended (docs/rated-play.md "Recompute").
 */
const recomputeRatings = async (tx: Tx, ended: EndedRatedGame, seq: number): Promise<LastEvent> => {
  const { game, category, players, scores, after, now } = ended;
  const from = await ratedAtOf(tx, game.id);
  if (!from) return rateEnded(tx, ended, seq);
  const ids = await playersRatedSince(tx, category, from);
  forgetRatings(ids, category);
  await lockRatings(tx, ids, category, ratingDefaults(), now);
  const games = await ratedGamesSince(tx, category, from);
  const before = await ratingsBefore(tx, category, ids, from);
  const start = new Map(
    ids.map((id): [string, Standing] => {
      const b = before.get(id);
      const standing = b
        ? { rating: { rating: b.rating, rd: b.rd, vol: b.vol }, lastRatedAt: b.ratedAt.getTime(), games: b.games }
        : newStanding();
      return [standingKey(id, category), standing];
    }),
  );
  const results = games.map((g) => ({
    gameId: g.gameId,
    category,
    at: g.ratedAt.getTime(),
    players: g.players,
    scores: g.gameId === game.id ? scores : (g.scores as readonly [GameScore, GameScore]),
  }));
  const replayed = replayRatings(results, start);
  if (!replayed.ok) throw new Error(`recomputing ${category}: ${replayed.error.code} ${replayed.error.message}`);
  const seqOf = new Map(games.map((g) => [g.gameId, g.gameId === game.id ? seq : g.gameSeq]));
  await writeRatingChanges(
    tx,
    replayed.value.games.flatMap((g) =>
      ([0, 1] as const).map((seat) => {
        const c = g.changes[seat];
        const opponentId = g.players[1 - seat]!;
        return {
          playerId: g.players[seat],
          category,
          gameId: g.gameId,
          gameSeq: seqOf.get(g.gameId)!,
          opponentId,
          score: c.score,
          before: c.before,
          after: c.after,
          ratedAt: new Date(g.at),
        };
      }),
    ),
  );
  await writeRatings(
    tx,
    ids.map((id) => {
      const s = replayed.value.standings.get(standingKey(id, category))!;
      const { rating, rd, vol } = s.rating;
      const lastRatedAt = new Date(s.lastRatedAt ?? now.getTime());
      return {
        playerId: id,
        category,
        rating,
        deviation: rd,
        volatility: vol,
        games: s.games,
        provisional: isProvisional(s.rating),
        lastRatedAt,
      };
    }),
    now,
  );
  const mine = replayed.value.games.find((g) => g.gameId === game.id)!;
  const superseded = games.find((g) => g.gameId === game.id)!.gameSeq;
  return lastEventOf(ratingEvent(category, after, players, mine.changes, from, now, superseded));
};
