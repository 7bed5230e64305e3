import { randomUUID } from 'node:crypto';
import { ruleError, type RuleError } from '../engine/errors.js';
import { replay } from '../engine/game/apply.js';
import type { Seat, TimeControl } from '../engine/game/events.js';
import type { FirstSecondTally } from '../engine/game/forfeits.js';
import { recordedScores } from '../engine/game/forfeits.js';
import { matchGames, matchStanding, type MatchStatus } from '../engine/game/match.js';
import type { GameState } from '../engine/game/state.js';
import { err, ok, type Result } from '../engine/result.js';
import type { MatchDecider, RuleSet } from '../engine/rules/ruleset.js';
import type { JsonObject } from '../store/json.js';
import { claimMatchOpponent, findMatch, insertMatch, matchIdsOfPlayer, setMatchStatus, type MatchWithPlayers } from '../store/matches.js';
import type { PlayerRow } from '../store/players.js';
import type { ServiceDeps } from './context.js';
import { joinGame, prepareGame, type PreparedGame } from './game-create.js';
import { loadGameLog } from './game-log.js';
import { getGame, type GameSnapshot } from './game-reads.js';
import { ruleSetFor } from './rules.js';
import { cursorCodec, type Page } from './paging.js';

/**
 * Matches (issue 5; seed-003 rule 1, scoring 11): two games between the same two players, each going
 * first once, decided on combined points. Both games are created up front, so either may be played
 * at any time (correspondence play needs no order): the creator sits in seat 0 of every game, the
 * opponent in seat 1, and game i's first seat is `matchGames(rules)[i]` (0, 1, …). With an open
 * place, every game waits (status `open`) until {@link joinMatch} seats the second player in all of
 * them. The games are ordinary games (submitTurn, game, gameRecord work on them); the match is read
 * from them with the engine (`matchStanding`), so a game's forfeit, timeout or ruling shows in the
 * match at once. The match row and its games are written in one transaction; a game of a match is
 * joined only through {@link joinMatch} (joinGame answers JOIN_THE_MATCH). The `matches.status` column
 * is a projection written by the turn that ends one of its games (service/match-status.ts), in that
 * turn's transaction, and refreshed again whenever a match is read. A match with an aborted game is
 * `aborted`, with no result (engine `matchStanding`).
 */

export const MATCH_SERVICE_ERROR_CODES = [
  /** No match has that id. */
  'MATCH_NOT_FOUND',
  /** createMatch: the rule set plays single games (`match.games` is null). From the engine. */
  'NOT_A_MATCH',
  /** joinMatch: the match's second place is taken. */
  'SEAT_TAKEN',
  /** joinMatch: the caller already plays in the match (createMatch: cannot be one's own opponent). */
  'ALREADY_SEATED',
  /** A game of the match is not between the match's players (a game's seat was taken outside joinMatch; joinGame now refuses that). */
  'MATCH_PLAYERS_DIFFER',
  /** myMatches: `after` is not a cursor this service handed out. */
  'CURSOR_INVALID',
  /** An input is malformed (details.field names it). */
  'BAD_INPUT',
] as const;
export type MatchServiceErrorCode = (typeof MATCH_SERVICE_ERROR_CODES)[number];

const fail = (code: MatchServiceErrorCode, message: string, details: Record<string, unknown> = {}) =>
  err(ruleError(code, message, details));
const matchNotFound = (matchId: string) => fail('MATCH_NOT_FOUND', `No match has the id "${matchId}".`, { matchId, field: 'id' });

/** The rule set of a match when none is named (seed-003's two-game variant). */
export const DEFAULT_MATCH_RULE_SET = 'MATCH_VARIANT';

export interface NewMatchInput {
  /** Preset id (default MATCH_VARIANT); the rule set, with overrides, must have `match.games` set. */
  readonly ruleSet?: string | null;
  readonly overrides?: unknown;
  readonly lexicon?: string | null;
  readonly timeControl?: TimeControl | null;
  /** The opponent's handle; null = an open place anyone may take with {@link joinMatch}. */
  readonly opponent?: string | null;
  /**
   * Every game of the match rated (default casual): each is rated as its own game when it ends, in the
   * rule set's category (docs/matches.md "Rated matches"); refused as createGame refuses a rated game.
   */
  readonly rated?: boolean | null;
}

export interface MatchGameSnapshot {
  /** 0 = the first game. */
  readonly index: number;
  /** The seat that moves first in this game (seed-003 rule 1: 0, then 1). */
  readonly firstSeat: Seat;
  /** The game as the caller sees it. */
  readonly game: GameSnapshot;
  /** The scores the match counts for an ended game (forfeits per the rule set); null while it is on. */
  readonly recordedScores: readonly [number, number] | null;
}

export interface MatchPlayerStanding {
  readonly seat: Seat;
  /** Null while the second place is open. */
  readonly player: PlayerRow | null;
  /** Points over the games begun (see `MatchStanding.totals`). */
  readonly points: number;
  /** Firsts and seconds so far (seed-001 §4 for unplayed games). */
  readonly firstSecond: FirstSecondTally;
}

export interface MatchOutcome {
  /** Null for a tie. */
  readonly winnerSeat: Seat | null;
  readonly decidedBy: MatchDecider;
  /** Each game's winning seat; null = a tied game. */
  readonly gameWinners: readonly (Seat | null)[];
}

export interface MatchSnapshot {
  readonly id: string;
  readonly rules: RuleSet;
  readonly status: MatchStatus;
  readonly creator: PlayerRow;
  readonly opponent: PlayerRow | null;
  /** The caller's seat in every game; null for a spectator. */
  readonly mySeat: Seat | null;
  readonly games: readonly MatchGameSnapshot[];
  /** By seat: 0 = the creator, 1 = the opponent. */
  readonly players: readonly [MatchPlayerStanding, MatchPlayerStanding];
  /** Set once every game has ended. */
  readonly result: MatchOutcome | null;
  /** Its games are rated, each as its own game (their category in `games[i].game.ratingCategory`). */
  readonly rated: boolean;
  readonly createdAt: Date;
}

const EMPTY_TALLY: FirstSecondTally = { positions: [], firsts: 0, seconds: 0 };

/** The engine state of a stored game; null while it waits for its second player. */
const stateOf = async (deps: ServiceDeps, gameId: string): Promise<Result<GameState | null, RuleError>> => {
  const log = await loadGameLog(deps, gameId);
  if (!log.ok) return log;
  if (log.value.events.length === 0) return ok(null);
  const r = replay(log.value.events);
  if (!r.ok) throw new Error(`stored game log ${gameId} does not replay at event ${r.error.index}: ${r.error.code}`);
  return ok(r.value);
};

/** Builds the snapshot of a loaded match as `viewerId` sees it, refreshing its status projection. */
const snapshotOf = async (
  deps: ServiceDeps,
  viewerId: string | null,
  match: MatchWithPlayers,
): Promise<Result<MatchSnapshot, RuleError>> => {
  const games: GameSnapshot[] = [];
  const states: (GameState | null)[] = [];
  for (const g of match.games) {
    const snapshot = await getGame(deps, viewerId, g.id);
    if (!snapshot.ok) return snapshot;
    const state = await stateOf(deps, g.id);
    if (!state.ok) return state;
    games.push(snapshot.value);
    states.push(state.value);
  }
  const rules = games[0]?.rules;
  if (!rules) throw new Error(`match ${match.id} has no games`);
  const standing = matchStanding(rules, states);
  if (!standing.ok) return standing;
  const planned = matchGames(rules);
  const plan = planned.ok ? planned.value : [];
  const { status, totals, firsts, result } = standing.value;
  if (status !== match.status) await setMatchStatus(deps.db.prisma, match.id, status);
  const byHandle = (p: PlayerRow | null) => (p === null ? null : p.handle);
  const standingOf = (seat: Seat, player: PlayerRow | null): MatchPlayerStanding => {
    const handle = byHandle(player);
    return {
      seat,
      player,
      points: handle === null ? 0 : (totals[handle] ?? 0),
      firstSecond: handle === null ? EMPTY_TALLY : (firsts[handle] ?? EMPTY_TALLY),
    };
  };
  const seatOfHandle = (handle: string | null): Seat | null => (handle === null ? null : handle === match.creator.handle ? 0 : 1);
  const mySeat: Seat | null = viewerId === match.creatorId ? 0 : viewerId !== null && viewerId === match.opponentId ? 1 : null;
  return ok({
    id: match.id,
    rules,
    status,
    creator: match.creator,
    opponent: match.opponent,
    mySeat,
    games: games.map((game, index) => {
      const state = states[index] ?? null;
      return {
        index,
        firstSeat: state?.firstSeat ?? plan[index]?.firstSeat ?? 0,
        game,
        recordedScores: state && state.status === 'ended' ? recordedScores(rules, state) : null,
      };
    }),
    players: [standingOf(0, match.creator), standingOf(1, match.opponent)],
    result:
      result === null
        ? null
        : { winnerSeat: seatOfHandle(result.winner), decidedBy: rules.match.decidedBy, gameWinners: result.gameWinners.map(seatOfHandle) },
    rated: games.every((g) => g.rated),
    createdAt: match.createdAt,
  });
};

/** The match `matchId` as `viewerId` sees it (null = anonymous): its games (the caller's rack where seated), points, result. */
export async function getMatch(deps: ServiceDeps, viewerId: string | null, matchId: string): Promise<Result<MatchSnapshot, RuleError>> {
  const match = await findMatch(deps.db.prisma, matchId);
  if (!match) return matchNotFound(matchId);
  return snapshotOf(deps, viewerId, match);
}

let afterGameWritten: ((index: number) => void) | null = null;

/**
 * Test seam: called inside createMatch's transaction after each game is written (a throw there rolls
 * the whole match back). Pass null to remove it. Never used by the app itself.
 */
export const setMatchWriteHookForTests = (hook: ((index: number) => void) | null): void => {
  afterGameWritten = hook;
};

/**
 * Creates a match and all its games (see the module comment), all of it in one transaction: the match
 * row, then each game with its `match_id` and `match_index`. Errors, with nothing written: those of
 * createGame (rule set, lexicon, time control, PLAYER_NOT_FOUND, ALREADY_SEATED, RATED_ROBOT,
 * RATED_OVERRIDES) and NOT_A_MATCH.
 */
export async function createMatch(deps: ServiceDeps, creatorId: string, input: NewMatchInput): Promise<Result<MatchSnapshot, RuleError>> {
  const ruleSet = input.ruleSet ?? DEFAULT_MATCH_RULE_SET;
  const rules = ruleSetFor(ruleSet, input.overrides);
  if (!rules.ok) return rules;
  const plan = matchGames(rules.value);
  if (!plan.ok) return err({ ...plan.error, details: { ...plan.error.details, field: 'ruleSet' } });
  // Every check and read happens before the transaction (prepareGame); inside it, only writes.
  const matchId = randomUUID();
  const games: PreparedGame[] = [];
  for (const [index, { firstSeat }] of plan.value.entries()) {
    const game = await prepareGame(
      deps,
      creatorId,
      {
        ruleSet,
        overrides: input.overrides ?? null,
        lexicon: input.lexicon ?? null,
        timeControl: input.timeControl ?? null,
        opponent: input.opponent ?? null,
        rated: input.rated ?? null,
        seat: 0,
        firstSeat,
      },
      { match: { id: matchId, index } },
    );
    if (!game.ok) return game;
    games.push(game.value);
  }
  const opponentId = games[0]?.opponentId ?? null;
  await deps.db.transaction(async (tx) => {
    const match = {
      id: matchId,
      ruleSetId: rules.value.id,
      ruleOverrides: (input.overrides ?? {}) as JsonObject,
      gameCount: games.length,
      creatorId,
      opponentId,
      status: opponentId === null ? 'open' : 'playing',
    };
    await insertMatch(tx, match, []);
    for (const [index, game] of games.entries()) {
      await game.write(tx);
      afterGameWritten?.(index);
    }
  });
  return getMatch(deps, creatorId, matchId);
}

/**
 * Takes the open place of a match: the caller sits in seat 1 of every game, which start at once.
 * Safe to retry: a caller who already holds the place gets the games started and ALREADY_SEATED.
 */
export async function joinMatch(deps: ServiceDeps, playerId: string, matchId: string): Promise<Result<MatchSnapshot, RuleError>> {
  const match = await findMatch(deps.db.prisma, matchId);
  if (!match) return matchNotFound(matchId);
  if (match.creatorId === playerId) return fail('ALREADY_SEATED', 'You created this match: another player must join it.', { matchId });
  const retried = match.opponentId === playerId;
  if (!retried && !(await claimMatchOpponent(deps.db.prisma, match.id, playerId))) {
    return fail('SEAT_TAKEN', 'This match has no open place: another player has joined it.', { matchId });
  }
  for (const g of match.games) {
    const joined = await joinGame(deps, playerId, g.id, { viaMatch: match.id });
    if (joined.ok || joined.error.code === 'ALREADY_SEATED') continue;
    if (joined.error.code === 'SEAT_TAKEN') {
      return fail('MATCH_PLAYERS_DIFFER', `Game ${(g.matchIndex ?? 0) + 1} of this match was joined by another player.`, {
        matchId,
        gameId: g.id,
      });
    }
    return joined;
  }
  if (retried) return fail('ALREADY_SEATED', 'You already play in this match.', { matchId });
  return getMatch(deps, playerId, match.id);
}

export const DEFAULT_MATCHES_PAGE = 20;
export const MAX_MATCHES_PAGE = 50;

export type MatchesPage = Page<MatchSnapshot>;

const { encode: cursorOf, decode: matchIdOf } = cursorCodec('match');

/** The caller's matches (created or joined), newest first; a relay page of `first` after `after`. */
export async function myMatches(
  deps: ServiceDeps,
  playerId: string,
  page: { readonly first?: number | null; readonly after?: string | null },
): Promise<Result<MatchesPage, RuleError>> {
  const first = page.first ?? DEFAULT_MATCHES_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_MATCHES_PAGE)
    return fail('BAD_INPUT', `first must be 1–${MAX_MATCHES_PAGE}, not ${first}.`, { field: 'first' });
  const ids = await matchIdsOfPlayer(deps.db.prisma, playerId);
  let start = 0;
  if (page.after) {
    const id = matchIdOf(page.after);
    const at = id === null ? -1 : ids.indexOf(id);
    if (at < 0) return fail('CURSOR_INVALID', `"${page.after}" is not a cursor of your match list.`, { field: 'after' });
    start = at + 1;
  }
  const edges: { cursor: string; node: MatchSnapshot }[] = [];
  for (const id of ids.slice(start, start + first)) {
    const m = await getMatch(deps, playerId, id);
    if (!m.ok) return m;
    edges.push({ cursor: cursorOf(id), node: m.value });
  }
  return ok({ edges, hasNextPage: start + first < ids.length, hasPreviousPage: start > 0, totalCount: ids.length });
}
