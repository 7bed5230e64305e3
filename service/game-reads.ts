import type { RuleError } from '../engine/errors.js';
import { activePause, banksAt, deadline } from '../engine/game/clock.js';
import type { Seat, TimeControl } from '../engine/game/events.js';
import type { GameState } from '../engine/game/state.js';
import { recordableMoves } from '../engine/game/recorded.js';
import { spectatorView, viewFor, type ActionKind, type ClockView, type SeatView, type SpectatorView } from '../engine/game/view.js';
import { ok, type Result } from '../engine/result.js';
import type { RuleSet } from '../engine/rules/ruleset.js';
import type { GameRow, GameSecrets, StoredEvent } from '../store/games.js';
import { readGameTails } from '../store/read-statements.js';
import { gamesOfPlayer, type PlayerGameRow, type SeatHolder } from '../store/seats.js';
import type { Db, ServiceDeps } from './context.js';
import { fail, gameNotFound } from './game-errors.js';
import { engineEvents, engineOffset, fold, foldOn, proposalOf } from './game-log.js';
import { forgetLog, holdRead, knownLog, rememberRead } from './log-cache.js';
import type { GameRowStatus } from './game-projection.js';
import { RATING_EVENT, type RatingChanged } from './ratings.js';
import { cursorCodec, type Page } from './paging.js';

/**
 * Reading games (issue 4): a game as its caller may see it, and a player's games as an inbox. What
 * leaves here is a seat's or a spectator's view (`engine/game/view.ts`), never a state: nobody sees
 * another player's rack, the bag order or the seed.
 */

export type { SeatHolder };

/** A game as one caller may see it: the engine's view for their seat, or a spectator's. */
export interface GameSnapshot {
  readonly id: string;
  readonly version: number;
  readonly status: GameRowStatus;
  readonly rules: RuleSet;
  readonly lexicon: { readonly name: string; readonly hash: string };
  readonly seats: readonly SeatHolder[];
  /** The caller's seat; null for a spectator. */
  readonly mySeat: Seat | null;
  /** Null while the game waits for its second player. */
  readonly view: SeatView | SpectatorView | null;
  /**
   * What the caller may do now: a seat's legal actions; on a recorded game none for its players (they
   * act at the table) and, for its scorekeeper, the moves recordMove takes now.
   */
  readonly actions: readonly ActionKind[];
  readonly timeControl: TimeControl;
  readonly deadlineAt: Date | null;
  /** A correspondence game's clock as of the caller's `now` (null otherwise, and while the game is open). */
  readonly clock: GameClock | null;
  /** `sha256(seed)` for a seeded game; null for an imported one. */
  readonly bagCommitment: string | null;
  readonly imported: boolean;
  /** A game played over the board and recorded live by its scorekeeper (recordMove), not played here. */
  readonly recorded: boolean;
  /** The club or event the game is played under (its id); null for none. */
  readonly organizationId: string | null;
  /** Rated (issue 33): its end updates both players' ratings in `ratingCategory`; fixed at creation. */
  readonly rated: boolean;
  /** The rating category (e.g. `tournament/correspondence`); null for a casual game. */
  readonly ratingCategory: string | null;
  /**
   * The game's rating change as of `version`: its latest `rating-changed` (a ruling's recompute supersedes
   * the first); null for a casual game and until a rated one ends. Public, as the players' pages are.
   */
  readonly ratingChange: RatingChanged | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The engine's clock view, read at a moment: whether a pause is running, and the banks as they stand. */
export interface GameClock extends ClockView {
  readonly paused: boolean;
  /** Each seat's bank at the moment of reading: the mover's shrinks once their turn time is used. */
  readonly banksNow: readonly [number, number];
}

const clockAt = (state: GameState, view: SeatView | SpectatorView, now: Date): GameClock | null => {
  if (!view.clock) return null;
  const at = now.toISOString();
  return { ...view.clock, paused: state.status !== 'ended' && activePause(state, at) !== null, banksNow: banksAt(state, at) };
};

export const isSeatView = (v: SeatView | SpectatorView): v is SeatView => 'seat' in v;

export const seatOf = (seats: readonly SeatHolder[], playerId: string | null): Seat | null => {
  if (playerId === null) return null;
  const s = seats.find((x) => x.player?.id === playerId);
  return s ? (s.seat as Seat) : null;
};

/** A game as read now: its row, seats, whole log and the log's fold (null while the game is open). */
export interface CurrentGame {
  readonly game: GameRow;
  readonly seats: readonly SeatHolder[];
  readonly stored: readonly StoredEvent[];
  readonly state: GameState | null;
  /** The state at the version this process knew before the read, if the read used it. */
  readonly known: { readonly version: number; readonly state: GameState } | null;
}

/**
 * The games `gameIds` (uuids) as they are now, in one statement that reads, of each log, only the events
 * after the version this process knows (service/log-cache.ts; all of it when it knows none, or when the
 * row is not the game it knew), then folds only those onto the known state and remembers the result. In
 * `gameIds`' order; a game not found is left out.
 */
export const readCurrent = async (db: Db, gameIds: readonly string[]): Promise<CurrentGame[]> => {
  // Keyed as the database spells the ids (lower case), which is how the rows come back.
  const ids = gameIds.map((id) => id.toLowerCase());
  const known = new Map(ids.map((id) => [id, knownLog(db, id, Number.MAX_SAFE_INTEGER)] as const));
  const tails = await readGameTails(
    db,
    ids.map((id) => {
      const k = known.get(id);
      return k ? { id, version: k.version, createdAt: k.createdAt } : { id, version: 0, createdAt: null };
    }),
  );
  return tails.map(({ game, seats, after, events }) => {
    const k = after > 0 ? known.get(game.id)! : null;
    if (!k && known.get(game.id)) forgetLog(db, game.id);
    const stored = k ? (events.length ? [...k.stored, ...events] : k.stored) : events;
    const engine = engineEvents(k ? events : stored);
    const state = k ? foldOn(k.state, engine) : engine.length ? fold(engine) : null;
    if (state) rememberRead(db, game.id, { createdAt: game.createdAt.getTime(), version: game.version, stored, state });
    return { game, seats, stored, state, known: k ? { version: k.version, state: k.state } : null };
  });
};

/**
 * The game `gameId` as `viewerId` sees it (null = anonymous spectator): their own rack if seated,
 * never the other's. `atVersion` shows it as it was after that many events (an idempotent retry
 * answers with the view it first answered with). One statement (see {@link readCurrent}).
 */
export async function getGame(
  deps: ServiceDeps,
  viewerId: string | null,
  gameId: string,
  options: {
    readonly atVersion?: number;
    readonly deadlineAt?: Date | null;
    /** The game's secret, when the caller made it (createGame): the process then holds the game as read (log-cache.ts). */
    readonly hold?: GameSecrets;
  } = {},
): Promise<Result<GameSnapshot, RuleError>> {
  const [read] = await readCurrent(deps.db, [gameId]);
  if (!read) return gameNotFound(gameId);
  const { game, seats } = read;
  if (options.hold && read.state) holdRead(deps.db, game.id, { row: game, seats, secrets: options.hold });
  const version = options.atVersion === undefined ? game.version : Math.min(options.atVersion, game.version);
  const current = version === game.version;
  const stored = current ? read.stored : read.stored.slice(0, version);
  const state = current ? read.state : stateAt(read, stored, version);
  const deadlineAt =
    options.deadlineAt !== undefined
      ? options.deadlineAt
      : current
        ? game.deadlineAt
        : state && deadline(state)
          ? new Date(deadline(state)!)
          : null;
  return ok(snapshotOf(game, seats, stored, state, viewerId, version, deadlineAt, deps.now()));
}

/** The state at an earlier `version` (its log `stored`): the known one if it is that version, else folded from the start. */
const stateAt = (read: CurrentGame, stored: readonly StoredEvent[], version: number): GameState | null => {
  if (read.known?.version === version) return read.known.state;
  const events = engineEvents(stored);
  return events.length ? fold(events) : null;
};

/**
 * The view with each score-sheet line's `event` as a game version: the engine counts its own events, and a
 * game that waited for its second player has `offset` = 1 service event (`game-proposed`) before them.
 * Every view that leaves the service goes through it, with `offset` = game-log.ts `engineOffset`.
 */
export const numberedView = <V extends SeatView | SpectatorView>(view: V, offset: number): V => {
  if (offset === 0) return view;
  const history = view.history.map((t) => ({ ...t, event: t.event + offset }));
  return { ...view, history, lastMove: history.length ? history[history.length - 1]! : null };
};

/**
 * The game at `version` as `viewerId` sees it (their seat's view, or a spectator's): `stored` is its log
 * up to there, folded into `state` (null while the game is open). getGame and a just-played turn both answer with it.
 */
export const snapshotOf = (
  game: Pick<
    GameRow,
    'id' | 'lexiconName' | 'lexiconHash' | 'createdAt' | 'updatedAt' | 'scorekeeperId' | 'organizationId' | 'rated' | 'ratingCategory'
  >,
  seats: readonly SeatHolder[],
  stored: readonly StoredEvent[],
  state: GameState | null,
  viewerId: string | null,
  version: number,
  deadlineAt: Date | null,
  now: Date,
): GameSnapshot => {
  const mySeat = seatOf(seats, viewerId);
  const first = engineEvents(stored.slice(0, 2))[0];
  const settings = first?.type === 'game-created' ? first : proposalOf(stored);
  if (!settings) throw new Error(`game ${game.id} has neither game-created nor game-proposed`);
  const recorded = game.scorekeeperId !== null;
  const seen = state === null ? null : mySeat === null ? spectatorView(state) : viewFor(state, mySeat, now.toISOString());
  // A recorded game's players take no action here (submitTurn, resign, pauses answer RECORDED_GAME).
  const played = recorded && seen && isSeatView(seen) ? { ...seen, legalActions: [] } : seen;
  const view = state && played ? numberedView(played, engineOffset(stored, version - state.eventCount)) : played;
  const actions =
    state === null
      ? []
      : recorded
        ? viewerId === game.scorekeeperId
          ? recordableMoves(state)
          : []
        : view && isSeatView(view)
          ? view.legalActions
          : [];
  return {
    id: game.id,
    version,
    status: state ? state.status : 'open',
    rules: settings.rules,
    lexicon: settings.lexicon ?? { name: game.lexiconName, hash: game.lexiconHash },
    seats,
    mySeat,
    view,
    actions,
    timeControl: settings.timeControl,
    deadlineAt,
    clock: state && view ? clockAt(state, view, now) : null,
    bagCommitment: state?.commitment ?? null,
    // A recorded game's bag is unknown too, but it was not imported: the scorekeeper's row tells them apart.
    imported: state?.bagKind === 'imported' && game.scorekeeperId === null,
    recorded,
    organizationId: game.organizationId,
    rated: game.rated,
    ratingCategory: game.ratingCategory,
    ratingChange: game.rated && state?.status === 'ended' ? latestRatingChange(stored) : null,
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
  };
};

/**
 * The latest `rating-changed` of a log (a ruling's recompute appends one that supersedes the first). Read
 * from the log the snapshot already holds, not from `rating_changes`: no statement more, and it is the
 * game's own record, as of the snapshot's version (docs/rated-play.md "Rated or casual").
 */
const latestRatingChange = (stored: readonly StoredEvent[]): RatingChanged | null => {
  for (let i = stored.length - 1; i >= 0; i--) {
    const e = stored[i]!;
    if (e.type === RATING_EVENT) return e.payload as RatingChanged;
  }
  return null;
};

// ---------------------------------------------------------------------------------------------
// A player's games

export const DEFAULT_GAMES_PAGE = 20;
export const MAX_GAMES_PAGE = 100;

export type GamesPage = Page<GameSnapshot>;

const { encode: cursorOf, decode: gameIdOf } = cursorCodec('game');

/**
 * Inbox groups, in order: awaiting my move, the opponent's move, waiting for a second player, over. A
 * live recorded game awaits its scorekeeper (seat null) whoever is to move: every move is theirs to enter.
 */
const inboxRank = (r: PlayerGameRow): number => {
  const live = r.status === 'playing' || r.status === 'waiting-final';
  if (live) return r.seat === null || r.turnSeat === r.seat ? 0 : 1;
  return r.status === 'open' ? 2 : 3;
};

/**
 * The caller's games as an inbox for clients that poll (issue 5): those awaiting the caller's move
 * first, then those awaiting the opponent, then open seats, then finished games; inside a group the
 * soonest deadline first and untimed games last, then the most recently changed. A relay page of
 * `first` after the cursor `after`.
 */
export async function myGames(
  deps: ServiceDeps,
  playerId: string,
  page: { readonly first?: number | null; readonly after?: string | null },
): Promise<Result<GamesPage, RuleError>> {
  const first = page.first ?? DEFAULT_GAMES_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_GAMES_PAGE)
    return fail('BAD_INPUT', `first must be 1–${MAX_GAMES_PAGE}, not ${first}.`, { field: 'first' });
  const rows = await gamesOfPlayer(deps.db.prisma, playerId);
  const time = (d: Date | null) => (d === null ? Number.POSITIVE_INFINITY : d.getTime());
  // A player in both seats (allowed for imports), or seated and keeping the score, is listed once, under the row that ranks first.
  const bySeat = new Map<string, PlayerGameRow>();
  for (const r of rows) {
    const seen = bySeat.get(r.gameId);
    if (!seen || inboxRank(r) < inboxRank(seen)) bySeat.set(r.gameId, r);
  }
  const unique = [...bySeat.values()];
  unique.sort(
    (a, b) =>
      inboxRank(a) - inboxRank(b) ||
      time(a.deadlineAt) - time(b.deadlineAt) ||
      b.updatedAt.getTime() - a.updatedAt.getTime() ||
      (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0),
  );
  let start = 0;
  if (page.after) {
    const id = gameIdOf(page.after);
    const at = id === null ? -1 : unique.findIndex((r) => r.gameId === id);
    if (at < 0)
      return fail('CURSOR_INVALID', `"${page.after}" is not a cursor of your game list (or that game is no longer in it).`, {
        field: 'after',
      });
    start = at + 1;
  }
  // The page's games in one statement, each log read only past what this process knows (readCurrent).
  const slice = unique.slice(start, start + first);
  const games = await readCurrent(
    deps.db,
    slice.map((r) => r.gameId),
  );
  const edges = games.map(({ game, seats, stored, state }) => ({
    cursor: cursorOf(game.id),
    node: snapshotOf(game, seats, stored, state, playerId, game.version, game.deadlineAt, deps.now()),
  }));
  return ok({ edges, hasNextPage: start + first < unique.length, hasPreviousPage: start > 0, totalCount: unique.length });
}
