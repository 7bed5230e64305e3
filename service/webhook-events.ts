import { err, ok, type Result } from '../engine/result.js';
import type { OutboxItem } from '../store/games.js';
import type { JsonObject, JsonValue } from '../store/json.js';
import { isUuid } from './ids.js';

/**
 * The webhook event vocabulary and the outbox payload contract between the game service (which writes
 * outbox rows inside `runTurn`) and the webhook sender (which reads them).
 */

export const WEBHOOK_EVENT_KINDS = [
  'your-turn',
  'game-started',
  'game-ended',
  'challenge-resolved',
  'dispute-filed',
  'dispute-ruled',
  'round-paired',
  'result-recorded',
  'slip-submitted',
  'standings-changed',
  'challenge-received',
  'challenge-answered',
  'seek-accepted',
  'pairing-found',
  'robot-offered',
] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** The kinds a tournament's log announces (issue 30); the rest announce a game's events. */
export const TOURNAMENT_WEBHOOK_KINDS = ['round-paired', 'result-recorded', 'slip-submitted', 'standings-changed'] as const;
export type TournamentWebhookKind = (typeof TOURNAMENT_WEBHOOK_KINDS)[number];
/** The kinds the lobby announces (issue 33, docs/lobby.md#announcements): each row names its one recipient. */
export const LOBBY_WEBHOOK_KINDS = ['challenge-received', 'challenge-answered', 'seek-accepted', 'pairing-found', 'robot-offered'] as const;
export type LobbyWebhookKind = (typeof LOBBY_WEBHOOK_KINDS)[number];
export type GameWebhookKind = Exclude<WebhookEventKind, TournamentWebhookKind | LobbyWebhookKind>;

export const isLobbyWebhookKind = (x: unknown): x is LobbyWebhookKind => (LOBBY_WEBHOOK_KINDS as readonly unknown[]).includes(x);

export const isTournamentWebhookKind = (x: unknown): x is TournamentWebhookKind =>
  (TOURNAMENT_WEBHOOK_KINDS as readonly unknown[]).includes(x);

export const isWebhookEventKind = (x: unknown): x is WebhookEventKind => (WEBHOOK_EVENT_KINDS as readonly unknown[]).includes(x);

/**
 * What an outbox row for a webhook holds in `payload` (its `kind` column equals `payload.kind`).
 *
 * - `kind`, `gameId`, `version` (the game's version after the turn that wrote the row): always.
 * - `seat`: for `your-turn`, required — the seat (0 or 1) now to move.
 * - `playerId`: for `your-turn`, optional — the player now to move; when absent, the player holding
 *   `seat` at fan-out time is notified.
 * - anything else (JSON) travels unchanged to the receiver in `data`: e.g. `deadlineAt` for `your-turn`,
 *   `turn` (the seat to move first) for `game-started`,
 *   `scores`/`winnerSeat`/`reason` for `game-ended`, `challengedSeat`/`valid`/`words` for
 *   `challenge-resolved`. A `game-ended` of a game in a match also carries `matchId` and `matchIndex`
 *   (0 = the first game); there is no separate match event — the match's status (`ended`, `aborted`) is
 *   stored in the same transaction, so a receiver reading the match then sees it.
 *
 * Who receives it: every active subscription (unrevoked API key) that lists the kind and whose owner holds
 * a seat in the game; for `your-turn` only the player to move.
 */
export interface WebhookOutboxPayload extends JsonObject {
  readonly kind: GameWebhookKind;
  readonly gameId: string;
  readonly version: number;
  readonly seat?: number;
  readonly playerId?: string;
}

/**
 * What an outbox row announcing a tournament's event holds (service/tournament-webhooks.ts writes it):
 *
 * - `kind`, `tournamentId`, `version` (the tournament's version after the command), `division`: always.
 * - `round`: the round concerned (all but some `standings-changed`).
 * - `entrants`: for `result-recorded` and `slip-submitted`, the game's two entrant numbers: only those two
 *   players hear it (and the directors); absent: every player of the division.
 * - anything else travels to the receiver in `data` (`players`, `scores`, `games` …).
 *
 * Who receives it: every active subscription listing the kind whose owner directs the tournament's event
 * (an organization director) or plays in the division (an entrant with an account), as narrowed by
 * `entrants`. Global directors and admins are not sent every event's tournaments.
 */
export interface TournamentWebhookPayload extends JsonObject {
  readonly kind: TournamentWebhookKind;
  readonly tournamentId: string;
  readonly version: number;
  readonly division: string;
  readonly round?: number;
  readonly entrants?: readonly number[];
}

/**
 * What a lobby row holds (service/lobby-events.ts writes it; its `player_id` column is `playerId`):
 *
 * - `kind`, `playerId` (the one recipient): always.
 * - `challengeId` (challenge-received, challenge-answered), `seekId` (seek-accepted), `requestId`
 *   (pairing-found, robot-offered); `gameId` once a game exists (an accepted challenge, seek-accepted, pairing-found);
 *   `answer` (challenge-answered: accepted, declined, withdrawn); `from` (the other player's handle).
 *
 * Who receives it: the recipient's active subscriptions listing the kind; nobody else.
 */
export interface LobbyWebhookPayload extends JsonObject {
  readonly kind: LobbyWebhookKind;
  readonly playerId: string;
  readonly gameId?: string;
}

/** Any log's webhook payload. */
export type AnyWebhookPayload = WebhookOutboxPayload | TournamentWebhookPayload | LobbyWebhookPayload;

/** Whether a payload announces a tournament's event (else a game's). */
export const isTournamentPayload = (p: AnyWebhookPayload): p is TournamentWebhookPayload => isTournamentWebhookKind(p.kind);

/** Whether a payload is the lobby's (addressed to one player, tied to no log). */
export const isLobbyPayload = (p: AnyWebhookPayload): p is LobbyWebhookPayload => isLobbyWebhookKind(p.kind);

/**
 * The outbox item the game service passes to `runTurn` (in `Decision.outbox`) or `createGame` to announce
 * a webhook event; `eventIndex` as in {@link OutboxItem} (default: the last event written).
 */
export const webhookOutboxItem = (payload: WebhookOutboxPayload, eventIndex?: number): OutboxItem =>
  eventIndex === undefined ? { kind: payload.kind, payload } : { kind: payload.kind, payload, eventIndex };

const isObject = (x: unknown): x is { readonly [key: string]: JsonValue | undefined } =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Checks a stored outbox row against the contract; the error is a sentence naming the field (it is kept
 * in the row's `last_error`, so a malformed row is set aside instead of blocking the queue).
 */
export const parseWebhookOutboxPayload = (row: {
  readonly kind: string;
  readonly gameId: string | null;
  readonly tournamentId?: string | null;
  readonly playerId?: string | null;
  readonly payload: unknown;
}): Result<AnyWebhookPayload, string> => {
  const p = row.payload;
  if (!isObject(p)) return err('payload must be a JSON object');
  if (p['kind'] !== row.kind) return err(`payload.kind must equal the row's kind "${row.kind}"`);
  if (isTournamentWebhookKind(row.kind)) return parseTournamentPayload(p, row.tournamentId ?? null);
  if (isLobbyWebhookKind(row.kind)) return parseLobbyPayload(p, row.playerId ?? null);
  if (row.gameId === null) return err(`a ${row.kind} row must name its game (game_id)`);
  if (typeof p['gameId'] !== 'string' || !isUuid(p['gameId']) || p['gameId'].toLowerCase() !== row.gameId.toLowerCase()) {
    return err(`payload.gameId must equal the row's game_id "${row.gameId}"`);
  }
  if (typeof p['version'] !== 'number' || !Number.isInteger(p['version']) || p['version'] < 0) {
    return err('payload.version must be a non-negative integer');
  }
  const seat = p['seat'];
  if (seat !== undefined && seat !== 0 && seat !== 1) return err('payload.seat must be 0 or 1');
  if (row.kind === 'your-turn' && seat === undefined) return err('payload.seat is required for your-turn');
  const playerId = p['playerId'];
  if (playerId !== undefined && (typeof playerId !== 'string' || !isUuid(playerId))) return err('payload.playerId must be a player uuid');
  return ok(p as WebhookOutboxPayload);
};

const isCount = (x: unknown, min: number): boolean => typeof x === 'number' && Number.isInteger(x) && x >= min;

const parseTournamentPayload = (
  p: { readonly [key: string]: JsonValue | undefined },
  tournamentId: string | null,
): Result<TournamentWebhookPayload, string> => {
  const id = p['tournamentId'];
  if (tournamentId === null || typeof id !== 'string' || !isUuid(id) || id.toLowerCase() !== tournamentId.toLowerCase())
    return err(`payload.tournamentId must equal the row's tournament_id "${tournamentId ?? ''}"`);
  if (!isCount(p['version'], 1)) return err('payload.version must be a positive integer');
  if (typeof p['division'] !== 'string' || p['division'] === '') return err('payload.division must name a division');
  if (p['round'] !== undefined && !isCount(p['round'], 1)) return err('payload.round must be a round number (1, 2, …)');
  const entrants = p['entrants'];
  if (entrants !== undefined && (!Array.isArray(entrants) || !entrants.every((e) => isCount(e, 1))))
    return err('payload.entrants must list entrant numbers (1, 2, …)');
  return ok(p as TournamentWebhookPayload);
};

const parseLobbyPayload = (
  p: { readonly [key: string]: JsonValue | undefined },
  playerId: string | null,
): Result<LobbyWebhookPayload, string> => {
  const to = p['playerId'];
  if (playerId === null || typeof to !== 'string' || !isUuid(to) || to.toLowerCase() !== playerId.toLowerCase())
    return err(`payload.playerId must equal the row's player_id "${playerId ?? ''}"`);
  const game = p['gameId'];
  if (game !== undefined && (typeof game !== 'string' || !isUuid(game))) return err('payload.gameId must be a game uuid');
  return ok(p as LobbyWebhookPayload);
};

/**
 * Links to the game's pictures (issue 20), added to a delivery's `data.links` when the sender knows the
 * server's public address (`ARBITER_PUBLIC_URL`): the board as PNG and SVG at the event's version, and
 * for `game-ended` the replay. A game in play is private, so the receiver fetches them with its API key
 * (`Authorization: Bearer arb_…`, scope games:read) and sees its owner's view; a finished game's
 * pictures are public.
 */
export const pictureLinks = (
  payload: Pick<WebhookOutboxPayload, 'kind' | 'gameId' | 'version'>,
  publicBaseUrl: string,
): Record<string, string> => {
  const game = `${publicBaseUrl.replace(/\/+$/, '')}/v1/games/${encodeURIComponent(payload.gameId)}`;
  return {
    board: `${game}/board.png?version=${payload.version}`,
    boardSvg: `${game}/board.svg?version=${payload.version}`,
    ...(payload.kind === 'game-ended' ? { replay: `${game}/replay.gif` } : {}),
  };
};
