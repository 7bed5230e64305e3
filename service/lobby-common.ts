import { ruleError, type RuleError } from '../engine/errors.js';
import { validateTimeControl } from '../engine/game/clock.js';
import type { TimeControl } from '../engine/game/events.js';
import { err, ok, type Result } from '../engine/result.js';
import { categoryOf, type Pace } from '../engine/rating/categories.js';
import { RATING_PARAMS } from '../engine/rating/params.js';
import { ratingOf } from '../store/lobby.js';
import { findPlayerByHandle, findPlayerById, type PlayerRow } from '../store/players.js';
import type { JsonObject } from '../store/json.js';
import type { ServiceDeps } from './context.js';
import { lexiconNamed } from './game-create.js';
import { isRobotHandle } from './robot-seats.js';
import { ruleSetFor } from './rules.js';

/**
 * What the lobby's use cases share (issue 33, docs/lobby.md): their error codes, the check of a game's
 * settings as an offer names them, a player's rating in a category, and the players an offer may name.
 */

export const LOBBY_SERVICE_ERROR_CODES = [
  /** No seek has that id (or its author's account is deleted). */
  'SEEK_NOT_FOUND',
  /** acceptSeek: the caller wrote the seek. */
  'SEEK_OWN',
  /** acceptSeek: another player accepted the seek first. */
  'SEEK_TAKEN',
  /** acceptSeek: the author withdrew the seek. */
  'SEEK_WITHDRAWN',
  /** acceptSeek: the seek's expiry has passed. */
  'SEEK_EXPIRED',
  /** withdrawSeek: only the seek's author may withdraw it. */
  'NOT_SEEK_AUTHOR',
  /** acceptSeek: the caller's rating in the seek's category is outside its range (details: rating, min, max). */
  'RATING_OUT_OF_RANGE',
  /** A rated game against a robot: robots are not rated (docs/lobby.md). */
  'RATED_ROBOT',
  /** A challenge (or rematch) to a robot: robots answer no challenges; create the game with createGame. */
  'ROBOT_OPPONENT',
  /** createChallenge: the caller named themselves. */
  'CHALLENGE_SELF',
  /** No challenge has that id, or the caller is neither of its players. */
  'CHALLENGE_NOT_FOUND',
  /** The challenge is no longer open: accepted, declined, withdrawn or expired (details.status). */
  'CHALLENGE_CLOSED',
  /** Only the challenged player accepts or declines; only the challenger withdraws. */
  'NOT_YOUR_CHALLENGE',
  /** requestRematch: the caller did not play in the game. */
  'NOT_SEATED',
  /** requestRematch: the game has not ended. */
  'GAME_NOT_ENDED',
  /** requestRematch: the game already has an open rematch (details.challengeId). */
  'REMATCH_EXISTS',
  /** No pairing request of the caller's has that id. */
  'PAIRING_REQUEST_NOT_FOUND',
  /** createPairingRequest: the caller already has a request waiting (or offered a robot) in the category. */
  'PAIRING_EXISTS',
  /** The pairing request is no longer open: paired, withdrawn, or its robot taken (details.status). */
  'PAIRING_CLOSED',
  /** acceptRobotOffer: the request still waits for a player; a robot is offered when the wait ends. */
  'NO_ROBOT_OFFER',
  /** No player has that handle, or the account is deleted (details.field names the input). */
  'PLAYER_NOT_FOUND',
  /** An input is malformed or out of range (details.field names it). */
  'BAD_INPUT',
] as const;
export type LobbyServiceErrorCode = (typeof LOBBY_SERVICE_ERROR_CODES)[number];

export const lobbyFail = (code: LobbyServiceErrorCode, message: string, details: Record<string, unknown> = {}) =>
  err(ruleError(code, message, details));

export const MIN_DAYS_PER_MOVE = 1;
/** The engine's longest turn (clock.ts MAX_TURN_SECONDS, 14 days). */
export const MAX_DAYS_PER_MOVE = 14;
export const DEFAULT_DAYS_PER_MOVE = 3;
export const DEFAULT_EXPIRY_DAYS = 7;
export const MAX_EXPIRY_DAYS = 30;
/** Rating bounds a range may name: Glicko-2 ratings of real players stay well inside. */
export const RATING_FLOOR = 0;
export const RATING_CEILING = 4000;
export const DAY_MS = 86_400_000;

/** A correspondence game of `days` per move: no time bank, the engine's default pauses. */
/**
 * The state of a seek or a challenge as a reader sees it: its stored status, except that an open offer whose
 * expiry has passed reads as expired before anything writes that (the sweep, or nothing at all for a challenge).
 */
export const offerState = <S extends string>(offer: { readonly status: string; readonly expiresAt: Date }, now: Date): S | 'expired' =>
  offer.status === 'open' && offer.expiresAt.getTime() <= now.getTime() ? 'expired' : (offer.status as S);

export const correspondenceOf = (days: number): TimeControl => ({ kind: 'correspondence', turnSeconds: days * 86_400, bankSeconds: 0 });

/** A whole number in [min, max], else BAD_INPUT naming `field`. */
export const wholeIn = (field: string, value: number, min: number, max: number, unit: string): Result<number, RuleError> =>
  Number.isInteger(value) && value >= min && value <= max
    ? ok(value)
    : lobbyFail('BAD_INPUT', `${field} must be a whole number of ${unit} from ${min} to ${max}, not ${value}.`, { field, min, max });

/** The game settings an offer carries, checked as createGame would check them. */
export interface OfferSettings {
  readonly ruleSetId: string;
  readonly ruleOverrides: JsonObject;
  readonly lexiconName: string;
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  /** The rating category (engine/rating/categories.ts): the rule set's family at the offer's pace. */
  readonly category: string;
}

export interface OfferInput {
  readonly ruleSet?: string | null;
  readonly overrides?: unknown;
  readonly lexicon?: string | null;
  readonly timeControl?: TimeControl | null;
  readonly rated?: boolean | null;
  /** How the game is played (engine/rating/categories.ts): correspondence (default), or recorded at a table (a seek's). */
  readonly pace?: Pace | null;
}

/** The settings of an offer, or the error (UNKNOWN_PRESET, LEXICON_NOT_FOUND, a time control's, an override's) naming the field. */
export const offerSettings = async (deps: ServiceDeps, input: OfferInput): Promise<Result<OfferSettings, RuleError>> => {
  const rules = ruleSetFor(input.ruleSet, input.overrides);
  if (!rules.ok) return err({ ...rules.error, details: { field: 'ruleSet', ...rules.error.details } });
  const lexicon = await lexiconNamed(deps, input.lexicon);
  if (!lexicon.ok) return err({ ...lexicon.error, details: { field: 'lexicon', ...lexicon.error.details } });
  const tc = validateTimeControl(input.timeControl ?? { kind: 'untimed' });
  if (!tc.ok)
    return err({ ...tc.error, details: { ...tc.error.details, field: `timeControl.${String(tc.error.details?.['field'] ?? '')}` } });
  const category = categoryOf(rules.value.id, input.pace ?? 'correspondence');
  if (!category.ok) return category;
  return ok({
    ruleSetId: rules.value.id,
    ruleOverrides: (input.overrides ?? {}) as JsonObject,
    lexiconName: lexicon.value.name,
    timeControl: tc.value,
    rated: input.rated === true,
    category: category.value.id,
  });
};

/** The player's rating in `category`: their stored one, or a newcomer's initial rating (engine/rating/params.ts). */
export const currentRating = async (deps: ServiceDeps, playerId: string, category: string): Promise<number> =>
  (await ratingOf(deps.db.prisma, playerId, category)) ?? RATING_PARAMS.initial.rating;

/** A live (not deleted) player by id: the caller of a lobby use case. */
export const livePlayer = async (deps: ServiceDeps, playerId: string): Promise<Result<PlayerRow, RuleError>> => {
  const me = await findPlayerById(deps.db.prisma, playerId);
  if (!me || me.deletedAt) return lobbyFail('PLAYER_NOT_FOUND', 'The calling player no longer exists.', { playerId });
  return ok(me);
};

/**
 * The player an offer names (`field`), refused when it is the caller (CHALLENGE_SELF), a robot (RATED_ROBOT for a
 * rated offer, ROBOT_OPPONENT otherwise: a robot answers no challenge), unknown or deleted (PLAYER_NOT_FOUND).
 */
export const namedOpponent = async (
  deps: ServiceDeps,
  me: PlayerRow,
  handle: string,
  rated: boolean,
  field: string,
): Promise<Result<PlayerRow, RuleError>> => {
  const wanted = handle.trim().toLowerCase();
  if (isRobotHandle(wanted)) return robotRefusal(rated, field);
  const other = await findPlayerByHandle(deps.db.prisma, wanted);
  if (!other || other.deletedAt) return lobbyFail('PLAYER_NOT_FOUND', `No player has the handle "${handle}".`, { field, handle });
  if (other.id === me.id) return lobbyFail('CHALLENGE_SELF', 'You cannot challenge yourself: name another player.', { field });
  return ok(other);
};

export const robotRefusal = (rated: boolean, field: string) =>
  rated
    ? lobbyFail('RATED_ROBOT', 'Robots are not rated: a game against a robot is casual (rated: false).', { field })
    : lobbyFail('ROBOT_OPPONENT', 'A robot answers no challenge: create the game against it with createGame (opponent: "robot:equity").', {
        field,
      });
