-- A player's own event stream and stream presence (docs/live.md, issue 31).
--
-- Every insert into the outbox (each written in the transaction of the game or tournament event it
-- announces) wakes the processes that stream `myEvents`: `pg_notify('arbiter_outbox', '<schema>')`,
-- delivered at commit and folded into one per transaction. The payload names only the schema: a stream
-- re-reads the outbox past the last id it sent, so a notification needs nothing else and a lost one
-- loses no event.
CREATE OR REPLACE FUNCTION "arbiter_notify_outbox"() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('arbiter_outbox', TG_TABLE_SCHEMA);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "outbox_notify"
  AFTER INSERT ON "outbox"
  FOR EACH ROW EXECUTE FUNCTION "arbiter_notify_outbox"();

-- One row per open game stream of a seated player (service/presence.ts): inserted when the stream opens,
-- `seen_at` refreshed at each heartbeat, deleted at close. A process that dies leaves its rows behind;
-- they go stale (seen_at older than two heartbeats) instead of claiming the player is watching.
CREATE TABLE "stream_presence" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "player_id" UUID NOT NULL,
    "game_id" UUID NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_presence_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "stream_presence_player_id_game_id_seen_at_idx" ON "stream_presence"("player_id", "game_id", "seen_at");

ALTER TABLE "stream_presence" ADD CONSTRAINT "stream_presence_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "stream_presence" ADD CONSTRAINT "stream_presence_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
