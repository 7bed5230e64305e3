import { randomInt } from 'node:crypto';
import type { RuleError } from '../engine/errors.js';
import type { Seat } from '../engine/game/events.js';
import { ok, type Result } from '../engine/result.js';
import {
  claimPair,
  findPairingRequest,
  insertPairingRequest,
  moveRequest,
  offerRobots,
  pairingCandidates,
  pairingRequestsOf,
  setPairingGame,
  waitingRequests,
  type PairingRequestRow,
} from '../store/lobby.js';
import { findPlayerById } from '../store/players.js';
import type { ServiceDeps } from './context.js';
import { prepareGame } from './game-create.js';
import { announce } from './lobby-events.js';
import { getGame, type GameSnapshot } from './game-reads.js';
import {
  correspondenceOf,
  currentRating,
  DEFAULT_DAYS_PER_MOVE,
  livePlayer,
  lobbyFail,
  MAX_DAYS_PER_MOVE,
  MIN_DAYS_PER_MOVE,
  offerSettings,
  wholeIn,
} from './lobby-common.js';
import { isRobotHandle, ROBOT_HANDLES, wakeRobots } from './robot-seats.js';

/**
 * Automatic pairing for correspondence (issue 33, docs/lobby.md): "pair me with someone within ±N of my rating
 * within a day". A request waits; the matcher pairs it with the compatible waiting request of the nearest
 * rating (same category, rule set, lexicon and pace; each rating inside the other's range) when it is made,
 * and the sweep (the robot worker's, service/robot-worker.ts) pairs what two requests made at the same moment
 * missed. When the wait ends unmatched, the request is offered a robot: acceptRobotOffer starts a casual game
 * against one (robots are not rated).
 */

export const DEFAULT_RATING_RANGE = 200;
export const MAX_RATING_RANGE = 1000;
export const DEFAULT_WAIT_HOURS = 24;
export const MAX_WAIT_HOURS = 7 * 24;
const HOUR_MS = 3_600_000;
const CANDIDATES_TRIED = 5;

export interface NewPairingInput {
  readonly ruleSet?: string | null;
  readonly lexicon?: string | null;
  /** Days per move, 1–14 (default 3). */
  readonly daysPerMove?: number | null;
  readonly rated?: boolean | null;
  /** ±rating points, 0–1000 (default 200). */
  readonly ratingRange?: number | null;
  /** Hours to wait for a player before a robot is offered, 1–168 (default 24). */
  readonly waitHours?: number | null;
}

export type PairingState = 'waiting' | 'paired' | 'robot-offered' | 'robot-accepted' | 'withdrawn';

export interface PairingView {
  readonly request: PairingRequestRow;
  /** `waiting` whose wait has ended reads as `robot-offered` before the sweep writes it. */
  readonly state: PairingState;
}

const viewOf = (r: PairingRequestRow, now: Date): PairingView => ({
  request: r,
  state: r.status === 'waiting' && r.waitUntil.getTime() <= now.getTime() ? 'robot-offered' : (r.status as PairingState),
});

const notFound = (id: string) => lobbyFail('PAIRING_REQUEST_NOT_FOUND', `No pairing request of yours has the id "${id}".`, { field: 'id' });

/** The caller's request; PAIRING_REQUEST_NOT_FOUND for anyone else's. */
export async function getPairingRequest(deps: ServiceDeps, playerId: string, id: string): Promise<Result<PairingView, RuleError>> {
  const r = await findPairingRequest(deps.db.prisma, id);
  if (!r || r.playerId !== playerId) return notFound(id);
  return ok(viewOf(r, deps.now()));
}

/** The caller's requests, newest first (the last 50). */
export const myPairingRequests = async (deps: ServiceDeps, playerId: string): Promise<PairingView[]> =>
  (await pairingRequestsOf(deps.db.prisma, playerId, 50)).map((r) => viewOf(r, deps.now()));

/** Makes a request and pairs it at once when a compatible one waits. Errors (nothing written): BAD_INPUT, PAIRING_EXISTS, the settings'. */
export async function createPairingRequest(
  deps: ServiceDeps,
  playerId: string,
  input: NewPairingInput,
): Promise<Result<PairingView, RuleError>> {
  const me = await livePlayer(deps, playerId);
  if (!me.ok) return me;
  const days = wholeIn('daysPerMove', input.daysPerMove ?? DEFAULT_DAYS_PER_MOVE, MIN_DAYS_PER_MOVE, MAX_DAYS_PER_MOVE, 'days');
  if (!days.ok) return days;
  const range = wholeIn('ratingRange', input.ratingRange ?? DEFAULT_RATING_RANGE, 0, MAX_RATING_RANGE, 'rating points');
  if (!range.ok) return range;
  const wait = wholeIn('waitHours', input.waitHours ?? DEFAULT_WAIT_HOURS, 1, MAX_WAIT_HOURS, 'hours');
  if (!wait.ok) return wait;
  const settings = await offerSettings(deps, { ...input, timeControl: correspondenceOf(days.value) });
  if (!settings.ok) return settings;
  const now = deps.now();
  const row = await insertPairingRequest(deps.db.prisma, {
    playerId,
    ruleSetId: settings.value.ruleSetId,
    lexiconName: settings.value.lexiconName,
    daysPerMove: days.value,
    rated: settings.value.rated,
    category: settings.value.category,
    rating: await currentRating(deps, playerId, settings.value.category),
    ratingRange: range.value,
    waitUntil: new Date(now.getTime() + wait.value * HOUR_MS),
    createdAt: now,
  });
  if (!row)
    return lobbyFail('PAIRING_EXISTS', `You already have a pairing request in ${settings.value.category}: withdraw it first.`, {
      category: settings.value.category,
    });
  const paired = await pairRequest(deps, row);
  if (!paired.ok) return paired;
  return getPairingRequest(deps, playerId, row.id);
}

class PairLost extends Error {}

/**
 * Pairs the waiting request `r` with the nearest compatible one: both are closed and the game written in one
 * transaction, so a request is paired once. Answers the game's id, or null when no request fits.
 */
export async function pairRequest(deps: ServiceDeps, r: PairingRequestRow): Promise<Result<string | null, RuleError>> {
  const now = deps.now();
  const mine = await findPlayerById(deps.db.prisma, r.playerId);
  for (const other of await pairingCandidates(deps.db.prisma, r, now, CANDIDATES_TRIED)) {
    const opponent = await findPlayerById(deps.db.prisma, other.playerId);
    if (!opponent || opponent.deletedAt) continue;
    const prepared = await prepareGame(deps, r.playerId, {
      ruleSet: r.ruleSetId,
      lexicon: r.lexiconName,
      timeControl: correspondenceOf(r.daysPerMove),
      opponent: opponent.handle,
      rated: r.rated,
      seat: randomInt(2) as Seat,
    });
    if (!prepared.ok) return prepared;
    try {
      await deps.db.transaction(async (tx) => {
        if (!(await claimPair(tx, r, other, now))) throw new PairLost();
        await prepared.value.write(tx);
        await setPairingGame(tx, r.id, prepared.value.id, other.playerId);
        await setPairingGame(tx, other.id, prepared.value.id, r.playerId);
        const gameId = prepared.value.id;
        await announce(tx, [
          { to: r.playerId, kind: 'pairing-found', data: { requestId: r.id, gameId, from: opponent.handle } },
          { to: other.playerId, kind: 'pairing-found', data: { requestId: other.id, gameId, from: mine?.handle ?? null } },
        ]);
      });
      return ok(prepared.value.id);
    } catch (e) {
      if (!(e instanceof PairLost)) throw e;
      // Another pairing took one of the two meanwhile: is ours still waiting?
      const mine = await findPairingRequest(deps.db.prisma, r.id);
      if (mine?.status !== 'waiting') return ok(null);
    }
  }
  return ok(null);
}

/** The sweep: offers a robot to every request whose wait ended, then pairs what still waits. Answers the games made. */
export async function sweepPairing(deps: ServiceDeps, limit = 100): Promise<number> {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const offered = await offerRobots(tx, now);
    await announce(
      tx,
      offered.map((r) => ({ to: r.playerId, kind: 'robot-offered' as const, data: { requestId: r.id } })),
    );
  });
  let games = 0;
  for (const r of await waitingRequests(deps.db.prisma, now, limit)) {
    const fresh = await findPairingRequest(deps.db.prisma, r.id);
    if (fresh?.status !== 'waiting') continue;
    const paired = await pairRequest(deps, fresh);
    if (paired.ok && paired.value) games++;
  }
  return games;
}

/** Withdraws the caller's waiting (or robot-offered) request. Errors: PAIRING_REQUEST_NOT_FOUND, PAIRING_CLOSED. */
export async function withdrawPairingRequest(deps: ServiceDeps, playerId: string, id: string): Promise<Result<PairingView, RuleError>> {
  const found = await getPairingRequest(deps, playerId, id);
  if (!found.ok) return found;
  if (!(await moveRequest(deps.db.prisma, id, playerId, ['waiting', 'robot-offered'], 'withdrawn', deps.now())))
    return pairingClosed(deps, playerId, id);
  return getPairingRequest(deps, playerId, id);
}

const pairingClosed = async (deps: ServiceDeps, playerId: string, id: string): Promise<Result<never, RuleError>> => {
  const now = await getPairingRequest(deps, playerId, id);
  const state = now.ok ? now.value.state : 'withdrawn';
  return lobbyFail('PAIRING_CLOSED', `This pairing request is ${state}.`, { requestId: id, status: state });
};

class OfferLost extends Error {}

/**
 * Takes the robot offered to the caller's request whose wait has ended: a casual game against `robot`
 * (default robot:equity) starts at once. Errors: PAIRING_REQUEST_NOT_FOUND, NO_ROBOT_OFFER (still waiting),
 * PAIRING_CLOSED, BAD_INPUT (not a robot), ROBOT_UNAVAILABLE (no move graph for the lexicon).
 */
export async function acceptRobotOffer(
  deps: ServiceDeps,
  playerId: string,
  id: string,
  robot: string | null = null,
): Promise<Result<GameSnapshot, RuleError>> {
  const handle = robot ?? 'robot:equity';
  if (!isRobotHandle(handle))
    return lobbyFail('BAD_INPUT', `robot must be one of ${Object.keys(ROBOT_HANDLES).join(', ')}.`, { field: 'robot' });
  const found = await getPairingRequest(deps, playerId, id);
  if (!found.ok) return found;
  const r = found.value.request;
  if (found.value.state === 'waiting')
    return lobbyFail('NO_ROBOT_OFFER', `A robot is offered once the wait ends at ${r.waitUntil.toISOString()}.`, { requestId: id });
  if (found.value.state !== 'robot-offered') return pairingClosed(deps, playerId, id);
  const prepared = await prepareGame(deps, playerId, {
    ruleSet: r.ruleSetId,
    lexicon: r.lexiconName,
    timeControl: correspondenceOf(r.daysPerMove),
    opponent: handle,
    rated: false,
  });
  if (!prepared.ok) return prepared;
  try {
    await deps.db.transaction(async (tx) => {
      if (!(await moveRequest(tx, id, playerId, ['waiting', 'robot-offered'], 'robot-accepted', deps.now(), true))) throw new OfferLost();
      await prepared.value.write(tx);
      await setPairingGame(tx, id, prepared.value.id, prepared.value.opponentId);
    });
  } catch (e) {
    if (e instanceof OfferLost) return pairingClosed(deps, playerId, id);
    throw e;
  }
  await wakeRobots(deps, prepared.value.id);
  return getGame(deps, playerId, prepared.value.id, { hold: prepared.value.secrets });
}
