import type { JsonObject } from '../store/json.js';
import { insertLobbyOutbox } from '../store/lobby.js';
import type { Tx } from './context.js';
import type { LobbyWebhookKind } from './webhook-events.js';

/**
 * The lobby's announcements (issue 33, docs/lobby.md#announcements): outbox rows written in the transaction
 * that makes or closes an offer, so the player's stream (`myEvents`, `GET /v1/me/events`), webhooks and
 * notifications tell of a challenge or an accepted seek only once it is committed. Each row is addressed to
 * one player (`outbox.player_id`) and carries only what both parties may see: ids, the other player's public
 * handle, the answer, the game started.
 */

export interface LobbyAnnouncement {
  /** The one player told. */
  readonly to: string;
  readonly kind: LobbyWebhookKind;
  /** The rest of the payload: `challengeId`, `seekId`, `requestId`, `gameId`, `answer`, `from` … */
  readonly data: JsonObject;
}

/** Writes the announcements in `tx`. */
export const announce = (tx: Tx, items: readonly LobbyAnnouncement[]): Promise<void> =>
  insertLobbyOutbox(
    tx,
    items.map((i) => ({ playerId: i.to, kind: i.kind, payload: { ...i.data, kind: i.kind, playerId: i.to } })),
  );
