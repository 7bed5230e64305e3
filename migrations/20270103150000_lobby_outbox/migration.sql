-- The lobby's announcements (issue 33, docs/lobby.md#announcements): a challenge received or answered, a seek
-- accepted, a pairing found. They go through the outbox like a game's or a tournament's events, written in
-- the transaction that makes or closes the offer, so the player stream, webhooks and notifications follow
-- them as they follow the rest. Such a row belongs to no game log (an accepted offer's game is named in the
-- payload; a challenge received has none yet) and to no tournament: it names its one recipient instead.
-- No foreign key: players are never removed (an erased account keeps its row, `players.deleted_at`), and
-- the outbox is an append-only record that must not stop a player's row from changing.
ALTER TABLE "outbox" ADD COLUMN "player_id" UUID;

-- A row announces an event of exactly one log (a game's or a tournament's), or is a lobby row addressed
-- to one player and tied to neither log.
ALTER TABLE "outbox" DROP CONSTRAINT "outbox_log_check";
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_log_check"
    CHECK (("game_id" IS NOT NULL AND "event_seq" IS NOT NULL AND "tournament_id" IS NULL AND "tournament_seq" IS NULL AND "player_id" IS NULL)
        OR ("game_id" IS NULL AND "event_seq" IS NULL AND "tournament_id" IS NOT NULL AND "tournament_seq" IS NOT NULL AND "player_id" IS NULL)
        OR ("game_id" IS NULL AND "event_seq" IS NULL AND "tournament_id" IS NULL AND "tournament_seq" IS NULL AND "player_id" IS NOT NULL));

-- A player's stream reads its lobby rows by recipient.
CREATE INDEX "outbox_player_id_id_idx" ON "outbox"("player_id", "id");

-- A webhook subscription may list the lobby's kinds (service/webhook-events.ts LOBBY_WEBHOOK_KINDS). The list
-- also gains `game-started`, which the service has offered since it was added but this check never allowed
-- (a subscription naming it failed on insert).
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_kinds_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_kinds_check"
    CHECK (COALESCE(cardinality("kinds"), 0) > 0 AND "kinds" <@ ARRAY['your-turn', 'game-started', 'game-ended', 'challenge-resolved',
        'dispute-filed', 'dispute-ruled', 'round-paired', 'result-recorded', 'slip-submitted', 'standings-changed',
        'challenge-received', 'challenge-answered', 'seek-accepted', 'pairing-found', 'robot-offered']::TEXT[]);
