import type { RuleError } from '../engine/errors.js';
import type { Seat, TimeControl } from '../engine/game/events.js';
import { ok, type Result } from '../engine/result.js';
import { loadGame } from '../store/games.js';
import type { JsonObject } from '../store/json.js';
import {
  challengesOf,
  closeChallenge,
  findChallenge,
  insertChallenge,
  openRematchOf,
  setChallengeGame,
  type ChallengeRow,
} from '../store/lobby.js';
import { findPlayerById, type PlayerRow } from '../store/players.js';
import { seatsOf } from '../store/seats.js';
import type { ServiceDeps } from './context.js';
import { announce } from './lobby-events.js';
import { prepareGame } from './game-create.js';
import { getGame, type GameSnapshot } from './game-reads.js';
import {
  correspondenceOf,
  DAY_MS,
  DEFAULT_DAYS_PER_MOVE,
  DEFAULT_EXPIRY_DAYS,
  livePlayer,
  lobbyFail,
  MAX_EXPIRY_DAYS,
  namedOpponent,
  offerSettings,
  robotRefusal,
  wholeIn,
  offerState,
} from './lobby-common.js';
import { isRobotHandle } from './robot-seats.js';

/**
 * Challenges to a named player (issue 33, docs/lobby.md): the challenger proposes a game with its settings;
 * the challenged player accepts (the game starts, both seated) or declines; the challenger may withdraw;
 * an unanswered challenge expires. A rematch is a challenge to the other player of an ended game with
 * its settings and the seats swapped, so the player who moved second moves first; one open rematch per game.
 */

export interface NewChallengeInput {
  /** The challenged player's handle. */
  readonly opponent: string;
  readonly ruleSet?: string | null;
  readonly overrides?: unknown;
  readonly lexicon?: string | null;
  /** Default: correspondence, 3 days per move. */
  readonly timeControl?: TimeControl | null;
  readonly rated?: boolean | null;
  /** The challenger's seat, 0 or 1 (default 0); seat 0 moves first. */
  readonly seat?: number | null;
  /** Days until the challenge expires, 1–30 (default 7). */
  readonly expiresInDays?: number | null;
}

export type ChallengeState = 'open' | 'accepted' | 'declined' | 'withdrawn' | 'expired';

export interface ChallengeView {
  readonly challenge: ChallengeRow;
  readonly state: ChallengeState;
  readonly challenger: PlayerRow;
  readonly challenged: PlayerRow;
  readonly timeControl: TimeControl;
}

const stateOf = (c: ChallengeRow, now: Date): ChallengeState => offerState<ChallengeState>(c, now);

const notFound = (challengeId: string) =>
  lobbyFail('CHALLENGE_NOT_FOUND', `No challenge of yours has the id "${challengeId}".`, { field: 'id', challengeId });

const viewOf = async (deps: ServiceDeps, c: ChallengeRow): Promise<ChallengeView> => {
  const [challenger, challenged] = await Promise.all([
    findPlayerById(deps.db.prisma, c.challengerId),
    findPlayerById(deps.db.prisma, c.challengedId),
  ]);
  if (!challenger || !challenged) throw new Error(`challenge ${c.id} names a player that does not exist`);
  return { challenge: c, state: stateOf(c, deps.now()), challenger, challenged, timeControl: c.timeControl as unknown as TimeControl };
};

/** A challenge the caller is one of the players of; CHALLENGE_NOT_FOUND for anyone else. */
export async function getChallenge(deps: ServiceDeps, playerId: string, challengeId: string): Promise<Result<ChallengeView, RuleError>> {
  const c = await findChallenge(deps.db.prisma, challengeId);
  if (!c || (c.challengerId !== playerId && c.challengedId !== playerId)) return notFound(challengeId);
  return ok(await viewOf(deps, c));
}

export const MAX_CHALLENGES_LISTED = 100;

/** The caller's challenges, sent and received, newest first (the last 100). */
export async function myChallenges(deps: ServiceDeps, playerId: string): Promise<ChallengeView[]> {
  const rows = await challengesOf(deps.db.prisma, playerId, MAX_CHALLENGES_LISTED);
  const out: ChallengeView[] = [];
  for (const row of rows) out.push(await viewOf(deps, row));
  return out;
}

/** Challenges `input.opponent`. Errors (nothing written): CHALLENGE_SELF, PLAYER_NOT_FOUND, RATED_ROBOT, ROBOT_OPPONENT, BAD_INPUT, the settings'. */
export async function createChallenge(
  deps: ServiceDeps,
  playerId: string,
  input: NewChallengeInput,
): Promise<Result<ChallengeView, RuleError>> {
  const me = await livePlayer(deps, playerId);
  if (!me.ok) return me;
  const other = await namedOpponent(deps, me.value, input.opponent, input.rated === true, 'opponent');
  if (!other.ok) return other;
  const seat = wholeIn('seat', input.seat ?? 0, 0, 1, 'seats');
  if (!seat.ok) return seat;
  const expiry = wholeIn('expiresInDays', input.expiresInDays ?? DEFAULT_EXPIRY_DAYS, 1, MAX_EXPIRY_DAYS, 'days');
  if (!expiry.ok) return expiry;
  const settings = await offerSettings(deps, { ...input, timeControl: input.timeControl ?? correspondenceOf(DEFAULT_DAYS_PER_MOVE) });
  if (!settings.ok) return settings;
  const now = deps.now();
  const row = await insertAnnounced(deps, me.value.handle, {
    challengerId: playerId,
    challengedId: other.value.id,
    ruleSetId: settings.value.ruleSetId,
    ruleOverrides: settings.value.ruleOverrides,
    lexiconName: settings.value.lexiconName,
    timeControl: settings.value.timeControl as unknown as JsonObject,
    rated: settings.value.rated,
    category: settings.value.rated ? settings.value.category : null,
    challengerSeat: seat.value,
    firstSeat: 0,
    rematchOf: null,
    expiresAt: new Date(now.getTime() + expiry.value * DAY_MS),
    createdAt: now,
  });
  if (!row) throw new Error('a plain challenge cannot collide with an open rematch');
  return ok(await viewOf(deps, row));
}

/**
 * Asks the other player of the ended game `gameId` for a rematch: its settings, the seats swapped, the same
 * first seat — so the player who moved second moves first. Errors: GAME_NOT_FOUND, NOT_SEATED, GAME_NOT_ENDED,
 * REMATCH_EXISTS, ROBOT_OPPONENT, PLAYER_NOT_FOUND (the other account is deleted), BAD_INPUT (an imported or recorded game).
 */
export async function requestRematch(deps: ServiceDeps, playerId: string, gameId: string): Promise<Result<ChallengeView, RuleError>> {
  const loaded = await loadGame(deps.db.prisma, gameId);
  if (!loaded.ok) return loaded;
  const { game, events } = loaded.value;
  const seats = await seatsOf(deps.db.prisma, gameId);
  const mine = seats.find((s) => s.player?.id === playerId);
  const theirs = seats.find((s) => s.player !== null && s.player.id !== playerId);
  if (!mine) return lobbyFail('NOT_SEATED', 'Only a player of the game may ask for its rematch.', { gameId });
  if (game.status !== 'ended') return lobbyFail('GAME_NOT_ENDED', 'A rematch is asked for once the game has ended.', { gameId });
  const created = events.find((e) => e.type === 'game-created')?.payload as { firstSeat?: number; timeControl?: TimeControl } | undefined;
  if (!created || game.scorekeeperId !== null || !theirs?.player)
    return lobbyFail('BAD_INPUT', 'Only a game played here between two players has a rematch.', { field: 'gameId', gameId });
  if (isRobotHandle(theirs.player.handle)) return robotRefusal(game.rated, 'gameId');
  if (theirs.player.deletedAt) return lobbyFail('PLAYER_NOT_FOUND', 'Your opponent’s account is deleted.', { field: 'gameId', gameId });
  const open = await openRematchOf(deps.db.prisma, gameId);
  if (open) return rematchExists(gameId, open.id);
  const now = deps.now();
  const row = await insertAnnounced(deps, mine.player!.handle, {
    challengerId: playerId,
    challengedId: theirs.player.id,
    ruleSetId: game.ruleSetId,
    ruleOverrides: game.ruleOverrides as JsonObject,
    lexiconName: game.lexiconName,
    timeControl: (created.timeControl ?? { kind: 'untimed' }) as unknown as JsonObject,
    rated: game.rated,
    category: game.ratingCategory,
    challengerSeat: 1 - mine.seat,
    firstSeat: created.firstSeat ?? 0,
    rematchOf: gameId,
    expiresAt: new Date(now.getTime() + DEFAULT_EXPIRY_DAYS * DAY_MS),
    createdAt: now,
  });
  // Two asks at once: the partial unique index keeps one.
  if (!row) return rematchExists(gameId, (await openRematchOf(deps.db.prisma, gameId))?.id ?? null);
  return ok(await viewOf(deps, row));
}

class RematchTaken extends Error {}

/**
 * Writes a challenge and tells the challenged player (challenge-received) in one transaction; null when the
 * game already has an open rematch (then nothing is written).
 */
const insertAnnounced = async (deps: ServiceDeps, from: string, c: Parameters<typeof insertChallenge>[1]): Promise<ChallengeRow | null> => {
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await insertChallenge(tx, c);
      // The failed insert has aborted the transaction (on Postgres): roll it back.
      if (!row) throw new RematchTaken();
      const data = { challengeId: row.id, from, rated: row.rated, rematchOf: row.rematchOf, expiresAt: row.expiresAt.toISOString() };
      await announce(tx, [{ to: row.challengedId, kind: 'challenge-received', data }]);
      return row;
    });
  } catch (e) {
    if (e instanceof RematchTaken) return null;
    throw e;
  }
};

const rematchExists = (gameId: string, challengeId: string | null) =>
  lobbyFail('REMATCH_EXISTS', 'This game already has an open rematch: answer or withdraw it.', { gameId, challengeId });

/** Why a challenge could not be closed: CHALLENGE_CLOSED with its state now. */
const closed = async (deps: ServiceDeps, challengeId: string): Promise<Result<never, RuleError>> => {
  const c = await findChallenge(deps.db.prisma, challengeId);
  const state = c ? stateOf(c, deps.now()) : 'withdrawn';
  return lobbyFail('CHALLENGE_CLOSED', `This challenge is no longer open: it is ${state}.`, { challengeId, status: state });
};

/** The challenge if the caller is `role` in it and it is open; the error otherwise. */
const openAs = async (
  deps: ServiceDeps,
  playerId: string,
  challengeId: string,
  role: 'challenger' | 'challenged',
): Promise<Result<ChallengeRow, RuleError>> => {
  const found = await getChallenge(deps, playerId, challengeId);
  if (!found.ok) return found;
  const c = found.value.challenge;
  if ((role === 'challenger' ? c.challengerId : c.challengedId) !== playerId) {
    const what = role === 'challenger' ? 'Only the challenger withdraws a challenge.' : 'Only the challenged player answers a challenge.';
    return lobbyFail('NOT_YOUR_CHALLENGE', what, { challengeId });
  }
  if (found.value.state !== 'open') return closed(deps, challengeId);
  return ok(c);
};

/** Declines a challenge made to the caller. Errors: CHALLENGE_NOT_FOUND, NOT_YOUR_CHALLENGE, CHALLENGE_CLOSED. */
export const declineChallenge = (deps: ServiceDeps, playerId: string, challengeId: string) =>
  closeAs(deps, playerId, challengeId, 'declined');

/** Withdraws the caller's challenge. Errors: CHALLENGE_NOT_FOUND, NOT_YOUR_CHALLENGE, CHALLENGE_CLOSED. */
export const withdrawChallenge = (deps: ServiceDeps, playerId: string, challengeId: string) =>
  closeAs(deps, playerId, challengeId, 'withdrawn');

const closeAs = async (
  deps: ServiceDeps,
  playerId: string,
  challengeId: string,
  status: 'declined' | 'withdrawn',
): Promise<Result<ChallengeView, RuleError>> => {
  const c = await openAs(deps, playerId, challengeId, status === 'declined' ? 'challenged' : 'challenger');
  if (!c.ok) return c;
  const by = status === 'declined' ? { challengedId: playerId } : { challengerId: playerId };
  const from = (await findPlayerById(deps.db.prisma, playerId))?.handle ?? null;
  const to = status === 'declined' ? c.value.challengerId : c.value.challengedId;
  const done = await deps.db.transaction(async (tx) => {
    if (!(await closeChallenge(tx, c.value.id, status, by, deps.now()))) return false;
    await announce(tx, [{ to, kind: 'challenge-answered', data: { challengeId, answer: status, from } }]);
    return true;
  });
  if (!done) return closed(deps, challengeId);
  return getChallenge(deps, playerId, challengeId);
};

class ChallengeLost extends Error {}

/**
 * Accepts a challenge made to the caller: the game starts at once with its settings and seats. Errors, with
 * nothing written: CHALLENGE_NOT_FOUND, NOT_YOUR_CHALLENGE, CHALLENGE_CLOSED (also when withdrawn meanwhile), createGame's.
 */
export async function acceptChallenge(deps: ServiceDeps, playerId: string, challengeId: string): Promise<Result<GameSnapshot, RuleError>> {
  const me = await livePlayer(deps, playerId);
  if (!me.ok) return me;
  const c = await openAs(deps, playerId, challengeId, 'challenged');
  if (!c.ok) return c;
  const row = c.value;
  const prepared = await prepareGame(deps, row.challengerId, {
    ruleSet: row.ruleSetId,
    overrides: row.ruleOverrides,
    lexicon: row.lexiconName,
    timeControl: row.timeControl as unknown as TimeControl,
    opponent: me.value.handle,
    rated: row.rated,
    seat: row.challengerSeat as Seat,
    firstSeat: row.firstSeat as Seat,
  });
  if (!prepared.ok) return prepared;
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await closeChallenge(tx, row.id, 'accepted', { challengedId: playerId }, deps.now()))) throw new ChallengeLost();
      await prepared.value.write(tx);
      await setChallengeGame(tx, row.id, prepared.value.id);
      const data = { challengeId: row.id, answer: 'accepted', from: me.value.handle, gameId: prepared.value.id };
      await announce(tx, [{ to: row.challengerId, kind: 'challenge-answered', data }]);
    });
  } catch (e) {
    if (e instanceof ChallengeLost) return closed(deps, challengeId);
    throw e;
  }
  return getGame(deps, playerId, prepared.value.id, { hold: prepared.value.secrets });
}
